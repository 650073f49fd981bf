// Bad rigid bodies fail early with INVALID_PARAM errors that name the object and the field: at
// the liquid family's compileSetup (the scene as the bake reads it) and again at the solver's
// own input validation (for callers that build a LiquidSetup themselves). Open or flat body
// meshes, a relative density of 0 or below, a body whose centre starts inside an obstacle.
// (The bake runner's side, with its cache, is tests/unit/bake/rigidBake.test.ts.)
import { describe, expect, it } from 'vitest'
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument, SceneObject } from '../../../src-shared/scene/types'
import { liquidFamily } from '../../../src-shared/sim/liquid/family'
import type { RigidBodySetup } from '../../../src-shared/sim/liquid/rigidInput'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { tankScene } from './scenes'
import { errorOf } from '../../fixtures/errorOf'


/** Unit cube corners and its 12 outward triangles; `open` drops the +z face's pair. */
const CUBE_V = [-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5]
const CUBE_T = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3]
const mesh = (v: number[], t: number[]): TriMesh => ({ positions: Float32Array.from(v), indices: Uint32Array.from(t) })
const MESHES: Record<string, TriMesh> = {
  closed: mesh(CUBE_V, CUBE_T),
  open: mesh(CUBE_V, CUBE_T.slice(0, 30)),
  // The same 12 triangles with every y squashed to 0: still closed (each edge used both
  // ways), but it encloses no volume.
  flat: mesh(CUBE_V.map((x, i) => (i % 3 === 1 ? 0 : x)), CUBE_T),
  // A closed cube whose vertices sit 0.6 m to +x of the object's origin (its centre of mass too).
  offset: mesh(CUBE_V.map((x, i) => (i % 3 === 0 ? x + 0.6 : x)), CUBE_T),
}
const resolveMesh = (id: string) => MESHES[id]

/** A 16-cell tank of water 0.3 m deep with one 0.2 m ball ("Ball") at y = 0.6. */
function tank(ball: Record<string, unknown> = {}, extra: SceneObject[] = [], meshId?: string): SceneDocument {
  const doc = tankScene({ resolution: 16, size: [1, 1, 1], waterLevel: 0.3, bodies: [{ id: 'ball', shape: 'sphere', position: [0, 0.6, 0], scale: [0.2, 0.2, 0.2], relativeDensity: 2 }] })
  const body = doc.objects.find((o) => o.id === 'ball')!
  body.name = 'Ball'
  Object.assign(body.params, ball)
  if (meshId) body.meshId = meshId
  doc.objects.push(...extra)
  doc.meshes = Object.entries(MESHES).map(([id, m]) => ({ id, name: id, format: 'obj', vertexCount: m.positions.length / 3, triangleCount: m.indices.length / 3, bounds: { min: [-0.5, -0.5, -0.5], max: [1.1, 0.5, 0.5] } }))
  return doc
}

const rock = (position: [number, number, number], scale: [number, number, number]) => sceneObject('rock', 'obstacle', 'Rock', { shape: 'box', position, scale })

const compile = (doc: SceneDocument) => liquidFamily.compileSetup(doc, 'domain', { resolveMesh })

describe('rigid bodies refused at compile time, by name', () => {
  it.each<[string, () => SceneDocument, string, RegExp]>([
    ['relative density 0', () => tank({ relativeDensity: 0 }), 'relativeDensity', /Rigid body "Ball": Relative density must be between 0\.1 and 20 \(got 0\)/],
    ['relative density below 0', () => tank({ relativeDensity: -2 }), 'relativeDensity', /Rigid body "Ball": Relative density .*\(got -2\)/],
    ['an open (non-watertight) mesh', () => tank({ shape: 'mesh' }, [], 'open'), 'meshId', /Rigid body "Ball": its mesh is not closed \(it has holes or open edges\)/],
    ['a closed mesh with zero volume', () => tank({ shape: 'mesh' }, [], 'flat'), 'meshId', /Rigid body "Ball": its mesh encloses no volume/],
    ['a ball whose centre is inside an obstacle', () => tank({}, [rock([0.05, 0.6, 0], [0.4, 0.3, 0.4])]), 'position', /Rigid body "Ball" starts inside obstacle "Rock": move it out of the obstacle/],
    // Origin outside the rock, but the mesh (and its centre of mass) 0.6 m to +x, inside it.
    ['a mesh body whose centre of mass is inside an obstacle', () => tank({ shape: 'mesh', scale: [0.2, 0.2, 0.2], position: [-0.2, 0.6, 0] }, [rock([0, 0.6, 0], [0.2, 0.2, 0.2])], 'offset'), 'position', /"Ball" starts inside obstacle "Rock"/],
  ])('%s', (_label, make, field, message) => {
    const e = errorOf(() => compile(make()))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details).toMatchObject({ objectId: 'ball', field })
    expect(e.message).toMatch(message)
  })

  it('accepts the same bodies set right: a closed mesh, density 11, a ball resting on the rock with its centre outside it', () => {
    expect(compile(tank({ shape: 'mesh', scale: [0.2, 0.2, 0.2] }, [], 'closed')).setup.rigidBodies).toHaveLength(1)
    expect(compile(tank({ relativeDensity: 11 })).setup.rigidBodies?.[0].relativeDensity).toBe(11)
    // Rock top at y = 0.55; the ball's bottom at 0.5 dips 5 cm into it, its centre does not.
    expect(compile(tank({}, [rock([0, 0.45, 0], [0.4, 0.2, 0.4])])).setup.rigidBodies).toHaveLength(1)
  })
})

describe('rigid body setups refused by the liquid solver', () => {
  const good = compile(tank({ shape: 'mesh', scale: [0.2, 0.2, 0.2] }, [], 'closed')).setup
  const body = good.rigidBodies![0]
  const withBody = (b: Partial<RigidBodySetup>) => ({ ...good, rigidBodies: [{ ...body, ...b }] })

  it.each<[string, Partial<RigidBodySetup>, string]>([
    ['relative density 0', { relativeDensity: 0 }, 'relativeDensity'],
    ['relative density below 0', { relativeDensity: -1 }, 'relativeDensity'],
    ['relative density NaN', { relativeDensity: NaN }, 'relativeDensity'],
    ['relative density Infinity', { relativeDensity: Infinity }, 'relativeDensity'],
    ['an open mesh', { mesh: MESHES.open }, 'meshId'],
    ['a flat closed mesh', { mesh: MESHES.flat }, 'meshId'],
    ['an inside-out mesh', { mesh: mesh(CUBE_V, CUBE_T.map((_, i) => CUBE_T[i - (i % 3) + [0, 2, 1][i % 3]])) }, 'meshId'],
    ['shape Mesh without a mesh', { mesh: null }, 'meshId'],
  ])('%s', (_label, override, field) => {
    const e = errorOf(() => new LiquidSolver(withBody(override)))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details).toMatchObject({ objectId: 'ball', field })
    expect(e.message).toMatch(/^Rigid body "Ball": /)
  })

  it('a body inside an obstacle of the first step is refused before anything moves', () => {
    // Built directly (no compile-time check), stepped with the rock's input.
    const doc = tank({}, [rock([0, 0.6, 0], [0.4, 0.4, 0.4])])
    const setup = compile(tank()).setup
    const solver = new LiquidSolver(setup)
    const before = solver.frame()
    const input = liquidFamily.compileInput(doc, 'domain', compile(tank()), 1)
    const e = errorOf(() => solver.step(input.frameDt, input))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details).toMatchObject({ objectId: 'ball', field: 'position', obstacleId: 'rock' })
    expect(e.message).toBe('Rigid body "Ball" starts inside obstacle "Rock": move it out of the obstacle')
    expect(solver.time).toBe(0)
    expect(solver.frame().rigidBodies?.[0].position).toEqual(before.rigidBodies?.[0].position)
  })
})

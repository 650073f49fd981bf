// Rigid bodies through the bake path: a liquid domain with a ball is baked, then the ball is
// made bad in the project file (an open or flat mesh, a relative density of 0 or below, its
// centre inside an obstacle), as a damaged file or a script could leave it. Each re-bake is
// refused with INVALID_PARAM naming the body and the field before the cache is touched: the
// frames and checkpoints already cached stay byte for byte, and the bake stays 'done'. The
// scene's own validation refuses the density before it ever reaches the file.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addObjectEdit, updateObjectEdit } from '../../../src-main/app/edits'
import { runBake, type BakeMode } from '../../../src-main/bake/runner'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { defaultParams } from '../../../src-shared/scene/defaults'
import { validateParams } from '../../../src-shared/scene/validate'
import type { SceneObject } from '../../../src-shared/scene/types'
import { tempDir } from './bakeFixtures'

const dir = tempDir('eddy-rigid-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function obj(id: string, kind: SceneObject['kind'], name: string, params: SceneObject['params'], extra: Partial<SceneObject> = {}): SceneObject {
  return { id, kind, name, params: { ...defaultParams(kind), ...params }, ...extra }
}

const domain = obj('domain', 'domain', 'Tank', { solver: 'liquid', resolution: 10, position: [0, 0.5, 0], size: [1, 1, 1], meshSurface: false, checkpointEvery: 2 })
const pool = obj('pool', 'emitter', 'Pool', { fluid: 'liquid', behavior: 'geometry', shape: 'box', position: [0, 0.15, 0], scale: [1, 0.3, 1], velocity: [0, 0, 0] })
const ball = obj('ball', 'rigidBody', 'Lead ball', { shape: 'sphere', position: [0, 0.6, 0], scale: [0.2, 0.2, 0.2], relativeDensity: 11 })

// A unit cube (closed), the cube without its +z face (open), and the cube squashed flat (closed, no volume).
const V = [-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5]
const T = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3]
const MESHES = [
  { id: 'closed', positions: V, indices: T },
  { id: 'open', positions: V, indices: T.slice(0, 30) },
  { id: 'flat', positions: V.map((x, i) => (i % 3 === 1 ? 0 : x)), indices: T },
]

const FRAMES = 4
let file = ''

interface Snapshot {
  frames: Map<number, string>
  checkpoints: string[]
  state: string | undefined
}

function snapshot(): Snapshot {
  const store = ProjectStore.open(file)
  try {
    const frames = new Map(store.cache.frames('domain').map((r) => [r.frame, Buffer.from(store.cache.readFrame('domain', r.frame)).toString('base64')]))
    const checkpoints = store.cache.checkpoints('domain').map((c) => `${c.frame}:${Buffer.from(store.cache.readCheckpoint('domain', c.frame)).toString('base64')}`)
    return { frames, checkpoints, state: store.cache.bake('domain')?.state }
  } finally {
    store.close()
  }
}

function replaceObjects(objects: SceneObject[], remove: string[] = []): void {
  const store = ProjectStore.open(file)
  store.apply({ objects: [...objects.map((o) => ({ id: o.id, after: o })), ...remove.map((id) => ({ id, after: null }))] })
  store.close()
}

beforeAll(async () => {
  file = path.join(dir, 'lead.eddy')
  const store = ProjectStore.create(file, { name: 'lead', fps: 24, frameStart: 1, frameEnd: FRAMES })
  for (const m of MESHES) {
    store.insertMesh({ id: m.id, name: m.id, format: 'obj', vertexCount: m.positions.length / 3, triangleCount: m.indices.length / 3, bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] } }, new Float32Array(m.positions), new Uint32Array(m.indices))
  }
  store.apply({ objects: [domain, pool, ball].map((o) => ({ id: o.id, after: o })) })
  store.close()
  const r = await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })
  expect(r).toMatchObject({ state: 'done', framesWritten: FRAMES })
}, 120_000)

describe('rigid bodies in a liquid bake', () => {
  it('caches the body in every frame, falling', () => {
    const store = ProjectStore.open(file)
    const first = decodeFrame(store.cache.readFrame('domain', 1)).rigidBodies?.[0]
    const last = decodeFrame(store.cache.readFrame('domain', FRAMES)).rigidBodies?.[0]
    store.close()
    expect(first).toMatchObject({ id: 'ball', name: 'Lead ball' })
    expect(first!.position[1]).toBeCloseTo(0.6, 3)
    // Dry for the first frames: free fall, 1/2 g t^2 = 0.038 m over 3 frames at 24 fps.
    expect(last!.position[1]).toBeLessThan(0.6 - 0.02)
  })

  it.each<[string, () => void, string, RegExp, BakeMode]>([
    ['an open (non-watertight) body mesh', () => replaceObjects([{ ...ball, params: { ...ball.params, shape: 'mesh' }, meshId: 'open' }]), 'meshId', /^Rigid body "Lead ball": its mesh is not closed/, 'bake'],
    ['a closed body mesh with zero volume', () => replaceObjects([{ ...ball, params: { ...ball.params, shape: 'mesh' }, meshId: 'flat' }]), 'meshId', /^Rigid body "Lead ball": its mesh encloses no volume/, 'bake'],
    ['a relative density of 0', () => replaceObjects([{ ...ball, params: { ...ball.params, relativeDensity: 0 } }]), 'relativeDensity', /^Rigid body "Lead ball": Relative density must be between 0\.1 and 20 \(got 0\)$/, 'bake'],
    ['a relative density below 0 (range re-bake)', () => replaceObjects([{ ...ball, params: { ...ball.params, relativeDensity: -3 } }]), 'relativeDensity', /^Rigid body "Lead ball": Relative density .*\(got -3\)$/, 'range'],
    ['a body inside an obstacle', () => replaceObjects([obj('rock', 'obstacle', 'Rock', { shape: 'box', position: [0, 0.6, 0], scale: [0.4, 0.4, 0.4] })]), 'position', /^Rigid body "Lead ball" starts inside obstacle "Rock": move it out of the obstacle$/, 'bake'],
    ['a body inside an obstacle (resume)', () => replaceObjects([obj('rock', 'obstacle', 'Rock', { shape: 'box', position: [0, 0.6, 0], scale: [0.4, 0.4, 0.4] })]), 'position', /starts inside obstacle "Rock"/, 'resume'],
  ])('%s: refused by name, and nothing cached is lost', async (_label, breakIt, field, message, mode) => {
    const before = snapshot()
    expect(before.frames.size).toBe(FRAMES)
    expect(before.state).toBe('done')
    breakIt()
    try {
      const err = await runBake({ projectPath: file, domainId: 'domain', mode, kernels: 'ts', ...(mode === 'resume' ? { from: 2 } : {}) }).catch((e: unknown) => e)
      expect(err).toMatchObject({ code: 'INVALID_PARAM', details: { objectId: 'ball', field } })
      expect((err as Error).message).toMatch(message)
      const after = snapshot()
      expect([...after.frames.keys()]).toEqual([...before.frames.keys()])
      for (const [f, bytes] of before.frames) expect(after.frames.get(f)).toBe(bytes)
      expect(after.checkpoints).toEqual(before.checkpoints)
      expect(after.state).toBe('done')
    } finally {
      replaceObjects([ball], ['rock'])
    }
  }, 60_000)

  it('the scene refuses a relative density of 0 or below before it reaches the file', () => {
    const store = ProjectStore.open(file)
    const doc = store.readDocument()
    store.close()
    for (const bad of [0, -1, 0.05]) {
      expect(validateParams('rigidBody', { ...ball.params, relativeDensity: bad })).toEqual([
        { path: 'relativeDensity', message: `Relative density must be between 0.1 and 20 (got ${bad})` },
      ])
      expect(() => updateObjectEdit(doc, 'ball', { params: { relativeDensity: bad } })).toThrow(`Cannot change Lead ball: Relative density must be between 0.1 and 20 (got ${bad})`)
      expect(() => addObjectEdit(doc, 'b2', 'rigidBody', { params: { relativeDensity: bad } })).toThrow(/Cannot add Rigid body: Relative density must be between/)
    }
    // ... and a file that holds one anyway is named as damaged when opened in the app.
    replaceObjects([{ ...ball, params: { ...ball.params, relativeDensity: 0 } }])
    try {
      expect(() => ProjectStore.openChecked(file)).toThrow(/object "Lead ball" \(id ball\): Relative density must be between 0\.1 and 20 \(got 0\)/)
    } finally {
      replaceObjects([ball])
    }
  })
})

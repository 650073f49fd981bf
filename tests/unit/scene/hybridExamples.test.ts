// The hybrid-mesh smoke examples (Feldman, O'Brien and Klingner 2005, Figures 4-7): the meshes
// they make from distance functions (geometry/sdfMesh.ts) are closed and face outward, and
// each example bakes two frames at a coarse resolution through createBakeSolver (what the bake
// runner steps), emitting smoke into a mesh with tetrahedra round its obstacles.
import { describe, expect, it } from 'vitest'
import { signedVolume } from '../../../src-shared/geometry/sdfMesh'
import { findExample } from '../../../src-shared/scene/examples'
import { evaluateObject } from '../../../src-shared/scene/keyframes'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { hybridFamily } from '../../../src-shared/sim/hybrid/family'

const IDS = ['hybrid-ramp-jet', 'hybrid-glass', 'hybrid-desk-toy', 'hybrid-corkscrew']
/** Coarse: at most 16³ cubes, so each two-frame bake takes about a second. */
const RESOLUTION = 16

function build(id: string) {
  const e = findExample(id)
  if (!e) throw new Error(`no example ${id}`)
  const scene = e.build({ resolution: RESOLUTION })
  return { ...scene, resolveMesh: (meshId: string) => scene.meshes.find((m) => m.id === meshId) }
}

/**
 * Edges not shared by exactly two triangles running opposite ways, counted by vertex index
 * (marching cubes shares one vertex per crossed grid edge, so a closed surface closes by index).
 */
function badEdges(indices: Uint32Array, vertexCount: number): number {
  const directed = new Map<number, number>()
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const key = indices[t + e] * vertexCount + indices[t + ((e + 1) % 3)]
      directed.set(key, (directed.get(key) ?? 0) + 1)
    }
  }
  let bad = 0
  for (const [key, uses] of directed) {
    const a = Math.floor(key / vertexCount), b = key % vertexCount
    if (uses !== 1 || directed.get(b * vertexCount + a) !== 1) bad++
  }
  return bad
}

describe('hybrid-mesh smoke examples', () => {
  it('are listed with the paper figure they show', () => {
    for (const id of IDS) expect(findExample(id)?.description, id).toMatch(/Feldman 2005, Fig\. [4-7]/)
  })

  for (const id of IDS) {
    it(`${id}: its meshes are closed, consistently oriented, outward and modest`, () => {
      const { doc, meshes } = build(id)
      expect(doc.meshes.map((m) => m.id).sort()).toEqual(meshes.map((m) => m.id).sort())
      for (const m of meshes) {
        const triangles = m.indices.length / 3
        expect(badEdges(m.indices, m.positions.length / 3), m.id).toBe(0)
        expect(signedVolume(m.positions, m.indices), m.id).toBeGreaterThan(0)
        expect(triangles, m.id).toBeGreaterThan(5_000)
        expect(triangles, m.id).toBeLessThan(45_000)
        for (const o of doc.objects.filter((x) => x.meshId === m.id)) expect(o.params.shape, o.name).toBe('mesh')
      }
    })

    it(`${id}: bakes two frames with smoke emitted and tetrahedra round the obstacles`, () => {
      const { doc, resolveMesh } = build(id)
      const solver = createBakeSolver(doc, 'domain', { resolveMesh })
      expect(solver.family).toBe('hybrid')
      solver.stepFrame(1)
      solver.stepFrame(2)
      const frame = solver.frame()
      const density = frame.volumes.find((v) => v.name === 'density')!
      let total = 0
      for (const d of density.data) total += d
      expect(total).toBeGreaterThan(0)
      expect(frame.stats.tetrahedra).toBeGreaterThan(0)
      expect(frame.stats.hexahedra).toBeGreaterThan(0)
      // The estimate (no meshing) bounds the cells from above, mesh obstacles sized by their mesh info.
      const est = hybridFamily.estimate({ doc, hostId: 'domain', frames: 2, precision: 'float16', checkpointEvery: 10 })
      expect(est.cells).toBeGreaterThanOrEqual(frame.stats.tetrahedra + frame.stats.hexahedra)
      if (id === 'hybrid-desk-toy') expect(frame.particles.find((p) => p.name === 'trackers')?.count ?? 0).toBeGreaterThan(0)
    }, 30_000)
  }

  it('hybrid-desk-toy: the fills act at the start only, with no velocity, cold above and hot below', () => {
    const { doc } = build('hybrid-desk-toy')
    const ambient = doc.objects.find((o) => o.id === 'domain')!.params.ambientTemperature as number
    const fills = doc.objects.filter((o) => o.kind === 'emitter')
    expect(fills.map((o) => o.id).sort()).toEqual(['dense', 'light'])
    for (const o of fills) {
      const start = evaluateObject(o, doc.tracks, 1), later = evaluateObject(o, doc.tracks, 4)
      expect(start.rate, o.id).toBeGreaterThan(0)
      expect(start.trackerRate, o.id).toBeGreaterThan(0)
      expect(later.rate, o.id).toBe(0)
      expect(later.trackerRate, o.id).toBe(0)
      expect(o.params.velocity).toEqual([0, 0, 0])
    }
    const [dense, light] = ['dense', 'light'].map((id) => fills.find((o) => o.id === id)!.params)
    expect(dense.temperature as number).toBeLessThan(ambient)
    expect(light.temperature as number).toBeGreaterThan(ambient)
    expect((dense.position as number[])[1]).toBeGreaterThan((light.position as number[])[1])
  })
})

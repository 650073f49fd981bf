// The hybrid-mesh smoke's examples (src-shared/scene/examples/hybridGases.ts): the procedural
// obstacle meshes (glass, desk-toy vessel, open cylinder, corkscrew, from signed distances by
// geometry/sdfMesh.ts) are closed and consistently oriented with positive volume, and every
// example bakes two frames at a small resolution with smoke emitted and tetrahedra in its mesh.
import { describe, expect, it } from 'vitest'
import { corkscrewMesh, corkscrewScene, deskToyMesh, deskToyScene, glassMesh, glassScene, rampJetScene, tubeMesh } from '../../../src-shared/scene/examples/hybridGases'
import type { ExampleMesh, ExampleScene } from '../../../src-shared/scene/examples/types'
import { createBakeSolver } from '../../../src-shared/sim/registry'

/** Every edge used once in each direction; the signed volume (divergence theorem) returned. */
function closedVolume(m: ExampleMesh): number {
  const { positions: p, indices: t } = m
  const edges = new Map<string, number>()
  let volume = 0
  for (let i = 0; i < t.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const a = t[i + k], b = t[i + ((k + 1) % 3)]
      const key = `${a},${b}`
      edges.set(key, (edges.get(key) ?? 0) + 1)
    }
    const [a, b, c] = [3 * t[i], 3 * t[i + 1], 3 * t[i + 2]]
    volume += (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6
  }
  for (const [key, n] of edges) {
    expect(n, key).toBe(1)
    const [a, b] = key.split(',')
    expect(edges.get(`${b},${a}`), `edge ${key} has no opposite`).toBe(1)
  }
  return volume
}

describe('hybrid-mesh smoke examples', () => {
  it.each([['glass', glassMesh], ['desk-toy vessel', deskToyMesh], ['open cylinder', tubeMesh], ['corkscrew', corkscrewMesh]] as const)('the %s mesh is closed, oriented outwards, 5k-40k triangles', (_name, make) => {
    const m = make()
    expect(closedVolume(m)).toBeGreaterThan(0)
    expect(m.indices.length / 3).toBeGreaterThan(5000)
    expect(m.indices.length / 3).toBeLessThan(40000)
  })

  it.each([['hybrid-ramp-jet', rampJetScene], ['hybrid-glass', glassScene], ['hybrid-desk-toy', deskToyScene], ['hybrid-corkscrew', corkscrewScene]] as const)('%s bakes two frames at resolution 16: smoke emitted, tetrahedra in the mesh', (_id, build) => {
    const { doc, meshes }: ExampleScene = build({ resolution: 16 })
    const resolveMesh = (id: string) => meshes.find((m) => m.id === id)
    const solver = createBakeSolver(doc, doc.objects.find((o) => o.kind === 'domain')!.id, { resolveMesh })
    solver.stepFrame(1)
    solver.stepFrame(2)
    const f = solver.frame()
    let smoke = 0
    for (const v of f.volumes.find((q) => q.name === 'density')!.data) smoke += v
    expect(smoke).toBeGreaterThan(0)
    expect(f.stats.tetrahedra).toBeGreaterThan(0)
    expect(f.stats.hexahedra).toBeGreaterThan(0)
  })
})

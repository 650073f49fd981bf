// A few frames of every example's every domain at a tiny resolution, through createBakeSolver
// (what the bake runner steps): each makes marker particles inside its own domain and a closed
// surface mesh, and the bunny's head warms under the lamp while its feet stay cold.
import { describe, expect, it } from 'vitest'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { EXAMPLES } from '../../../src-shared/scene/examples'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import type { FrameData } from '../../../src-shared/sim/frame'

/** Coarse but enough cells across the thinnest liquid (the toothpaste nozzle is 14 cm). */
const RESOLUTION: Record<string, number> = { 'melting-bunny': 16, toothpaste: 24, 'viscosity-pour': 12, 'dam-break': 14 }
const FRAMES = 3

function bake(id: string): { domain: string; frame: FrameData; bounds: { min: number[]; max: number[] } }[] {
  const e = EXAMPLES.find((x) => x.id === id)!
  const { doc, meshes } = e.build({ resolution: RESOLUTION[id] })
  return doc.objects
    .filter((o) => o.kind === 'domain')
    .map((d) => {
      const solver = createBakeSolver(doc, d.id, { resolveMesh: (m) => meshes.find((x) => x.id === m) })
      for (let f = 1; f <= FRAMES; f++) solver.stepFrame(f)
      // Within a cell of the box: markers may sit on a wall face; another domain's liquid is metres away.
      const p = d.params.position as number[], s = d.params.size as number[]
      const cell = Math.max(...s) / RESOLUTION[id]
      return { domain: d.name, frame: solver.frame(), bounds: { min: p.map((v, i) => v - s[i] / 2 - cell), max: p.map((v, i) => v + s[i] / 2 + cell) } }
    })
}

describe('example bakes (tiny resolution, 3 frames)', () => {
  for (const e of EXAMPLES) {
    it(`${e.id}: particles inside the domain and a closed surface mesh`, () => {
      for (const { domain, frame, bounds } of bake(e.id)) {
        const ps = frame.particles[0]
        expect(ps?.count ?? 0, domain).toBeGreaterThan(0)
        for (let q = 0; q < ps.count; q++) {
          for (let a = 0; a < 3; a++) {
            const v = ps.positions[3 * q + a]
            expect(v >= bounds.min[a] && v <= bounds.max[a], `${domain} particle ${q} axis ${a} at ${v}`).toBe(true)
          }
        }
        const mesh = frame.meshes[0]
        expect(mesh, domain).toBeDefined()
        expect(mesh.indices.length, domain).toBeGreaterThan(0)
        expect(isClosedSurface({ positions: mesh.positions, indices: mesh.indices }), domain).toBe(true)
      }
    }, 30_000)
  }

  it('melting-bunny: the lamp warms the head while the feet stay at the starting 295 K', () => {
    const [{ frame }] = bake('melting-bunny')
    const ps = frame.particles[0]
    const temp = ps.attributes.temperature.data
    let headMax = 0, feetMax = 0
    for (let q = 0; q < ps.count; q++) {
      const y = ps.positions[3 * q + 1]
      if (y > 0.4) headMax = Math.max(headMax, temp[q])
      if (y < 0.1) feetMax = Math.max(feetMax, temp[q])
    }
    // 3 frames at 2/s towards 420 K: about 1 - exp(-0.25) of the way, ~ +28 K at the lamp.
    expect(headMax).toBeGreaterThan(310)
    expect(feetMax).toBeLessThan(300)
  }, 30_000)
})

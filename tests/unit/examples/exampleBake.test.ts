// A few frames of every example's every domain at a tiny resolution, through createBakeSolver
// (what the bake runner steps): each makes marker particles inside its own domain and a closed
// surface mesh, every rigid body stays inside its domain, the bunny's head warms under the lamp
// while its feet stay cold, and the rigid body examples start as their figures do.
import { describe, expect, it } from 'vitest'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { EXAMPLES } from '../../../src-shared/scene/examples'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import type { FrameData } from '../../../src-shared/sim/frame'

/** Coarse but enough cells across the thinnest liquid (the toothpaste nozzle is 14 cm). */
const RESOLUTION: Record<string, number> = {
  'melting-bunny': 16,
  toothpaste: 24,
  'viscosity-pour': 12,
  'dam-break': 14,
  'lead-and-wood': 16,
  'gears-and-bunnies': 17,
  'block-catapult': 24,
}
const FRAMES = 3

interface Baked {
  domain: string
  frame: FrameData
  /** The first frame (the scene as set up), for the rigid bodies' starting states. */
  first: FrameData
  bounds: { min: number[]; max: number[] }
}

function bake(id: string): Baked[] {
  const e = EXAMPLES.find((x) => x.id === id)!
  const { doc, meshes } = e.build({ resolution: RESOLUTION[id] })
  return doc.objects
    .filter((o) => o.kind === 'domain')
    .map((d) => {
      const solver = createBakeSolver(doc, d.id, { resolveMesh: (m) => meshes.find((x) => x.id === m) })
      const first = solver.frame()
      for (let f = 1; f <= FRAMES; f++) solver.stepFrame(f)
      // Within a cell of the box: markers may sit on a wall face; another domain's liquid is metres away.
      const p = d.params.position as number[], s = d.params.size as number[]
      const cell = Math.max(...s) / RESOLUTION[id]
      return { domain: d.name, frame: solver.frame(), first, bounds: { min: p.map((v, i) => v - s[i] / 2 - cell), max: p.map((v, i) => v + s[i] / 2 + cell) } }
    })
}

/** Examples whose simulations are liquid domains (the surface-flow examples are checked below). */
const LIQUID_EXAMPLES = EXAMPLES.filter((e) => e.id in RESOLUTION)

describe('example bakes (tiny resolution, 3 frames)', () => {
  it('every example is baked here: liquids below, surface flows and smoke at the end (the hybrid-mesh smoke\'s in scene/hybridExamples.test.ts)', () => {
    expect(EXAMPLES.filter((e) => !(e.id in RESOLUTION)).map((e) => e.id)).toEqual(['painted-torus', 'pattern-double-torus', 'vortex-plume', 'moving-wake', 'tet-wave', 'tet-spray', 'tet-dam-break', 'hybrid-ramp-jet', 'hybrid-glass', 'hybrid-desk-toy', 'hybrid-corkscrew'])
  })

  for (const e of LIQUID_EXAMPLES) {
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
        // Rigid bodies: one state per Rigid Body object, finite, centre of mass inside the box.
        const bodies = e.build({ resolution: RESOLUTION[e.id] }).doc.objects.filter((o) => o.kind === 'rigidBody')
        expect(frame.rigidBodies?.length ?? 0, domain).toBe(bodies.length)
        for (const b of frame.rigidBodies ?? []) {
          for (let a = 0; a < 3; a++) {
            const v = b.position[a]
            expect(Number.isFinite(v) && v >= bounds.min[a] && v <= bounds.max[a], `${b.name} axis ${a} at ${v}`).toBe(true)
          }
        }
      }
    }, 60_000)
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

  const body = (f: FrameData, id: string) => {
    const b = f.rigidBodies?.find((x) => x.id === id)
    if (!b) throw new Error(`no body ${id}`)
    return b
  }

  it('lead-and-wood: the balls fly at each other and fall; the lead one strikes the wooden one back towards its wall', () => {
    const [{ first, frame }] = bake('lead-and-wood')
    const lead0 = body(first, 'lead'), wood0 = body(first, 'wood')
    const lead = body(frame, 'lead'), wood = body(frame, 'wood')
    expect(lead.position[0]).toBeGreaterThan(lead0.position[0] + 0.1)
    expect(lead.position[1]).toBeLessThan(lead0.position[1] - 0.1)
    expect(wood.position[1]).toBeLessThan(wood0.position[1] - 0.1)
    // Thrown at -3.8 m/s, the wooden ball is moving back towards +x after the strike; the lead ball keeps going.
    expect(wood.linearVelocity[0]).toBeGreaterThan(0)
    expect(lead.linearVelocity[0]).toBeGreaterThan(0)
  }, 60_000)

  it('gears-and-bunnies: the gears fall into the water while the wooden bunnies start to rise', () => {
    const [{ first, frame }] = bake('gears-and-bunnies')
    for (let i = 1; i <= 8; i++) expect(body(frame, `gear-${i}`).position[1], `gear ${i}`).toBeLessThan(body(first, `gear-${i}`).position[1] - 0.2)
    for (let i = 1; i <= 3; i++) expect(body(frame, `bunny-${i}`).linearVelocity[1], `bunny ${i}`).toBeGreaterThan(0)
  }, 60_000)

  it('block-catapult: the silver block falls while the plank and the small blocks rest on the pivot', () => {
    const [{ first, frame }] = bake('block-catapult')
    const t = FRAMES / 24
    // Free fall: 0.5 g t^2, plus what the rigid solver's symplectic Euler adds at a few
    // substeps a frame (a factor 1 + 1 / substeps).
    const fell = body(first, 'silver').position[1] - body(frame, 'silver').position[1]
    expect(fell).toBeGreaterThan(0.5 * 9.81 * t * t)
    expect(fell).toBeLessThan(1.4 * 0.5 * 9.81 * t * t)
    for (const id of ['plank', 'block-1', 'block-2', 'block-3', 'turquoise']) {
      const a = body(first, id).position, b = body(frame, id).position
      expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]), id).toBeLessThan(0.03)
    }
  }, 60_000)

  it('painted-torus: the three brushes lay their paint on the torus in its first frames', () => {
    const { doc } = EXAMPLES.find((x) => x.id === 'painted-torus')!.build()
    doc.objects.find((o) => o.id === 'torus')!.params.cellsPerPatch = 6
    const solver = createBakeSolver(doc, 'torus')
    for (let f = 1; f <= FRAMES; f++) solver.stepFrame(f)
    const fr = solver.frame()
    // Red, yellow and blue together lay paint in all three pigments.
    for (const k of ['amount0', 'amount1', 'amount2']) expect(fr.stats[k], k).toBeGreaterThan(0.01)
    expect(fr.meshes[0].attributes?.color.components).toBe(3)
  })

  it('pattern-double-torus: random spots of v on a genus-2 surface, the rest at u = 1', () => {
    const { doc } = EXAMPLES.find((x) => x.id === 'pattern-double-torus')!.build()
    doc.objects[0].params.cellsPerPatch = 6
    const solver = createBakeSolver(doc, 'surface')
    solver.stepFrame(1)
    const m = solver.frame().meshes[0].attributes!
    expect(Math.max(...m.v.data)).toBeGreaterThan(0.2)
    expect(Math.max(...m.u.data)).toBeGreaterThan(0.9)
  })
})

describe('smoke examples (coarse, a few frames)', () => {
  /** Total density inside and outside a domain's box, and its vortex particles, after `frames` frames at `resolution`. */
  function bakeSmoke(id: string, domainId: string, resolution: number, frames: number) {
    const { doc } = EXAMPLES.find((x) => x.id === id)!.build({ resolution })
    const solver = createBakeSolver(doc, domainId, { resolveMesh: () => undefined })
    for (let f = 1; f <= frames; f++) solver.stepFrame(f)
    const frame = solver.frame()
    const density = frame.volumes.find((v) => v.name === 'density')!
    let total = 0
    for (const d of density.data) total += d
    return { total, particles: frame.particles.find((p) => p.name === 'vortexParticles')?.count ?? 0, origin: density.origin, dims: density.dims, h: density.voxelSize }
  }

  it('vortex-plume: both plumes rise in their own domains; only the left one carries vortex particles', () => {
    const left = bakeSmoke('vortex-plume', 'domain-particles', 20, 8)
    const right = bakeSmoke('vortex-plume', 'domain-grid', 20, 8)
    expect(left.total).toBeGreaterThan(0)
    expect(right.total).toBeGreaterThan(0)
    expect(left.particles).toBeGreaterThan(20)
    expect(right.particles).toBe(0)
    // The domains do not overlap: each holds only its own plume.
    expect(left.origin[0] + left.dims[0] * left.h).toBeLessThan(right.origin[0])
  }, 60_000)

  it('moving-wake: the keyed sphere crosses the layer at 0.8 m/s, and the layer fills with smoke', () => {
    const { doc } = EXAMPLES.find((x) => x.id === 'moving-wake')!.build({ resolution: 24 })
    const track = doc.tracks.find((t) => t.objectId === 'sphere' && t.path === 'position.0')!
    const [a, b] = track.keys
    expect(((b.value - a.value) / (b.frame - a.frame)) * doc.meta.fps).toBeCloseTo(0.8, 9)
    const w = bakeSmoke('moving-wake', 'domain', 24, 4)
    expect(w.total).toBeGreaterThan(0)
    expect(w.particles).toBeGreaterThan(0)
  }, 60_000)
})

describe('tetrahedral liquid examples (coarse, a few frames)', () => {
  /** The surface S after `frames` frames of a domain at `resolution`, with its bounds and the tetrahedra. */
  function bakeTet(id: string, domainId: string, resolution: number, frames: number) {
    const { doc } = EXAMPLES.find((x) => x.id === id)!.build({ resolution })
    const solver = createBakeSolver(doc, domainId)
    const first = solver.frame()
    for (let f = 1; f <= frames; f++) solver.stepFrame(f)
    const frame = solver.frame()
    const d = doc.objects.find((o) => o.id === domainId)!
    return { first: first.meshes[0], mesh: frame.meshes[0], stats: frame.stats, position: d.params.position as number[], size: d.params.size as number[], cell: Math.max(...(d.params.size as number[])) / resolution }
  }

  /** Every vertex of S inside the domain's box, within a cell. */
  function inside(r: ReturnType<typeof bakeTet>): boolean {
    const p = r.mesh.positions
    for (let i = 0; i < p.length; i++) {
      const a = i % 3
      if (Math.abs(p[i] - r.position[a]) > r.size[a] / 2 + r.cell) return false
    }
    return true
  }

  it('tet-wave: the block and the layer become one closed surface inside the tank, meshed with tetrahedra', () => {
    const r = bakeTet('tet-wave', 'domain', 24, 3)
    expect(r.mesh.indices.length).toBeGreaterThan(0)
    expect(isClosedSurface({ positions: r.mesh.positions, indices: r.mesh.indices })).toBe(true)
    expect(inside(r)).toBe(true)
    expect(r.stats.tetrahedra).toBeGreaterThan(100)
  }, 60_000)

  it('tet-spray: both jets add water in their own domains', () => {
    for (const id of ['with', 'without']) {
      const r = bakeTet('tet-spray', id, 24, 4)
      expect(r.first.indices.length, id).toBe(0) // no liquid before the jet
      expect(r.mesh.indices.length, id).toBeGreaterThan(0)
      expect(inside(r), id).toBe(true)
    }
  }, 60_000)

  it('tet-dam-break: the column stands in the dam domain on the tetrahedral liquid', () => {
    const r = bakeTet('tet-dam-break', 'domain', 16, 2)
    expect(r.mesh.indices.length).toBeGreaterThan(0)
    expect(inside(r)).toBe(true)
    expect(r.stats.tetrahedra).toBeGreaterThan(50)
  }, 60_000)
})

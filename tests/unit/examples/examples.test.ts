// The shipped example scenes: every object's parameters pass validation, every domain compiles
// for the liquid solver, and each scene is the one its comment promises (grids from Carlson
// 2004 Tables 6 and 8, the peer dam break mapped from Blender's Z up, one domain per
// viscosity, the rigid bodies of the thesis's figures 2, 17, 19 and 22).
import { describe, expect, it } from 'vitest'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { surfaceFamily } from '../../../src-shared/sim/surface/family'
import { smokeFamily } from '../../../src-shared/sim/smoke/family'
import { tetLiquidFamily } from '../../../src-shared/sim/tetliquid/family'
import { hybridFamily } from '../../../src-shared/sim/hybrid/family'
import { EXAMPLES, findExample } from '../../../src-shared/scene/examples'
import { damBreakScene } from '../../../src-shared/scene/examples/damBreak'
import { GEAR_MESH_ID } from '../../../src-shared/scene/examples/gearMesh'
import { BUNNY_MESH_ID } from '../../../src-shared/scene/examples/bunnyMesh'
import type { SceneObject } from '../../../src-shared/scene/types'
import { RigidShape } from '../../../src-shared/sim/rigid/rigidShape'
import { validateChannel, validateMeta, validateParams } from '../../../src-shared/scene/validate'
import { compileLiquidScene } from '../../../src-shared/sim/liquid/compileLiquid'

function build(id: string, resolution?: number) {
  const e = findExample(id)
  if (!e) throw new Error(`no example ${id}`)
  const scene = e.build(resolution ? { resolution } : undefined)
  const resolveMesh = (meshId: string) => scene.meshes.find((m) => m.id === meshId)
  return { ...scene, resolveMesh }
}

describe('example scenes', () => {
  it('has unique ids, titles and one-line descriptions', () => {
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length)
    expect(EXAMPLES.map((e) => e.id)).toEqual(['melting-bunny', 'toothpaste', 'viscosity-pour', 'dam-break', 'lead-and-wood', 'gears-and-bunnies', 'block-catapult', 'painted-torus', 'pattern-double-torus', 'vortex-plume', 'moving-wake', 'tet-wave', 'tet-spray', 'tet-dam-break', 'hybrid-ramp-jet', 'hybrid-glass', 'hybrid-desk-toy', 'hybrid-corkscrew'])
    for (const e of EXAMPLES) {
      expect(e.title.length).toBeGreaterThan(0)
      expect(e.description).not.toMatch(/\n/)
    }
  })

  for (const e of EXAMPLES) {
    it(`${e.id}: valid objects, meshes listed, every domain compiles`, () => {
      const { doc, meshes, resolveMesh } = build(e.id)
      expect(validateMeta(doc.meta)).toEqual([])
      expect(new Set(doc.objects.map((o) => o.id)).size).toBe(doc.objects.length)
      for (const o of doc.objects) expect(validateParams(o.kind, o.params), `${o.name}`).toEqual([])
      // Tracks point at real objects; meshes listed in the document are exactly the ones carried.
      for (const t of doc.tracks) {
        const obj = doc.objects.find((o) => o.id === t.objectId)
        expect(obj, t.objectId).toBeDefined()
        for (const k of t.keys) expect(validateChannel(obj!.kind, t.path, k.value), `${t.path} @ ${k.frame}`).toBeNull()
      }
      expect(doc.meshes.map((m) => m.id).sort()).toEqual(meshes.map((m) => m.id).sort())
      for (const info of doc.meshes) {
        const m = meshes.find((x) => x.id === info.id)!
        expect(info.vertexCount * 3).toBe(m.positions.length)
        expect(info.triangleCount * 3).toBe(m.indices.length)
      }
      for (const o of doc.objects) if (o.meshId) expect(meshes.some((m) => m.id === o.meshId)).toBe(true)
      const domains = doc.objects.filter((o) => o.kind === 'domain')
      const cages = doc.objects.filter((o) => o.kind === 'ccCage')
      expect(domains.length + cages.length).toBeGreaterThan(0)
      // Every cage bakes a surface flow: its setup compiles (the cage evaluates, the grid fits).
      for (const c of cages) expect(surfaceFamily.compileSetup(doc, c.id, {}).atlas.patchCount, c.name).toBeGreaterThan(0)
      for (const d of domains) {
        // Gas domains (grid or hybrid mesh): the setup compiles and some emitter of the scene lies inside the box.
        if (d.params.solver === 'smoke' || d.params.solver === 'hybrid') {
          const setup = (d.params.solver === 'smoke' ? smokeFamily : hybridFamily).compileSetup(doc, d.id, { resolveMesh })
          expect(setup, d.name).toBeDefined()
          const [p, s] = [d.params.position as number[], d.params.size as number[]]
          const inside = doc.objects.filter((o) => o.kind === 'emitter' && (o.params.position as number[]).every((v, a) => Math.abs(v - p[a]) < s[a] / 2))
          expect(inside.length, d.name).toBeGreaterThan(0)
          continue
        }
        // Tetrahedral liquids: the setup compiles, with liquid at the start or an inflow.
        if (d.params.solver === 'tetliquid') {
          const t = tetLiquidFamily.compileSetup(doc, d.id, { resolveMesh })
          expect(t.setup.volumes.length + doc.objects.filter((o) => o.kind === 'emitter' && o.params.behavior === 'inflow').length, d.name).toBeGreaterThan(0)
          continue
        }
        const c = compileLiquidScene(doc, d.id, { resolveMesh })
        expect(c.setup.volumes.length + doc.objects.filter((o) => o.kind === 'emitter' && o.params.behavior === 'inflow').length).toBeGreaterThan(0)
        expect(c.surface.enabled).toBe(true)
      }
    })
  }

  it('melting-bunny: the closed bunny on the floor at the thesis grid, temperature viscosity, lamp on the head', () => {
    const { doc, meshes, resolveMesh } = build('melting-bunny')
    expect(isClosedSurface(meshes[0])).toBe(true)
    const c = compileLiquidScene(doc, 'domain', { resolveMesh })
    const g = c.setup.grid
    expect([g.nx, g.ny, g.nz]).toEqual([35, 28, 38])
    const v = c.setup.viscosity
    expect(v.model).toBe('temperature')
    if (v.model !== 'temperature') return
    const bunny = c.setup.volumes[0]
    expect(bunny.shape).toBe('mesh')
    // Starts solid: below the bottom of the melting range; the lamp is hotter than its top.
    expect(bunny.temperature).toBeLessThan(v.meltingPoint - v.transitionWidth / 2)
    const lamp = doc.objects.find((o) => o.kind === 'heatSource')!
    expect(lamp.params.temperature as number).toBeGreaterThan(v.meltingPoint + v.transitionWidth / 2)
    expect(v.solid).toBeGreaterThan(1000 * v.liquid)
    expect(c.setup.heat.coolingRate).toBeGreaterThan(0)
    // The lamp's sphere reaches into the bunny (scan top ~9.65 units * scale).
    const top = 9.65 * (bunny.scale[1]) + bunny.position[1]
    const lampPos = lamp.params.position as number[]
    expect(lampPos[1] - (lamp.params.radius as number)).toBeLessThan(top)
    // Feet on the floor (domain bottom at y = 0).
    expect(g.origin[1]).toBeCloseTo(0, 6)
    expect(bunny.position[1]).toBeLessThan(0.02)
  })

  it('toothpaste: thick full-stress inflow aimed at a wall obstacle; resolution 42 is the thesis grid', () => {
    const { doc, resolveMesh } = build('toothpaste')
    expect(doc.objects.find((o) => o.kind === 'domain')!.params.resolution).toBe(32)
    const thesis = build('toothpaste', 42)
    const g = compileLiquidScene(thesis.doc, 'domain', { resolveMesh }).setup.grid
    expect([g.nx, g.ny, g.nz]).toEqual([42, 33, 18])
    const c = compileLiquidScene(doc, 'domain', { resolveMesh })
    expect(c.setup.viscousStress).toBe('full')
    expect(c.setup.viscosity).toEqual({ model: 'constant', value: 1000 })
    const nozzle = doc.objects.find((o) => o.id === 'nozzle')!
    const wall = doc.objects.find((o) => o.id === 'wall')!
    expect(nozzle.params.behavior).toBe('inflow')
    const vel = nozzle.params.velocity as number[]
    expect(vel[0]).toBeGreaterThan(0)
    expect(vel[1]).toBe(0)
    // The wall is ahead of the nozzle in +x, and at the nozzle's height.
    const np = nozzle.params.position as number[], wp = wall.params.position as number[], ws = wall.params.scale as number[]
    expect(wp[0]).toBeGreaterThan(np[0])
    expect(Math.abs(np[1] - wp[1])).toBeLessThan(ws[1] / 2)
  })

  it('viscosity-pour: four separate domains with viscosities 0.1, 1, 10, 100, each with its own liquid', () => {
    const { doc, resolveMesh } = build('viscosity-pour')
    const domains = doc.objects.filter((o) => o.kind === 'domain')
    expect(domains.map((d) => d.params.viscosity)).toEqual([0.1, 1, 10, 100])
    expect(domains.every((d) => d.params.wallSlip === 'free')).toBe(true)
    for (const d of domains) {
      const c = compileLiquidScene(doc, d.id, { resolveMesh })
      expect([c.setup.grid.nx, c.setup.grid.ny, c.setup.grid.nz]).toEqual([32, 32, 32])
      // Domains do not overlap: each box is 1 m wide, centres 1.1 m apart.
      const x = (d.params.position as number[])[0]
      for (const other of domains) if (other !== d) expect(Math.abs((other.params.position as number[])[0] - x)).toBeGreaterThanOrEqual(1.1 - 1e-9)
    }
  })

  it('dam-break: blender_liquid.py mapped (x, y, z) -> (x, z, -y), resolution and viscosity as given', () => {
    const { doc } = damBreakScene({ resolution: 40 })
    const get = (id: string) => doc.objects.find((o) => o.id === id)!.params
    expect(get('domain').position).toEqual([0, 1, 0])
    expect(get('domain').size).toEqual([2, 2, 2])
    expect(get('domain').resolution).toBe(40)
    expect(get('domain').viscosity).toBe(0)
    // Blender water: location (-0.7, 0, 0.6), scale (0.6, 1.0, 1.2) on a unit cube.
    expect(get('water').position).toEqual([-0.7, 0.6, 0])
    expect(get('water').scale).toEqual([0.6, 1.2, 1.0])
    // Blender obstacle: 0.3 m cube at (0.3, 0, 0.15).
    expect(get('obstacle').position).toEqual([0.3, 0.15, 0])
    expect(get('obstacle').scale).toEqual([0.3, 0.3, 0.3])
    const viscous = damBreakScene({ resolution: 40, viscosity: 0.2 }).doc.objects.find((o) => o.id === 'domain')!.params
    expect(viscous.viscosity).toBe(0.2)
    expect(viscous.viscousStress).toBe('full')
  })

  it('lead-and-wood: lead 11 and wood 0.55 balls, 3.1 m/s down, 3.8 m/s towards each other, 1000 rpm opposite spins; resolution 96 is the thesis grid', () => {
    const { doc, resolveMesh } = build('lead-and-wood')
    const thesis = compileLiquidScene(build('lead-and-wood', 96).doc, 'domain', { resolveMesh }).setup.grid
    expect([thesis.nx, thesis.ny, thesis.nz]).toEqual([96, 64, 48])
    const c = compileLiquidScene(doc, 'domain', { resolveMesh })
    const g = c.setup.grid
    expect([g.nx, g.ny, g.nz]).toEqual([48, 32, 24])
    // A metre-wide pool with its floor at y = 0.
    expect(g.nx * g.dx).toBeCloseTo(1, 9)
    expect(g.origin[1]).toBeCloseTo(0, 9)
    const bodies = c.setup.rigidBodies!
    const lead = bodies.find((b) => b.id === 'lead')!
    const wood = bodies.find((b) => b.id === 'wood')!
    expect(lead.relativeDensity).toBe(11)
    expect(wood.relativeDensity).toBe(0.55)
    expect(lead.initialVelocity).toEqual([3.8, -3.1, 0])
    expect(wood.initialVelocity).toEqual([-3.8, -3.1, 0])
    // 1000 rpm = 104.72 rad/s about the vertical, opposite senses.
    expect(lead.initialSpin[1]).toBeCloseTo((1000 * 2 * Math.PI) / 60, 9)
    expect(wood.initialSpin[1]).toBeCloseTo(-lead.initialSpin[1], 9)
    expect(lead.initialSpin[0]).toBe(0)
    expect(lead.initialSpin[2]).toBe(0)
    // Slightly off-centre: the paths across the pool are closer than a diameter, but not head on.
    const offset = Math.abs(lead.start.position[2] - wood.start.position[2])
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThan(lead.scale[0] / 2)
    expect(lead.start.position[1]).toBe(wood.start.position[1])
    // Both start above the water and inside the pool.
    const water = c.setup.volumes[0]
    const top = water.position[1] + water.scale[1] / 2
    for (const b of [lead, wood]) {
      expect(b.start.position[1] - b.scale[1] / 2).toBeGreaterThan(top)
      expect(b.start.position[1] + b.scale[1] / 2).toBeLessThan(g.origin[1] + g.ny * g.dx)
    }
  })

  it('gears-and-bunnies: eight closed gears of density 9 above three submerged closed bunnies of 0.6; resolution 68 is the thesis grid', () => {
    const { doc, meshes, resolveMesh } = build('gears-and-bunnies')
    const thesis = compileLiquidScene(build('gears-and-bunnies', 68).doc, 'domain', { resolveMesh }).setup.grid
    expect([thesis.nx, thesis.ny, thesis.nz]).toEqual([64, 68, 64])
    expect(thesis.nx * thesis.dx).toBeCloseTo(1, 9)
    const c = compileLiquidScene(doc, 'domain', { resolveMesh })
    expect([c.setup.grid.nx, c.setup.grid.ny, c.setup.grid.nz]).toEqual([48, 51, 48])
    for (const m of meshes) expect(isClosedSurface(m), m.id).toBe(true)
    const bodies = c.setup.rigidBodies!
    const gears = bodies.filter((b) => b.id.startsWith('gear-'))
    const bunnies = bodies.filter((b) => b.id.startsWith('bunny-'))
    expect(gears).toHaveLength(8)
    expect(bunnies).toHaveLength(3)
    const byId = (id: string) => doc.objects.find((o) => o.id === id)!
    for (const g of gears) {
      expect(byId(g.id).meshId).toBe(GEAR_MESH_ID)
      expect(g.relativeDensity).toBe(9)
      expect(g.initialVelocity[1]).toBeLessThan(0)
    }
    const water = c.setup.volumes[0]
    const level = water.position[1] + water.scale[1] / 2
    for (const b of bunnies) {
      expect(byId(b.id).meshId).toBe(BUNNY_MESH_ID)
      expect(b.relativeDensity).toBeGreaterThanOrEqual(0.55)
      expect(b.relativeDensity).toBeLessThanOrEqual(0.65)
    }
    // Weighed as the solver weighs them: gears sink (and start above the water, falling to hit
    // it at about 4 m/s), bunnies are about 0.2 m long and start wholly under water.
    const shape = (b: (typeof bodies)[number]) => new RigidShape(b.shape, b.scale, b.mesh, b.relativeDensity * 1000, { id: b.id, name: b.name })
    for (const g of gears) {
      const s = shape(g)
      expect(s.massProperties.volume).toBeGreaterThan(0)
      const lowest = g.start.position[1] - s.boundingRadius
      expect(lowest).toBeGreaterThan(level)
      const drop = g.start.position[1] - level
      const hit = Math.sqrt(g.initialVelocity[1] ** 2 + 2 * 9.81 * drop)
      expect(hit).toBeGreaterThan(3.5)
      expect(hit).toBeLessThan(4.5)
    }
    for (const b of bunnies) {
      const s = shape(b)
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
      for (let i = 0; i < s.positions.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3], s.positions[i])
        hi[i % 3] = Math.max(hi[i % 3], s.positions[i])
      }
      const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])
      expect(extent).toBeGreaterThan(0.18)
      expect(extent).toBeLessThan(0.22)
      // Origin at the scan's feet; its top 9.65 units up.
      expect(b.start.position[1] + 9.66 * b.scale[1]).toBeLessThan(level)
    }
    // No two bodies start overlapping (bounding spheres about the centres of mass apart).
    const placed = bodies.map((b) => {
      const s = shape(b)
      const obj = byId(b.id) as SceneObject
      return { id: b.id, r: s.boundingRadius, x: worldCom(obj, s.comOffset) }
    })
    for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) {
      const a = placed[i], b = placed[j]
      expect(Math.hypot(a.x[0] - b.x[0], a.x[1] - b.x[1], a.x[2] - b.x[2]), `${a.id} / ${b.id}`).toBeGreaterThan(a.r + b.r)
    }
  })

  it('block-catapult: 20 cm silver block of 9 over a 0.74 plank across a fixed pivot, wooden blocks on its far arm, a turquoise block of 2 with 8x the volume; resolution 93 is the thesis grid', () => {
    const { doc, resolveMesh } = build('block-catapult')
    const thesis = compileLiquidScene(build('block-catapult', 93).doc, 'domain', { resolveMesh }).setup.grid
    expect([thesis.nx, thesis.ny, thesis.nz]).toEqual([93, 73, 60])
    const c = compileLiquidScene(doc, 'domain', { resolveMesh })
    const g = c.setup.grid
    // A 1 m tall room.
    expect(g.ny * g.dx).toBeCloseTo(1, 1)
    const bodies = c.setup.rigidBodies!
    const get = (id: string) => bodies.find((b) => b.id === id)!
    const silver = get('silver'), turquoise = get('turquoise'), plank = get('plank')
    expect(silver.scale).toEqual([0.2, 0.2, 0.2])
    expect(silver.relativeDensity).toBe(9)
    expect(plank.relativeDensity).toBe(0.74)
    expect(turquoise.relativeDensity).toBe(2)
    const volume = (b: typeof silver) => b.scale[0] * b.scale[1] * b.scale[2]
    expect(volume(turquoise) / volume(silver)).toBeCloseTo(8, 9)
    // Dropped from the top of the room, over the plank's raised arm.
    expect(silver.start.position[1] + 0.1).toBeGreaterThan(g.origin[1] + g.ny * g.dx - 0.05)
    const pivot = doc.objects.find((o) => o.id === 'pivot')!
    expect(pivot.kind).toBe('obstacle')
    const px = (pivot.params.position as number[])[0]
    expect(silver.start.position[0]).toBeGreaterThan(px)
    const small = bodies.filter((b) => b.id.startsWith('block-'))
    expect(small.length).toBeGreaterThanOrEqual(3)
    for (const b of small) {
      expect(b.relativeDensity).toBeLessThan(1)
      expect(b.start.position[0]).toBeLessThan(px)
    }
    // The plank leans on the pivot: tilted, its raised end over the silver block's side.
    expect(plank.start.rotation[2]).toBeGreaterThan(5)
    // A column of water at the far side of the room, released at the start.
    const water = c.setup.volumes[0]
    expect(water.position[0]).toBeGreaterThan(silver.start.position[0] + 0.1)
    expect(water.velocity).toEqual([0, 0, 0])
  })
})

/** World centre of mass of a body object whose centre of mass is `com` in its (scaled) object frame. */
function worldCom(obj: SceneObject, com: Float64Array): number[] {
  const p = obj.params.position as number[]
  const r = (obj.params.rotation as number[]).map((d) => (d * Math.PI) / 180)
  // R = Rz Ry Rx (primitiveSdf.ts), applied to com.
  const [cx, sx] = [Math.cos(r[0]), Math.sin(r[0])]
  const [cy, sy] = [Math.cos(r[1]), Math.sin(r[1])]
  const [cz, sz] = [Math.cos(r[2]), Math.sin(r[2])]
  let [x, y, z] = [com[0], com[1], com[2]]
  ;[y, z] = [cx * y - sx * z, sx * y + cx * z]
  ;[x, z] = [cy * x + sy * z, -sy * x + cy * z]
  ;[x, y] = [cz * x - sz * y, sz * x + cz * y]
  return [p[0] + x, p[1] + y, p[2] + z]
}

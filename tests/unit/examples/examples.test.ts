// The shipped example scenes: every object's parameters pass validation, every domain compiles
// for the liquid solver, and each scene is the one its comment promises (grids from Carlson
// 2004 Table 6, the peer dam break mapped from Blender's Z up, one domain per viscosity).
import { describe, expect, it } from 'vitest'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { EXAMPLES, findExample } from '../../../src-shared/scene/examples'
import { damBreakScene } from '../../../src-shared/scene/examples/damBreak'
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
    expect(EXAMPLES.map((e) => e.id)).toEqual(['melting-bunny', 'toothpaste', 'viscosity-pour', 'dam-break'])
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
      expect(domains.length).toBeGreaterThan(0)
      for (const d of domains) {
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
})

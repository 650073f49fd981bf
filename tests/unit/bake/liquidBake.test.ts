// A liquid domain through the bake path: initial volumes from emitters (a box, a closed
// mesh), particles and a watertight surface mesh in every cached frame, and the errors a
// bad liquid scene gets before any frame is written.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runBake } from '../../../src-main/bake/runner'
import { cacheStatus } from '../../../src-main/bake/status'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { defaultParams } from '../../../src-shared/scene/defaults'
import type { SceneObject } from '../../../src-shared/scene/types'
import { tempDir } from './bakeFixtures'

const dir = tempDir('eddy-liquid-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function obj(id: string, kind: SceneObject['kind'], params: SceneObject['params'], extra: Partial<SceneObject> = {}): SceneObject {
  return { id, kind, name: id, params: { ...defaultParams(kind), ...params }, ...extra }
}

function project(name: string, objects: SceneObject[], meshes: { id: string; positions: number[]; indices: number[] }[] = []): string {
  const file = path.join(dir, `${name}.eddy`)
  const store = ProjectStore.create(file, { name, fps: 24, frameStart: 1, frameEnd: 4 })
  for (const m of meshes) {
    const positions = new Float32Array(m.positions)
    const indices = new Uint32Array(m.indices)
    store.insertMesh({ id: m.id, name: m.id, format: 'obj', vertexCount: positions.length / 3, triangleCount: indices.length / 3, bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] } }, positions, indices)
  }
  store.apply({ objects: objects.map((o) => ({ id: o.id, after: o })) })
  store.close()
  return file
}

const domain = obj('domain', 'domain', { solver: 'liquid', resolution: 12, position: [0, 0.5, 0], size: [1, 1, 1], meshRefinement: 1 })
const water = obj('water', 'emitter', { fluid: 'liquid', behavior: 'geometry', shape: 'box', position: [-0.25, 0.25, 0], scale: [0.45, 0.5, 0.95], velocity: [0, 0, 0] })

function edgeUse(indices: Uint32Array): Map<string, number> {
  const uses = new Map<string, number>()
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]
      const b = indices[t + ((e + 1) % 3)]
      const key = a < b ? `${a},${b}` : `${b},${a}`
      uses.set(key, (uses.get(key) ?? 0) + 1)
    }
  }
  return uses
}

describe('liquid bakes', () => {
  it('caches particles, volumes and a closed surface mesh per frame', async () => {
    const file = project('dam', [domain, water])
    const r = await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })
    expect(r).toMatchObject({ state: 'done', framesWritten: 4 })
    const store = ProjectStore.open(file)
    expect(cacheStatus(store.readDocument(), store.cache, 'domain').cached).toEqual([[1, 4]])
    const f1 = decodeFrame(store.cache.readFrame('domain', 1))
    const f4 = decodeFrame(store.cache.readFrame('domain', 4))
    store.close()
    expect(f1.particles[0].name).toBe('liquid')
    // 0.45 x 0.5 x 0.95 m of liquid at 8 markers per (1/12 m)^3 cell: about 2,900 markers.
    expect(f1.particles[0].count).toBeGreaterThan(2000)
    expect(f4.particles[0].count).toBe(f1.particles[0].count)
    expect(f4.volumes.map((v) => v.name).sort()).toEqual(['liquid', 'temperature'])
    for (const f of [f1, f4]) {
      const mesh = f.meshes[0]
      expect(mesh.name).toBe('liquid')
      expect(mesh.indices.length).toBeGreaterThan(300)
      expect([...edgeUse(mesh.indices).values()].every((n) => n === 2)).toBe(true)
      expect(mesh.normals?.length).toBe(mesh.positions.length)
    }
    // The column slumps towards +x: the mesh's far edge moves right.
    const maxX = (p: Float32Array) => Math.max(...p.filter((_, i) => i % 3 === 0))
    expect(maxX(f4.meshes[0].positions)).toBeGreaterThan(maxX(f1.meshes[0].positions) + 0.02)
  }, 60_000)

  it('fills a closed mesh, and refuses an open one by name before baking', async () => {
    // A unit cube (closed) and the same cube missing its top (open).
    const v = [-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5]
    const sides = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3]
    const open = sides.slice(0, 30)
    const blob = obj('blob', 'emitter', { fluid: 'liquid', behavior: 'geometry', shape: 'mesh', position: [0, 0.3, 0], scale: [0.4, 0.4, 0.4] }, { meshId: 'closed' })
    const good = project('meshGood', [domain, blob], [{ id: 'closed', positions: v, indices: sides }])
    await runBake({ projectPath: good, domainId: 'domain', mode: 'bake', kernels: 'ts', frameEnd: 2 })
    const store = ProjectStore.open(good)
    // 0.4 m cube = 0.064 m^3 = 110 cells of (1/12 m)^3: about 880 markers.
    const n = decodeFrame(store.cache.readFrame('domain', 1)).particles[0].count
    store.close()
    expect(n).toBeGreaterThan(600)
    expect(n).toBeLessThan(1200)
    const bad = project('meshBad', [domain, { ...blob, meshId: 'open' }], [{ id: 'open', positions: v, indices: open }])
    await expect(runBake({ projectPath: bad, domainId: 'domain', mode: 'bake', kernels: 'ts' })).rejects.toThrow(/Emitter "blob": its mesh is not closed/)
    const check = ProjectStore.open(bad)
    expect(check.cache.frames('domain')).toEqual([])
    check.close()
  }, 60_000)

  it('a mesh-shaped inflow emitter and a smoke mesh emitter are refused with a reason', async () => {
    const jet = obj('jet', 'emitter', { fluid: 'liquid', behavior: 'inflow', shape: 'mesh' }, { meshId: 'm' })
    const file = project('jet', [domain, jet], [{ id: 'm', positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] }])
    await expect(runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })).rejects.toThrow(/A mesh emitter fills an initial liquid volume/)
  })

  it('an unstable configuration stops with SIM_UNSTABLE and keeps the frames before it', async () => {
    // 1000 m/s^2 of gravity with one substep of CFL 1: no substep can follow the fall.
    const wild: SceneObject = { ...domain, params: { ...domain.params, gravity: [0, -1000, 0], maxSubsteps: 1, cfl: 1 } }
    const file = project('wild', [wild, water])
    const err = await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'SIM_UNSTABLE' })
    expect((err as Error).message).toMatch(/^Frame \d+: /)
    const store = ProjectStore.open(file)
    const s = cacheStatus(store.readDocument(), store.cache, 'domain')
    store.close()
    expect(s.state).toBe('failed')
    expect(s.cached[0]?.[0]).toBe(1)
  })
})

// Exported files read by the tools artists use: OpenVDB's own vdb_print, and Blender (one
// background run for every format, since Blender takes seconds to start). Expected values are
// derived here from the Eddy frame (cell centres in Eddy's Y-up world, rotated to Z up by
// (x, y, z) -> (x, -z, y)), not from the exporter's code. Each part is skipped, saying why,
// when its tool is missing.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runExport } from '../../../src-main/export/exportJob'
import type { Volume } from '../../../src-shared/sim/frame'
import { boxMesh, frameOf, particleSet, smokeVolumes, sourceOf } from './fixtures'
import { onPath, runBlenderJson, removeTempDirs, tempDir } from './readBack'

type V3 = [number, number, number]
const zUp = ([x, y, z]: number[]): V3 => [x, -z, y]
afterAll(removeTempDirs)

/** Eddy-world centres of the cells a grid keeps active (nonzero value or vector). */
function activeCentres(v: Volume): V3[] {
  const [nx, ny, nz] = v.dims
  const out: V3[] = []
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const n = v.components * (i + nx * (j + ny * k))
        let any = false
        for (let c = 0; c < v.components; c++) any ||= v.data[n + c] !== 0
        if (any) out.push([v.origin[0] + (i + 0.5) * v.voxelSize, v.origin[1] + (j + 0.5) * v.voxelSize, v.origin[2] + (k + 0.5) * v.voxelSize])
      }
  return out
}

/** Per-axis min and max of points. */
const bounds = (pts: number[][]): { min: number[]; max: number[] } => ({
  min: [0, 1, 2].map((a) => Math.min(...pts.map((p) => p[a]))),
  max: [0, 1, 2].map((a) => Math.max(...pts.map((p) => p[a]))),
})

/** Z-up world position of the centre of the converted grid's cell (0,0,0): the min corner of the rotated domain box + h/2. */
function zUpCellZeroCentre(v: Volume): V3 {
  const far = v.origin.map((o, a) => o + v.dims[a] * v.voxelSize)
  const corners = [v.origin, far].flatMap((x) => [v.origin, far].flatMap((y) => [v.origin, far].map((z) => zUp([x[0], y[1], z[2]]))))
  return bounds(corners).min.map((m) => m + v.voxelSize / 2) as V3
}

const FRAME = 2
const volumes = smokeVolumes(FRAME)
const smoke = () => sourceOf('smoke', [1, 2, 3], (f) => frameOf(f, { volumes: smokeVolumes(f) }))
const box = boxMesh('surface', [0.25, 0.5, -1], [1.25, 1.5, 0.5])
const spray = particleSet('spray', 6, FRAME)
const liquid = () => sourceOf('liquid', [FRAME], (f) => frameOf(f, { meshes: [box], particles: [spray] }))

// A liquid frame's volumes as the liquid solver hands them out: a sphere of liquid (signed
// distance in metres, negative inside, clamped to three cells as its redistancing leaves it)
// in air at 293 K with a warm spot.
const LS_N = 24
const LS_H = 0.05
const LS_ORIGIN: V3 = [-0.6, 0, -0.6]
const LS_CENTRE: V3 = [0, 0.6, 0]
const LS_R = 0.35
function liquidVolumes(): Volume[] {
  const phi = new Float32Array(LS_N ** 3)
  const temperature = new Float32Array(LS_N ** 3).fill(293)
  for (let k = 0; k < LS_N; k++)
    for (let j = 0; j < LS_N; j++)
      for (let i = 0; i < LS_N; i++) {
        const p = [i, j, k].map((c, a) => LS_ORIGIN[a] + (c + 0.5) * LS_H)
        const d = Math.hypot(p[0] - LS_CENTRE[0], p[1] - LS_CENTRE[1], p[2] - LS_CENTRE[2]) - LS_R
        phi[i + LS_N * (j + LS_N * k)] = Math.max(-3 * LS_H, Math.min(3 * LS_H, d))
        if (d < -0.2) temperature[i + LS_N * (j + LS_N * k)] = 330
      }
  const base = { components: 1 as const, dims: [LS_N, LS_N, LS_N] as V3, voxelSize: LS_H, origin: LS_ORIGIN }
  return [
    { name: 'temperature', ...base, data: temperature },
    { name: 'liquid', ...base, data: phi },
  ]
}
const pool = () => sourceOf('pool', [FRAME], (f) => frameOf(f, { volumes: liquidVolumes() }))

describe('export read by vdb_print', () => {
  const vdbPrint = onPath('vdb_print')
  if (!vdbPrint) console.log('skipping vdb_print interop: vdb_print (libopenvdb-tools) is not on PATH')

  it.skipIf(!vdbPrint)('lists every grid with its type, active voxels, index bounding box, voxel size and transform', async () => {
    for (const upAxis of ['z', 'y'] as const) {
      const dir = tempDir()
      const manifest = await runExport(smoke(), { format: 'vdb', outDir: dir, frameStart: FRAME, frameEnd: FRAME, upAxis })
      const out = execFileSync(vdbPrint!, ['-l', '-m', join(dir, 'smoke_0002.vdb')], { encoding: 'utf8' })
      const blocks = out.split(/\n(?=Name: )/).slice(1)
      expect(blocks.map((b) => /^Name: (\S+)/.exec(b)![1])).toEqual(['density', 'temperature', 'velocity'])
      for (const [g, v] of volumes.entries()) {
        const block = blocks[g]
        const h = v.voxelSize
        const t = upAxis === 'z' ? zUpCellZeroCentre(v) : (v.origin.map((o) => o + h / 2) as V3)
        const centres = activeCentres(v).map((p) => (upAxis === 'z' ? zUp(p) : p))
        const idx = centres.map((p) => p.map((x, a) => Math.round((x - t[a]) / h)))
        const ib = bounds(idx)
        expect(block).toContain(`Type: Tree_${v.components === 3 ? 'vec3s' : 'float'}_5_4_3`)
        expect(Number(/Number of active voxels:\s+([\d,]+)/.exec(block)![1].replace(/,/g, ''))).toBe(centres.length)
        expect(block).toContain(`Bounding box of active voxels: [${ib.min.join(', ')}] -> [${ib.max.join(', ')}]`)
        expect(block).toMatch(/voxel size: 0\.05\b/)
        const translation = /index to world:(?:\s*\[[^\]]*\]){3}\s*\[([^\]]*)\]/.exec(block)![1].split(',').map(Number)
        translation.slice(0, 3).forEach((x, a) => expect(x).toBeCloseTo(t[a], 6))
        expect(manifest.files[0].grids![g]).toEqual({ name: v.name, type: v.components === 3 ? 'vec3s' : 'float', voxels: centres.length, voxelSize: h })
      }
      if (upAxis === 'z') expect(blocks[2]).toMatch(/Max value: \[0\.5, 0\.25, [\d.]+\]/) // velocity (0.5, 2+0.1j, -0.25) -> (0.5, 0.25, ...)
    }
  })

  it.skipIf(!vdbPrint)("writes a liquid's signed distance as a level set named surface, and air at ambient temperature as inactive background", async () => {
    const dir = tempDir()
    const manifest = await runExport(pool(), { format: 'vdb', outDir: dir, frameStart: FRAME, frameEnd: FRAME })
    const out = execFileSync(vdbPrint!, ['-l', '-m', join(dir, 'pool_0002.vdb')], { encoding: 'utf8' })
    const byName = new Map(out.split(/\n(?=Name: )/).slice(1).map((b) => [/^Name: (\S+)/.exec(b)![1], b]))
    expect([...byName.keys()].sort()).toEqual(['surface', 'temperature'])
    const blocks = [byName.get('temperature')!, byName.get('surface')!]
    const [temperature, phi] = liquidVolumes()
    const activeOf = (b: string) => Number(/Number of active voxels:\s+([\d,]+)/.exec(b)![1].replace(/,/g, ''))
    // Temperature: only the warm cells are active over a 293 K background.
    expect(blocks[0]).toMatch(/Background value: 293\b/)
    expect(activeOf(blocks[0])).toBe(temperature.data.filter((t) => t !== 293).length)
    // The surface: a level set whose background is the band's half-width, three voxels, with the band active.
    expect(blocks[1]).toContain('class: level set')
    expect(Number(/Background value: ([\d.]+)/.exec(blocks[1])![1])).toBeCloseTo(3 * LS_H, 6)
    const band = phi.data.filter((d) => Math.abs(d) < 3 * LS_H).length
    expect(activeOf(blocks[1])).toBe(band)
    expect(band).toBeLessThan(phi.data.length / 3)
    expect(manifest.files[0].grids!.map((g) => g.name).sort()).toEqual(['surface', 'temperature'])
  })

  it.skipIf(!vdbPrint)('vdbHalf stores halves that OpenVDB reads back', async () => {
    const dir = tempDir()
    await runExport(smoke(), { format: 'vdb', outDir: dir, frameStart: 1, frameEnd: 1, vdbHalf: true })
    const out = execFileSync(vdbPrint!, ['-l', '-m', join(dir, 'smoke_0001.vdb')], { encoding: 'utf8' })
    expect(out.match(/is_saved_as_half_float: true/g)).toHaveLength(3)
    expect(out).toMatch(/Max value: 304\b/) // temperature 304 is exact in half precision
  })
})

describe('export read by Blender', () => {
  const blender = onPath('blender')
  if (!blender) console.log('skipping Blender interop: blender is not on PATH')

  it.skipIf(!blender)('imports the VDB, OBJ, PLY and GLB of one frame where Eddy put them (Blender world is Z up)', async () => {
    const dir = tempDir()
    await runExport(smoke(), { format: 'vdb', outDir: dir, frameStart: FRAME, frameEnd: FRAME }) // Z up by default
    await runExport(liquid(), { format: 'obj', outDir: dir }) // Y up; Blender's importer rotates to Z up
    await runExport(liquid(), { format: 'ply', outDir: dir }) // Z up by default; Blender reads it as is
    await runExport(liquid(), { format: 'glb', outDir: dir }) // Y up by specification; Blender rotates
    await runExport(pool(), { format: 'vdb', outDir: dir, frameStart: FRAME, frameEnd: FRAME }) // the liquid's level set, Z up
    const file = (name: string) => JSON.stringify(join(dir, name))
    const script = `
import bpy, json
from mathutils import Vector
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
def world_bounds(o):
    pts = [o.matrix_world @ Vector(c) for c in o.bound_box]
    return {'min': [min(p[a] for p in pts) for a in range(3)], 'max': [max(p[a] for p in pts) for a in range(3)]}
def imported(op, **kw):
    before = set(bpy.data.objects)
    op(**kw)
    return [o for o in bpy.data.objects if o not in before]
out = {}
def volume_object(name, path):
    vol = bpy.data.volumes.new(name)
    vol.filepath = path
    vo = bpy.data.objects.new(name, vol)
    scene.collection.objects.link(vo)
    vol.grids.load()
    return vol, vo
def isosurface(vo, grid, threshold):
    # Blender's own mesher (the Volume to Mesh modifier) on one grid, at one level.
    mo = bpy.data.objects.new(grid + 'Iso', bpy.data.meshes.new(grid + 'Iso'))
    scene.collection.objects.link(mo)
    m = mo.modifiers.new('v2m', 'VOLUME_TO_MESH')
    m.object = vo; m.grid_name = grid; m.threshold = threshold; m.resolution_mode = 'GRID'; m.adaptivity = 0
    return mo.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh()
vol, vo = volume_object('smoke', ${file('smoke_0002.vdb')})
# Blender's mesher on the density grid: world-space evidence of where the smoke is.
iso = isosurface(vo, 'density', 0.01)
dg = bpy.context.evaluated_depsgraph_get()
ipts = [v.co for v in iso.vertices]
out['vdb'] = {
    'error': vol.grids.error_message,
    'grids': [[g.name, g.data_type] for g in vol.grids],
    'matrix': [list(r) for r in vol.grids[0].matrix_object],
    'bounds': world_bounds(vo.evaluated_get(dg)),
    'iso': {'count': len(ipts), 'min': [min(p[a] for p in ipts) for a in range(3)], 'max': [max(p[a] for p in ipts) for a in range(3)]},
}
# The liquid's surface grid through the same mesher at its zero level: Blender meshes a level
# set with normals pointing out of the liquid (a fog volume's point into it).
lvol, lvo = volume_object('pool', ${file('pool_0002.vdb')})
liso = isosurface(lvo, 'surface', 0.0)
lpts = [v.co.copy() for v in liso.vertices]
lc = sum(lpts, Vector((0, 0, 0))) / max(1, len(lpts))
out['levelSet'] = {
    'error': lvol.grids.error_message,
    'grids': [g.name for g in lvol.grids],
    'count': len(lpts),
    'centre': list(lc),
    'radii': [(p - lc).length for p in lpts],
    'outward': sum(1 for f in liso.polygons if f.normal.dot(f.center - lc) > 0),
    'faces': len(liso.polygons),
}
[o] = imported(bpy.ops.wm.obj_import, filepath=${file('liquid_0002.obj')})
out['obj'] = {'vertices': len(o.data.vertices), 'faces': len(o.data.polygons), 'bounds': world_bounds(o)}
[o] = imported(bpy.ops.import_mesh.ply, filepath=${file('liquid_surface_0002.ply')})
out['plyMesh'] = {'vertices': len(o.data.vertices), 'faces': len(o.data.polygons), 'bounds': world_bounds(o)}
[o] = imported(bpy.ops.import_mesh.ply, filepath=${file('liquid_spray_0002.ply')})
out['plyPoints'] = {'vertices': len(o.data.vertices), 'points': [list(o.matrix_world @ v.co) for v in o.data.vertices]}
try:
    import numpy  # Blender's glTF importer needs it; distribution builds without it cannot import glTF
    objs = [o for o in imported(bpy.ops.import_scene.gltf, filepath=${file('liquid_0002.glb')}) if o.type == 'MESH']
    out['glb'] = {'vertices': sum(len(o.data.vertices) for o in objs), 'bounds': [world_bounds(o) for o in objs]}
except ImportError as e:
    out['glb'] = {'skipped': 'this Blender cannot import glTF: ' + str(e)}
print('EDDY_JSON ' + json.dumps(out))
`
    const t0 = performance.now()
    const r = runBlenderJson(blender!, script) as Record<string, Record<string, unknown>>
    console.log(`Blender interop run took ${((performance.now() - t0) / 1000).toFixed(1)} s`)

    // VDB: grids, voxel size and placement as Eddy wrote them, in Blender's Z-up world.
    const density = volumes[0]
    const h = density.voxelSize
    const vdb = r.vdb as { error: string; grids: string[][]; matrix: number[][]; bounds: { min: number[]; max: number[] }; iso: { count: number; min: number[]; max: number[] } }
    expect(vdb.error).toBe('')
    expect(vdb.grids).toEqual([['density', 'FLOAT'], ['temperature', 'FLOAT'], ['velocity', 'VECTOR_FLOAT']])
    const t = zUpCellZeroCentre(density)
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) expect(vdb.matrix[a][b]).toBeCloseTo(a === b ? h : 0, 7)
      expect(vdb.matrix[a][3]).toBeCloseTo(t[a], 6)
    }
    // Blender bounds a volume by its 8^3 leaves (corners at voxel centres): the leaves holding
    // the active cells, which come from Eddy's cell centres rotated to Z up.
    const cells = activeCentres(density).map(zUp)
    const idx = bounds(cells.map((p) => p.map((x, a) => Math.round((x - t[a]) / h))))
    const leafMin = idx.min.map((i, a) => Math.floor(i / 8) * 8 * h + t[a])
    const leafMax = idx.max.map((i, a) => (Math.floor(i / 8) * 8 + 7) * h + t[a])
    leafMin.forEach((x, a) => expect(vdb.bounds.min[a]).toBeCloseTo(x, 5))
    leafMax.forEach((x, a) => expect(vdb.bounds.max[a]).toBeCloseTo(x, 5))
    // The isosurface around the blob: within a voxel of the active cells' centre bounds on
    // every side (Blender 3.4's mesher reports it about half a voxel towards +xyz; a wrong
    // axis or origin would put it many voxels away).
    const cb = bounds(cells)
    expect(vdb.iso.count).toBeGreaterThan(100)
    for (let a = 0; a < 3; a++) {
      expect(Math.abs(vdb.iso.min[a] - cb.min[a])).toBeLessThan(h)
      expect(Math.abs(vdb.iso.max[a] - cb.max[a])).toBeLessThan(h)
    }

    // The liquid's surface: read as a level set (every face of its zero isosurface faces out of
    // the liquid), a sphere of the radius and at the Z-up centre Eddy wrote, within a voxel.
    const ls = r.levelSet as { error: string; grids: string[]; count: number; centre: number[]; radii: number[]; outward: number; faces: number }
    expect(ls.error).toBe('')
    expect([...ls.grids].sort()).toEqual(['surface', 'temperature'])
    expect(ls.count).toBeGreaterThan(200)
    expect(ls.outward).toBe(ls.faces)
    zUp(LS_CENTRE).forEach((x, a) => expect(Math.abs(ls.centre[a] - x)).toBeLessThan(LS_H))
    const meanR = ls.radii.reduce((a, b) => a + b, 0) / ls.radii.length
    expect(Math.abs(meanR - LS_R)).toBeLessThan(LS_H / 2)
    expect(Math.max(...ls.radii.map((x) => Math.abs(x - LS_R)))).toBeLessThan(LS_H)

    // Meshes: every format lands on the same Z-up box.
    const want = bounds(Array.from({ length: box.positions.length / 3 }, (_, i) => zUp(Array.from(box.positions.subarray(3 * i, 3 * i + 3)))))
    const sameBox = (got: { min: number[]; max: number[] }) => {
      want.min.forEach((x, a) => expect(got.min[a]).toBeCloseTo(x, 5))
      want.max.forEach((x, a) => expect(got.max[a]).toBeCloseTo(x, 5))
    }
    const obj = r.obj as { vertices: number; faces: number; bounds: { min: number[]; max: number[] } }
    expect([obj.vertices, obj.faces]).toEqual([24, 12])
    sameBox(obj.bounds)
    const plyMesh = r.plyMesh as typeof obj
    expect([plyMesh.vertices, plyMesh.faces]).toEqual([24, 12])
    sameBox(plyMesh.bounds)
    const plyPoints = r.plyPoints as { vertices: number; points: number[][] }
    expect(plyPoints.vertices).toBe(6)
    plyPoints.points.forEach((p, i) => zUp(Array.from(spray.positions.subarray(3 * i, 3 * i + 3))).forEach((x, a) => expect(p[a]).toBeCloseTo(x, 5)))
    const glb = r.glb as { skipped?: string; vertices?: number; bounds?: { min: number[]; max: number[] }[] }
    if (glb.skipped) console.log(`skipping the GLB part of the Blender interop test: ${glb.skipped}`)
    else {
      expect(glb.vertices).toBe(24)
      sameBox(glb.bounds![0])
    }
  })
})

// Small synthetic frames for the export tests: a smoke volume with a blob (sparse: most cells
// zero), a closed cube mesh with per-vertex normals, a particle set with velocity, id and a
// scalar, and an ExportSource over any of them. Values depend on the frame so files differ.
import type { FrameData, FrameMesh, ParticleSet, Volume } from '../../../src-shared/sim/frame'
import type { ExportSource } from '../../../src-main/export/exportJob'

export const SMOKE_DIMS: [number, number, number] = [20, 24, 16]
export const SMOKE_H = 0.05
export const SMOKE_ORIGIN: [number, number, number] = [-0.5, 0.1, -0.4]

/** Density blob of radius 4 cells around cell (6, 15, 5) + frame; temperature on its core; velocity up and +x. */
export function smokeVolumes(frame: number): Volume[] {
  const [nx, ny, nz] = SMOKE_DIMS
  const density = new Float32Array(nx * ny * nz)
  const temperature = new Float32Array(nx * ny * nz)
  const velocity = new Float32Array(3 * nx * ny * nz)
  const c = [6 + (frame % 4), 15, 5]
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const d2 = (i - c[0]) ** 2 + (j - c[1]) ** 2 + (k - c[2]) ** 2
        if (d2 > 16) continue
        const n = i + nx * (j + ny * k)
        density[n] = 1 - d2 / 20
        if (d2 <= 4) temperature[n] = 300 + d2
        velocity.set([0.5, 2 + 0.1 * j, -0.25], 3 * n)
      }
  const base = { dims: SMOKE_DIMS, voxelSize: SMOKE_H, origin: SMOKE_ORIGIN }
  return [
    { name: 'density', components: 1, ...base, data: density },
    { name: 'temperature', components: 1, ...base, data: temperature },
    { name: 'velocity', components: 3, ...base, data: velocity },
  ]
}

/** Axis-aligned box [min, max], 24 vertices (4 per face, so normals are face normals), 12 triangles. */
export function boxMesh(name: string, min: [number, number, number], max: [number, number, number]): FrameMesh {
  const positions: number[] = []
  const normals: number[] = []
  const indices: number[] = []
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [0, 1]) {
      const u = (axis + 1) % 3, v = (axis + 2) % 3
      const n = [0, 0, 0]
      n[axis] = side ? 1 : -1
      const first = positions.length / 3
      for (const [a, b] of [[0, 0], [1, 0], [1, 1], [0, 1]]) {
        const p = [0, 0, 0]
        p[axis] = side ? max[axis] : min[axis]
        p[u] = a ? max[u] : min[u]
        p[v] = b ? max[v] : min[v]
        positions.push(...p)
        normals.push(...n)
      }
      // Counter-clockwise seen from outside: flip the winding on the negative side.
      indices.push(...(side ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2]).map((x) => x + first))
    }
  }
  return { name, positions: new Float32Array(positions), normals: new Float32Array(normals), indices: new Uint32Array(indices) }
}

export function particleSet(name: string, count: number, frame: number): ParticleSet {
  const positions = new Float32Array(3 * count)
  const velocity = new Float32Array(3 * count)
  const id = new Float32Array(count)
  const age = new Float32Array(count)
  for (let p = 0; p < count; p++) {
    positions.set([0.1 * p, 1 + 0.01 * frame, -0.2 * p], 3 * p)
    velocity.set([1, 2 + p, 3], 3 * p)
    id[p] = 100 + p
    age[p] = frame / 24 + p
  }
  return { name, count, positions, attributes: { velocity: { components: 3, data: velocity }, id: { components: 1, data: id }, age: { components: 1, data: age } } }
}

export function frameOf(frame: number, parts: Partial<Pick<FrameData, 'volumes' | 'meshes' | 'particles'>>): FrameData {
  return { time: (frame - 1) / 24, frame, volumes: parts.volumes ?? [], meshes: parts.meshes ?? [], particles: parts.particles ?? [], stats: {} }
}

/** A source whose read() builds frames on demand and counts the reads. */
export function sourceOf(simName: string, frames: number[], build: (frame: number) => FrameData): ExportSource & { reads: number[] } {
  const reads: number[] = []
  return { simName, fps: 24, frames, reads, read: (f) => (reads.push(f), build(f)) }
}

export const smokeSource = (frames = [1, 2, 3]) => sourceOf('Smoke Plume #1', frames, (f) => frameOf(f, { volumes: smokeVolumes(f) }))
export const liquidSource = (frames = [1, 2, 3]) =>
  sourceOf('liquid', frames, (f) => frameOf(f, { meshes: [boxMesh('surface', [0, 0, 0], [1, 0.5 + 0.1 * f, 2])], particles: [particleSet('spray', 5, f)] }))

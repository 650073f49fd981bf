// Small frames for the cache display tests: a 12x10x9 smoke grid (density, velocity,
// temperature), a tetrahedron without normals, three vortex particles.
import type { FrameData, Volume } from '../../../../src-shared/sim/frame'

export function vol(name: string, dims: [number, number, number], values: number[] | ((i: number) => number), components: 1 | 3 = 1): Volume {
  const n = dims[0] * dims[1] * dims[2] * components
  const data = new Float32Array(n)
  for (let i = 0; i < n; i++) data[i] = typeof values === 'function' ? values(i) : values[i]
  return { name, components, dims, voxelSize: 0.25, origin: [-1, 0, 2], data }
}

export function sampleFrame(): FrameData {
  const dims: [number, number, number] = [12, 10, 9]
  return {
    time: 1.5,
    frame: 37,
    volumes: [
      vol('density', dims, (i) => (i % 5 === 0 ? 0 : ((i * 37) % 101) / 40)),
      vol('velocity', dims, (i) => Math.sin(i), 3),
      vol('temperature', dims, (i) => 293 + ((i * 13) % 71) * 4),
    ],
    meshes: [{ name: 'liquid', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]) }],
    particles: [
      {
        name: 'vortexParticles',
        count: 3,
        positions: new Float32Array([0, 1, 2, 3, 4, 5, 6, 7, 8]),
        attributes: { vorticity: { components: 3, data: new Float32Array([3, 4, 0, 0, 0, 0, 1, 2, 2]) }, radius: { components: 1, data: new Float32Array([0.1, 0.5, 0.2]) } },
      },
    ],
    stats: {},
  }
}

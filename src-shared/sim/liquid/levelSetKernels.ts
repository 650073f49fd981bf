// The markers' kernel splat of the particle level set (levelSet.ts particleLevelSet: Zhu &
// Bridson 2005 sec. 3.2, the weight and weighted position of the markers within R of each cell
// centre) as a kernel-table row, so it runs as this TypeScript reference on the TypeScript
// backend and as its AssemblyScript twin (wasm/assembly/levelSet.ts) split over z-planes of
// cells on the WebAssembly backend's threads.
//
// A call covers cell planes [k0, k1): it zeroes their sums, then goes over every marker in
// order and adds only the cells in its planes, so each cell sums its markers in marker order
// whatever the split (the same bits as one pass, no atomics). Markers within R of a closed
// domain side are mirrored across it (all 2^m combinations for m sides near), so the mean
// position near a wall is not pulled away from the wall (that would read as a dip of the
// surface at every wall, which the pressure would chase forever).
import type { MarkerParticles } from './markers'
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, ptr, size, struct, u8 } from '../core/kernelTable'
import * as kinds from './viscosity'

// Cell kinds in module constants: an imported binding can cost a property load per use.
const AIR = kinds.AIR
const LIQUID = kinds.LIQUID
const SOLID = kinds.SOLID

/** The markers' positions (MarkerParticles' fields of these names). */
export type MarkerPositions = Pick<MarkerParticles, 'px' | 'py' | 'pz'>

/**
 * Adds a marker at (x, y, z) to the kernel sums of the cell centres within R in planes
 * [ka, kb): per cell 4c .. 4c + 3, the weight (1 - s^2)^3 (s = distance / R) and the weighted
 * x, y, z.
 */
function splatKernel(sums: Float64Array, nx: number, ny: number, nz: number, dx: number, o0: number, o1: number, o2: number, x: number, y: number, z: number, R: number, invR2: number, ka: number, kb: number): void {
  // Cell centres (i + 1/2) dx within R of the marker.
  let i0 = Math.ceil((x - R - o0) / dx - 0.5), i1 = Math.floor((x + R - o0) / dx - 0.5)
  let j0 = Math.ceil((y - R - o1) / dx - 0.5), j1 = Math.floor((y + R - o1) / dx - 0.5)
  let k0 = Math.ceil((z - R - o2) / dx - 0.5), k1 = Math.floor((z + R - o2) / dx - 0.5)
  // (x > 0 ? x : 0 also turns a -0 from Math.ceil into 0, like Math.max(0, x).)
  i0 = i0 > 0 ? i0 : 0
  j0 = j0 > 0 ? j0 : 0
  k0 = k0 > 0 ? k0 : 0
  if (i1 > nx - 1) i1 = nx - 1
  if (j1 > ny - 1) j1 = ny - 1
  if (k1 > nz - 1) k1 = nz - 1
  if (i1 === i0 + 1 && j1 === j0 + 1 && k1 === k0 + 1) {
    // Two centres per axis (R = dx: nearly every marker): the eight cells unrolled, each
    // offset and square computed once; same expressions as the loop below, so same bits.
    const lo = k0 >= ka && k0 < kb, up = k1 >= ka && k1 < kb
    if (!lo && !up) return
    const ax0 = o0 + (i0 + 0.5) * dx - x, ax1 = o0 + (i1 + 0.5) * dx - x
    const ay0 = o1 + (j0 + 0.5) * dx - y, ay1 = o1 + (j1 + 0.5) * dx - y
    const az0 = o2 + (k0 + 0.5) * dx - z, az1 = o2 + (k1 + 0.5) * dx - z
    const xx0 = ax0 * ax0, xx1 = ax1 * ax1, yy0 = ay0 * ay0, yy1 = ay1 * ay1, zz0 = az0 * az0, zz1 = az1 * az1
    const c = i0 + nx * (j0 + ny * k0)
    const plane = nx * ny
    if (lo) {
      addKernel(sums, 4 * c, (xx0 + yy0 + zz0) * invR2, x, y, z)
      addKernel(sums, 4 * (c + 1), (xx1 + yy0 + zz0) * invR2, x, y, z)
      addKernel(sums, 4 * (c + nx), (xx0 + yy1 + zz0) * invR2, x, y, z)
      addKernel(sums, 4 * (c + nx + 1), (xx1 + yy1 + zz0) * invR2, x, y, z)
    }
    if (up) {
      addKernel(sums, 4 * (c + plane), (xx0 + yy0 + zz1) * invR2, x, y, z)
      addKernel(sums, 4 * (c + plane + 1), (xx1 + yy0 + zz1) * invR2, x, y, z)
      addKernel(sums, 4 * (c + plane + nx), (xx0 + yy1 + zz1) * invR2, x, y, z)
      addKernel(sums, 4 * (c + plane + nx + 1), (xx1 + yy1 + zz1) * invR2, x, y, z)
    }
    return
  }
  if (k0 < ka) k0 = ka
  if (k1 > kb - 1) k1 = kb - 1
  for (let k = k0; k <= k1; k++) {
    const dz = o2 + (k + 0.5) * dx - z
    const dz2 = dz * dz
    for (let j = j0; j <= j1; j++) {
      const dy = o1 + (j + 0.5) * dx - y
      const dy2 = dy * dy
      let c = i0 + nx * (j + ny * k)
      for (let i = i0; i <= i1; i++, c++) {
        const dxx = o0 + (i + 0.5) * dx - x
        addKernel(sums, 4 * c, (dxx * dxx + dy2 + dz2) * invR2, x, y, z)
      }
    }
  }
}

/** One cell's share of a marker at squared kernel distance s2 (s^2 / R^2) at sums[a .. a + 3]. */
function addKernel(sums: Float64Array, a: number, s2: number, x: number, y: number, z: number): void {
  if (s2 >= 1) return
  // Zhu & Bridson 2005 kernel k(s) = max(0, (1 - s^2)^3).
  const t = 1 - s2
  const wq = t * t * t
  sums[a] += wq
  sums[a + 1] += wq * x
  sums[a + 2] += wq * y
  sums[a + 3] += wq * z
}

/**
 * The kernel sums of markers [0, count) and their mirrors across the closed sides (closed: 1
 * per closed side, xMin, xMax, yMin, yMax, zMin, zMax) within R, cell planes [k0, k1).
 */
export function levelSetSplatSlab(
  P: MarkerPositions,
  sums: Float64Array,
  count: number,
  closed: Uint8Array,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  lo0: number,
  lo1: number,
  lo2: number,
  R: number,
  _codes: Uint8Array | null,
  _shift: number,
  k0: number,
  k1: number,
): void {
  // (codes and shift, splatKernels.ts markerPlanesSlab's, only let the twin pass over markers
  // that reach none of its planes sixteen at a time; every marker here is tested itself.)
  sums.fill(0, 4 * k0 * nx * ny, 4 * k1 * nx * ny)
  const { px, py, pz } = P
  const invR2 = 1 / (R * R)
  const hi0 = lo0 + nx * dx, hi1 = lo1 + ny * dx, hi2 = lo2 + nz * dx
  const c0 = closed[0], c1 = closed[1], c2 = closed[2], c3 = closed[3], c4 = closed[4], c5 = closed[5]
  for (let q = 0; q < count; q++) {
    const x = px[q], y = py[q], z = pz[q]
    const mx = c0 && x - lo0 < R ? 2 * lo0 - x : c1 && hi0 - x < R ? 2 * hi0 - x : NaN
    const my = c2 && y - lo1 < R ? 2 * lo1 - y : c3 && hi1 - y < R ? 2 * hi1 - y : NaN
    const mz = c4 && z - lo2 < R ? 2 * lo2 - z : c5 && hi2 - z < R ? 2 * hi2 - z : NaN
    if (mx !== mx && my !== my && mz !== mz) {
      // No wall within R (most markers): just the marker itself.
      if (x === x && y === y && z === z) splatKernel(sums, nx, ny, nz, dx, lo0, lo1, lo2, x, y, z, R, invR2, k0, k1)
      continue
    }
    for (let m = 0; m < 8; m++) {
      const X = m & 1 ? mx : x, Y = m & 2 ? my : y, Z = m & 4 ? mz : z
      if (X !== X || Y !== Y || Z !== Z) continue
      splatKernel(sums, nx, ny, nz, dx, lo0, lo1, lo2, X, Y, Z, R, invR2, k0, k1)
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** levelSetSplatSlab over cell planes [0, nz). */
export const LEVEL_SET_SPLAT = defineKernel({
  name: 'levelSetSplat',
  args: [
    struct('P', { px: 'f32', py: 'f32', pz: 'f32' }),
    ptr('sums', 'f64'),
    int('count'),
    ptr('closed', 'u8', { stage: () => 6 }),
    int('nx'),
    int('ny'),
    int('nz'),
    float('dx'),
    float('lo0'),
    float('lo1'),
    float('lo2'),
    float('R'),
    // Plane codes (splatKernels.ts MARKER_PLANES) and their shift, or null and 0.
    u8('codes', true),
    int('shift'),
    // Cumulative markers per cell plane (splatKernels.ts), or null.
    size('balance'),
  ],
  split: 'planes',
  range: (a) => num(a, 6),
  // About eight cells a marker.
  work: (a) => 8 * num(a, 2),
  balance: (a) => a[14] as Float64Array | null,
  ref: levelSetSplatSlab,
})

/**
 * The level set and the cells' labels from the kernel sums (levelSet.ts particleLevelSet), cell
 * planes [k0, k1): phi = |x - xbar| - r capped at band; `distance` the same estimate with its
 * zero at rm (the markers' boundary); a cell not solid is liquid where phi < 0 or at least
 * minCount markers sit in it, and its phi is kept on its side of the surface by eps. Each cell
 * reads and writes only itself.
 */
export function levelSetPhiSlab(
  sums: Float64Array,
  count: Int32Array,
  kind: Uint8Array,
  phi: Float32Array,
  distance: Float32Array,
  nx: number,
  ny: number,
  dx: number,
  o0: number,
  o1: number,
  o2: number,
  r: number,
  rm: number,
  band: number,
  eps: number,
  minCount: number,
  k0: number,
  k1: number,
): void {
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        let v = band
        let vm = band
        const wc = sums[4 * c]
        if (wc > 0) {
          // phi = |x - xbar| - r, xbar the kernel-weighted mean of the nearby markers.
          const ax = o0 + (i + 0.5) * dx - sums[4 * c + 1] / wc
          const ay = o1 + (j + 0.5) * dx - sums[4 * c + 2] / wc
          const az = o2 + (k + 0.5) * dx - sums[4 * c + 3] / wc
          const dist = Math.sqrt(ax * ax + ay * ay + az * az)
          v = Math.min(dist - r, band)
          vm = Math.min(dist - rm, band)
        }
        distance[c] = vm
        if (kind[c] !== SOLID) kind[c] = v < 0 || count[c] >= minCount ? LIQUID : AIR
        phi[c] = kind[c] === LIQUID ? (v < 0 ? v : -eps) : v < eps ? eps : v
      }
    }
  }
}

/** levelSetPhiSlab over the cell planes [0, nz). */
export const LEVEL_SET_PHI = defineKernel({
  name: 'levelSetPhi',
  args: [f64('sums'), i32('count'), u8('kind'), f32('phi'), f32('distance'), int('nx'), int('ny'), float('dx'), float('o0'), float('o1'), float('o2'), float('r'), float('rm'), float('band'), float('eps'), int('minCount'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 16),
  work: (a) => num(a, 5) * num(a, 6) * num(a, 16),
  ref: levelSetPhiSlab,
})

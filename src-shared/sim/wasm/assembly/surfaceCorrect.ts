// The tracked surface's correction by the markers (reference: src-shared/sim/liquid/
// surfaceCorrectKernel.ts liftUnreachedSlab, correctSurfaceSlab, solidMeanSlab): the markers'
// pass ordered, the cell passes by planes, the same float64 expressions
// in the same order (lerpLattice from stencil.ts, float32 phi promoted on load and rounded on
// store), index bounds kept in float64 until they are known to be in range, so NaN and
// infinite positions visit no cell, as in the reference's loops.
import { rf32, wf32 } from './common'
import { lerpLattice } from './stencil'

const SOLID: u8 = 2

@inline function notSolid(kind: usize, c: i32): bool {
  return load<u8>(kind + <usize>c) != SOLID
}

/** liftUnreachedSlab over cell planes [k0, k1). */
export function liftUnreached(phi: usize, sums: usize, kind: usize, far: f64, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) {
    if (load<f64>(sums + (<usize>c << 5)) == 0 && rf32(phi, c) < far && notSolid(kind, c)) wf32(phi, c, far)
  }
}

// surfaceCorrectKernel.ts's copy of speedKernel.ts SPEED_BLOCK (markers per block).
const SPEED_BLOCK: i32 = 16384

/** escapeCandidatesSlab over blocks [b0, b1). */
export function escapeCandidates(
  px: usize, py: usize, pz: usize, phi: usize,
  markers: i32, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64, rp: f64, flags: usize, partial: usize,
  b0: i32, b1: i32,
): void {
  const inv = 1 / dx
  for (let b = b0; b < b1; b++) {
    const end = min(markers, (b + 1) * SPEED_BLOCK)
    let n: i32 = 0
    for (let q = b * SPEED_BLOCK; q < end; q++) {
      const gx = (rf32(px, q) - ox) * inv - 0.5, gy = (rf32(py, q) - oy) * inv - 0.5, gz = (rf32(pz, q) - oz) * inv - 0.5
      const escaped: i32 = lerpLattice(phi, nx, ny, nz, gx, gy, gz) > rp ? 1 : 0
      store<u8>(flags + <usize>q, <u8>escaped)
      n += escaped
    }
    store<f64>(partial + (<usize>b << 3), <f64>n)
  }
}

/** correctSurfaceSlab (k0 < k1: the row's one index). */
export function correctSurface(
  px: usize, py: usize, pz: usize, phi: usize,
  markers: i32, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64, rp: f64, band: f64, flags: usize, partial: usize,
  k0: i32, k1: i32,
): void {
  if (!(k0 < k1)) return
  const blocks = (markers + SPEED_BLOCK - 1) / SPEED_BLOCK
  for (let b = 0; b < blocks; b++) {
    if (load<f64>(partial + (<usize>b << 3)) == 0) continue
    const end = min(markers, (b + 1) * SPEED_BLOCK)
    for (let q = b * SPEED_BLOCK; q < end; q++) {
      if (load<u8>(flags + <usize>q) != 0) correctBy(rf32(px, q), rf32(py, q), rf32(pz, q), phi, nx, ny, nz, dx, ox, oy, oz, rp, band)
    }
  }
}

/** surfaceCorrectKernel.ts correctBy: one candidate marker. */
@inline function correctBy(x: f64, y: f64, z: f64, phi: usize, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64, rp: f64, band: f64): void {
  const inv = 1 / dx
  const fnx1 = <f64>(nx - 1), fny1 = <f64>(ny - 1), fnz1 = <f64>(nz - 1)
  const gx = (x - ox) * inv - 0.5, gy = (y - oy) * inv - 0.5, gz = (z - oz) * inv - 0.5
  const at = lerpLattice(phi, nx, ny, nz, gx, gy, gz)
  if (!(at > rp)) return
  const reach = rp + dx
  let i0 = Math.ceil(gx - reach * inv), i1 = Math.floor(gx + reach * inv)
  let j0 = Math.ceil(gy - reach * inv), j1 = Math.floor(gy + reach * inv)
  let k0f = Math.ceil(gz - reach * inv), k1f = Math.floor(gz + reach * inv)
  i0 = i0 > 0 ? i0 : 0
  j0 = j0 > 0 ? j0 : 0
  k0f = k0f > 0 ? k0f : 0
  if (i1 > fnx1) i1 = fnx1
  if (j1 > fny1) j1 = fny1
  if (k1f > fnz1) k1f = fnz1
  // Empty (or non-finite) ranges visit nothing, as the reference's loops.
  if (!(i0 <= i1 && j0 <= j1 && k0f <= k1f)) return
  const ia = <i32>i0, ib = <i32>i1, ja = <i32>j0, jb = <i32>j1, ka = <i32>k0f, kb = <i32>k1f
  for (let k = ka; k <= kb; k++) {
    const dz = oz + (<f64>k + 0.5) * dx - z
    for (let j = ja; j <= jb; j++) {
      const dy = oy + (<f64>j + 0.5) * dx - y
      let c = ia + nx * (j + ny * k)
      for (let i = ia; i <= ib; i++, c++) {
        const dxx = ox + (<f64>i + 0.5) * dx - x
        const s = Math.sqrt(dxx * dxx + dy * dy + dz * dz) - rp
        if (s < rf32(phi, c)) wf32(phi, c, s > -band ? s : -band)
      }
    }
  }
}

/** solidMeanSlab over cell planes [k0, k1). */
export function solidMean(phi: usize, kind: usize, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32): void {
  const plane = nx * ny
  let c = k0 * plane
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        if (notSolid(kind, c)) continue
        let sum: f64 = 0
        let m = 0
        if (i > 0 && notSolid(kind, c - 1)) {
          sum += rf32(phi, c - 1)
          m++
        }
        if (i < nx - 1 && notSolid(kind, c + 1)) {
          sum += rf32(phi, c + 1)
          m++
        }
        if (j > 0 && notSolid(kind, c - nx)) {
          sum += rf32(phi, c - nx)
          m++
        }
        if (j < ny - 1 && notSolid(kind, c + nx)) {
          sum += rf32(phi, c + nx)
          m++
        }
        if (k > 0 && notSolid(kind, c - plane)) {
          sum += rf32(phi, c - plane)
          m++
        }
        if (k < nz - 1 && notSolid(kind, c + plane)) {
          sum += rf32(phi, c + plane)
          m++
        }
        if (m > 0) wf32(phi, c, sum / <f64>m)
      }
    }
  }
}

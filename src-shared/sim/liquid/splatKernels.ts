// The markers -> grid splat (transfer.ts toGrid) as a kernel-table row, so it runs as this
// TypeScript reference on the TypeScript backend and as its AssemblyScript twin
// (wasm/assembly/splat.ts) split over z-planes on the WebAssembly backend's threads.
//
// A call covers lattice planes [k0, k1) of all four lattices at once (u, v, w faces and cell
// centres; the range is nz + 1, the w faces' plane count): it zeroes their accumulators, loops
// over every marker in order adding only the samples in its planes, and turns them into
// weighted means. So every sample sums its markers in marker order whatever the split, and
// the result is the same bits as one pass over everything (no atomics, no per-thread copies).
// Each thread reads every marker's position but splats only the ~1/threads that reach its
// planes; a marker reaches two planes of each lattice.
//
// The splat of one value is trilinear: sample (i, j, k) of a marker at lattice coordinates
// (gx, gy, gz) gets weight wx (wy wz), and with APIC (Jiang et al. 2015 eq. 11 per component)
// the value v_p + C_p (x_i - x_p), x_i - x_p = dx ((i, j, k) - (gx, gy, gz)). Zero weights are
// skipped. A weight sum below 1e-6 (a marker on the far corner of the stencil) is too noisy to
// trust: that sample gets 0 and mark 0.
//
// The temperature residual's splat (transfer.ts temperatureResidual) is a second row of the
// same shape over the cell lattice alone: each marker within reach splats T_p - t_old(x_p).
//
// Both take an optional balance (kernelTable.ts): the cumulative markers per cell plane
// (liquidSolver.ts planeWork), so each thread gets as many markers as the other, not as many
// planes (the liquid lies in the lower ones).
import type { MarkerParticles } from './markers'
import { defineKernel, f32, float, GRID_PLACEMENT, int, type KernelArgs, ptr, size, struct, u8 } from '../core/kernelTable'
import type { MacGrid } from '../core/grid'
import type { KernelBackend } from '../core/kernelTypes'
import * as sample from './sample'

/** The splat accumulators: per sample, sum of w v at 2c and sum of w at 2c + 1. */
export interface SplatSums {
  su: Float64Array
  sv: Float64Array
  sw: Float64Array
  sc: Float64Array
}

/** The markers' arrays the splat reads (MarkerParticles' fields of these names). */
export type SplatMarkers = Pick<MarkerParticles, 'px' | 'py' | 'pz' | 'vx' | 'vy' | 'vz' | 'temp' | 'c'>

/** Where the means go: face velocities, cell temperatures and their marks. */
export interface SplatMarks {
  mu: Uint8Array
  mv: Uint8Array
  mw: Uint8Array
  mt: Uint8Array
}

/**
 * Splat of one marker value into lattice sx * sy * sz (row sx, plane sx sy) at lattice
 * coordinates (gx, gy, gz), planes [ka, kb) only; with `affine`, sample (i, j, k) gets
 * value + a . ((i, j, k) - (gx, gy, gz)), a = (ax, ay, az) the value's gradient times dx.
 * `finite`: the caller knows value, ax, ay, az are finite float32 values, so every corner's
 * value is finite and a corner of weight 0 (a marker on a lattice plane) would add +-0 to its
 * sums, which changes no bits: the eight corners are then added without testing each weight
 * (no branch per corner: about three times faster in WebAssembly). Otherwise a corner of
 * weight 0 is skipped, so an infinite value cannot turn it into NaN.
 */
export function splatPlanes(s: Float64Array, sx: number, sy: number, sz: number, gx: number, gy: number, gz: number, value: number, affine: boolean, ax: number, ay: number, az: number, ka: number, kb: number, finite = false): void {
  const i0 = Math.floor(gx), j0 = Math.floor(gy), k0 = Math.floor(gz)
  const lo = k0 >= ka && k0 < kb
  const up = k0 + 1 >= ka && k0 + 1 < kb
  if (!lo && !up) return
  const tx = gx - i0, ty = gy - j0, tz = gz - k0
  // Value at the lower corner (the plain value without APIC).
  const v0 = affine ? value - ax * tx - ay * ty - az * tz : value
  if (i0 >= 0 && j0 >= 0 && k0 >= 0 && i0 < sx - 1 && j0 < sy - 1 && k0 < sz - 1) {
    // All eight samples inside (nearly every marker): unrolled, the same weights and products
    // as the general loop below (w = wx (wy wz)).
    const ux = 1 - tx, uy = 1 - ty, uz = 1 - tz
    const a = 2 * (i0 + sx * (j0 + sy * k0))
    const y1 = 2 * sx, z1 = 2 * sx * sy
    const ex = affine ? ax : 0
    const vy = affine ? v0 + ay : value
    const vz = affine ? v0 + az : value
    const vyz = affine ? vy + az : value
    const c0 = v0, c1 = affine ? v0 + ex : value, c2 = vy, c3 = affine ? vy + ex : value
    const c4 = vz, c5 = affine ? vz + ex : value, c6 = vyz, c7 = affine ? vyz + ex : value
    let wyz: number, w: number
    if (finite) {
      if (lo) {
        wyz = uy * uz
        w = ux * wyz
        ;(s[a] += w * c0), (s[a + 1] += w)
        w = tx * wyz
        ;(s[a + 2] += w * c1), (s[a + 3] += w)
        wyz = ty * uz
        w = ux * wyz
        ;(s[a + y1] += w * c2), (s[a + y1 + 1] += w)
        w = tx * wyz
        ;(s[a + y1 + 2] += w * c3), (s[a + y1 + 3] += w)
      }
      if (up) {
        wyz = uy * tz
        w = ux * wyz
        ;(s[a + z1] += w * c4), (s[a + z1 + 1] += w)
        w = tx * wyz
        ;(s[a + z1 + 2] += w * c5), (s[a + z1 + 3] += w)
        wyz = ty * tz
        w = ux * wyz
        ;(s[a + z1 + y1] += w * c6), (s[a + z1 + y1 + 1] += w)
        w = tx * wyz
        ;(s[a + z1 + y1 + 2] += w * c7), (s[a + z1 + y1 + 3] += w)
      }
      return
    }
    if (lo) {
      wyz = uy * uz
      w = ux * wyz
      if (w !== 0) (s[a] += w * c0), (s[a + 1] += w)
      w = tx * wyz
      if (w !== 0) (s[a + 2] += w * c1), (s[a + 3] += w)
      wyz = ty * uz
      w = ux * wyz
      if (w !== 0) (s[a + y1] += w * c2), (s[a + y1 + 1] += w)
      w = tx * wyz
      if (w !== 0) (s[a + y1 + 2] += w * c3), (s[a + y1 + 3] += w)
    }
    if (up) {
      wyz = uy * tz
      w = ux * wyz
      if (w !== 0) (s[a + z1] += w * c4), (s[a + z1 + 1] += w)
      w = tx * wyz
      if (w !== 0) (s[a + z1 + 2] += w * c5), (s[a + z1 + 3] += w)
      wyz = ty * tz
      w = ux * wyz
      if (w !== 0) (s[a + z1 + y1] += w * c6), (s[a + z1 + y1 + 1] += w)
      w = tx * wyz
      if (w !== 0) (s[a + z1 + y1 + 2] += w * c7), (s[a + z1 + y1 + 3] += w)
    }
    return
  }
  for (let dk = 0; dk < 2; dk++) {
    const k = k0 + dk
    if (k < 0 || k >= sz || k < ka || k >= kb) continue
    const wz = dk ? tz : 1 - tz
    for (let dj = 0; dj < 2; dj++) {
      const j = j0 + dj
      if (j < 0 || j >= sy) continue
      const wyz = (dj ? ty : 1 - ty) * wz
      const vjk = affine ? v0 + dj * ay + dk * az : value
      for (let di = 0; di < 2; di++) {
        const i = i0 + di
        if (i < 0 || i >= sx) continue
        const w = (di ? tx : 1 - tx) * wyz
        if (w === 0) continue
        const c = 2 * (i + sx * (j + sy * k))
        s[c] += w * (affine ? vjk + di * ax : value)
        s[c + 1] += w
      }
    }
  }
}

/** Weighted means of samples [c0, c1) of one lattice into out, mark 1 where a marker reached. */
function resolveRange(s: Float64Array, out: Float32Array, mark: Uint8Array, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    const weight = s[2 * c + 1]
    if (weight > 1e-6) {
      out[c] = s[2 * c] / weight
      mark[c] = 1
    } else {
      out[c] = 0
      mark[c] = 0
    }
  }
}

/**
 * Splats markers [0, count) onto planes [k0, k1) of the four lattices (see the file comment):
 * velocities onto vel's faces (APIC when `affine`: P.c holds C_p), temperatures onto temp's
 * cells, with their marks. dx, origin: the grid's.
 */
export function splatMarkersSlab(
  P: SplatMarkers,
  S: SplatSums,
  vel: Pick<MacGrid, 'u' | 'v' | 'w'>,
  temp: Float32Array,
  M: SplatMarks,
  count: number,
  affine: number,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  _codes: Uint8Array | null,
  _shift: number,
  k0: number,
  k1: number,
): void {
  // (codes and shift, markerPlanesSlab's, only let the twin pass over markers that reach none
  // of its planes sixteen at a time; every marker here is tested by splatPlanes itself.)
  const A = affine !== 0
  const inv = 1 / dx
  const { px, py, pz, vx, vy, vz, c: C } = P
  const T = P.temp
  const { su, sv, sw, sc } = S
  // Plane ranges per lattice: u, v and cells have nz planes, w nz + 1.
  const kc = Math.min(k1, nz)
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pc = nx * ny
  su.fill(0, 2 * k0 * pu, 2 * kc * pu)
  sv.fill(0, 2 * k0 * pv, 2 * kc * pv)
  sw.fill(0, 2 * k0 * pc, 2 * k1 * pc)
  sc.fill(0, 2 * k0 * pc, 2 * kc * pc)
  for (let q = 0; q < count; q++) {
    const X = (px[q] - ox) * inv
    const Y = (py[q] - oy) * inv
    const Z = (pz[q] - oz) * inv
    const o = 9 * q
    const ux = vx[q], uy = vy[q], uz = vz[q], ut = T[q]
    // Finite float32 inputs: splatPlanes may add corners without testing their weights.
    let spread = ux - ux + (uy - uy) + (uz - uz) + (ut - ut)
    if (A) {
      const c0 = C[o], c1 = C[o + 1], c2 = C[o + 2], c3 = C[o + 3], c4 = C[o + 4], c5 = C[o + 5], c6 = C[o + 6], c7 = C[o + 7], c8 = C[o + 8]
      spread += c0 - c0 + (c1 - c1) + (c2 - c2) + (c3 - c3) + (c4 - c4) + (c5 - c5) + (c6 - c6) + (c7 - c7) + (c8 - c8)
      const finite = spread === 0
      // C_p (x_i - x_p) with x_i - x_p = dx (lattice offset): the gradient rows times dx.
      splatPlanes(su, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5, ux, true, dx * c0, dx * c1, dx * c2, k0, kc, finite)
      splatPlanes(sv, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5, uy, true, dx * c3, dx * c4, dx * c5, k0, kc, finite)
      splatPlanes(sw, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z, uz, true, dx * c6, dx * c7, dx * c8, k0, k1, finite)
    } else {
      const finite = spread === 0
      splatPlanes(su, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5, ux, false, 0, 0, 0, k0, kc, finite)
      splatPlanes(sv, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5, uy, false, 0, 0, 0, k0, kc, finite)
      splatPlanes(sw, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z, uz, false, 0, 0, 0, k0, k1, finite)
    }
    splatPlanes(sc, nx, ny, nz, X - 0.5, Y - 0.5, Z - 0.5, ut, false, 0, 0, 0, k0, kc, spread === 0)
  }
  resolveRange(su, vel.u, M.mu, k0 * pu, kc * pu)
  resolveRange(sv, vel.v, M.mv, k0 * pv, kc * pv)
  resolveRange(sw, vel.w, M.mw, k0 * pc, k1 * pc)
  resolveRange(sc, temp, M.mt, k0 * pc, kc * pc)
}

/** The markers' arrays the residual splat reads. */
export type ResidualMarkers = Pick<MarkerParticles, 'px' | 'py' | 'pz' | 'temp'>

// Imported functions used per marker, copied into module constants (see particleMotion.ts).
const cellOf = sample.cellOf

/**
 * Cell planes [k0, k1) of the unresolved temperature (transfer.ts temperatureResidual): the
 * weighted mean of T_p - t_old(x_p) over the markers in cells with reach (0: the grid's
 * velocity was not extended there), into resid and mark; sums: the cells' splat accumulators.
 */
export function tempResidualSlab(
  P: ResidualMarkers,
  sums: Float64Array,
  tempOld: Float32Array,
  reach: Uint8Array,
  resid: Float32Array,
  mark: Uint8Array,
  count: number,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  k0: number,
  k1: number,
): void {
  const pc = nx * ny
  sums.fill(0, 2 * k0 * pc, 2 * k1 * pc)
  const { px, py, pz } = P
  const T = P.temp
  const inv = 1 / dx
  // One stencil per call (not per marker): its fields are this call's scratch.
  const st = new sample.MacStencil(nx, ny, nz)
  for (let q = 0; q < count; q++) {
    const X = (px[q] - ox) * inv
    const Y = (py[q] - oy) * inv
    const Z = (pz[q] - oz) * inv
    if (reach[cellOf(X, Y, Z, nx, ny, nz)] === 0) continue
    st.at(X, Y, Z)
    splatPlanes(sums, nx, ny, nz, X - 0.5, Y - 0.5, Z - 0.5, T[q] - st.cell(tempOld), false, 0, 0, 0, k0, k1)
  }
  resolveRange(sums, resid, mark, k0 * pc, k1 * pc)
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** tempResidualSlab over cell planes [0, nz). */
export const TEMP_RESIDUAL = defineKernel({
  name: 'tempResidual',
  args: [
    struct('P', { px: 'f32', py: 'f32', pz: 'f32', temp: 'f32' }),
    ptr('sums', 'f64'),
    f32('tempOld'),
    u8('reach'),
    f32('resid'),
    u8('mark'),
    int('count'),
    ...GRID_PLACEMENT,
    size('balance'),
  ],
  split: 'planes',
  range: (a) => num(a, 9),
  // Each thread reads every marker; eight samples and eight splats a marker.
  work: (a) => 16 * num(a, 6),
  balance: (a) => a[14] as Float64Array | null,
  ref: tempResidualSlab,
})

/**
 * Each marker's lattice plane for the splat's pieces, coarsened to a byte: s = floor(Z - 1/2)
 * + 2 (Z = (z - oz) / dx, computed as the splat does), codes[q] = s >> shift where 0 <= s <=
 * nz + 2, else 255 (NaN, far below or above: planes no piece has). A splat over planes [k0,
 * k1) needs the markers with s in [k0, k1 + 1] (its own test: floor(Z - 1/2) + 2 >= k0 and
 * floor(Z - 1/2) < k1), so those whose code lies in [k0 >> shift, (k1 + 1) >> shift] are a
 * superset of them. Its twin reads sixteen codes at a time and skips the groups with none in
 * range: each piece of a splat otherwise read and tested every marker's z (about 1.5 ms a
 * piece for a million markers), which made more pieces, and so better balance between the
 * threads, cost more than they saved.
 */
export function markerPlanesSlab(pz: Float32Array, codes: Uint8Array, dx: number, oz: number, shift: number, q0: number, q1: number): void {
  const inv = 1 / dx
  const top = Math.min(254 << shift, 0x7fffffff)
  for (let q = q0; q < q1; q++) {
    const s = Math.floor((pz[q] - oz) * inv - 0.5) + 2
    codes[q] = s >= 0 && s <= top ? s >> shift : 255
  }
}

/** The smallest shift that codes every plane of an nz-plane grid below 255 (markerPlanesSlab). */
export function planeCodeShift(nz: number): number {
  let shift = 0
  while ((nz + 2) >> shift >= 255) shift++
  return shift
}

/**
 * A marker set's plane codes for the splats (markerPlanesSlab), rewritten by update() before
 * each splat. Only the WebAssembly twins read them (the references test every marker
 * themselves), so on the TypeScript backend update() writes nothing and returns null.
 */
export class MarkerPlaneCodes {
  private codes: Uint8Array = new Uint8Array(0)
  /** The last update's shift (planeCodeShift of its grid). */
  shift = 0

  constructor(private readonly kernels: KernelBackend) {}

  /** The codes of p's markers on a grid of nz cell planes from oz, dx apart; null on TypeScript. */
  update(p: Pick<MarkerParticles, 'pz' | 'count' | 'capacity'>, nz: number, dx: number, oz: number): Uint8Array | null {
    if (this.kernels.kind !== 'wasm') return null
    if (this.codes.length < p.count) this.codes = this.kernels.u8(p.capacity)
    this.shift = planeCodeShift(nz)
    this.kernels.run(MARKER_PLANES, p.pz, this.codes, dx, oz, this.shift, p.count)
    return this.codes
  }
}

/** markerPlanesSlab over markers [0, count). Args: pz, codes, dx, oz, shift, count. */
export const MARKER_PLANES = defineKernel({
  name: 'markerPlanes',
  args: [f32('pz'), u8('codes'), float('dx'), float('oz'), int('shift'), size('count')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: (a) => num(a, 5),
  ref: markerPlanesSlab,
})

/** splatMarkersSlab over planes [0, nz + 1). */
export const SPLAT_MARKERS = defineKernel({
  name: 'splatMarkers',
  args: [
    struct('P', { px: 'f32', py: 'f32', pz: 'f32', vx: 'f32', vy: 'f32', vz: 'f32', temp: 'f32', c: 'f32' }),
    struct('S', { su: 'f64', sv: 'f64', sw: 'f64', sc: 'f64' }),
    struct('vel', { u: 'f32', v: 'f32', w: 'f32' }),
    f32('temp'),
    struct('M', { mu: 'u8', mv: 'u8', mw: 'u8', mt: 'u8' }),
    int('count'),
    int('affine'),
    ...GRID_PLACEMENT,
    u8('codes', true),
    int('shift'),
    size('balance'),
  ],
  split: 'planes',
  range: (a) => num(a, 9) + 1,
  // About 32 samples a marker in all.
  work: (a) => 32 * num(a, 5),
  balance: (a) => a[16] as Float64Array | null,
  // Pieces taken as threads finish: the balance counts cells, the cost is markers near them
  // (each piece passes over the markers' plane codes, 16 a step). Six a thread, not three:
  // started with begin() (liquidSolver.ts, before the rigid step), the calling thread joins
  // late and takes the last pieces, and the other threads wait out the last one it takes
  // (gears and bunnies: toGrid 142-145 -> 136-140 ms/frame).
  piecesPerThread: 6,
  ref: splatMarkersSlab,
})

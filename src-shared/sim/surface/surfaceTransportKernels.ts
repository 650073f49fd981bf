// The surface transport's two passes (surfaceTransport.ts) as kernel rows over patches, so they
// run as these TypeScript references on the TypeScript backend (the live viewport's worker) and
// as their AssemblyScript twins (wasm/assembly/surfaceTransport.ts) split over the bake's
// threads. They were the largest TypeScript share of a step (0.15 s of 0.69 at 450 x 32^2).
//
// A patch is independent within a substep: its cells' change comes from its own faces alone
// (a face on its edge reads the neighbour's value through the ghost layer, which no patch
// writes until the substep's ghost fill), and it writes only its own real cells. So each patch
// gathers its cells' change and applies it in place, and any split over patches gives the same
// bits. The gather adds each cell's four face terms in the order the earlier scatter did
// (left x-face, right x-face, lower y-face, upper y-face, a face with zero flux skipped), so
// the result is also the same bits as that single pass over all faces.
import { f64, float, int, scratch, size } from '../core/kernelTable'
import { patchRow } from './patchRow'

/** CFL bound per substep: no cell sends out more than this share of its content. */
export const TRANSPORT_CFL = 0.5

export function minmod(a: number, b: number): number {
  if (a > 0 && b > 0) return a < b ? a : b
  if (a < 0 && b < 0) return a > b ? a : b
  return 0
}

/**
 * partial[p] = the largest outflow rate of patch p's cells over [p0, p1): the sum of the
 * fluxes leaving a cell over its content per unit density, (sum of out-fluxes) / (sqrt(g) h)
 * (1/s). NaN fluxes are passed over, as the single pass's `>` did.
 */
export function surfaceOutflowPatches(fx: Float64Array, fy: Float64Array, sqrtG: Float64Array, N: number, h: number, partial: Float64Array, p0: number, p1: number): void {
  const rowC = N + 2, rowX = N + 3
  for (let p = p0; p < p1; p++) {
    let worst = 0
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1)
      const y0 = p * rowC * rowX + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) {
        const out = Math.max(0, -fx[x0 + i]) + Math.max(0, fx[x0 + i + 1]) + Math.max(0, -fy[y0 + i]) + Math.max(0, fy[y0 + i + rowC])
        const o = out / (sqrtG[c0 + i] * h)
        if (o > worst) worst = o
      }
    }
    partial[p] = worst
  }
}

/**
 * The MUSCL face value times the flux: what face F moves from cell lo to cell hi over dt
 * (dt h F rho_face, rho_face the upstream value plus half its limited slope; on a patch's
 * edge the upstream value alone). lo2 and hi2 are the cells beyond lo and hi along the axis.
 */
function faceMass(s: Float64Array, F: number, lo: number, hi: number, lo2: number, hi2: number, edge: boolean, dth: number): number {
  let r: number
  if (F > 0) r = s[lo] + (edge ? 0 : 0.5 * minmod(s[lo] - s[lo2], s[hi] - s[lo]))
  else r = s[hi] + (edge ? 0 : 0.5 * minmod(s[hi] - s[hi2], s[lo] - s[hi]))
  return dth * F * r
}

/**
 * One forward-Euler substep of the conservative transport of s (ghosts filled) over dt for
 * patches [p0, p1): each real cell gains the mass its faces move in, less what they move out,
 * over its content sqrt(g) h^2. change holds the cells' changes (a whole cell array; each patch
 * writes its own cells). The ghosts are left for the caller's fill. Each face's mass is formed
 * once: an x-face's is carried along the row as the next cell's left face, a y-face's in
 * `below` (N entries) from the row under it to the row above (s does not change until every
 * row's change is in).
 */
export function surfaceTransportPatches(s: Float64Array, fx: Float64Array, fy: Float64Array, sqrtG: Float64Array, change: Float64Array, below: Float64Array, N: number, dt: number, h: number, p0: number, p1: number): void {
  const rowC = N + 2, rowX = N + 3
  const dth = dt * h
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1)
      const y0 = p * rowC * rowX + 1 + rowC * (j + 1)
      const edgeHigh = j === N - 1
      // The x-face left of cell i, carried along the row as the right face of cell i - 1.
      let F = fx[x0]
      let left = F === 0 ? 0 : faceMass(s, F, c0 - 1, c0, c0 - 2, c0 + 1, true, dth)
      for (let i = 0; i < N; i++) {
        const c = c0 + i
        let ch = 0
        if (F !== 0) ch += left
        F = fx[x0 + i + 1]
        const right = F === 0 ? 0 : faceMass(s, F, c, c + 1, c - 1, c + 2, i === N - 1, dth)
        if (F !== 0) ch -= right
        const G0 = fy[y0 + i]
        // The lower face: the row below's upper face (on the patch's edge, formed here).
        if (G0 !== 0) ch += j === 0 ? faceMass(s, G0, c - rowC, c, c - 2 * rowC, c + rowC, true, dth) : below[i]
        const G1 = fy[y0 + i + rowC]
        if (G1 !== 0) {
          const up = faceMass(s, G1, c, c + rowC, c - rowC, c + 2 * rowC, edgeHigh, dth)
          ch -= up
          below[i] = up
        }
        change[c] = ch
        left = right
      }
    }
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) s[c0 + i] += change[c0 + i] / (sqrtG[c0 + i] * h * h)
    }
  }
}

/**
 * surfaceTransportPatches on two densities a and b over the same fluxes (b may be a itself: then
 * it moves once). change holds two cell arrays (a's, then b's); below is 2N entries. Each
 * density gets the bits the single-density row gives it: the twin carries the two in the two
 * f64x2 lanes (the fluxes, their signs and the denominators read once for both, minmod's
 * branches as lane selects), every lane operation the scalar one.
 */
export function surfaceTransportPairPatches(a: Float64Array, b: Float64Array, fx: Float64Array, fy: Float64Array, sqrtG: Float64Array, change: Float64Array, below: Float64Array, N: number, dt: number, h: number, p0: number, p1: number): void {
  const n = change.length >> 1
  surfaceTransportPatches(a, fx, fy, sqrtG, change.subarray(0, n), below.subarray(0, N), N, dt, h, p0, p1)
  if (b !== a) surfaceTransportPatches(b, fx, fy, sqrtG, change.subarray(n), below.subarray(N, 2 * N), N, dt, h, p0, p1)
}

export const SURFACE_OUTFLOW = patchRow(
  'surfaceOutflow',
  [f64('fx'), f64('fy'), f64('sqrtG'), int('N'), float('h'), f64('partial'), size('patches')],
  1,
  surfaceOutflowPatches,
)

export const SURFACE_TRANSPORT = patchRow(
  'surfaceTransport',
  [f64('s'), f64('fx'), f64('fy'), f64('sqrtG'), f64('change'), scratch('below', (a) => 8 * (a[6] as number)), int('N'), float('dt'), float('h'), size('patches')],
  4,
  surfaceTransportPatches,
)

export const SURFACE_TRANSPORT_PAIR = patchRow(
  'surfaceTransportPair',
  [f64('a'), f64('b'), f64('fx'), f64('fy'), f64('sqrtG'), f64('change'), scratch('below', (a) => 16 * (a[7] as number)), int('N'), float('dt'), float('h'), size('patches')],
  6,
  surfaceTransportPairPatches,
)

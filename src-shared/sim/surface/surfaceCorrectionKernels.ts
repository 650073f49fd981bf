// The projection's flux correction (surfaceProjection.ts correction: dF = -(1/2) dE/dd) as a
// kernel row over patches. The TypeScript pass went term by term, each face term and each
// node's mixed term adding into the faces it touches; a patch's terms only touch that patch's
// faces (its ghost faces included), so here each face gathers its terms instead, in the order
// that pass added them: the face's own term, then the node below (or left of) it, then the node
// above (or right of) it. Same bits; the ghost faces' shares then go to the neighbours' faces
// on the calling thread as before. Twin: wasm/assembly/surfaceCorrection.ts.
//
// Weights come precomputed with the same expressions as the matrix's (surfaceProjection.ts
// forTerms): wX = sqrt(g) g^11 and wY = sqrt(g) g^22 per face, halved on a patch's edge;
// wN = sqrt(g) g^12 per node, halved on an edge, 0 at the patch's corners (no mixed term).
import { f64, float, i32, int, size } from '../core/kernelTable'
import { patchRow } from './patchRow'

/**
 * The mixed term of node (i, j) of patch p that each of its two x-faces (alongX) or y-faces
 * loses: (w / 4)(b . p) or (w / 4)(a . p), b . p = p01 - p00 + p11 - p10 and a . p = p10 - p00 +
 * p11 - p01 over its four cells (0 if the node has no term).
 */
function nodeTerm(pot: Float64Array, u: Int32Array, wN: Float64Array, N: number, p: number, i: number, j: number, alongX: boolean): number {
  const w = wN[p * (N + 1) * (N + 1) + i + (N + 1) * j]
  if (w === 0) return 0
  const rowC = N + 2, c11 = p * rowC * rowC + i + 1 + rowC * (j + 1)
  const p00 = pot[u[c11 - rowC - 1]], p10 = pot[u[c11 - rowC]], p01 = pot[u[c11 - 1]], p11 = pot[u[c11]]
  const first = alongX ? p01 : p10, last = alongX ? p10 : p01
  return (w / 4) * (first - p00 + p11 - last)
}

/** Whether node (i, j) of patch p has a mixed term. */
function hasNode(wN: Float64Array, N: number, p: number, i: number, j: number): boolean {
  return wN[p * (N + 1) * (N + 1) + i + (N + 1) * j] !== 0
}

/**
 * dfx, dfy over the whole x- and y-face blocks of patches [p0, p1) for the potential pot (by
 * unknown; u: the unknown of every cell sample, ghosts included): the real faces' face and
 * node terms, the ghost faces the edge nodes' terms (0 elsewhere).
 */
export function surfaceCorrectionPatches(pot: Float64Array, u: Int32Array, wX: Float64Array, wY: Float64Array, wN: Float64Array, dfx: Float64Array, dfy: Float64Array, N: number, p0: number, p1: number): void {
  const rowC = N + 2, rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    const xb = p * rowX * (N + 2), yb = p * rowY * (N + 3), cb = p * rowC * rowC
    // x-faces (i, j), i in [-1, N + 1], j in [-1, N].
    for (let j = -1; j <= N; j++) for (let i = -1; i <= N + 1; i++) {
      const f = xb + i + 1 + rowX * (j + 1)
      let v = 0
      if (i >= 0 && i <= N) {
        if (j >= 0 && j < N) {
          const c = cb + i + 1 + rowC * (j + 1)
          v += -wX[f] * (pot[u[c]] - pot[u[c - 1]])
          if (hasNode(wN, N, p, i, j)) v -= nodeTerm(pot, u, wN, N, p, i, j, true)
          if (hasNode(wN, N, p, i, j + 1)) v -= nodeTerm(pot, u, wN, N, p, i, j + 1, true)
        } else if (hasNode(wN, N, p, i, j < 0 ? 0 : N)) v -= nodeTerm(pot, u, wN, N, p, i, j < 0 ? 0 : N, true)
      }
      dfx[f] = v
    }
    // y-faces (i, j), i in [-1, N], j in [-1, N + 1].
    for (let j = -1; j <= N + 1; j++) for (let i = -1; i <= N; i++) {
      const f = yb + i + 1 + rowY * (j + 1)
      let v = 0
      if (j >= 0 && j <= N) {
        if (i >= 0 && i < N) {
          const c = cb + i + 1 + rowC * (j + 1)
          v += -wY[f] * (pot[u[c]] - pot[u[c - rowC]])
          if (hasNode(wN, N, p, i, j)) v -= nodeTerm(pot, u, wN, N, p, i, j, false)
          if (hasNode(wN, N, p, i + 1, j)) v -= nodeTerm(pot, u, wN, N, p, i + 1, j, false)
        } else if (hasNode(wN, N, p, i < 0 ? 0 : N, j)) v -= nodeTerm(pot, u, wN, N, p, i < 0 ? 0 : N, j, false)
      }
      dfy[f] = v
    }
  }
}

export const SURFACE_CORRECTION = patchRow(
  'surfaceCorrection',
  [f64('pot'), i32('unknownOf'), f64('wX'), f64('wY'), f64('wN'), f64('dfx'), f64('dfy'), int('N'), size('patches')],
  8,
  surfaceCorrectionPatches,
)

/**
 * For patches [p0, p1): out[u] = scale h (F_right - F_left + F_up - F_down) for each real cell
 * (unknown u = p N^2 + i + N j), its net outflux: the projection's right-hand side with
 * scale = -1 (-(h x) is h x negated, bit for bit) and its divergence with scale = 1.
 */
export function surfaceDivergencePatches(fx: Float64Array, fy: Float64Array, out: Float64Array, N: number, h: number, scale: number, p0: number, p1: number): void {
  const rowX = N + 3, rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const x0 = p * rowX * rowC + 1 + rowX * (j + 1), y0 = p * rowC * rowX + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      for (let i = 0; i < N; i++) {
        const d = h * (fx[x0 + i + 1] - fx[x0 + i] + fy[y0 + i + rowC] - fy[y0 + i])
        out[u0 + i] = scale < 0 ? -d : d
      }
    }
  }
}

export const SURFACE_DIVERGENCE = patchRow(
  'surfaceDivergence',
  [f64('fx'), f64('fy'), f64('out'), int('N'), float('h'), float('scale'), size('patches')],
  1,
  surfaceDivergencePatches,
)

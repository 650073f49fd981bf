// Moves between the surface's padded cell arrays (per patch (N+2)^2, with the ghost layer) and
// the solvers' unknown vectors (per patch N^2, real cells only), as kernel rows over patches:
// a diffusion (surfaceFluid.ts) gathers each density and its right-hand side, solves, and
// scatters the result back, three passes over every cell that ran in TypeScript on the
// calling thread. Twins: wasm/assembly/surfaceCells.ts.
import { f64, int, size } from '../core/kernelTable'
import { patchRow } from './patchRow'

/** For the real cells of patches [p0, p1): rhs[u] = sqrtG[c] s[c] and x[u] = s[c] (u the unknown of cell c). */
export function surfaceGatherPatches(s: Float64Array, sqrtG: Float64Array, rhs: Float64Array, x: Float64Array, N: number, p0: number, p1: number): void {
  const rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      for (let i = 0; i < N; i++) {
        rhs[u0 + i] = sqrtG[c0 + i] * s[c0 + i]
        x[u0 + i] = s[c0 + i]
      }
    }
  }
}

/** For the real cells of patches [p0, p1): s[c] = x[u]; the ghosts are left for the fill. */
export function surfaceScatterPatches(x: Float64Array, s: Float64Array, N: number, p0: number, p1: number): void {
  const rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      for (let i = 0; i < N; i++) s[c0 + i] = x[u0 + i]
    }
  }
}

export const SURFACE_GATHER = patchRow('surfaceGather', [f64('s'), f64('sqrtG'), f64('rhs'), f64('x'), int('N'), size('patches')], 1, surfaceGatherPatches)

export const SURFACE_SCATTER = patchRow('surfaceScatter', [f64('x'), f64('s'), int('N'), size('patches')], 1, surfaceScatterPatches)

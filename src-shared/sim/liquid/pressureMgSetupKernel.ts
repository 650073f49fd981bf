// The pressure multigrid's coarse level from the one above it (pressureMultigrid.ts fillCoarse
// and Level.list) as one kernel-table row: this TypeScript reference on the TypeScript backend,
// its AssemblyScript twin (wasm/assembly/pressureMgSetup.ts) on the WebAssembly backend, on one
// thread (the row's range is one index). It ran as TypeScript on the calling thread, about 3 ms
// a setup at 130k unknowns while the kernels' workers waited, most of it in stores to the
// kernels' shared memory, which V8 makes slower than to its own arrays.
import { defineKernel, f64, i32, int, struct } from '../core/kernelTable'
import type { Stencil7Arrays } from './activeKernels'
import { PACK_BITS } from './pressureMgKernels'

const MASK = (1 << PACK_BITS) - 1

/**
 * The coarse level (cx * cy * cz, its operator C, its lists corder / cijk holding the last
 * setup's `active` unknowns, its r and x) from the fine one (sx * sy * sz, operator F, its
 * unknowns listed by colour in order / ijk, `fineCount` of them):
 *   1. C cleared where the last setup wrote it (the old list), r and x kept 0 there;
 *   2. per fine unknown, its excess diag + couplings (couplings are negative) and the couplings
 *      that cross a coarse face go to its coarse cell (aggregation Galerkin: pressureMultigrid.ts);
 *   3. the coarse diagonal = excess - couplings on every coarse cell;
 *   4. the coarse unknowns (diag != 0) listed, red ((i + j + k) even) first, each colour in
 *      index order, with their packed i, j, k; result = [red count, unknowns].
 */
export function pmgCoarseSlab(
  F: Stencil7Arrays, order: Int32Array, ijk: Int32Array, fineCount: number, sx: number, sy: number, sz: number,
  C: Stencil7Arrays, corder: Int32Array, cijk: Int32Array, r: Float64Array, x: Float64Array, active: number, cx: number, cy: number, cz: number,
  result: Int32Array, k0: number, k1: number,
): void {
  if (k0 !== 0 || k1 < 1) return
  const plane = sx * sy, cplane = cx * cy, m = cx * cy * cz
  const { diag, ax, ay, az } = F
  for (let t = 0; t < active; t++) {
    const c = corder[t]
    C.diag[c] = 0
    C.ax[c] = 0
    C.ay[c] = 0
    C.az[c] = 0
    r[c] = 0
    x[c] = 0
  }
  // The coarse excess accumulates in diag (finished below).
  const excess = C.diag
  for (let t = 0; t < fineCount; t++) {
    const c = order[t], p = ijk[t]
    const i = p & MASK, j = (p >> PACK_BITS) & MASK, k = p >> (2 * PACK_BITS)
    let e = diag[c] + ax[c] + ay[c] + az[c]
    if (c >= 1) e += ax[c - 1]
    if (c >= sx) e += ay[c - sx]
    if (c >= plane) e += az[c - plane]
    const q = (i >> 1) + cx * ((j >> 1) + cy * (k >> 1))
    excess[q] += e
    // Couplings from an odd index to the next even one cross a coarse face (0 at the ends).
    if (i & 1 && i + 1 < sx) C.ax[q] += ax[c]
    if (j & 1 && j + 1 < sy) C.ay[q] += ay[c]
    if (k & 1 && k + 1 < sz) C.az[q] += az[c]
  }
  // diag = excess - couplings: 0 where no child is an unknown (the excess is >= 0 and the
  // couplings <= 0, so it is 0 only where both are).
  for (let q = 0; q < m; q++) {
    let links = C.ax[q] + C.ay[q] + C.az[q]
    if (q >= 1) links += C.ax[q - 1]
    if (q >= cx) links += C.ay[q - cx]
    if (q >= cplane) links += C.az[q - cplane]
    C.diag[q] = excess[q] - links
  }
  listByColour(C.diag, cx, cy, cz, corder, cijk, result)
}

/**
 * The unknowns (diag != 0) of an sx * sy * sz level, red ((i + j + k) even) first, each colour
 * in index order, into order with their packed i, j, k in ijk; result = [red count, unknowns].
 */
export function listByColour(diag: Float64Array, sx: number, sy: number, sz: number, order: Int32Array, ijk: Int32Array, result: Int32Array): void {
  let t = 0
  for (let color = 0; color < 2; color++) {
    if (color === 1) result[0] = t
    for (let k = 0; k < sz; k++) {
      for (let j = 0; j < sy; j++) {
        const row = sx * (j + sy * k)
        for (let i = (color + j + k) & 1; i < sx; i += 2) {
          const c = row + i
          if (diag[c] === 0) continue
          ijk[t] = i | (j << PACK_BITS) | (k << (2 * PACK_BITS))
          order[t++] = c
        }
      }
    }
  }
  result[1] = t
}

const matrix = (name: string) => struct(name, { diag: 'f64', ax: 'f64', ay: 'f64', az: 'f64' })

/** pmgCoarseSlab, whole, on one thread. */
export const PMG_COARSE = defineKernel({
  name: 'pmgCoarse',
  args: [
    matrix('F'), i32('order'), i32('ijk'), int('fineCount'), int('sx'), int('sy'), int('sz'),
    matrix('C'), i32('corder'), i32('cijk'), f64('r'), f64('x'), int('active'), int('cx'), int('cy'), int('cz'),
    i32('result'),
  ],
  split: 'blocks',
  range: () => 1,
  work: () => 1,
  ref: pmgCoarseSlab,
})

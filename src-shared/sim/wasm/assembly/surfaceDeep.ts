// The liquid surface mesher's deep interior (reference: src-shared/sim/liquid/surface/
// surfaceDeepKernels.ts surfaceDeepSlab): window planes [k0, k1) of phi, interior nodes whose
// simulation cell is deep take `value`. Node n's cell along an axis is floor((n - 1) /
// refinement), clamped to the grid.
import { ru8, wf32 } from './common'

@inline function nodeCell(n: i32, refinement: i32, cells: i32): i32 {
  return n <= 0 ? 0 : min(cells - 1, (n - 1) / refinement)
}

export function surfaceDeep(phi: usize, deep: usize, nx: i32, ny: i32, nz: i32, kBase: i32, refinement: i32, cnx: i32, cny: i32, cnz: i32, value: f64, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    const K = kBase + k
    if (K < 1 || K > nz - 2) continue
    const cz = nodeCell(K, refinement, cnz)
    for (let j = 1; j < ny - 1; j++) {
      const cellRow = cnx * (nodeCell(j, refinement, cny) + cny * cz)
      const row = nx * (j + ny * k)
      // Runs of `refinement` nodes share a cell: test it once a run.
      let i = 1
      while (i < nx - 1) {
        const c = nodeCell(i, refinement, cnx)
        const end = c == cnx - 1 ? nx - 1 : min(nx - 1, 1 + (c + 1) * refinement)
        if (ru8(deep, cellRow + c) != 0) for (let m = i; m < end; m++) wf32(phi, row + m, value)
        i = end
      }
    }
  }
}

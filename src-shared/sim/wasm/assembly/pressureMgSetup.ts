// The pressure multigrid's coarse level from the one above it (reference: src-shared/sim/
// liquid/pressureMgSetupKernel.ts pmgCoarseSlab): the same float64 sums in the same order, so
// the same bits. One call does it all (its range is one index).
import { rf64, ri32, wf64, wi32 } from './common'

const PACK_BITS = 10
const MASK = (1 << PACK_BITS) - 1

export function pmgCoarse(
  diag: usize, ax: usize, ay: usize, az: usize, order: usize, ijk: usize, fineCount: i32, sx: i32, sy: i32, sz: i32,
  cdiag: usize, cax: usize, cay: usize, caz: usize, corder: usize, cijk: usize, r: usize, x: usize, active: i32, cx: i32, cy: i32, cz: i32,
  result: usize, k0: i32, k1: i32,
): void {
  if (k0 != 0 || k1 < 1) return
  const plane = sx * sy, cplane = cx * cy, m = cx * cy * cz
  for (let t = 0; t < active; t++) {
    const c = ri32(corder, t)
    wf64(cdiag, c, 0)
    wf64(cax, c, 0)
    wf64(cay, c, 0)
    wf64(caz, c, 0)
    wf64(r, c, 0)
    wf64(x, c, 0)
  }
  for (let t = 0; t < fineCount; t++) {
    const c = ri32(order, t), p = ri32(ijk, t)
    const i = p & MASK, j = (p >> PACK_BITS) & MASK, k = p >> (2 * PACK_BITS)
    let e = rf64(diag, c) + rf64(ax, c) + rf64(ay, c) + rf64(az, c)
    if (c >= 1) e += rf64(ax, c - 1)
    if (c >= sx) e += rf64(ay, c - sx)
    if (c >= plane) e += rf64(az, c - plane)
    const q = (i >> 1) + cx * ((j >> 1) + cy * (k >> 1))
    wf64(cdiag, q, rf64(cdiag, q) + e)
    if ((i & 1) != 0 && i + 1 < sx) wf64(cax, q, rf64(cax, q) + rf64(ax, c))
    if ((j & 1) != 0 && j + 1 < sy) wf64(cay, q, rf64(cay, q) + rf64(ay, c))
    if ((k & 1) != 0 && k + 1 < sz) wf64(caz, q, rf64(caz, q) + rf64(az, c))
  }
  for (let q = 0; q < m; q++) {
    let links = rf64(cax, q) + rf64(cay, q) + rf64(caz, q)
    if (q >= 1) links += rf64(cax, q - 1)
    if (q >= cx) links += rf64(cay, q - cx)
    if (q >= cplane) links += rf64(caz, q - cplane)
    wf64(cdiag, q, rf64(cdiag, q) - links)
  }
  let t = 0
  for (let color = 0; color < 2; color++) {
    if (color == 1) wi32(result, 0, t)
    for (let k = 0; k < cz; k++) {
      for (let j = 0; j < cy; j++) {
        const row = cx * (j + cy * k)
        for (let i = (color + j + k) & 1; i < cx; i += 2) {
          const c = row + i
          if (rf64(cdiag, c) == 0) continue
          wi32(cijk, t, i | (j << PACK_BITS) | (k << (2 * PACK_BITS)))
          wi32(corder, t, c)
          t++
        }
      }
    }
  }
  wi32(result, 1, t)
}

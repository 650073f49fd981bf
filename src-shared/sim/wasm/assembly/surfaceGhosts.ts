// Twins of src-shared/sim/surface/surfaceGhostKernels.ts: the surface grid's ghost fills over
// table entries [t0, t1).
import { rf64, ri32, wf64 } from './common'

/** fillScalarEntries. */
export function surfaceFillScalar(s: usize, dst: usize, src: usize, t0: i32, t1: i32): void {
  for (let t = t0; t < t1; t++) wf64(s, ri32(dst, t), rf64(s, ri32(src, t)))
}

/** fillVectorEntries. */
export function surfaceFillVector(fx: usize, fy: usize, dst: usize, kind: usize, src: usize, sign: usize, nx: i32, t0: i32, t1: i32): void {
  for (let t = t0; t < t1; t++) {
    const v = rf64(sign, t) * (ri32(kind, t) == 1 ? rf64(fx, ri32(src, t)) : rf64(fy, ri32(src, t)))
    const d = ri32(dst, t)
    if (d < nx) wf64(fx, d, v)
    else wf64(fy, d - nx, v)
  }
}

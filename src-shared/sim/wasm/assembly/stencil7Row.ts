// Row c of a Stencil7-shaped operator times x (reference: src-shared/sim/liquid/activeKernels.ts
// stencil7Row), shared by the pressure's product (active.ts) and its multigrid's residual
// (pressureMg.ts). Not re-exported by index.ts: a helper, not a kernel.
import { rf64 } from './common'

/** activeKernels.ts stencil7Row. */
@inline export function stencil7Row(diag: usize, ax: usize, ay: usize, az: usize, x: usize, c: i32, nx: i32, plane: i32, n: i32): f64 {
  let s = rf64(diag, c) * rf64(x, c)
  if (c >= 1) s += rf64(ax, c - 1) * rf64(x, c - 1)
  if (c + 1 < n) s += rf64(ax, c) * rf64(x, c + 1)
  if (c >= nx) s += rf64(ay, c - nx) * rf64(x, c - nx)
  if (c + nx < n) s += rf64(ay, c) * rf64(x, c + nx)
  if (c >= plane) s += rf64(az, c - plane) * rf64(x, c - plane)
  if (c + plane < n) s += rf64(az, c) * rf64(x, c + plane)
  return s
}

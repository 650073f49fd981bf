// Closed faces take the obstacle's velocity (reference: src-shared/sim/core/boundaries.ts
// enforceSolidVelocitySlab). Copies only, four faces at a time: a lane whose open fraction is
// <= 0 takes the obstacle's value (0 without one), the others keep theirs, as the reference's
// test does (a NaN fraction fails both, and keeps its velocity).

/** faces [f0, f1) of one lattice. */
@inline function enforceRange(u: usize, fu: usize, su: usize, f0: i32, f1: i32): void {
  const zero = f32x4.splat(0)
  let f = f0
  for (; f + 3 < f1; f += 4) {
    const at = <usize>f << 2
    const closed = f32x4.le(v128.load(fu + at), zero)
    if (!v128.any_true(closed)) continue
    const wall = su === 0 ? zero : v128.load(su + at)
    v128.store(u + at, v128.bitselect(wall, v128.load(u + at), closed))
  }
  for (; f < f1; f++) {
    const at = <usize>f << 2
    if (load<f32>(fu + at) <= 0) store<f32>(u + at, su === 0 ? 0 : load<f32>(su + at))
  }
}

/** enforceSolidVelocitySlab over cell planes [k0, k1), w plane nz included when k1 = nz. */
export function enforceSolidVelocity(
  u: usize, v: usize, w: usize, fu: usize, fv: usize, fw: usize, su: usize, sv: usize, sw: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  enforceRange(u, fu, su, (nx + 1) * ny * k0, (nx + 1) * ny * k1)
  enforceRange(v, fv, sv, nx * (ny + 1) * k0, nx * (ny + 1) * k1)
  enforceRange(w, fw, sw, nx * ny * k0, nx * ny * (k1 == nz ? nz + 1 : k1))
}

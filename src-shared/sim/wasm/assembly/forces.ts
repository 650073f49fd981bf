// Body forces (reference: src-shared/sim/core/forces.ts). Buoyancy after Fedkiw, Stam, Jensen
// 2001 with Y up: f = (-alpha rho + beta (T - T_amb)) y_hat on v faces. Bit-identical.
import { rf32, wf32, w32x2, st32x2 } from './common'

/** addBuoyancySlab: v += dt (-alpha rho + beta (T - T_amb)), cell planes [k0, k1); density/temperature 0 = absent. */
export function addBuoyancy(
  v: usize, density: usize, temperature: usize, alpha: f64, beta: f64, ambientTemperature: f64, dt: f64,
  nx: i32, ny: i32, k0: i32, k1: i32,
): void {
  const ah = alpha * 0.5
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j <= ny; j++) {
      const f = nx * (j + (ny + 1) * k)
      const ja = j > 0 ? j - 1 : 0
      const jb = j < ny ? j : ny - 1
      const ra = nx * (ja + ny * k)
      const rb = nx * (jb + ny * k)
      let i = 0
      // Two faces per step (f64x2 lanes, the same operations per lane).
      const vah = f64x2.splat(ah)
      const vbeta = f64x2.splat(beta)
      const vamb = f64x2.splat(ambientTemperature)
      const vdt = f64x2.splat(dt)
      const half = f64x2.splat(0.5)
      for (; i + 1 < nx; i += 2) {
        let a = f64x2.splat(0)
        if (density != 0) a = f64x2.sub(a, f64x2.mul(vah, f64x2.add(w32x2(density, ra + i), w32x2(density, rb + i))))
        if (temperature != 0) {
          const t = f64x2.mul(half, f64x2.add(w32x2(temperature, ra + i), w32x2(temperature, rb + i)))
          a = f64x2.add(a, f64x2.mul(vbeta, f64x2.sub(t, vamb)))
        }
        st32x2(v, f + i, f64x2.add(w32x2(v, f + i), f64x2.mul(vdt, a)))
      }
      for (; i < nx; i++) {
        let a: f64 = 0
        if (density != 0) a -= ah * (rf32(density, ra + i) + rf32(density, rb + i))
        if (temperature != 0) a += beta * (0.5 * (rf32(temperature, ra + i) + rf32(temperature, rb + i)) - ambientTemperature)
        wf32(v, f + i, rf32(v, f + i) + dt * a)
      }
    }
  }
}

/** a[f] += d over float32 elements [f0, f1), two at a time in float64 (the reference's rounding). */
@inline function addConstant(a: usize, d: f64, f0: i32, f1: i32): void {
  const vd = f64x2.splat(d)
  let f = f0
  for (; f + 1 < f1; f += 2) st32x2(a, f, f64x2.add(w32x2(a, f), vd))
  for (; f < f1; f++) wf32(a, f, rf32(a, f) + d)
}

/** addUniformAccelerationSlab: vel += dt (ax, ay, az), cell planes [k0, k1) (w plane nz with the last). */
export function addUniformAcceleration(
  u: usize, v: usize, w: usize, ax: f64, ay: f64, az: f64, dt: f64, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pw = nx * ny
  if (ax != 0) addConstant(u, dt * ax, pu * k0, pu * k1)
  if (ay != 0) addConstant(v, dt * ay, pv * k0, pv * k1)
  if (az != 0) addConstant(w, dt * az, pw * k0, pw * (k1 == nz ? nz + 1 : k1))
}

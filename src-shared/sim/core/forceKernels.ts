// Body forces on the MAC velocity, added with forward Euler (Carlson 2004, eq. 24's dt f).
//
// Buoyancy (Fedkiw, Stam, Jensen 2001, "Visual simulation of smoke", with their z-up
// written as Y up here):
//   f = (-alpha * rho_smoke + beta * (T - T_ambient)) * y_hat
// smoke density pulls down, heat lifts. It only has a y component, so it lives on v faces,
// each taking the mean of its two cells (a border face takes its one cell).
// (Reference slab kernel; forces.ts drives it through a kernel backend.)


export interface BuoyancyParams {
  /** Weight of the smoke density, m^4/(kg s^2) (so alpha * rho is m/s^2). */
  alpha: number
  /** Lift per kelvin above ambient, m/(s^2 K). */
  beta: number
  /** K. */
  ambientTemperature: number
}

/**
 * v += dt * (-alpha rho + beta (T - T_amb)) on v faces of cell planes [k0, k1). density or
 * temperature may be null (that term is skipped).
 */
export function addBuoyancySlab(
  v: Float32Array,
  density: Float32Array | null,
  temperature: Float32Array | null,
  alpha: number,
  beta: number,
  ambientTemperature: number,
  dt: number,
  nx: number,
  ny: number,
  k0: number,
  k1: number,
): void {
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j <= ny; j++) {
      const f = nx * (j + (ny + 1) * k)
      // The cells below (ja) and above (jb) the face, the same cell at a border.
      const ja = j > 0 ? j - 1 : 0
      const jb = j < ny ? j : ny - 1
      const ra = nx * (ja + ny * k)
      const rb = nx * (jb + ny * k)
      for (let i = 0; i < nx; i++) {
        let a = 0
        if (density !== null) a -= alpha * 0.5 * (density[ra + i] + density[rb + i])
        if (temperature !== null) a += beta * (0.5 * (temperature[ra + i] + temperature[rb + i]) - ambientTemperature)
        v[f + i] += dt * a
      }
    }
  }
}


/**
 * vel += dt * (ax, ay, az) on the faces of cell planes [k0, k1) (the w plane nz with the
 * last); a zero component's faces are not touched.
 */
export function addUniformAccelerationSlab(u: Float32Array, v: Float32Array, w: Float32Array, ax: number, ay: number, az: number, dt: number, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pw = nx * ny
  if (ax !== 0) for (let f = pu * k0; f < pu * k1; f++) u[f] += dt * ax
  if (ay !== 0) for (let f = pv * k0; f < pv * k1; f++) v[f] += dt * ay
  const wEnd = pw * (k1 === nz ? nz + 1 : k1)
  if (az !== 0) for (let f = pw * k0; f < wEnd; f++) w[f] += dt * az
}

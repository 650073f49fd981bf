// The discrete pressure Poisson problem on the MAC grid, matrix free.
//
// Unknown: the velocity potential phi = dt * p / (rho * dx) per cell (m/s), so that the
// projection is u_face -= phi_b - phi_a (Carlson 2004, eq. 29 with eq. 8's gradient) and the
// system has O(1) integer-like entries (Carlson 2004, eq. 33 scales by dx^2 for the same
// reason). With face open fractions w (boundaries.ts) as weights (Bridson 2015, ch. 5):
//
//   (A phi)_c = sum over the 6 faces f of c:  w_f * (phi_c - phi_neighbour)         (eq. 36)
//   b_c       = -(net outflux of c) = -sum_f +-(w_f u_f + (1 - w_f) u_solid_f)      (eq. 35)
//
// A face on the domain boundary with w > 0 is an open side: the neighbour beyond it is a
// Dirichlet ghost with phi = 0 (Carlson 2004, section 3.3.2.2), so it adds w to the diagonal
// only. A face with w = 0 (solid, closed side) drops out (Neumann, section 3.3.2.1). A cell
// whose six weights are all 0 (inside a solid) has an empty row: it is not an unknown and
// every kernel leaves it at 0. The diagonal is the sum of the six weights, recomputed on the
// fly rather than stored (one array less to stream).
//
// Kernels take cell planes [k0, k1); face kernels also handle w plane nz when k1 = nz.

/** out_c = (A x)_c for cell planes [k0, k1). */
export function applyPoissonSlab(
  out: Float64Array,
  x: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        const xc = x[c]
        const wl = fu[fx]
        const wr = fu[fx + 1]
        const wd = fv[fy]
        const wu = fv[fy + nx]
        const wb = fw[c]
        const wf = fw[c + plane]
        let s = (wl + wr + wd + wu + wb + wf) * xc
        if (i > 0) s -= wl * x[c - 1]
        if (i < nx - 1) s -= wr * x[c + 1]
        if (j > 0) s -= wd * x[c - nx]
        if (j < ny - 1) s -= wu * x[c + nx]
        if (k > 0) s -= wb * x[c - plane]
        if (k < nz - 1) s -= wf * x[c + plane]
        out[c] = s
      }
    }
  }
}

/** r = b - A x for cell planes [k0, k1). */
export function residualSlab(
  r: Float64Array,
  b: Float64Array,
  x: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  k0: number,
  k1: number,
): void {
  applyPoissonSlab(r, x, fu, fv, fw, nx, ny, nz, k0, k1)
  const end = nx * ny * k1
  for (let c = nx * ny * k0; c < end; c++) r[c] = b[c] - r[c]
}

/**
 * Net weighted outflux of every cell in planes [k0, k1), m/s (= dx * divergence, Carlson 2004
 * eq. 9): faces contribute w u + (1 - w) u_solid, u_solid = 0 where su/sv/sw are null.
 */
export function netOutfluxSlab(
  out: Float32Array | Float64Array,
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  su: Float32Array | null,
  sv: Float32Array | null,
  sw: Float32Array | null,
  nx: number,
  ny: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        const ct = c + plane
        const fyt = fy + nx
        let s =
          fu[fx + 1] * u[fx + 1] -
          fu[fx] * u[fx] +
          fv[fyt] * v[fyt] -
          fv[fy] * v[fy] +
          fw[ct] * w[ct] -
          fw[c] * w[c]
        if (su !== null) s += (1 - fu[fx + 1]) * su[fx + 1] - (1 - fu[fx]) * su[fx]
        if (sv !== null) s += (1 - fv[fyt]) * sv[fyt] - (1 - fv[fy]) * sv[fy]
        if (sw !== null) s += (1 - fw[ct]) * sw[ct] - (1 - fw[c]) * sw[c]
        out[c] = s
      }
    }
  }
}

/**
 * u_face -= phi_b - phi_a on every face with w > 0 (Carlson 2004, eq. 29); phi beyond an open
 * domain side is 0. Faces with w = 0 keep their (obstacle) velocity. Cell planes [k0, k1).
 */
export function subtractGradientSlab(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  phi: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      const fx = (nx + 1) * (j + ny * k)
      for (let i = 0; i <= nx; i++) {
        if (fu[fx + i] > 0) {
          const a = i > 0 ? phi[row + i - 1] : 0
          const b = i < nx ? phi[row + i] : 0
          u[fx + i] -= b - a
        }
      }
    }
    for (let j = 0; j <= ny; j++) {
      const fy = nx * (j + (ny + 1) * k)
      const row = nx * (j + ny * k)
      for (let i = 0; i < nx; i++) {
        if (fv[fy + i] > 0) {
          const a = j > 0 ? phi[row + i - nx] : 0
          const b = j < ny ? phi[row + i] : 0
          v[fy + i] -= b - a
        }
      }
    }
  }
  const kEnd = k1 === nz ? nz + 1 : k1
  for (let k = k0; k < kEnd; k++) {
    const row = plane * k
    for (let c = row; c < row + plane; c++) {
      if (fw[c] > 0) {
        const a = k > 0 ? phi[c - plane] : 0
        const b = k < nz ? phi[c] : 0
        w[c] -= b - a
      }
    }
  }
}

/** Sum of the six face weights of cell (i, j, k): the diagonal of A (0 = not an unknown). */
export function poissonDiagonal(fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, i: number, j: number, k: number): number {
  const c = i + nx * (j + ny * k)
  const fx = i + (nx + 1) * (j + ny * k)
  const fy = i + nx * (j + (ny + 1) * k)
  return fu[fx] + fu[fx + 1] + fv[fy] + fv[fy + nx] + fw[c] + fw[c + nx * ny]
}

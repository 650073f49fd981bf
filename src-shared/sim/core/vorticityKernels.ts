// Vorticity and vorticity confinement (Fedkiw, Stam, Jensen 2001; the
// same force couples vortex particles to the grid in Selle, Rasmussen, Fedkiw 2005, section 3):
//   omega = curl u,   eta = grad |omega|,   N = eta / |eta|,   f = eps * dx * (N x omega).
// omega is taken at cell centres by central differences of the cell-centred velocity (the
// face average, Carlson 2004 eq. 6), one-sided at the grid border; for a linear velocity field
// (rigid rotation) both are exact. The force is computed at cell centres and averaged onto
// the faces (a border face takes its one cell's value), then added with dt.
//
// Three passes, each reading neighbours of the previous one's output (a barrier between them
// in a worker split): vorticity + |omega|, force at cells, force onto faces.
// (Reference slab kernels; VorticityConfinement in vorticity.ts drives them.)

/**
 * Vorticity at cell centres and its magnitude for planes [k0, k1) (1/s).
 * Carlson 2004 eq. 6 for cell-centred velocity; omega = curl u (Fedkiw 2001).
 */
export function vorticitySlab(
  ox: Float32Array,
  oy: Float32Array,
  oz: Float32Array,
  mag: Float32Array,
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  k0: number,
  k1: number,
): void {
  const sx = nx + 1
  const vy = nx * (ny + 1)
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    const km = k > 0 ? k - 1 : 0
    const kp = k < nz - 1 ? k + 1 : nz - 1
    const iz = kp > km ? 1 / ((kp - km) * dx) : 0
    for (let j = 0; j < ny; j++) {
      const jm = j > 0 ? j - 1 : 0
      const jp = j < ny - 1 ? j + 1 : ny - 1
      const iy = jp > jm ? 1 / ((jp - jm) * dx) : 0
      for (let i = 0; i < nx; i++) {
        const im = i > 0 ? i - 1 : 0
        const ip = i < nx - 1 ? i + 1 : nx - 1
        const ix = ip > im ? 1 / ((ip - im) * dx) : 0
        // Cell-centred components at the neighbours: mean of the two faces.
        const uYp = u[i + sx * (jp + ny * k)] + u[i + 1 + sx * (jp + ny * k)]
        const uYm = u[i + sx * (jm + ny * k)] + u[i + 1 + sx * (jm + ny * k)]
        const uZp = u[i + sx * (j + ny * kp)] + u[i + 1 + sx * (j + ny * kp)]
        const uZm = u[i + sx * (j + ny * km)] + u[i + 1 + sx * (j + ny * km)]
        const vXp = v[ip + nx * j + vy * k] + v[ip + nx * (j + 1) + vy * k]
        const vXm = v[im + nx * j + vy * k] + v[im + nx * (j + 1) + vy * k]
        const vZp = v[i + nx * j + vy * kp] + v[i + nx * (j + 1) + vy * kp]
        const vZm = v[i + nx * j + vy * km] + v[i + nx * (j + 1) + vy * km]
        const wXp = w[ip + nx * j + plane * k] + w[ip + nx * j + plane * (k + 1)]
        const wXm = w[im + nx * j + plane * k] + w[im + nx * j + plane * (k + 1)]
        const wYp = w[i + nx * jp + plane * k] + w[i + nx * jp + plane * (k + 1)]
        const wYm = w[i + nx * jm + plane * k] + w[i + nx * jm + plane * (k + 1)]
        const a = 0.5 * ((wYp - wYm) * iy - (vZp - vZm) * iz)
        const b = 0.5 * ((uZp - uZm) * iz - (wXp - wXm) * ix)
        const c = 0.5 * ((vXp - vXm) * ix - (uYp - uYm) * iy)
        const cell = i + nx * j + plane * k
        ox[cell] = a
        oy[cell] = b
        oz[cell] = c
        mag[cell] = Math.sqrt(a * a + b * b + c * c)
      }
    }
  }
}

/**
 * Confinement force at cell centres for planes [k0, k1), m/s^2: eps dx (N x omega),
 * N = grad|omega| / (|grad|omega|| + delta) with delta = 1e-3 |omega| / dx: where |omega| is
 * flat to rounding (a rigid rotation; float32 velocities make |omega| noisy at ~1e-7) the
 * noise in grad|omega| is not normalised into a full-strength force, while a real feature
 * (|omega| changing by a fair fraction over a few cells) loses well under 1% of its force.
 * Fedkiw, Stam, Jensen 2001; Selle, Rasmussen, Fedkiw 2005, section 3.
 */
export function confinementForceSlab(
  fx: Float32Array,
  fy: Float32Array,
  fz: Float32Array,
  ox: Float32Array,
  oy: Float32Array,
  oz: Float32Array,
  mag: Float32Array,
  epsilon: number,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  const scale = epsilon * dx
  for (let k = k0; k < k1; k++) {
    const km = k > 0 ? k - 1 : 0
    const kp = k < nz - 1 ? k + 1 : nz - 1
    const iz = kp > km ? 1 / ((kp - km) * dx) : 0
    for (let j = 0; j < ny; j++) {
      const jm = j > 0 ? j - 1 : 0
      const jp = j < ny - 1 ? j + 1 : ny - 1
      const iy = jp > jm ? 1 / ((jp - jm) * dx) : 0
      for (let i = 0; i < nx; i++) {
        const im = i > 0 ? i - 1 : 0
        const ip = i < nx - 1 ? i + 1 : nx - 1
        const ix = ip > im ? 1 / ((ip - im) * dx) : 0
        const c = i + nx * j + plane * k
        const ex = (mag[ip + nx * j + plane * k] - mag[im + nx * j + plane * k]) * ix
        const ey = (mag[i + nx * jp + plane * k] - mag[i + nx * jm + plane * k]) * iy
        const ez = (mag[i + nx * j + plane * kp] - mag[i + nx * j + plane * km]) * iz
        const len = Math.sqrt(ex * ex + ey * ey + ez * ez) + (1e-3 * mag[c]) / dx
        if (!(len > 0)) {
          fx[c] = 0
          fy[c] = 0
          fz[c] = 0
          continue
        }
        const s = scale / len
        const a = ox[c]
        const b = oy[c]
        const d = oz[c]
        fx[c] = s * (ey * d - ez * b)
        fy[c] = s * (ez * a - ex * d)
        fz[c] = s * (ex * b - ey * a)
      }
    }
  }
}

/**
 * Adds dt times a cell-centred vector field to the faces (mean of the two cells; a border
 * face takes its one cell) for cell planes [k0, k1); w plane nz included when k1 = nz.
 */
export function addCellForceToFacesSlab(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  fx: Float32Array,
  fy: Float32Array,
  fz: Float32Array,
  dt: number,
  nx: number,
  ny: number,
  nz: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  const h = 0.5 * dt
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      const f = (nx + 1) * (j + ny * k)
      u[f] += dt * fx[row]
      for (let i = 1; i < nx; i++) u[f + i] += h * (fx[row + i - 1] + fx[row + i])
      u[f + nx] += dt * fx[row + nx - 1]
    }
    for (let j = 0; j <= ny; j++) {
      const f = nx * (j + (ny + 1) * k)
      const row = nx * (j + ny * k)
      for (let i = 0; i < nx; i++) {
        if (j === 0) v[f + i] += dt * fy[row + i]
        else if (j === ny) v[f + i] += dt * fy[row + i - nx]
        else v[f + i] += h * (fy[row + i - nx] + fy[row + i])
      }
    }
  }
  const kEnd = k1 === nz ? nz + 1 : k1
  for (let k = k0; k < kEnd; k++) {
    const base = plane * k
    for (let c = base; c < base + plane; c++) {
      if (k === 0) w[c] += dt * fz[c]
      else if (k === nz) w[c] += dt * fz[c - plane]
      else w[c] += h * (fz[c - plane] + fz[c])
    }
  }
}


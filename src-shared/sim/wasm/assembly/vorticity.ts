// Vorticity confinement (reference: src-shared/sim/core/vorticity.ts; Fedkiw, Stam, Jensen
// 2001; Selle, Rasmussen, Fedkiw 2005, section 3). Float64 arithmetic in the reference's
// order, two cells per f64x2 step away from the x borders: bit-identical.
import { rf32, wf32, w32x2, st32x2 } from './common'

/** vorticitySlab: omega = curl u at cell centres and |omega|, planes [k0, k1) (Carlson 2004 eq. 6). */
export function vorticity(
  ox: usize, oy: usize, oz: usize, mag: usize, u: usize, v: usize, w: usize,
  nx: i32, ny: i32, nz: i32, dx: f64, k0: i32, k1: i32,
): void {
  const sx = nx + 1
  const vy = nx * (ny + 1)
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    const km = k > 0 ? k - 1 : 0
    const kp = k < nz - 1 ? k + 1 : nz - 1
    const iz: f64 = kp > km ? 1 / (<f64>(kp - km) * dx) : 0
    for (let j = 0; j < ny; j++) {
      const jm = j > 0 ? j - 1 : 0
      const jp = j < ny - 1 ? j + 1 : ny - 1
      const iy: f64 = jp > jm ? 1 / (<f64>(jp - jm) * dx) : 0
      // Cells 1 .. nx-2 in pairs (central differences along x), the rest scalar.
      const vix = f64x2.splat(1 / (<f64>2 * dx))
      const viy = f64x2.splat(iy)
      const viz = f64x2.splat(iz)
      const half = f64x2.splat(0.5)
      let i = 0
      if (nx >= 3) {
        vorticityCell(ox, oy, oz, mag, u, v, w, nx, ny, nz, dx, 0, j, k, jm, jp, km, kp, iy, iz)
        i = 1
        for (; i + 1 < nx - 1; i += 2) {
          const uYp = f64x2.add(w32x2(u, i + sx * (jp + ny * k)), w32x2(u, i + 1 + sx * (jp + ny * k)))
          const uYm = f64x2.add(w32x2(u, i + sx * (jm + ny * k)), w32x2(u, i + 1 + sx * (jm + ny * k)))
          const uZp = f64x2.add(w32x2(u, i + sx * (j + ny * kp)), w32x2(u, i + 1 + sx * (j + ny * kp)))
          const uZm = f64x2.add(w32x2(u, i + sx * (j + ny * km)), w32x2(u, i + 1 + sx * (j + ny * km)))
          const vXp = f64x2.add(w32x2(v, i + 1 + nx * j + vy * k), w32x2(v, i + 1 + nx * (j + 1) + vy * k))
          const vXm = f64x2.add(w32x2(v, i - 1 + nx * j + vy * k), w32x2(v, i - 1 + nx * (j + 1) + vy * k))
          const vZp = f64x2.add(w32x2(v, i + nx * j + vy * kp), w32x2(v, i + nx * (j + 1) + vy * kp))
          const vZm = f64x2.add(w32x2(v, i + nx * j + vy * km), w32x2(v, i + nx * (j + 1) + vy * km))
          const wXp = f64x2.add(w32x2(w, i + 1 + nx * j + plane * k), w32x2(w, i + 1 + nx * j + plane * (k + 1)))
          const wXm = f64x2.add(w32x2(w, i - 1 + nx * j + plane * k), w32x2(w, i - 1 + nx * j + plane * (k + 1)))
          const wYp = f64x2.add(w32x2(w, i + nx * jp + plane * k), w32x2(w, i + nx * jp + plane * (k + 1)))
          const wYm = f64x2.add(w32x2(w, i + nx * jm + plane * k), w32x2(w, i + nx * jm + plane * (k + 1)))
          const a = f64x2.mul(half, f64x2.sub(f64x2.mul(f64x2.sub(wYp, wYm), viy), f64x2.mul(f64x2.sub(vZp, vZm), viz)))
          const b = f64x2.mul(half, f64x2.sub(f64x2.mul(f64x2.sub(uZp, uZm), viz), f64x2.mul(f64x2.sub(wXp, wXm), vix)))
          const c = f64x2.mul(half, f64x2.sub(f64x2.mul(f64x2.sub(vXp, vXm), vix), f64x2.mul(f64x2.sub(uYp, uYm), viy)))
          const cell = i + nx * j + plane * k
          st32x2(ox, cell, a)
          st32x2(oy, cell, b)
          st32x2(oz, cell, c)
          st32x2(mag, cell, f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(a, a), f64x2.mul(b, b)), f64x2.mul(c, c))))
        }
      }
      for (; i < nx; i++) vorticityCell(ox, oy, oz, mag, u, v, w, nx, ny, nz, dx, i, j, k, jm, jp, km, kp, iy, iz)
    }
  }
}

@inline function vorticityCell(
  ox: usize, oy: usize, oz: usize, mag: usize, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, dx: f64,
  i: i32, j: i32, k: i32, jm: i32, jp: i32, km: i32, kp: i32, iy: f64, iz: f64,
): void {
  const sx = nx + 1
  const vy = nx * (ny + 1)
  const plane = nx * ny
  const im = i > 0 ? i - 1 : 0
  const ip = i < nx - 1 ? i + 1 : nx - 1
  const ix: f64 = ip > im ? 1 / (<f64>(ip - im) * dx) : 0
  const uYp = rf32(u, i + sx * (jp + ny * k)) + rf32(u, i + 1 + sx * (jp + ny * k))
  const uYm = rf32(u, i + sx * (jm + ny * k)) + rf32(u, i + 1 + sx * (jm + ny * k))
  const uZp = rf32(u, i + sx * (j + ny * kp)) + rf32(u, i + 1 + sx * (j + ny * kp))
  const uZm = rf32(u, i + sx * (j + ny * km)) + rf32(u, i + 1 + sx * (j + ny * km))
  const vXp = rf32(v, ip + nx * j + vy * k) + rf32(v, ip + nx * (j + 1) + vy * k)
  const vXm = rf32(v, im + nx * j + vy * k) + rf32(v, im + nx * (j + 1) + vy * k)
  const vZp = rf32(v, i + nx * j + vy * kp) + rf32(v, i + nx * (j + 1) + vy * kp)
  const vZm = rf32(v, i + nx * j + vy * km) + rf32(v, i + nx * (j + 1) + vy * km)
  const wXp = rf32(w, ip + nx * j + plane * k) + rf32(w, ip + nx * j + plane * (k + 1))
  const wXm = rf32(w, im + nx * j + plane * k) + rf32(w, im + nx * j + plane * (k + 1))
  const wYp = rf32(w, i + nx * jp + plane * k) + rf32(w, i + nx * jp + plane * (k + 1))
  const wYm = rf32(w, i + nx * jm + plane * k) + rf32(w, i + nx * jm + plane * (k + 1))
  const a = 0.5 * ((wYp - wYm) * iy - (vZp - vZm) * iz)
  const b = 0.5 * ((uZp - uZm) * iz - (wXp - wXm) * ix)
  const c = 0.5 * ((vXp - vXm) * ix - (uYp - uYm) * iy)
  const cell = i + nx * j + plane * k
  wf32(ox, cell, a)
  wf32(oy, cell, b)
  wf32(oz, cell, c)
  wf32(mag, cell, Math.sqrt(a * a + b * b + c * c))
}

/** confinementForceSlab: eps dx (N x omega) at cell centres, planes [k0, k1). */
export function confinementForce(
  fx: usize, fy: usize, fz: usize, ox: usize, oy: usize, oz: usize, mag: usize,
  epsilon: f64, nx: i32, ny: i32, nz: i32, dx: f64, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  const scale = epsilon * dx
  for (let k = k0; k < k1; k++) {
    const km = k > 0 ? k - 1 : 0
    const kp = k < nz - 1 ? k + 1 : nz - 1
    const iz: f64 = kp > km ? 1 / (<f64>(kp - km) * dx) : 0
    for (let j = 0; j < ny; j++) {
      const jm = j > 0 ? j - 1 : 0
      const jp = j < ny - 1 ? j + 1 : ny - 1
      const iy: f64 = jp > jm ? 1 / (<f64>(jp - jm) * dx) : 0
      const vix = f64x2.splat(1 / (<f64>2 * dx))
      const viy = f64x2.splat(iy)
      const viz = f64x2.splat(iz)
      const vscale = f64x2.splat(scale)
      const eps = f64x2.splat(1e-3)
      const vdx = f64x2.splat(dx)
      const zero = f64x2.splat(0)
      let i = 0
      if (nx >= 3) {
        confinementCell(fx, fy, fz, ox, oy, oz, mag, scale, nx, ny, dx, 0, j, k, jm, jp, km, kp, iy, iz)
        i = 1
        for (; i + 1 < nx - 1; i += 2) {
          const c = i + nx * j + plane * k
          const ex = f64x2.mul(f64x2.sub(w32x2(mag, i + 1 + nx * j + plane * k), w32x2(mag, i - 1 + nx * j + plane * k)), vix)
          const ey = f64x2.mul(f64x2.sub(w32x2(mag, i + nx * jp + plane * k), w32x2(mag, i + nx * jm + plane * k)), viy)
          const ez = f64x2.mul(f64x2.sub(w32x2(mag, i + nx * j + plane * kp), w32x2(mag, i + nx * j + plane * km)), viz)
          const len = f64x2.add(
            f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(ex, ex), f64x2.mul(ey, ey)), f64x2.mul(ez, ez))),
            f64x2.div(f64x2.mul(eps, w32x2(mag, c)), vdx),
          )
          const ok = f64x2.gt(len, zero)
          const s = f64x2.div(vscale, len)
          const a = w32x2(ox, c)
          const b = w32x2(oy, c)
          const d = w32x2(oz, c)
          st32x2(fx, c, v128.bitselect(f64x2.mul(s, f64x2.sub(f64x2.mul(ey, d), f64x2.mul(ez, b))), zero, ok))
          st32x2(fy, c, v128.bitselect(f64x2.mul(s, f64x2.sub(f64x2.mul(ez, a), f64x2.mul(ex, d))), zero, ok))
          st32x2(fz, c, v128.bitselect(f64x2.mul(s, f64x2.sub(f64x2.mul(ex, b), f64x2.mul(ey, a))), zero, ok))
        }
      }
      for (; i < nx; i++) confinementCell(fx, fy, fz, ox, oy, oz, mag, scale, nx, ny, dx, i, j, k, jm, jp, km, kp, iy, iz)
    }
  }
}

@inline function confinementCell(
  fx: usize, fy: usize, fz: usize, ox: usize, oy: usize, oz: usize, mag: usize, scale: f64, nx: i32, ny: i32, dx: f64,
  i: i32, j: i32, k: i32, jm: i32, jp: i32, km: i32, kp: i32, iy: f64, iz: f64,
): void {
  const plane = nx * ny
  const im = i > 0 ? i - 1 : 0
  const ip = i < nx - 1 ? i + 1 : nx - 1
  const ix: f64 = ip > im ? 1 / (<f64>(ip - im) * dx) : 0
  const c = i + nx * j + plane * k
  const ex = (rf32(mag, ip + nx * j + plane * k) - rf32(mag, im + nx * j + plane * k)) * ix
  const ey = (rf32(mag, i + nx * jp + plane * k) - rf32(mag, i + nx * jm + plane * k)) * iy
  const ez = (rf32(mag, i + nx * j + plane * kp) - rf32(mag, i + nx * j + plane * km)) * iz
  const len = Math.sqrt(ex * ex + ey * ey + ez * ez) + (1e-3 * rf32(mag, c)) / dx
  if (!(len > 0)) {
    wf32(fx, c, 0)
    wf32(fy, c, 0)
    wf32(fz, c, 0)
    return
  }
  const s = scale / len
  const a = rf32(ox, c)
  const b = rf32(oy, c)
  const d = rf32(oz, c)
  wf32(fx, c, s * (ey * d - ez * b))
  wf32(fy, c, s * (ez * a - ex * d))
  wf32(fz, c, s * (ex * b - ey * a))
}

/** addCellForceToFacesSlab: faces += dt * (mean of their cells' force), cell planes [k0, k1). */
export function addCellForceToFaces(
  u: usize, v: usize, w: usize, fx: usize, fy: usize, fz: usize, dt: f64,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  const h = 0.5 * dt
  const vh = f64x2.splat(h)
  const vdt = f64x2.splat(dt)
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      const f = (nx + 1) * (j + ny * k)
      wf32(u, f, rf32(u, f) + dt * rf32(fx, row))
      let i = 1
      for (; i + 1 < nx; i += 2) st32x2(u, f + i, f64x2.add(w32x2(u, f + i), f64x2.mul(vh, f64x2.add(w32x2(fx, row + i - 1), w32x2(fx, row + i)))))
      for (; i < nx; i++) wf32(u, f + i, rf32(u, f + i) + h * (rf32(fx, row + i - 1) + rf32(fx, row + i)))
      wf32(u, f + nx, rf32(u, f + nx) + dt * rf32(fx, row + nx - 1))
    }
    for (let j = 0; j <= ny; j++) {
      const f = nx * (j + (ny + 1) * k)
      const row = nx * (j + ny * k)
      let i = 0
      for (; i + 1 < nx; i += 2) {
        let a: v128
        if (j == 0) a = f64x2.mul(vdt, w32x2(fy, row + i))
        else if (j == ny) a = f64x2.mul(vdt, w32x2(fy, row + i - nx))
        else a = f64x2.mul(vh, f64x2.add(w32x2(fy, row + i - nx), w32x2(fy, row + i)))
        st32x2(v, f + i, f64x2.add(w32x2(v, f + i), a))
      }
      for (; i < nx; i++) {
        let a: f64
        if (j == 0) a = dt * rf32(fy, row + i)
        else if (j == ny) a = dt * rf32(fy, row + i - nx)
        else a = h * (rf32(fy, row + i - nx) + rf32(fy, row + i))
        wf32(v, f + i, rf32(v, f + i) + a)
      }
    }
  }
  const kEnd = k1 == nz ? nz + 1 : k1
  for (let k = k0; k < kEnd; k++) {
    const base = plane * k
    let c = base
    for (; c + 1 < base + plane; c += 2) {
      let a: v128
      if (k == 0) a = f64x2.mul(vdt, w32x2(fz, c))
      else if (k == nz) a = f64x2.mul(vdt, w32x2(fz, c - plane))
      else a = f64x2.mul(vh, f64x2.add(w32x2(fz, c - plane), w32x2(fz, c)))
      st32x2(w, c, f64x2.add(w32x2(w, c), a))
    }
    for (; c < base + plane; c++) {
      let a: f64
      if (k == 0) a = dt * rf32(fz, c)
      else if (k == nz) a = dt * rf32(fz, c - plane)
      else a = h * (rf32(fz, c - plane) + rf32(fz, c))
      wf32(w, c, rf32(w, c) + a)
    }
  }
}

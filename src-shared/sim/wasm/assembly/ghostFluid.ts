// The liquid's ghost-fluid pressure system, assembled per cell plane (reference: src-shared/sim/
// liquid/ghostFluidKernels.ts ghostAssembleSlab; Carlson 2004 eqs. 35-36, Gibou et al. 2002):
// each cell's row of A (diag, couplings to +x, +y, +z) and of b, zeros outside the liquid.
// float64 arithmetic on the float32 inputs, in the reference's order.
import { rf32, rf64, wf32, wf64 } from './common'
import { theta } from './ghostTheta'

const LIQUID: u8 = 1

@inline function kindAt(kind: usize, c: i32): u8 {
  return load<u8>(kind + <usize>c)
}

export function ghostAssemble(
  diag: usize, ax: usize, ay: usize, az: usize, b: usize,
  u: usize, v: usize, wv: usize, fu: usize, fv: usize, fw: usize,
  su: usize, sv: usize, sw: usize, kind: usize, phi: usize,
  nx: i32, ny: i32, nz: i32, open: i32, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        wf64(ax, c, 0)
        wf64(ay, c, 0)
        wf64(az, c, 0)
        if (kindAt(kind, c) != LIQUID) {
          wf64(diag, c, 0)
          wf64(b, c, 0)
          continue
        }
        const pc = rf32(phi, c)
        const fx = i + (nx + 1) * (j + ny * k)
        const fy = i + nx * (j + (ny + 1) * k)
        const ct = c + plane
        const fyt = fy + nx
        let s = rf32(fu, fx + 1) * rf32(u, fx + 1) - rf32(fu, fx) * rf32(u, fx) + rf32(fv, fyt) * rf32(v, fyt) - rf32(fv, fy) * rf32(v, fy) + rf32(fw, ct) * rf32(wv, ct) - rf32(fw, c) * rf32(wv, c)
        if (su != 0) s += (1 - rf32(fu, fx + 1)) * rf32(su, fx + 1) - (1 - rf32(fu, fx)) * rf32(su, fx)
        if (sv != 0) s += (1 - rf32(fv, fyt)) * rf32(sv, fyt) - (1 - rf32(fv, fy)) * rf32(sv, fy)
        if (sw != 0) s += (1 - rf32(fw, ct)) * rf32(sw, ct) - (1 - rf32(fw, c)) * rf32(sw, c)
        wf64(b, c, -s)
        let d: f64 = 0
        let w = rf32(fu, fx)
        if (w > 0) d += i == 0 ? (open & 1 ? w : 0) : kindAt(kind, c - 1) == LIQUID ? w : w / theta(pc, rf32(phi, c - 1))
        w = rf32(fu, fx + 1)
        if (w > 0) {
          if (i == nx - 1) d += open & 2 ? w : 0
          else if (kindAt(kind, c + 1) == LIQUID) {
            d += w
            wf64(ax, c, -w)
          } else d += w / theta(pc, rf32(phi, c + 1))
        }
        w = rf32(fv, fy)
        if (w > 0) d += j == 0 ? (open & 4 ? w : 0) : kindAt(kind, c - nx) == LIQUID ? w : w / theta(pc, rf32(phi, c - nx))
        w = rf32(fv, fyt)
        if (w > 0) {
          if (j == ny - 1) d += open & 8 ? w : 0
          else if (kindAt(kind, c + nx) == LIQUID) {
            d += w
            wf64(ay, c, -w)
          } else d += w / theta(pc, rf32(phi, c + nx))
        }
        w = rf32(fw, c)
        if (w > 0) d += k == 0 ? (open & 16 ? w : 0) : kindAt(kind, c - plane) == LIQUID ? w : w / theta(pc, rf32(phi, c - plane))
        w = rf32(fw, ct)
        if (w > 0) {
          if (k == nz - 1) d += open & 32 ? w : 0
          else if (kindAt(kind, c + plane) == LIQUID) {
            d += w
            wf64(az, c, -w)
          } else d += w / theta(pc, rf32(phi, c + plane))
        }
        wf64(diag, c, d)
        if (d == 0) wf64(b, c, 0)
      }
    }
  }
}

/** q_b - q_a across a face between cells a and b (-1 = beyond the domain, q = 0 there). */
@inline function jump(q: usize, a: i32, bIdx: i32, kind: usize, phi: usize): f64 {
  const la = a >= 0 && kindAt(kind, a) == LIQUID
  const lb = bIdx >= 0 && kindAt(kind, bIdx) == LIQUID
  if (la && lb) return rf64(q, bIdx) - rf64(q, a)
  if (la) return bIdx >= 0 ? -rf64(q, a) / theta(rf32(phi, a), rf32(phi, bIdx)) : -rf64(q, a)
  if (lb) return a >= 0 ? rf64(q, bIdx) / theta(rf32(phi, bIdx), rf32(phi, a)) : rf64(q, bIdx)
  return 0
}

@inline function subtract(p: usize, f: i32, d: f64): void {
  wf32(p, f, rf32(p, f) - d)
}

// vel -= grad x on the faces with liquid on a side (reference: ghostFluidKernels.ts
// ghostSubtractSlab), the liquid cells of planes [k0, k1): each face written by one cell.
export function ghostSubtract(
  x: usize, u: usize, v: usize, w: usize, fu: usize, fv: usize, fw: usize, kind: usize, phi: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      const frowU = (nx + 1) * (j + ny * k)
      const frowV = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++) {
        const c = row + i
        if (kindAt(kind, c) != LIQUID) continue
        let f = frowU + i
        if (rf32(fu, f) > 0) subtract(u, f, jump(x, i > 0 ? c - 1 : -1, c, kind, phi))
        f++
        if (rf32(fu, f) > 0 && !(i < nx - 1 && kindAt(kind, c + 1) == LIQUID)) subtract(u, f, jump(x, c, i < nx - 1 ? c + 1 : -1, kind, phi))
        f = frowV + i
        if (rf32(fv, f) > 0) subtract(v, f, jump(x, j > 0 ? c - nx : -1, c, kind, phi))
        f += nx
        if (rf32(fv, f) > 0 && !(j < ny - 1 && kindAt(kind, c + nx) == LIQUID)) subtract(v, f, jump(x, c, j < ny - 1 ? c + nx : -1, kind, phi))
        f = c
        if (rf32(fw, f) > 0) subtract(w, f, jump(x, k > 0 ? c - plane : -1, c, kind, phi))
        f += plane
        if (rf32(fw, f) > 0 && !(k < nz - 1 && kindAt(kind, c + plane) == LIQUID)) subtract(w, f, jump(x, c, k < nz - 1 ? c + plane : -1, kind, phi))
      }
    }
  }
}

/** ghostWarmStartSlab over cell planes [k0, k1). */
export function ghostWarmStart(q: usize, diag: usize, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) {
    const at = <usize>c << 3
    if (load<f64>(diag + at) == 0 || !isFinite<f64>(load<f64>(q + at))) store<f64>(q + at, 0)
  }
}

/** ghostDriftRhsSlab over cell planes [k0, k1). */
export function ghostDriftRhs(b: usize, x: usize, diag: usize, target: usize, plane: i32, k0: i32, k1: i32): void {
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) {
    const at = <usize>c << 3
    const unknown = load<f64>(diag + at) != 0
    store<f64>(b + at, unknown ? <f64>load<f32>(target + (<usize>c << 2)) : 0)
    if (!unknown || !isFinite<f64>(load<f64>(x + at))) store<f64>(x + at, 0)
  }
}

// The pressure solve's change carried to the faces the markers reached (reference:
// src-shared/sim/liquid/changeCarryKernels.ts markChangeSlab, applyChangeSlab): the same
// tests and the same float32 differences and sums (promoted to float64, rounded on store).
import { rf32, ru8, wf32 } from './common'

const LIQUID: i32 = 1

@inline function liquidAt(kind: usize, c: i32): bool {
  return ru8(kind, c) == LIQUID
}

/** markChangeSlab over face planes [k0, k1). */
export function markChange(
  u: usize, v: usize, w: usize, uo: usize, vo: usize, wo: usize, fu: usize, fv: usize, fw: usize,
  kind: usize, du: usize, dv: usize, dw: usize, mu: usize, mv: usize, mw: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  const kc = min(k1, nz)
  for (let k = k0; k < kc; k++) for (let j = 0; j < ny; j++) {
    const row = nx * (j + ny * k)
    const frow = (nx + 1) * (j + ny * k)
    for (let i = 0; i <= nx; i++) {
      const f = frow + i
      const m = rf32(fu, f) > 0 && ((i > 0 && liquidAt(kind, row + i - 1)) || (i < nx && liquidAt(kind, row + i)))
      store<u8>(mu + <usize>f, m ? 1 : 0)
      wf32(du, f, m ? rf32(u, f) - rf32(uo, f) : 0)
    }
  }
  for (let k = k0; k < kc; k++) for (let j = 0; j <= ny; j++) {
    const row = nx * (j + ny * k)
    const frow = nx * (j + (ny + 1) * k)
    for (let i = 0; i < nx; i++) {
      const f = frow + i
      const m = rf32(fv, f) > 0 && ((j > 0 && liquidAt(kind, row + i - nx)) || (j < ny && liquidAt(kind, row + i)))
      store<u8>(mv + <usize>f, m ? 1 : 0)
      wf32(dv, f, m ? rf32(v, f) - rf32(vo, f) : 0)
    }
  }
  for (let k = k0; k < k1; k++) for (let c = 0; c < plane; c++) {
    const f = c + plane * k
    const m = rf32(fw, f) > 0 && ((k > 0 && liquidAt(kind, f - plane)) || (k < nz && liquidAt(kind, f)))
    store<u8>(mw + <usize>f, m ? 1 : 0)
    wf32(dw, f, m ? rf32(w, f) - rf32(wo, f) : 0)
  }
}

@inline function applyRange(m: usize, known: usize, fr: usize, vel: usize, old: usize, d: usize, f0: i32, f1: i32): void {
  for (let f = f0; f < f1; f++) {
    const mark = ru8(m, f)
    if (mark == 1) store<u8>(known + <usize>f, 1)
    else if (mark > 1 && ru8(known, f) == 1 && rf32(fr, f) > 0) wf32(vel, f, rf32(old, f) + rf32(d, f))
    else {
      store<u8>(known + <usize>f, 0)
      store<f32>(vel + (<usize>f << 2), 0)
    }
  }
}

/** applyChangeSlab over face planes [k0, k1). */
export function applyChange(
  u: usize, v: usize, w: usize, uo: usize, vo: usize, wo: usize, fu: usize, fv: usize, fw: usize,
  du: usize, dv: usize, dw: usize, mu: usize, mv: usize, mw: usize, ku: usize, kv: usize, kw: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pw = nx * ny
  const kc = min(k1, nz)
  applyRange(mu, ku, fu, u, uo, du, k0 * pu, kc * pu)
  applyRange(mv, kv, fv, v, vo, dv, k0 * pv, kc * pv)
  applyRange(mw, kw, fw, w, wo, dw, k0 * pw, k1 * pw)
}

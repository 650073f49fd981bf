// The markers' momentum balance over z-planes (reference: src-shared/sim/liquid/
// markerMomentumKernels.ts balanceOwnersSlab and balanceFacesSlab): each plane writes only its
// own cells' owners and its own per-body partials, so the thread split changes nothing. The
// same float64 expressions in the same order as the references; float32 data promoted on load
// and rounded on store.
import { rf32, rf64, ri32, ru8, wf64 } from './common'
import { theta } from './ghostTheta'

const LIQUID: i32 = 1

/** balanceOwnersSlab over planes [k0, k1). */
export function balanceOwners(
  owner: usize, dist: usize, boxes: usize, centres: usize, use: usize, nb: i32, nx: i32, ny: i32,
  dx: f64, ox: f64, oy: f64, oz: f64, k0: i32, k1: i32,
): void {
  for (let k = k0; k < k1; k++) {
    for (let pass = 0; pass < 2; pass++) {
      for (let b = 0; b < nb; b++) {
        const o = 6 * b
        if (ru8(use, b) == 0 || k < ri32(boxes, o + 4) || k >= ri32(boxes, o + 5)) continue
        const x0 = rf64(centres, 3 * b), x1 = rf64(centres, 3 * b + 1), x2 = rf64(centres, 3 * b + 2)
        const dz = oz + (<f64>k + 0.5) * dx - x2
        const i0 = ri32(boxes, o), i1 = ri32(boxes, o + 1)
        for (let j = ri32(boxes, o + 2), j1 = ri32(boxes, o + 3); j < j1; j++) {
          const row = nx * (j + ny * k)
          const dy = oy + (<f64>j + 0.5) * dx - x1
          for (let i = i0; i < i1; i++) {
            const c = row + i
            const oa = owner + (<usize>c << 2), da = dist + (<usize>c << 2)
            if (pass == 0) {
              store<i32>(oa, -1)
              store<f32>(da, Infinity)
              continue
            }
            const ddx = ox + (<f64>i + 0.5) * dx - x0
            const d = ddx * ddx + dy * dy + dz * dz
            if (d < <f64>load<f32>(da)) {
              store<f32>(da, <f32>d)
              store<i32>(oa, b)
            }
          }
        }
      }
    }
  }
}

@inline function inBox(boxes: usize, b: i32, i: i32, j: i32, k: i32): bool {
  if (b < 0) return false
  const o = 6 * b
  return i >= ri32(boxes, o) && i < ri32(boxes, o + 1) && j >= ri32(boxes, o + 2) && j < ri32(boxes, o + 3) && k >= ri32(boxes, o + 4) && k < ri32(boxes, o + 5)
}

/** balanceFacesSlab over planes uk0 + [k0, k1). */
export function balanceFaces(
  u: usize, u0: usize, fr: usize, sw: usize, kind: usize, phi: usize, owner: usize, boxes: usize, partial: usize,
  a: i32, nx: i32, ny: i32, nz: i32, nb: i32, ui0: i32, ui1: i32, uj0: i32, uj1: i32, uk0: i32, cellMass: f64, markerMass: f64,
  k0: i32, k1: i32,
): void {
  const ex = a == 0 ? 1 : 0, ey = a == 1 ? 1 : 0, ez = a == 2 ? 1 : 0
  const fnx = nx + ex, fny = ny + ey
  const step = ex ? 1 : ey ? nx : nx * ny
  const top = ex ? nx : ey ? ny : nz
  for (let kk = k0; kk < k1; kk++) {
    const k = uk0 + kk
    const out = kk * nb
    for (let b = 0; b < nb; b++) wf64(partial, out + b, 0)
    for (let j = uj0; j < uj1 + ey; j++) for (let i = ui0; i < ui1 + ex; i++) {
      const f = i + fnx * (j + fny * k)
      const open = rf32(fr, f)
      if (!(open > 0)) continue
      const idx = ex ? i : ey ? j : k
      const c = i + nx * (j + ny * k)
      const hiC = idx < top ? c : -1, loC = idx > 0 ? c - step : -1
      const hiL = hiC >= 0 && ru8(kind, hiC) == LIQUID, loL = loC >= 0 && ru8(kind, loC) == LIQUID
      if (!hiL && !loL) continue
      const hb = hiC >= 0 ? ri32(owner, hiC) : -1
      const b1 = inBox(boxes, hb, i, j, k) && idx < ri32(boxes, 6 * hb + 2 * a + 1) ? hb : -1
      const lb = loC >= 0 ? ri32(owner, loC) : -1
      const b2 = inBox(boxes, lb, i - ex, j - ey, k - ez) && idx == ri32(boxes, 6 * lb + 2 * a + 1) ? lb : -1
      if (b1 < 0 && b2 < 0) continue
      let th: f64 = 1
      if (hiL && !loL && loC >= 0) th = theta(rf32(phi, hiC), rf32(phi, loC))
      else if (loL && !hiL && hiC >= 0) th = theta(rf32(phi, loC), rf32(phi, hiC))
      const term = (cellMass * open * th - markerMass * rf64(sw, 2 * f + 1)) * (rf32(u, f) - rf32(u0, f))
      if (b1 >= 0) wf64(partial, out + b1, rf64(partial, out + b1) + term)
      if (b2 >= 0) wf64(partial, out + b2, rf64(partial, out + b2) + term)
    }
  }
}

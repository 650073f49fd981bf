// The markers' momentum balance (markerMomentum.ts) as two kernel rows over z-planes, so it runs
// as these TypeScript references on the TypeScript backend and as their AssemblyScript twins
// (wasm/assembly/markerMomentum.ts) split over the planes on the WebAssembly backend's threads.
// Both were loops over every face of the union of the bodies' boxes on the calling thread, 3
// boxes' radii beyond each body, so most of the grid: on Carlson's gears and bunnies (`bench
// rigidfluid`) about 35 ms a substep while the kernel worker waited.
//
// - MARKER_BALANCE_OWNERS: each cell of the used bodies' boxes to the body whose centre is
//   nearest (first clearing every box's cells, then bodies in order, per plane: each plane's
//   cells only, so any split gives the same owners).
// - MARKER_BALANCE_FACES: for one axis, the terms (m_f - M_f)(u_f - u0_f) of the faces of plane
//   k summed per body into partial[(k - uk0) nb + b]; the caller adds the planes in order, so
//   the sums are the same bits on any number of threads (not the bits of one running sum over
//   all faces, as before: the association changed once, when this moved here).
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, size, u8 } from '../core/kernelTable'
import { ghostTheta } from './ghostFluidKernels'
import { LIQUID } from './viscosity'

const num = (a: KernelArgs, i: number) => a[i] as number

/**
 * owner and dist for the cells of planes [k0, k1) inside the used bodies' boxes (boxes: i0, i1,
 * j0, j1, k0, k1 per body; centres: x, y, z per body): cleared to -1 and Infinity, then each to
 * the body of smallest squared centre distance (the first such body on a tie).
 */
export function balanceOwnersSlab(owner: Int32Array, dist: Float32Array, boxes: Int32Array, centres: Float64Array, use: Uint8Array, nb: number, nx: number, ny: number, dx: number, ox: number, oy: number, oz: number, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    for (let pass = 0; pass < 2; pass++) {
      for (let b = 0; b < nb; b++) {
        const o = 6 * b
        if (!use[b] || k < boxes[o + 4] || k >= boxes[o + 5]) continue
        const x0 = centres[3 * b], x1 = centres[3 * b + 1], x2 = centres[3 * b + 2]
        const dz = oz + (k + 0.5) * dx - x2
        for (let j = boxes[o + 2]; j < boxes[o + 3]; j++) {
          const row = nx * (j + ny * k)
          const dy = oy + (j + 0.5) * dx - x1
          for (let i = boxes[o]; i < boxes[o + 1]; i++) {
            const c = row + i
            if (pass === 0) {
              owner[c] = -1
              dist[c] = Infinity
              continue
            }
            const ddx = ox + (i + 0.5) * dx - x0
            const d = ddx * ddx + dy * dy + dz * dz
            if (d < dist[c]) {
              dist[c] = d
              owner[c] = b
            }
          }
        }
      }
    }
  }
}

export const MARKER_BALANCE_OWNERS = defineKernel({
  name: 'balanceOwners',
  args: [i32('owner'), f32('dist'), i32('boxes'), f64('centres'), u8('use'), int('nb'), int('nx'), int('ny'), float('dx'), float('ox'), float('oy'), float('oz'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 12),
  work: (a) => num(a, 6) * num(a, 7) * num(a, 12),
  ref: balanceOwnersSlab,
})

/** Whether cell (i, j, k) is inside body b's box (b < 0: no). */
function inBox(boxes: Int32Array, b: number, i: number, j: number, k: number): boolean {
  if (b < 0) return false
  const o = 6 * b
  return i >= boxes[o] && i < boxes[o + 1] && j >= boxes[o + 2] && j < boxes[o + 3] && k >= boxes[o + 4] && k < boxes[o + 5]
}

/**
 * partial[(k - uk0) nb + b], for the faces of axis a in planes uk0 + [k0, k1) of the union box
 * [ui0, ui1 (+1 on x)) x [uj0, uj1 (+1 on y)): body b's share of sum (cellMass open theta -
 * markerMass sw[2f + 1]) (u - u0) over the faces it claims (markerMomentum.ts apply).
 */
export function balanceFacesSlab(
  u: Float32Array, u0: Float32Array, fr: Float32Array, sw: Float64Array, kind: Uint8Array, phi: Float32Array, owner: Int32Array, boxes: Int32Array, partial: Float64Array,
  a: number, nx: number, ny: number, nz: number, nb: number, ui0: number, ui1: number, uj0: number, uj1: number, uk0: number, cellMass: number, markerMass: number,
  k0: number, k1: number,
): void {
  const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
  const fnx = nx + ex, fny = ny + ey
  const step = ex ? 1 : ey ? nx : nx * ny
  const top = ex ? nx : ey ? ny : nz
  for (let kk = k0; kk < k1; kk++) {
    const k = uk0 + kk
    const out = kk * nb
    for (let b = 0; b < nb; b++) partial[out + b] = 0
    for (let j = uj0; j < uj1 + ey; j++) for (let i = ui0; i < ui1 + ex; i++) {
      const f = i + fnx * (j + fny * k)
      const open = fr[f]
      if (!(open > 0)) continue
      const idx = ex ? i : ey ? j : k
      const c = i + nx * (j + ny * k)
      const hiC = idx < top ? c : -1, loC = idx > 0 ? c - step : -1
      const hiL = hiC >= 0 && kind[hiC] === LIQUID, loL = loC >= 0 && kind[loC] === LIQUID
      if (!hiL && !loL) continue
      // The face goes with the cell above it (b1), or below it on a box's far side (b2):
      // each only while that cell is inside the claiming body's box (owner is stale outside).
      const hb = hiC >= 0 ? owner[hiC] : -1
      const b1 = inBox(boxes, hb, i, j, k) && idx < boxes[6 * hb + 2 * a + 1] ? hb : -1
      const lb = loC >= 0 ? owner[loC] : -1
      const b2 = inBox(boxes, lb, i - ex, j - ey, k - ez) && idx === boxes[6 * lb + 2 * a + 1] ? lb : -1
      if (b1 < 0 && b2 < 0) continue
      let theta = 1
      if (hiL && !loL && loC >= 0) theta = ghostTheta(phi[hiC], phi[loC])
      else if (loL && !hiL && hiC >= 0) theta = ghostTheta(phi[loC], phi[hiC])
      const term = (cellMass * open * theta - markerMass * sw[2 * f + 1]) * (u[f] - u0[f])
      if (b1 >= 0) partial[out + b1] += term
      if (b2 >= 0) partial[out + b2] += term
    }
  }
}

export const MARKER_BALANCE_FACES = defineKernel({
  name: 'balanceFaces',
  args: [
    f32('u'), f32('u0'), f32('fr'), f64('sw'), u8('kind'), f32('phi'), i32('owner'), i32('boxes'), f64('partial'),
    int('a'), int('nx'), int('ny'), int('nz'), int('nb'), int('ui0'), int('ui1'), int('uj0'), int('uj1'), int('uk0'), float('cellMass'), float('markerMass'),
    size('planes'),
  ],
  split: 'planes',
  range: (a) => num(a, 21),
  work: (a) => (num(a, 15) - num(a, 14) + 1) * (num(a, 17) - num(a, 16) + 1) * num(a, 21),
  ref: balanceFacesSlab,
})

// The ghost-fluid pressure's passes over the grid (ghostFluid.ts GhostFluidPressure, Carlson
// 2004 eqs. 29 and 35-36 with Gibou et al.'s ghost values) as kernel-table rows: these
// TypeScript references on the TypeScript backend, their AssemblyScript twins
// (wasm/assembly/ghostFluid.ts) split over cell planes on the WebAssembly backend's threads.
// The assembly: each cell writes its own row of A (diag, and the couplings to its +x, +y, +z
// neighbours) and of b, zeros outside the liquid. The velocity update: each face is written by
// one liquid cell. So any split gives the same bits.
import { defineKernel, f32, f64, int, type KernelArgs, planeRow, size, struct, u8 } from '../core/kernelTable'
import * as kinds from './viscosity'

/** The 7-point matrix's coefficient arrays (stencil7.ts Stencil7Matrix). */
export interface Stencil7Coefficients {
  diag: Float64Array
  ax: Float64Array
  ay: Float64Array
  az: Float64Array
}

/** A staggered grid's three face arrays (MacGrid's u, v, w). */
export interface FaceArrays {
  u: Float32Array
  v: Float32Array
  w: Float32Array
}

// The cell kind in a module constant: an imported binding can cost a property load per use.
const LIQUID = kinds.LIQUID
/** theta below this is clamped: a surface crossing hugging a cell centre would make A_cc huge (ghostFluid.ts). */
export const MIN_THETA = 0.01

/** Liquid fraction theta of the segment from liquid cell a to air cell b (MIN_THETA..1). */
export function ghostTheta(phiLiquid: number, phiAir: number): number {
  const den = phiLiquid - phiAir
  const t = den < 0 ? phiLiquid / den : 1
  return t > MIN_THETA ? (t < 1 ? t : 1) : MIN_THETA
}

/**
 * Rows of A and b for the cells of planes [k0, k1). su, sv, sw: the obstacles' face velocities
 * (closed face parts carry them), or null. open: bit s set when domain side s (-x, +x, -y, +y,
 * -z, +z) is open (q = 0 one cell out).
 */
export function ghostAssembleSlab(
  M: Stencil7Coefficients,
  b: Float64Array,
  vel: FaceArrays,
  fr: FaceArrays,
  su: Float32Array | null,
  sv: Float32Array | null,
  sw: Float32Array | null,
  kind: Uint8Array,
  phi: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  open: number,
  k0: number,
  k1: number,
): void {
  const { diag, ax, ay, az } = M
  const plane = nx * ny
  const fu = fr.u, fv = fr.v, fw = fr.w
  const u = vel.u, v = vel.v, wv = vel.w
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        ax[c] = 0
        ay[c] = 0
        az[c] = 0
        if (kind[c] !== LIQUID) {
          diag[c] = 0
          b[c] = 0
          continue
        }
        const pc = phi[c]
        const fx = i + (nx + 1) * (j + ny * k)
        const fy = i + nx * (j + (ny + 1) * k)
        // b = -(net outflux), eq. 35: core/poisson.ts netOutfluxSlab's sum, term for term,
        // for the liquid cells only (the rest of the grid has no unknowns).
        const ct = c + plane
        const fyt = fy + nx
        let s = fu[fx + 1] * u[fx + 1] - fu[fx] * u[fx] + fv[fyt] * v[fyt] - fv[fy] * v[fy] + fw[ct] * wv[ct] - fw[c] * wv[c]
        if (su !== null) s += (1 - fu[fx + 1]) * su[fx + 1] - (1 - fu[fx]) * su[fx]
        if (sv !== null) s += (1 - fv[fyt]) * sv[fyt] - (1 - fv[fy]) * sv[fy]
        if (sw !== null) s += (1 - fw[ct]) * sw[ct] - (1 - fw[c]) * sw[c]
        b[c] = -s
        let d = 0
        // -x, +x
        let w = fu[fx]
        if (w > 0) d += i === 0 ? (open & 1 ? w : 0) : kind[c - 1] === LIQUID ? w : w / ghostTheta(pc, phi[c - 1])
        w = fu[fx + 1]
        if (w > 0) {
          if (i === nx - 1) d += open & 2 ? w : 0
          else if (kind[c + 1] === LIQUID) {
            d += w
            ax[c] = -w
          } else d += w / ghostTheta(pc, phi[c + 1])
        }
        // -y, +y
        w = fv[fy]
        if (w > 0) d += j === 0 ? (open & 4 ? w : 0) : kind[c - nx] === LIQUID ? w : w / ghostTheta(pc, phi[c - nx])
        w = fv[fyt]
        if (w > 0) {
          if (j === ny - 1) d += open & 8 ? w : 0
          else if (kind[c + nx] === LIQUID) {
            d += w
            ay[c] = -w
          } else d += w / ghostTheta(pc, phi[c + nx])
        }
        // -z, +z
        w = fw[c]
        if (w > 0) d += k === 0 ? (open & 16 ? w : 0) : kind[c - plane] === LIQUID ? w : w / ghostTheta(pc, phi[c - plane])
        w = fw[ct]
        if (w > 0) {
          if (k === nz - 1) d += open & 32 ? w : 0
          else if (kind[c + plane] === LIQUID) {
            d += w
            az[c] = -w
          } else d += w / ghostTheta(pc, phi[c + plane])
        }
        diag[c] = d
        if (d === 0) b[c] = 0
      }
    }
  }
}

/** q_b - q_a across a face between cells a and b (-1 = beyond the domain, q = 0 there). */
export function ghostJump(q: Float64Array, a: number, bIdx: number, kind: Uint8Array, phi: Float32Array): number {
  const la = a >= 0 && kind[a] === LIQUID
  const lb = bIdx >= 0 && kind[bIdx] === LIQUID
  if (la && lb) return q[bIdx] - q[a]
  if (la) return bIdx >= 0 ? -q[a] / ghostTheta(phi[a], phi[bIdx]) : -q[a]
  if (lb) return a >= 0 ? q[bIdx] / ghostTheta(phi[bIdx], phi[a]) : q[bIdx]
  return 0 // air on both sides: extrapolated afterwards
}

/**
 * vel -= grad x (x_b - x_a, ghost values at the surface) on every open face with liquid on a
 * side, for the liquid cells of planes [k0, k1) (air-air faces are left alone: extrapolated
 * afterwards). Each liquid cell takes its low faces, and its high faces unless the cell beyond
 * is liquid too (that cell takes it as its low face): every face is written once, by one cell,
 * with the same value as a sweep over all faces, so any split gives the same bits.
 */
export function ghostSubtractSlab(x: Float64Array, vel: FaceArrays, fr: FaceArrays, kind: Uint8Array, phi: Float32Array, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const plane = nx * ny
  const fu = fr.u, fv = fr.v, fw = fr.w
  const u = vel.u, v = vel.v, w = vel.w
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      const frowU = (nx + 1) * (j + ny * k)
      const frowV = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++) {
        const c = row + i
        if (kind[c] !== LIQUID) continue
        let f = frowU + i
        if (fu[f] > 0) u[f] -= ghostJump(x, i > 0 ? c - 1 : -1, c, kind, phi)
        f++
        if (fu[f] > 0 && !(i < nx - 1 && kind[c + 1] === LIQUID)) u[f] -= ghostJump(x, c, i < nx - 1 ? c + 1 : -1, kind, phi)
        f = frowV + i
        if (fv[f] > 0) v[f] -= ghostJump(x, j > 0 ? c - nx : -1, c, kind, phi)
        f += nx
        if (fv[f] > 0 && !(j < ny - 1 && kind[c + nx] === LIQUID)) v[f] -= ghostJump(x, c, j < ny - 1 ? c + nx : -1, kind, phi)
        f = c
        if (fw[f] > 0) w[f] -= ghostJump(x, k > 0 ? c - plane : -1, c, kind, phi)
        f += plane
        if (fw[f] > 0 && !(k < nz - 1 && kind[c + plane] === LIQUID)) w[f] -= ghostJump(x, c, k < nz - 1 ? c + plane : -1, kind, phi)
      }
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** ghostAssembleSlab over the cell planes [0, nz). */
export const GHOST_ASSEMBLE = defineKernel({
  name: 'ghostAssemble',
  args: [
    struct('M', { diag: 'f64', ax: 'f64', ay: 'f64', az: 'f64' }),
    f64('b'),
    struct('vel', { u: 'f32', v: 'f32', w: 'f32' }),
    struct('fr', { u: 'f32', v: 'f32', w: 'f32' }),
    f32('su', true),
    f32('sv', true),
    f32('sw', true),
    u8('kind'),
    f32('phi'),
    int('nx'),
    int('ny'),
    int('nz'),
    int('open'),
  ],
  split: 'planes',
  range: (a) => num(a, 11),
  work: (a) => num(a, 9) * num(a, 10) * num(a, 11),
  ref: ghostAssembleSlab,
})

/** ghostSubtractSlab over the cell planes [0, nz). */
export const GHOST_SUBTRACT = defineKernel({
  name: 'ghostSubtract',
  args: [f64('x'), struct('vel', { u: 'f32', v: 'f32', w: 'f32' }), struct('fr', { u: 'f32', v: 'f32', w: 'f32' }), u8('kind'), f32('phi'), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => num(a, 5) * num(a, 6) * num(a, 7),
  ref: ghostSubtractSlab,
})

/**
 * The solve's warm start (GhostFluidPressure.project, sec. 3.3.4) over cell planes [k0, k1):
 * the last solution kept where the cell is still an unknown (diag != 0), 0 elsewhere and
 * wherever it is not finite.
 */
export function ghostWarmStartSlab(q: Float64Array, diag: Float64Array, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) if (diag[c] === 0 || !Number.isFinite(q[c])) q[c] = 0
}

/**
 * solveDrift's system over cell planes [k0, k1): b = target on the unknowns, 0 elsewhere; x
 * warm-started as the pressure is (ghostWarmStartSlab): the last drift kept where the cell is
 * still an unknown and the value finite, 0 elsewhere.
 */
export function ghostDriftRhsSlab(b: Float64Array, x: Float64Array, diag: Float64Array, target: Float32Array, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) {
    const unknown = diag[c] !== 0
    b[c] = unknown ? target[c] : 0
    if (!unknown || !Number.isFinite(x[c])) x[c] = 0
  }
}

export const GHOST_WARM_START = planeRow('ghostWarmStart', [f64('q'), f64('diag'), int('plane'), size('nz')], 1, ghostWarmStartSlab)

export const GHOST_DRIFT_RHS = planeRow('ghostDriftRhs', [f64('b'), f64('x'), f64('diag'), f32('target'), int('plane'), size('nz')], 2, ghostDriftRhsSlab)

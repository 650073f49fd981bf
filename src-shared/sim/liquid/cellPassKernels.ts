// The liquid substep's whole-grid passes over cells and faces (liquidSolver.ts substep,
// surfaceTracker.ts label) as kernel-table rows, so they run split over z-planes on the
// WebAssembly backend's threads (twins: wasm/assembly/cellPasses.ts) instead of as plain
// loops on the calling thread: six of them cost about a tenth of a 64^3 dam-break frame there
// (about 1.5 ms each per substep on a 2-core machine), while the kernels around them ran
// split. Each index writes only its own cells (or faces), so any split gives the same bits;
// the count is an integer sum.
import type { MacGrid } from '../core/grid'
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, planeRow, size, struct, u8 } from '../core/kernelTable'
import * as kinds from './viscosity'

const AIR = kinds.AIR
const LIQUID = kinds.LIQUID
const SOLID = kinds.SOLID

const num = (a: KernelArgs, i: number) => a[i] as number

/** marks[c] = 0 wherever kind[c] is not LIQUID, over cell planes [k0, k1) of `plane` cells. */
export function clearOutsideLiquidSlab(kind: Uint8Array, marks: Uint8Array, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) if (kind[c] !== LIQUID) marks[c] = 0
}

/** values[c] = value wherever marks[c] is 0 (cells no extension reached). */
export function fillUnmarkedSlab(values: Float32Array, marks: Uint8Array, value: number, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) if (marks[c] === 0) values[c] = value
}

/**
 * The heat step's last pass: unreached cells take back their temperature from before the step
 * (temp = tempOld where marks = 0), and reach[c] = 1 on the liquid (mark 1) and the first two
 * layers around it (marks 2..3), where the markers read the grid's temperature.
 */
export function heatReachSlab(temp: Float32Array, tempOld: Float32Array, marks: Uint8Array, reach: Uint8Array, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) {
    const m = marks[c]
    if (m === 0) temp[c] = tempOld[c]
    reach[c] = m !== 0 && m <= 3 ? 1 : 0
  }
}

/** out[k] = the sum of plane k's counts (the markers per plane: the splats' balance). */
export function planeSumsSlab(count: Int32Array, plane: number, out: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let s = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) s += count[c]
    out[k] = s
  }
}

/** partial[k] = the cells of plane k whose label is `value`. */
export function countLabelSlab(kind: Uint8Array, value: number, plane: number, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let n = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) if (kind[c] === value) n++
    partial[k] = n
  }
}

type Faces = Pick<MacGrid, 'u' | 'v' | 'w'>

/** dst = a + b on the faces of cell planes [k0, k1) (the w plane nz with the last). */
export function addFacesSlab(dst: Faces, a: Faces, b: Faces, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pw = nx * ny
  for (let f = pu * k0; f < pu * k1; f++) dst.u[f] = a.u[f] + b.u[f]
  for (let f = pv * k0; f < pv * k1; f++) dst.v[f] = a.v[f] + b.v[f]
  const wEnd = pw * (k1 === nz ? nz + 1 : k1)
  for (let f = pw * k0; f < wEnd; f++) dst.w[f] = a.w[f] + b.w[f]
}

/**
 * The pressure's labels from the tracked surface (SurfaceTracker.label): with v = phi - ofs
 * (ofs the markers' radius) and b = ((bulk - w) / slope) dx, w the markers' kernel weight at the
 * cell centre (weights[4c], levelSet.ts LevelSetScratch.sums), a non-solid cell is liquid where
 * min(v, b) < 0, else air; out is min(v, b) pushed at least eps to the side of its label.
 */
export function labelCellsSlab(phi: Float32Array, kind: Uint8Array, weights: Float64Array, out: Float32Array, bulk: number, slope: number, dx: number, eps: number, ofs: number, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) {
    const v = phi[c] - ofs
    const b = ((bulk - weights[4 * c]) / slope) * dx
    const u = b < v ? b : v
    if (kind[c] !== SOLID) kind[c] = u < 0 ? LIQUID : AIR
    out[c] = kind[c] === LIQUID ? (u < -eps ? u : -eps) : u > eps ? u : eps
  }
}

export const CLEAR_OUTSIDE_LIQUID = planeRow('clearOutsideLiquid', [u8('kind'), u8('marks'), int('plane'), size('nz')], 1, clearOutsideLiquidSlab)
export const FILL_UNMARKED = planeRow('fillUnmarked', [f32('values'), u8('marks'), float('value'), int('plane'), size('nz')], 1, fillUnmarkedSlab)
export const HEAT_REACH = planeRow('heatReach', [f32('temp'), f32('tempOld'), u8('marks'), u8('reach'), int('plane'), size('nz')], 2, heatReachSlab)
export const COUNT_LABEL = planeRow('countLabel', [u8('kind'), int('value'), int('plane'), f64('partial'), size('nz')], 1, countLabelSlab, 'partial')
export const PLANE_SUMS = planeRow('planeSums', [i32('count'), int('plane'), f64('out'), size('nz')], 1, planeSumsSlab)
export const LABEL_CELLS = planeRow('labelCells', [f32('phi'), u8('kind'), f64('weights'), f32('out'), float('bulk'), float('slope'), float('dx'), float('eps'), float('ofs'), int('plane'), size('nz')], 3, labelCellsSlab)

const faces = { u: 'f32', v: 'f32', w: 'f32' } as const
export const ADD_FACES = defineKernel({
  name: 'addFaces',
  args: [struct('dst', faces), struct('a', faces), struct('b', faces), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 5),
  work: (a) => 3 * num(a, 3) * num(a, 4) * num(a, 5),
  ref: addFacesSlab,
})

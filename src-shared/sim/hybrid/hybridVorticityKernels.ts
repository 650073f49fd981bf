// The per-cell passes of the hybrid mesh's vorticity (hybridVorticity.ts: cell velocities, their
// gradients, the tetrahedra's deferred corrections, the curl) as kernel-table rows over cells:
// TypeScript references below, AssemblyScript twins in wasm/assembly/hybridVorticity.ts, split
// over the cells on the WebAssembly backend's threads. Each cell writes only its own outputs
// and reads inputs no row of the same pass writes, so any split gives the same bits; the twins
// keep the references' operations and order.
import { defineKernel, f64, float, i32, int, type KernelArgs, size } from '../core/kernelTable'

const num = (a: KernelArgs, i: number) => a[i] as number

/** u_c = sum_i velocityWeight_i z_i over cell c's faces, cells [c0, c1) (xyz per cell). */
export function cellVelocityRows(cellFaceStart: Int32Array, cellFaces: Int32Array, wgt: Float64Array, z: Float64Array, out: Float64Array, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    let ux = 0, uy = 0, uz = 0
    for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) {
      const zf = z[cellFaces[i]]
      ux += wgt[3 * i] * zf
      uy += wgt[3 * i + 1] * zf
      uz += wgt[3 * i + 2] * zf
    }
    out[3 * c] = ux
    out[3 * c + 1] = uy
    out[3 * c + 2] = uz
  }
}

/** The velocity gradient of cells [c0, c1): out[9c + 3r + q] = sum_k W_kq (u_kr - u_cr) over the cell's stencil. */
export function velocityGradientRows(gradientStart: Int32Array, gradientCells: Int32Array, W: Float64Array, u: Float64Array, out: Float64Array, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    const ux = u[3 * c], uy = u[3 * c + 1], uz = u[3 * c + 2]
    let g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0, g8 = 0
    for (let i = gradientStart[c]; i < gradientStart[c + 1]; i++) {
      const k = gradientCells[i]
      const wx = W[3 * i], wy = W[3 * i + 1], wz = W[3 * i + 2]
      const a = u[3 * k] - ux, b = u[3 * k + 1] - uy, d = u[3 * k + 2] - uz
      g0 += wx * a; g1 += wy * a; g2 += wz * a
      g3 += wx * b; g4 += wy * b; g5 += wz * b
      g6 += wx * d; g7 += wy * d; g8 += wz * d
    }
    const o = 9 * c
    out[o] = g0; out[o + 1] = g1; out[o + 2] = g2
    out[o + 3] = g3; out[o + 4] = g4; out[o + 5] = g5
    out[o + 6] = g6; out[o + 7] = g7; out[o + 8] = g8
  }
}

/**
 * The deferred correction (hybridVorticity.ts correctTetVelocities) of tetrahedra [t0, t1)
 * (cells hexCount + t): u' = sum_i velocityWeight_i (z_i - n_i . G_c (x_i - x_c)) over the
 * cell's faces, u_c += relax (u' - u_c).
 */
export function correctTetRows(
  cellFaceStart: Int32Array, cellFaces: Int32Array, fn: Float64Array, fc: Float64Array, cc: Float64Array, wgt: Float64Array,
  z: Float64Array, grad: Float64Array, out: Float64Array, relax: number, hexCount: number, t0: number, t1: number,
): void {
  for (let c = hexCount + t0; c < hexCount + t1; c++) {
    const o = 9 * c
    const g0 = grad[o], g1 = grad[o + 1], g2 = grad[o + 2], g3 = grad[o + 3], g4 = grad[o + 4], g5 = grad[o + 5], g6 = grad[o + 6], g7 = grad[o + 7], g8 = grad[o + 8]
    const cx = cc[3 * c], cy = cc[3 * c + 1], cz = cc[3 * c + 2]
    let ux = 0, uy = 0, uz = 0
    for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) {
      const f = cellFaces[i]
      const tx = fc[3 * f] - cx, ty = fc[3 * f + 1] - cy, tz = fc[3 * f + 2] - cz
      // n . G t: the linear part of the velocity between the centre and the face.
      const lin = fn[3 * f] * (g0 * tx + g1 * ty + g2 * tz) + fn[3 * f + 1] * (g3 * tx + g4 * ty + g5 * tz) + fn[3 * f + 2] * (g6 * tx + g7 * ty + g8 * tz)
      const zf = z[f] - lin
      ux += wgt[3 * i] * zf
      uy += wgt[3 * i + 1] * zf
      uz += wgt[3 * i + 2] * zf
    }
    out[3 * c] += relax * (ux - out[3 * c])
    out[3 * c + 1] += relax * (uy - out[3 * c + 1])
    out[3 * c + 2] += relax * (uz - out[3 * c + 2])
  }
}

/** omega = curl u (xyz per cell) and |omega| from the velocity gradients (9 per cell), cells [c0, c1). */
export function vorticityRows(grad: Float64Array, omega: Float64Array, magnitude: Float64Array, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    const g = 9 * c
    const a = grad[g + 7] - grad[g + 5] // dw/dy - dv/dz
    const b = grad[g + 2] - grad[g + 6] // du/dz - dw/dx
    const d = grad[g + 3] - grad[g + 1] // dv/dx - du/dy
    omega[3 * c] = a
    omega[3 * c + 1] = b
    omega[3 * c + 2] = d
    magnitude[c] = Math.sqrt(a * a + b * b + d * d)
  }
}

/** cellVelocityRows over cells [0, cells). Args: cellFaceStart, cellFaces, wgt, z, out, cells. */
export const HYBRID_CELL_VELOCITIES = defineKernel({
  name: 'hybridCellVelocityRows',
  args: [i32('cellFaceStart'), i32('cellFaces'), f64('wgt'), f64('z'), f64('out'), size('cells')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: (a) => 6 * num(a, 5),
  ref: cellVelocityRows,
})

/** velocityGradientRows over cells [0, cells). Args: gradientStart, gradientCells, W, u, out, cells. */
export const HYBRID_VELOCITY_GRADIENTS = defineKernel({
  name: 'hybridVelocityGradientRows',
  args: [i32('gradientStart'), i32('gradientCells'), f64('W'), f64('u'), f64('out'), size('cells')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: (a) => 8 * num(a, 5),
  ref: velocityGradientRows,
})

/** correctTetRows over tetrahedra [0, tets). Args: cellFaceStart, cellFaces, fn, fc, cc, wgt, z, grad, out, relax, hexCount, tets. */
export const HYBRID_CORRECT_TETS = defineKernel({
  name: 'hybridCorrectTetRows',
  args: [i32('cellFaceStart'), i32('cellFaces'), f64('fn'), f64('fc'), f64('cc'), f64('wgt'), f64('z'), f64('grad'), f64('out'), float('relax'), int('hexCount'), size('tets')],
  split: 'rows',
  range: (a) => num(a, 11),
  work: (a) => 8 * num(a, 11),
  ref: correctTetRows,
})

/** vorticityRows over cells [0, cells). Args: grad, omega, magnitude, cells. */
export const HYBRID_VORTICITY = defineKernel({
  name: 'hybridVorticityRows',
  args: [f64('grad'), f64('omega'), f64('magnitude'), size('cells')],
  split: 'rows',
  range: (a) => num(a, 3),
  work: (a) => 2 * num(a, 3),
  ref: vorticityRows,
})

/** grad s at cell c by its gradient stencil, sum_k W_k (s_k - s_c), into out[o .. o+2] (hybridCellGradient's rows). */
export function scalarGradientAt(gradientStart: Int32Array, gradientCells: Int32Array, W: Float64Array, s: Float64Array, c: number, out: Float64Array, o: number): void {
  const sc = s[c]
  let gx = 0, gy = 0, gz = 0
  for (let i = gradientStart[c]; i < gradientStart[c + 1]; i++) {
    const ds = s[gradientCells[i]] - sc
    gx += W[3 * i] * ds
    gy += W[3 * i + 1] * ds
    gz += W[3 * i + 2] * ds
  }
  out[o] = gx
  out[o + 1] = gy
  out[o + 2] = gz
}

/**
 * Vorticity confinement (HybridVorticity.addConfinement) of cells [c0, c1): eta = grad |omega|
 * by the gradient stencil (hybridCellGradient), N = eta / (|eta| + 1e-3 |omega| / h), and
 * f += eps h (N x omega) into fx, fy, fz; eps per cell from `field` when given, else `uniform`.
 */
export function confinementRows(
  gradientStart: Int32Array, gradientCells: Int32Array, W: Float64Array, omega: Float64Array, mag: Float64Array, meanEdge: Float64Array,
  field: Float64Array | null, uniform: number, fx: Float64Array, fy: Float64Array, fz: Float64Array, c0: number, c1: number,
): void {
  const eta = new Float64Array(3)
  for (let c = c0; c < c1; c++) {
    scalarGradientAt(gradientStart, gradientCells, W, mag, c, eta, 0)
    const ex = eta[0], ey = eta[1], ez = eta[2]
    const h = meanEdge[c]
    const len = Math.sqrt(ex * ex + ey * ey + ez * ez) + (1e-3 * mag[c]) / h
    if (!(len > 0)) continue
    const s = ((field === null ? uniform : field[c]) * h) / len
    const a = omega[3 * c], b = omega[3 * c + 1], d = omega[3 * c + 2]
    fx[c] += s * (ey * d - ez * b)
    fy[c] += s * (ez * a - ex * d)
    fz[c] += s * (ex * b - ey * a)
  }
}

/** confinementRows over cells [0, cells). Args: gradientStart, gradientCells, W, omega, mag, meanEdge, field, uniform, fx, fy, fz, cells. */
export const HYBRID_CONFINEMENT = defineKernel({
  name: 'hybridConfinementRows',
  args: [i32('gradientStart'), i32('gradientCells'), f64('W'), f64('omega'), f64('mag'), f64('meanEdge'), f64('field', true), float('uniform'), f64('fx'), f64('fy'), f64('fz'), size('cells')],
  split: 'rows',
  range: (a) => num(a, 11),
  work: (a) => 8 * num(a, 11),
  ref: confinementRows,
})

/** Entries per block of HYBRID_DIFFERING_WORDS. */
export const DIFFERING_BLOCK = 8192

/**
 * Blocks [k0, k1) of DIFFERING_BLOCK entries of a and b (n each): partial[k] = how many of the
 * block's entries differ in their bits (NaN payloads and the sign of zero included).
 */
export function differingWordsBlocks(a: Float64Array, b: Float64Array, n: number, partial: Float64Array, k0: number, k1: number): void {
  const A = new Int32Array(a.buffer, a.byteOffset, 2 * n), B = new Int32Array(b.buffer, b.byteOffset, 2 * n)
  for (let k = k0; k < k1; k++) {
    const end = Math.min(n, (k + 1) * DIFFERING_BLOCK)
    let d = 0
    for (let i = k * DIFFERING_BLOCK; i < end; i++) if (A[2 * i] !== B[2 * i] || A[2 * i + 1] !== B[2 * i + 1]) d++
    partial[k] = d
  }
}

/** differingWordsBlocks over [0, ceil(n / DIFFERING_BLOCK)); run() returns the count. Args: a, b, n, partial. */
export const HYBRID_DIFFERING_WORDS = defineKernel({
  name: 'hybridDifferingWordsBlocks',
  args: [f64('a'), f64('b'), int('n'), f64('partial')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 2) / DIFFERING_BLOCK),
  work: (a) => num(a, 2),
  partials: 'partial',
  ref: differingWordsBlocks,
})

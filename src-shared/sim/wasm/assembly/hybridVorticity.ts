// Twins of src-shared/sim/hybrid/hybridVorticityKernels.ts: the hybrid mesh's cell velocities,
// velocity gradients, the tetrahedra's deferred corrections, the curl and the confinement force,
// cell by cell, and the forces put on the faces (hybridForces.ts faceForceRows), in the
// references' operations and order (the same bits).
import { rf64, ri32, wf64 } from './common'

/** hybridMesh.ts FACE_INTERIOR, FACE_OPEN. */
const FACE_INTERIOR: i32 = 0
const FACE_OPEN: i32 = 3

/** cellVelocityRows over cells [c0, c1). */
export function hybridCellVelocityRows(cellFaceStart: usize, cellFaces: usize, wgt: usize, z: usize, out: usize, c0: i32, c1: i32): void {
  for (let c = c0; c < c1; c++) {
    let ux: f64 = 0, uy: f64 = 0, uz: f64 = 0
    for (let i = ri32(cellFaceStart, c), e = ri32(cellFaceStart, c + 1); i < e; i++) {
      const zf = rf64(z, ri32(cellFaces, i))
      ux += rf64(wgt, 3 * i) * zf
      uy += rf64(wgt, 3 * i + 1) * zf
      uz += rf64(wgt, 3 * i + 2) * zf
    }
    wf64(out, 3 * c, ux); wf64(out, 3 * c + 1, uy); wf64(out, 3 * c + 2, uz)
  }
}

/** velocityGradientRows over cells [c0, c1). */
export function hybridVelocityGradientRows(gradientStart: usize, gradientCells: usize, W: usize, u: usize, out: usize, c0: i32, c1: i32): void {
  for (let c = c0; c < c1; c++) {
    const ux = rf64(u, 3 * c), uy = rf64(u, 3 * c + 1), uz = rf64(u, 3 * c + 2)
    let g0: f64 = 0, g1: f64 = 0, g2: f64 = 0, g3: f64 = 0, g4: f64 = 0, g5: f64 = 0, g6: f64 = 0, g7: f64 = 0, g8: f64 = 0
    for (let i = ri32(gradientStart, c), e = ri32(gradientStart, c + 1); i < e; i++) {
      const k = ri32(gradientCells, i)
      const wx = rf64(W, 3 * i), wy = rf64(W, 3 * i + 1), wz = rf64(W, 3 * i + 2)
      const a = rf64(u, 3 * k) - ux, b = rf64(u, 3 * k + 1) - uy, d = rf64(u, 3 * k + 2) - uz
      g0 += wx * a; g1 += wy * a; g2 += wz * a
      g3 += wx * b; g4 += wy * b; g5 += wz * b
      g6 += wx * d; g7 += wy * d; g8 += wz * d
    }
    const o = 9 * c
    wf64(out, o, g0); wf64(out, o + 1, g1); wf64(out, o + 2, g2)
    wf64(out, o + 3, g3); wf64(out, o + 4, g4); wf64(out, o + 5, g5)
    wf64(out, o + 6, g6); wf64(out, o + 7, g7); wf64(out, o + 8, g8)
  }
}

/** correctTetRows over tetrahedra [t0, t1). */
export function hybridCorrectTetRows(
  cellFaceStart: usize, cellFaces: usize, fn: usize, fc: usize, cc: usize, wgt: usize, z: usize, grad: usize, out: usize,
  relax: f64, hexCount: i32, t0: i32, t1: i32,
): void {
  for (let c = hexCount + t0; c < hexCount + t1; c++) {
    const o = 9 * c
    const g0 = rf64(grad, o), g1 = rf64(grad, o + 1), g2 = rf64(grad, o + 2), g3 = rf64(grad, o + 3), g4 = rf64(grad, o + 4)
    const g5 = rf64(grad, o + 5), g6 = rf64(grad, o + 6), g7 = rf64(grad, o + 7), g8 = rf64(grad, o + 8)
    const cx = rf64(cc, 3 * c), cy = rf64(cc, 3 * c + 1), cz = rf64(cc, 3 * c + 2)
    let ux: f64 = 0, uy: f64 = 0, uz: f64 = 0
    for (let i = ri32(cellFaceStart, c), e = ri32(cellFaceStart, c + 1); i < e; i++) {
      const f = ri32(cellFaces, i)
      const tx = rf64(fc, 3 * f) - cx, ty = rf64(fc, 3 * f + 1) - cy, tz = rf64(fc, 3 * f + 2) - cz
      const lin = rf64(fn, 3 * f) * (g0 * tx + g1 * ty + g2 * tz) + rf64(fn, 3 * f + 1) * (g3 * tx + g4 * ty + g5 * tz) + rf64(fn, 3 * f + 2) * (g6 * tx + g7 * ty + g8 * tz)
      const zf = rf64(z, f) - lin
      ux += rf64(wgt, 3 * i) * zf
      uy += rf64(wgt, 3 * i + 1) * zf
      uz += rf64(wgt, 3 * i + 2) * zf
    }
    wf64(out, 3 * c, rf64(out, 3 * c) + relax * (ux - rf64(out, 3 * c)))
    wf64(out, 3 * c + 1, rf64(out, 3 * c + 1) + relax * (uy - rf64(out, 3 * c + 1)))
    wf64(out, 3 * c + 2, rf64(out, 3 * c + 2) + relax * (uz - rf64(out, 3 * c + 2)))
  }
}

/** vorticityRows over cells [c0, c1). */
export function hybridVorticityRows(grad: usize, omega: usize, magnitude: usize, c0: i32, c1: i32): void {
  for (let c = c0; c < c1; c++) {
    const g = 9 * c
    const a = rf64(grad, g + 7) - rf64(grad, g + 5)
    const b = rf64(grad, g + 2) - rf64(grad, g + 6)
    const d = rf64(grad, g + 3) - rf64(grad, g + 1)
    wf64(omega, 3 * c, a); wf64(omega, 3 * c + 1, b); wf64(omega, 3 * c + 2, d)
    wf64(magnitude, c, Math.sqrt(a * a + b * b + d * d))
  }
}

/** confinementRows over cells [c0, c1). */
export function hybridConfinementRows(
  gradientStart: usize, gradientCells: usize, W: usize, omega: usize, mag: usize, meanEdge: usize,
  field: usize, uniform: f64, fx: usize, fy: usize, fz: usize, c0: i32, c1: i32,
): void {
  for (let c = c0; c < c1; c++) {
    const sc = rf64(mag, c)
    let ex: f64 = 0, ey: f64 = 0, ez: f64 = 0
    for (let i = ri32(gradientStart, c), e = ri32(gradientStart, c + 1); i < e; i++) {
      const ds = rf64(mag, ri32(gradientCells, i)) - sc
      ex += rf64(W, 3 * i) * ds
      ey += rf64(W, 3 * i + 1) * ds
      ez += rf64(W, 3 * i + 2) * ds
    }
    const h = rf64(meanEdge, c)
    const len = Math.sqrt(ex * ex + ey * ey + ez * ez) + (1e-3 * sc) / h
    if (!(len > 0)) continue
    const s = ((field == 0 ? uniform : rf64(field, c)) * h) / len
    const a = rf64(omega, 3 * c), b = rf64(omega, 3 * c + 1), d = rf64(omega, 3 * c + 2)
    wf64(fx, c, rf64(fx, c) + s * (ey * d - ez * b))
    wf64(fy, c, rf64(fy, c) + s * (ez * a - ex * d))
    wf64(fz, c, rf64(fz, c) + s * (ex * b - ey * a))
  }
}

/** faceForceRows (hybridForces.ts, eq. 5) over faces [f0, f1). */
export function hybridFaceForceRows(
  faceKind: usize, faceCellA: usize, faceCellB: usize, cellVolume: usize, faceNormal: usize,
  fx: usize, fy: usize, fz: usize, dt: f64, z: usize, f0: i32, f1: i32,
): void {
  for (let f = f0; f < f1; f++) {
    const kind = <i32>load<u8>(faceKind + <usize>f)
    const a = ri32(faceCellA, f)
    let ax: f64, ay: f64, az: f64
    if (kind == FACE_INTERIOR) {
      const b = ri32(faceCellB, f)
      const va = rf64(cellVolume, a), vb = rf64(cellVolume, b)
      const s = 1 / (va + vb)
      ax = (va * rf64(fx, a) + vb * rf64(fx, b)) * s
      ay = (va * rf64(fy, a) + vb * rf64(fy, b)) * s
      az = (va * rf64(fz, a) + vb * rf64(fz, b)) * s
    } else if (kind == FACE_OPEN) {
      ax = rf64(fx, a); ay = rf64(fy, a); az = rf64(fz, a)
    } else continue
    wf64(z, f, rf64(z, f) + dt * (rf64(faceNormal, 3 * f) * ax + rf64(faceNormal, 3 * f + 1) * ay + rf64(faceNormal, 3 * f + 2) * az))
  }
}

/** differingWordsBlocks over blocks [k0, k1) of 8192 entries (hybridVorticityKernels.ts DIFFERING_BLOCK). */
export function hybridDifferingWordsBlocks(a: usize, b: usize, n: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    const e = (k + 1) * 8192
    const end = e < n ? e : n
    let d: i32 = 0
    for (let i = k * 8192; i < end; i++) if (load<i64>(a + (<usize>i << 3)) != load<i64>(b + (<usize>i << 3))) d++
    wf64(partial, k, <f64>d)
  }
}

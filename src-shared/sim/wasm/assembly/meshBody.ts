// A mesh body's samples for the coupling's rasterisation (reference: src-shared/sim/liquid/
// meshBodyKernels.ts rasteriseMeshSlab with sampleBodyCells, the body's phi from rigidBody.ts
// and rigidShape.ts sdfGridValue): the same float64 expressions in the same order. A call
// covers box planes [k0, k1) and writes only their cells.
import { ri32, rf32, rf64, wf32 } from './common'

const SUB = 4
const HALF_DIAGONAL = Math.sqrt(3) / 2

/** rigidShape.ts sdfGridValue. */
@inline function gridValue(data: usize, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64, x: f64, y: f64, z: f64): f64 {
  const inv = 1 / dx
  let fx = (x - ox) * inv, fy = (y - oy) * inv, fz = (z - oz) * inv
  let ex = 0.0, ey = 0.0, ez = 0.0
  const NX = <f64>nx, NY = <f64>ny, NZ = <f64>nz
  if (fx < 0) { ex = fx; fx = 0 } else if (fx > NX) { ex = fx - NX; fx = NX }
  if (fy < 0) { ey = fy; fy = 0 } else if (fy > NY) { ey = fy - NY; fy = NY }
  if (fz < 0) { ez = fz; fz = 0 } else if (fz > NZ) { ez = fz - NZ; fz = NZ }
  let i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz)
  if (i >= NX) i = NX - 1
  if (j >= NY) j = NY - 1
  if (k >= NZ) k = NZ - 1
  const tx = fx - i, ty = fy - j, tz = fz - k
  const sx = nx + 1, sxy = sx * (ny + 1)
  const b = <i32>i + sx * <i32>j + sxy * <i32>k
  const c000 = rf32(data, b), c100 = rf32(data, b + 1), c010 = rf32(data, b + sx), c110 = rf32(data, b + sx + 1)
  const c001 = rf32(data, b + sxy), c101 = rf32(data, b + sxy + 1), c011 = rf32(data, b + sxy + sx), c111 = rf32(data, b + sxy + sx + 1)
  const c00 = c000 + tx * (c100 - c000), c10 = c010 + tx * (c110 - c010)
  const c01 = c001 + tx * (c101 - c001), c11 = c011 + tx * (c111 - c011)
  const c0 = c00 + ty * (c10 - c00), c1 = c01 + ty * (c11 - c01)
  let d = c0 + tz * (c1 - c0)
  if (ex != 0 || ey != 0 || ez != 0) d += dx * Math.sqrt(ex * ex + ey * ey + ez * ez)
  return d
}

// The body's pose for bodyPhi, set once per call (module globals: one call per thread at a
// time, and each worker has its own instance's globals).
let R0 = 0.0, R1 = 0.0, R2 = 0.0, R3 = 0.0, R4 = 0.0, R5 = 0.0, R6 = 0.0, R7 = 0.0, R8 = 0.0
let BX = 0.0, BY = 0.0, BZ = 0.0, RB = 0.0
let GDATA: usize = 0, GNX = 0, GNY = 0, GNZ = 0
let GDX = 0.0, GOX = 0.0, GOY = 0.0, GOZ = 0.0

/** meshBodyKernels.ts meshBodyPhi. */
@inline function bodyPhi(x: f64, y: f64, z: f64): f64 {
  const px = x - BX, py = y - BY, pz = z - BZ
  const d2 = px * px + py * py + pz * pz
  if (d2 > 4 * RB * RB) return Math.sqrt(d2) - RB
  return gridValue(GDATA, GNX, GNY, GNZ, GDX, GOX, GOY, GOZ, R0 * px + R3 * py + R6 * pz, R1 * px + R4 * py + R7 * pz, R2 * px + R5 * py + R8 * pz)
}

/** rasteriseMeshSlab over box planes [k0, k1) (pose: meshBodyKernels.ts POSE). */
export function rasteriseMesh(
  cp: usize, halves: usize, count: usize, data: usize, pose: usize,
  gnx: i32, gny: i32, gnz: i32, i0: i32, j0: i32, kb0: i32, lx: i32, ly: i32, lz: i32,
  k0: i32, k1: i32,
): void {
  GDX = rf64(pose, 0); GOX = rf64(pose, 1); GOY = rf64(pose, 2); GOZ = rf64(pose, 3)
  R0 = rf64(pose, 4); R1 = rf64(pose, 5); R2 = rf64(pose, 6); R3 = rf64(pose, 7); R4 = rf64(pose, 8)
  R5 = rf64(pose, 9); R6 = rf64(pose, 10); R7 = rf64(pose, 11); R8 = rf64(pose, 12)
  BX = rf64(pose, 13); BY = rf64(pose, 14); BZ = rf64(pose, 15); RB = rf64(pose, 16)
  const o0 = rf64(pose, 17), o1 = rf64(pose, 18), o2 = rf64(pose, 19), dx = rf64(pose, 20)
  GDATA = data; GNX = gnx; GNY = gny; GNZ = gnz
  const h = dx / <f64>SUB
  const half = SUB / 2
  for (let k = k0; k < k1; k++) for (let j = 0; j < ly; j++) for (let i = 0; i < lx; i++) {
    const d = bodyPhi(o0 + (<f64>(i0 + i) + 0.5) * dx, o1 + (<f64>(j0 + j) + 0.5) * dx, o2 + (<f64>(kb0 + k) + 0.5) * dx)
    const cell = i + lx * (j + ly * k)
    wf32(cp, cell, d)
    const uniform = Math.abs(d) > HALF_DIAGONAL * dx
    const sign: i32 = d < 0 ? 1 : 0
    let inside = 0, xl = 0, yl = 0, zl = 0
    if (uniform) {
      // Every lattice point takes the centre's sign.
      inside = sign * SUB * SUB * SUB
      xl = yl = zl = inside / 2
    } else {
      for (let c2 = 0; c2 < SUB; c2++) for (let b2 = 0; b2 < SUB; b2++) for (let a2 = 0; a2 < SUB; a2++) {
        const flag: i32 = bodyPhi(o0 + <f64>(i0 + i) * dx + (<f64>a2 + 0.5) * h, o1 + <f64>(j0 + j) * dx + (<f64>b2 + 0.5) * h, o2 + <f64>(kb0 + k) * dx + (<f64>c2 + 0.5) * h) < 0 ? 1 : 0
        inside += flag
        if (a2 < half) xl += flag
        if (b2 < half) yl += flag
        if (c2 < half) zl += flag
      }
    }
    store<u8>(count + <usize>cell, <u8>inside)
    const o = halves + <usize>(6 * cell)
    store<u8>(o, <u8>xl); store<u8>(o + 1, <u8>(inside - xl))
    store<u8>(o + 2, <u8>yl); store<u8>(o + 3, <u8>(inside - yl))
    store<u8>(o + 4, <u8>zl); store<u8>(o + 5, <u8>(inside - zl))
  }
}

/** meshBodyKernels.ts pushMeshMarkersSlab with pushMarkersSlab, over markers [q0, q1). */
export function pushMeshMarkers(
  px: usize, py: usize, pz: usize, near: usize, grids: usize, meta: usize, poses: usize,
  nb: i32, nx: i32, ny: i32, nz: i32,
  q0: i32, q1: i32,
): void {
  const o0 = rf64(poses, 17), o1 = rf64(poses, 18), o2 = rf64(poses, 19), dx = rf64(poses, 20)
  const eps = 0.05 * dx, e = 0.25 * dx, inv = 1 / dx
  const NX = <f64>nx, NY = <f64>ny, NZ = <f64>nz
  for (let q = q0; q < q1; q++) {
    let x = rf32(px, q), y = rf32(py, q), z = rf32(pz, q)
    // A NaN marker is pushed by no body in the reference (its distances are NaN).
    if (!(x == x && y == y && z == z)) continue
    const fi = Math.floor((x - o0) * inv), fj = Math.floor((y - o1) * inv), fk = Math.floor((z - o2) * inv)
    const i = Math.min(NX - 1, Math.max(0, fi)), j = Math.min(NY - 1, Math.max(0, fj)), k = Math.min(NZ - 1, Math.max(0, fk))
    const code = <i32>load<u8>(near + <usize>(<i32>i + nx * (<i32>j + ny * <i32>k)))
    if (code == 0) continue
    if (code == 2 && i == fi && j == fj && k == fk) continue
    for (let b = 0; b < nb; b++) {
      const o = 21 * b
      const cx = rf64(poses, o + 13), cy = rf64(poses, o + 14), cz = rf64(poses, o + 15), rb = rf64(poses, o + 16)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) > rb * rb) continue
      GDX = rf64(poses, o); GOX = rf64(poses, o + 1); GOY = rf64(poses, o + 2); GOZ = rf64(poses, o + 3)
      R0 = rf64(poses, o + 4); R1 = rf64(poses, o + 5); R2 = rf64(poses, o + 6); R3 = rf64(poses, o + 7); R4 = rf64(poses, o + 8)
      R5 = rf64(poses, o + 9); R6 = rf64(poses, o + 10); R7 = rf64(poses, o + 11); R8 = rf64(poses, o + 12)
      BX = cx; BY = cy; BZ = cz; RB = rb
      const m = 4 * b
      GDATA = grids + (<usize>ri32(meta, m) << 2); GNX = ri32(meta, m + 1); GNY = ri32(meta, m + 2); GNZ = ri32(meta, m + 3)
      const d = bodyPhi(x, y, z)
      if (!(d < 0)) continue
      let gx = bodyPhi(x + e, y, z) - bodyPhi(x - e, y, z)
      let gy = bodyPhi(x, y + e, z) - bodyPhi(x, y - e, z)
      let gz = bodyPhi(x, y, z + e) - bodyPhi(x, y, z - e)
      const len = Math.sqrt(gx * gx + gy * gy + gz * gz)
      if (!(len > 0)) continue
      gx /= len; gy /= len; gz /= len
      const s = -d + eps
      wf32(px, q, x + s * gx)
      wf32(py, q, y + s * gy)
      wf32(pz, q, z + s * gz)
      x = rf32(px, q); y = rf32(py, q); z = rf32(pz, q)
    }
  }
}

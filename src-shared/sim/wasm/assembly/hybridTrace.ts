// Twin of src-shared/sim/hybrid/hexTraceKernel.ts: the hexahedral fast path of the hybrid
// mesh's face back-traces (seed 000 section 3.3), in the reference's operations and order, so
// each face's status, end point and velocity are the reference's bits.
import { rf64, ri32, ru8, wf64, wi32 } from './common'
import { gridCubeAt } from './hybridGrid'

const DONE: u8 = 0
const ACCURATE: u8 = 1
const FULL: u8 = 2
/** hybridMesh.ts FACE_WALL, FACE_OBSTACLE, CELL_HEX. */
const FACE_WALL: i32 = 1
const FACE_OBSTACLE: i32 = 2
const CELL_HEX: i32 = 0

// The last fastInHex velocity (module globals are per thread: each has its own instance).
let vx: f64 = 0
let vy: f64 = 0
let vz: f64 = 0

/** hexCellAt: the hexahedron of the point's cube, -1 outside the grid, in a band or solid cube, or for NaN. */
@inline function hexCellAt(cubeHex: usize, x: f64, y: f64, z: f64, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64): i32 {
  const cube = gridCubeAt(x, y, z, nx, ny, nz, ox, oy, oz, invH)
  return cube < 0 ? -1 : ri32(cubeHex, cube)
}

/** fastInHex: trilinear in hexahedron c's 8 corner velocities, into (vx, vy, vz). */
@inline function fastInHex(cellCentre: usize, hexVertices: usize, vv: usize, x: f64, y: f64, z: f64, c: i32, invH: f64): void {
  const tx = (x - rf64(cellCentre, 3 * c)) * invH + 0.5
  const ty = (y - rf64(cellCentre, 3 * c + 1)) * invH + 0.5
  const tz = (z - rf64(cellCentre, 3 * c + 2)) * invH + 0.5
  let ux: f64 = 0, uy: f64 = 0, uz: f64 = 0
  for (let d = 0; d < 8; d++) {
    const wt = ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz)
    const v = 3 * ri32(hexVertices, 8 * c + d)
    ux += wt * rf64(vv, v); uy += wt * rf64(vv, v + 1); uz += wt * rf64(vv, v + 2)
  }
  vx = ux; vy = uy; vz = uz
}

// The last hexTraceEnd's end point.
let ex: f64 = 0
let ey: f64 = 0
let ez: f64 = 0

/** hexTraceEnd: the end's hexahedron (the end in ex, ey, ez), or -1. */
@inline function hexTraceEnd(cellCentre: usize, hexVertices: usize, cubeHex: usize, vv: usize, x: f64, y: f64, z: f64, c: i32, step: f64, h: f64, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64): i32 {
  fastInHex(cellCentre, hexVertices, vv, x, y, z, c, invH)
  const mx = x + h * vx, my = y + h * vy, mz = z + h * vz
  const cm = hexCellAt(cubeHex, mx, my, mz, nx, ny, nz, ox, oy, oz, invH)
  if (cm < 0) return -1
  fastInHex(cellCentre, hexVertices, vv, mx, my, mz, cm, invH)
  ex = x + step * vx; ey = y + step * vy; ez = z + step * vz
  return hexCellAt(cubeHex, ex, ey, ez, nx, ny, nz, ox, oy, oz, invH)
}

@inline function floorNear(u: f64, c: i32): i32 {
  const f = Math.floor(u)
  return f < <f64>(c - 1) ? c - 1 : f > <f64>c ? c : <i32>f
}

/** macComponent over whole grid faces only; NaN for a stencil face outside, split, missing or NaN. */
function macComponent(macSingle: usize, macSign: usize, zf: usize, a: i32, gx: f64, gy: f64, gz: f64, ci: i32, cj: i32, ck: i32, nx: i32, ny: i32, nz: i32): f64 {
  const u = a == 0 ? gx : gx - 0.5, v = a == 1 ? gy : gy - 0.5, w = a == 2 ? gz : gz - 0.5
  const i0 = a == 0 ? ci : floorNear(u, ci), j0 = a == 1 ? cj : floorNear(v, cj), k0 = a == 2 ? ck : floorNear(w, ck)
  const fx = nx + (a == 0 ? 1 : 0), fy = ny + (a == 1 ? 1 : 0), fz = nz + (a == 2 ? 1 : 0)
  if (i0 < 0 || j0 < 0 || k0 < 0 || i0 + 1 >= fx || j0 + 1 >= fy || k0 + 1 >= fz) return NaN
  const tx = u - <f64>i0, ty = v - <f64>j0, tz = w - <f64>k0
  const axisOffset = a == 0 ? 0 : a == 1 ? (nx + 1) * ny * nz : (nx + 1) * ny * nz + nx * (ny + 1) * nz
  const base = axisOffset + i0 + fx * (j0 + fy * k0)
  let sum: f64 = 0
  for (let d = 0; d < 8; d++) {
    const g = base + (d & 1) + fx * (((d & 2) != 0 ? 1 : 0) + fy * ((d & 4) != 0 ? 1 : 0))
    const f = ri32(macSingle, g)
    if (f < 0) return NaN
    const value = rf64(zf, f) * rf64(macSign, g)
    if (value != value) return NaN
    sum += ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz) * value
  }
  return sum
}

/** hexFaceTraces over faces [f0, f1). */
export function hexFaceTraces(
  faceCentre: usize, faceNormal: usize, faceCellA: usize, faceKind: usize, cellCentre: usize, hexVertices: usize,
  cubeHex: usize, hexCube: usize, cellKind: usize, macSingle: usize, macSign: usize,
  vv: usize, zOld: usize, dt: f64, hexCount: i32, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64,
  zNew: usize, at: usize, cell: usize, status: usize, f0: i32, f1: i32,
): void {
  const step = -dt, h = 0.5 * step
  for (let f = f0; f < f1; f++) {
    const kind = ru8(faceKind, f)
    if (kind == FACE_WALL || kind == FACE_OBSTACLE) {
      wf64(zNew, f, rf64(zOld, f))
      store<u8>(status + <usize>f, DONE)
      continue
    }
    const c = ri32(faceCellA, f)
    store<u8>(status + <usize>f, FULL)
    if (c >= hexCount) continue
    const ce = hexTraceEnd(cellCentre, hexVertices, cubeHex, vv, rf64(faceCentre, 3 * f), rf64(faceCentre, 3 * f + 1), rf64(faceCentre, 3 * f + 2), c, step, h, nx, ny, nz, ox, oy, oz, invH)
    if (ce < 0) continue
    wf64(at, 3 * f, ex); wf64(at, 3 * f + 1, ey); wf64(at, 3 * f + 2, ez)
    wi32(cell, f, ce)
    store<u8>(status + <usize>f, ACCURATE)
    if (ru8(cellKind, ce) != CELL_HEX) continue
    const cube = ri32(hexCube, ce)
    const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
    const gx = (ex - ox) * invH, gy = (ey - oy) * invH, gz = (ez - oz) * invH
    // A face along an axis needs that component alone (hexTraceKernel.ts).
    const n0 = rf64(faceNormal, 3 * f), n1 = rf64(faceNormal, 3 * f + 1), n2 = rf64(faceNormal, 3 * f + 2)
    const axis = n1 == 0 && n2 == 0 ? 0 : n0 == 0 && n2 == 0 ? 1 : n0 == 0 && n1 == 0 ? 2 : -1
    if (axis >= 0) {
      const q = macComponent(macSingle, macSign, zOld, axis, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (q != q) continue
      wf64(zNew, f, q * (axis == 0 ? n0 : axis == 1 ? n1 : n2))
    } else {
      const u = macComponent(macSingle, macSign, zOld, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (u != u) continue
      const v = macComponent(macSingle, macSign, zOld, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (v != v) continue
      const w = macComponent(macSingle, macSign, zOld, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (w != w) continue
      wf64(zNew, f, u * n0 + v * n1 + w * n2)
    }
    store<u8>(status + <usize>f, DONE)
  }
}

/** trilinearCentres: the 8 centres' clamped trilinear value of the scalar at s. */
function trilinearCentres(cubeHex: usize, s: usize, i0: i32, j0: i32, k0: i32, tx: f64, ty: f64, tz: f64, nx: i32, ny: i32): f64 {
  let sum: f64 = 0, lo: f64 = Infinity, hi: f64 = -Infinity
  for (let d = 0; d < 8; d++) {
    const e = ri32(cubeHex, i0 + (d & 1) + nx * (j0 + ((d & 2) != 0 ? 1 : 0) + ny * (k0 + ((d & 4) != 0 ? 1 : 0))))
    const p = rf64(s, e)
    if (p < lo) lo = p
    if (p > hi) hi = p
    sum += ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz) * p
  }
  return sum < lo ? lo : sum > hi ? hi : sum
}

/** hexCellTraces over cells [c0, c1). */
export function hexCellTraces(
  faceCentre: usize, faceNormal: usize, faceCellA: usize, faceKind: usize, cellCentre: usize, hexVertices: usize,
  cubeHex: usize, hexCube: usize, cellKind: usize, macSingle: usize, macSign: usize,
  vv: usize, a: usize, b: usize, dt: f64, hexCount: i32, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64,
  outA: usize, outB: usize, at: usize, cell: usize, status: usize, c0: i32, c1: i32,
): void {
  const step = -dt, h = 0.5 * step
  for (let c = c0; c < c1; c++) {
    store<u8>(status + <usize>c, FULL)
    if (c >= hexCount) continue
    const ce = hexTraceEnd(cellCentre, hexVertices, cubeHex, vv, rf64(cellCentre, 3 * c), rf64(cellCentre, 3 * c + 1), rf64(cellCentre, 3 * c + 2), c, step, h, nx, ny, nz, ox, oy, oz, invH)
    if (ce < 0) continue
    wf64(at, 3 * c, ex); wf64(at, 3 * c + 1, ey); wf64(at, 3 * c + 2, ez)
    wi32(cell, c, ce)
    store<u8>(status + <usize>c, ACCURATE)
    const u = (ex - ox) * invH - 0.5, v = (ey - oy) * invH - 0.5, w = (ez - oz) * invH - 0.5
    const fu = Math.floor(u), fv = Math.floor(v), fw = Math.floor(w)
    if (!(fu >= 0 && fv >= 0 && fw >= 0 && fu + 1 < <f64>nx && fv + 1 < <f64>ny && fw + 1 < <f64>nz)) continue
    const i0 = <i32>fu, j0 = <i32>fv, k0 = <i32>fw
    let whole = true
    for (let d = 0; d < 8 && whole; d++) whole = ri32(cubeHex, i0 + (d & 1) + nx * (j0 + ((d & 2) != 0 ? 1 : 0) + ny * (k0 + ((d & 4) != 0 ? 1 : 0)))) >= 0
    if (!whole) continue
    const tx = u - fu, ty = v - fv, tz = w - fw
    wf64(outA, c, trilinearCentres(cubeHex, a, i0, j0, k0, tx, ty, tz, nx, ny))
    if (b != 0 && outB != 0) wf64(outB, c, trilinearCentres(cubeHex, b, i0, j0, k0, tx, ty, tz, nx, ny))
    store<u8>(status + <usize>c, DONE)
  }
}

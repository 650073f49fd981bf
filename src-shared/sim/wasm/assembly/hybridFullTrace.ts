// Twin of src-shared/sim/hybrid/fullTraceKernel.ts: the hybrid mesh's whole back-traces (RK2
// through the fast field, points located by grid cube, tetrahedron walk and index search,
// clamped to the fluid by bisection), in the reference's operations and order, so each end,
// cell and clamp flag is the reference's bits.
import { rf64, ri32, ru8, wf64, wi32 } from './common'
import { gridCubeAt } from './hybridGrid'
import { outsideTetBox, tetIndexCell } from './tetIndex'

/** hybridMesh.ts CUBE_HEX, CUBE_BAND; tetLocator.ts WALK_STEPS; hybridLocate.ts LAST_INSIDE_STEPS, FACE_SNAP. */
const CUBE_HEX: i32 = 0
const CUBE_BAND: i32 = 1
const WALK_STEPS: i32 = 8
const LAST_INSIDE_STEPS: i32 = 24
const FACE_SNAP: f64 = 1e-9

// Per-thread state (module globals: each thread has its own instance): the last barycentric
// coordinates, the last fast velocity, the last clamped point.
let l0: f64 = 0
let l1: f64 = 0
let l2: f64 = 0
let l3: f64 = 0
let ux: f64 = 0
let uy: f64 = 0
let uz: f64 = 0
let qx: f64 = 0
let qy: f64 = 0
let qz: f64 = 0

// The row's mesh, index and grid for the current call (set once per call).
let cubeRole: usize = 0
let cubeHex: usize = 0
let cellCentre: usize = 0
let hexVertices: usize = 0
let tets: usize = 0
let frames: usize = 0
let boxes: usize = 0
let neighbours: usize = 0
let indexStart: usize = 0
let indexTets: usize = 0
let hexCount: i32 = 0
let nx: i32 = 0
let ny: i32 = 0
let nz: i32 = 0
let ox: f64 = 0
let oy: f64 = 0
let oz: f64 = 0
let invH: f64 = 0
let iox: f64 = 0
let ioy: f64 = 0
let ioz: f64 = 0
let inx: f64 = 0
let iny: f64 = 0
let inz: f64 = 0
let invCell: f64 = 0

@inline function barycentric(t: i32, x: f64, y: f64, z: f64): void {
  const o = 13 * t
  const px = x - rf64(frames, o), py = y - rf64(frames, o + 1), pz = z - rf64(frames, o + 2)
  const inv = rf64(frames, o + 12)
  const a = (px * rf64(frames, o + 3) + py * rf64(frames, o + 4) + pz * rf64(frames, o + 5)) * inv
  const b = (px * rf64(frames, o + 6) + py * rf64(frames, o + 7) + pz * rf64(frames, o + 8)) * inv
  const c = (px * rf64(frames, o + 9) + py * rf64(frames, o + 10) + pz * rf64(frames, o + 11)) * inv
  l0 = 1 - a - b - c
  l1 = a
  l2 = b
  l3 = c
}

function search(x: f64, y: f64, z: f64): i32 {
  const c = tetIndexCell(x, y, z, iox, ioy, ioz, inx, iny, inz, invCell)
  if (c < 0) return -1
  for (let q = ri32(indexStart, c), e = ri32(indexStart, c + 1); q < e; q++) {
    const t = ri32(indexTets, q)
    if (outsideTetBox(boxes, t, x, y, z)) continue
    barycentric(t, x, y, z)
    if (l0 >= -1e-12 && l1 >= -1e-12 && l2 >= -1e-12 && l3 >= -1e-12) return t
  }
  return -1
}

function locateFrom(from: i32, x: f64, y: f64, z: f64): i32 {
  let t = from
  for (let step = 0; step < WALK_STEPS && t >= 0; step++) {
    barycentric(t, x, y, z)
    if (l0 > 1e-9 && l1 > 1e-9 && l2 > 1e-9 && l3 > 1e-9) return t
    if (!(l0 == l0 && l1 == l1 && l2 == l2 && l3 == l3)) break
    // The first of the smallest weights, as the reference's scan finds it.
    let k = 0
    let m = l0
    if (l1 < m) { k = 1; m = l1 }
    if (l2 < m) { k = 2; m = l2 }
    if (l3 < m) { k = 3; m = l3 }
    t = ri32(neighbours, 4 * t + k)
  }
  return search(x, y, z)
}

@inline function hexAt(i: i32, j: i32, k: i32): i32 {
  if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return -1
  return ri32(cubeHex, i + nx * (j + ny * k))
}

function cellAt(x: f64, y: f64, z: f64, near: i32): i32 {
  const cube = gridCubeAt(x, y, z, nx, ny, nz, ox, oy, oz, invH)
  if (cube < 0) return -1
  const role = ru8(cubeRole, cube)
  if (role == CUBE_HEX) return ri32(cubeHex, cube)
  if (role != CUBE_BAND) return -1
  const t = near >= hexCount ? locateFrom(near - hexCount, x, y, z) : search(x, y, z)
  if (t >= 0) return hexCount + t
  // The point's place in its cube (the expressions gridCubeAt used).
  const i = cube % nx, r = cube / nx, j = r % ny, k = r / ny
  const u = (x - ox) * invH - <f64>i, v = (y - oy) * invH - <f64>j, w = (z - oz) * invH - <f64>k
  const di = u < FACE_SNAP ? -1 : u > 1 - FACE_SNAP ? 1 : 0
  const dj = v < FACE_SNAP ? -1 : v > 1 - FACE_SNAP ? 1 : 0
  const dk = w < FACE_SNAP ? -1 : w > 1 - FACE_SNAP ? 1 : 0
  let e = di != 0 ? hexAt(i + di, j, k) : -1
  if (e < 0 && dj != 0) e = hexAt(i, j + dj, k)
  if (e < 0 && dk != 0) e = hexAt(i, j, k + dk)
  return e
}

/** lastInside: the last point inside on a -> b into (qx, qy, qz), its cell returned (walks as the reference's). */
function lastInside(ax: f64, ay: f64, az: f64, ca: i32, bx: f64, by: f64, bz: f64, near: i32): i32 {
  const cb = cellAt(bx, by, bz, near)
  if (cb >= 0) {
    qx = bx; qy = by; qz = bz
    return cb
  }
  const dx = bx - ax, dy = by - ay, dz = bz - az
  let lo: f64 = 0, hi: f64 = 1, cell = ca
  for (let s = 0; s < LAST_INSIDE_STEPS; s++) {
    const mid = 0.5 * (lo + hi)
    const c = cellAt(ax + mid * dx, ay + mid * dy, az + mid * dz, cell)
    if (c >= 0) {
      lo = mid
      cell = c
    } else hi = mid
  }
  qx = ax + lo * dx; qy = ay + lo * dy; qz = az + lo * dz
  return cell
}

/** The fast field in cell c into (ux, uy, uz). */
function fast(vv: usize, x: f64, y: f64, z: f64, c: i32): void {
  let sx: f64 = 0, sy: f64 = 0, sz: f64 = 0
  if (c >= hexCount) {
    const t = c - hexCount
    barycentric(t, x, y, z)
    for (let k = 0; k < 4; k++) {
      const v = 3 * ri32(tets, 4 * t + k)
      const w = k == 0 ? l0 : k == 1 ? l1 : k == 2 ? l2 : l3
      sx += w * rf64(vv, v); sy += w * rf64(vv, v + 1); sz += w * rf64(vv, v + 2)
    }
  } else {
    const tx = (x - rf64(cellCentre, 3 * c)) * invH + 0.5
    const ty = (y - rf64(cellCentre, 3 * c + 1)) * invH + 0.5
    const tz = (z - rf64(cellCentre, 3 * c + 2)) * invH + 0.5
    for (let d = 0; d < 8; d++) {
      const wt = ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz)
      const v = 3 * ri32(hexVertices, 8 * c + d)
      sx += wt * rf64(vv, v); sy += wt * rf64(vv, v + 1); sz += wt * rf64(vv, v + 2)
    }
  }
  ux = sx; uy = sy; uz = sz
}

/** fullTraces over indices [i0, i1). */
export function hybridFullTraces(
  mCubeRole: usize, mCubeHex: usize, mCellCentre: usize, mHexVertices: usize, mTets: usize, mFrames: usize, mBoxes: usize, mNeighbours: usize, mIndexStart: usize, mIndexTets: usize,
  params: usize, vv: usize, pick: usize, pickValue: i32, starts: usize, startCell: usize, at: usize, cell: usize, left: usize, end: usize, i0: i32, i1: i32,
): void {
  cubeRole = mCubeRole; cubeHex = mCubeHex; cellCentre = mCellCentre; hexVertices = mHexVertices; tets = mTets
  frames = mFrames; boxes = mBoxes; neighbours = mNeighbours; indexStart = mIndexStart; indexTets = mIndexTets
  hexCount = <i32>rf64(params, 0)
  nx = <i32>rf64(params, 1); ny = <i32>rf64(params, 2); nz = <i32>rf64(params, 3)
  ox = rf64(params, 4); oy = rf64(params, 5); oz = rf64(params, 6); invH = rf64(params, 7)
  iox = rf64(params, 8); ioy = rf64(params, 9); ioz = rf64(params, 10)
  inx = rf64(params, 11); iny = rf64(params, 12); inz = rf64(params, 13); invCell = rf64(params, 14)
  const step = rf64(params, 15), h = 0.5 * step, endOnly = rf64(params, 16) != 0
  for (let i = i0; i < i1; i++) {
    if (ru8(pick, i) != pickValue) continue
    const x = rf64(starts, 3 * i), y = rf64(starts, 3 * i + 1), z = rf64(starts, 3 * i + 2)
    const c = startCell == 0 ? i : ri32(startCell, i)
    fast(vv, x, y, z, c)
    let mx = x + h * ux, my = y + h * uy, mz = z + h * uz
    let cm = cellAt(mx, my, mz, c)
    if (cm < 0) {
      cm = lastInside(x, y, z, c, mx, my, mz, c)
      mx = qx; my = qy; mz = qz
    }
    fast(vv, mx, my, mz, cm)
    const ex = x + step * ux, ey = y + step * uy, ez = z + step * uz
    wf64(end, 3 * i, ex); wf64(end, 3 * i + 1, ey); wf64(end, 3 * i + 2, ez)
    if (endOnly) continue
    let ce = cellAt(ex, ey, ez, cm)
    store<u8>(left + <usize>i, ce < 0 ? 1 : 0)
    if (ce < 0) ce = lastInside(x, y, z, c, ex, ey, ez, cm)
    else { qx = ex; qy = ey; qz = ez }
    wf64(at, 3 * i, qx); wf64(at, 3 * i + 1, qy); wf64(at, 3 * i + 2, qz)
    wi32(cell, i, ce)
  }
}

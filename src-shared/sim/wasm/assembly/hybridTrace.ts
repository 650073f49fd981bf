// Twin of src-shared/sim/hybrid/hexTraceKernel.ts: the hexahedral fast path of the hybrid
// mesh's face back-traces (seed 000 section 3.3), in the reference's operations and order, so
// each face's status, end point and velocity are the reference's bits. The staggered stencil's
// values come by grid face (zGrid), from the table row at the end (macGridValues).
import { rf64, ri32, ru8, wf64, wi32 } from './common'
import { gridCubeAt } from './hybridGrid'
import { macGridComponent, sBase, sFx, sFy, stencilAt, sTx, sTy, sTz } from './hybridMac'

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

// macStencil's answer (for each lane of macComponent2): the first grid face, the row strides,
// the weights, and whether the stencil fails (a face outside the grid).
let mBase: i32 = 0
let mFx: i32 = 0
let mFy: i32 = 0
let mBad: bool = false
let mTx: f64 = 0
let mTy: f64 = 0
let mTz: f64 = 0

/** hybridMac.ts stencilAt for component a at grid point (gx, gy, gz) of cube (ci, cj, ck) into the m* globals (a failed lane reads the grid's first faces instead, always there, and is answered NaN). */
@inline function macStencil(a: i32, gx: f64, gy: f64, gz: f64, ci: i32, cj: i32, ck: i32, nx: i32, ny: i32, nz: i32): void {
  mBad = !stencilAt(a, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  mBase = sBase; mFx = sFx; mFy = sFy
  mTx = sTx; mTy = sTy; mTz = sTz
}

// Two traces at once. A trace is one long chain of dependent steps (a lookup's eight corners
// summed in order, the midpoint, its cube, the next lookup, the end, its cube, the staggered
// stencil summed in order): one face's chain is longer than what the processor can look ahead
// over, so one face at a time waits on each step's latency. Two faces, each in its own lane of
// the same operations (each lane the scalar chain's operations in its order, so its bits), run
// their chains side by side. A pair whose traces leave the plain hexahedra is redone face by
// face.

// The last fastInHex2 velocities (lanes: the two traces).
let wx2: v128 = f64x2.splat(0)
let wy2: v128 = f64x2.splat(0)
let wz2: v128 = f64x2.splat(0)

/** fastInHex for two points (lanes) in hexahedra cA and cB, into (wx2, wy2, wz2). */
@inline function fastInHex2(cellCentre: usize, hexVertices: usize, vv: usize, x: v128, y: v128, z: v128, cA: i32, cB: i32, invH: v128): void {
  const half = f64x2.splat(0.5), one = f64x2.splat(1)
  const tx = f64x2.add(f64x2.mul(f64x2.sub(x, f64x2(rf64(cellCentre, 3 * cA), rf64(cellCentre, 3 * cB))), invH), half)
  const ty = f64x2.add(f64x2.mul(f64x2.sub(y, f64x2(rf64(cellCentre, 3 * cA + 1), rf64(cellCentre, 3 * cB + 1))), invH), half)
  const tz = f64x2.add(f64x2.mul(f64x2.sub(z, f64x2(rf64(cellCentre, 3 * cA + 2), rf64(cellCentre, 3 * cB + 2))), invH), half)
  const sx = f64x2.sub(one, tx), sy = f64x2.sub(one, ty), sz = f64x2.sub(one, tz)
  const pa = hexVertices + (<usize>(8 * cA) << 2), pb = hexVertices + (<usize>(8 * cB) << 2)
  let ux = f64x2.splat(0), uy = ux, uz = ux
  for (let d = 0; d < 8; d++) {
    const wt = f64x2.mul(f64x2.mul((d & 1) != 0 ? tx : sx, (d & 2) != 0 ? ty : sy), (d & 4) != 0 ? tz : sz)
    const a = vv + (<usize>(3 * load<i32>(pa + (<usize>d << 2))) << 3)
    const b = vv + (<usize>(3 * load<i32>(pb + (<usize>d << 2))) << 3)
    ux = f64x2.add(ux, f64x2.mul(wt, f64x2(load<f64>(a), load<f64>(b))))
    uy = f64x2.add(uy, f64x2.mul(wt, f64x2(load<f64>(a, 8), load<f64>(b, 8))))
    uz = f64x2.add(uz, f64x2.mul(wt, f64x2(load<f64>(a, 16), load<f64>(b, 16))))
  }
  wx2 = ux; wy2 = uy; wz2 = uz
}

// The two ends of the last hexTraceEnd2 and their hexahedra.
let ex2: v128 = f64x2.splat(0)
let ey2: v128 = f64x2.splat(0)
let ez2: v128 = f64x2.splat(0)
let endA: i32 = -1
let endB: i32 = -1

/**
 * hexTraceEnd for two starts (lanes) in hexahedra cA and cB: false when either midpoint is not
 * in a hexahedral cube (the caller redoes both alone); else the ends in (ex2, ey2, ez2) and
 * their hexahedra (or -1) in endA, endB.
 */
@inline function hexTraceEnd2(cellCentre: usize, hexVertices: usize, cubeHex: usize, vv: usize, x: v128, y: v128, z: v128, cA: i32, cB: i32, step: v128, h: v128, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64): bool {
  const iH = f64x2.splat(invH)
  fastInHex2(cellCentre, hexVertices, vv, x, y, z, cA, cB, iH)
  const mx = f64x2.add(x, f64x2.mul(h, wx2)), my = f64x2.add(y, f64x2.mul(h, wy2)), mz = f64x2.add(z, f64x2.mul(h, wz2))
  const mA = hexCellAt(cubeHex, f64x2.extract_lane(mx, 0), f64x2.extract_lane(my, 0), f64x2.extract_lane(mz, 0), nx, ny, nz, ox, oy, oz, invH)
  const mB = hexCellAt(cubeHex, f64x2.extract_lane(mx, 1), f64x2.extract_lane(my, 1), f64x2.extract_lane(mz, 1), nx, ny, nz, ox, oy, oz, invH)
  if (mA < 0 || mB < 0) return false
  fastInHex2(cellCentre, hexVertices, vv, mx, my, mz, mA, mB, iH)
  ex2 = f64x2.add(x, f64x2.mul(step, wx2)); ey2 = f64x2.add(y, f64x2.mul(step, wy2)); ez2 = f64x2.add(z, f64x2.mul(step, wz2))
  endA = hexCellAt(cubeHex, f64x2.extract_lane(ex2, 0), f64x2.extract_lane(ey2, 0), f64x2.extract_lane(ez2, 0), nx, ny, nz, ox, oy, oz, invH)
  endB = hexCellAt(cubeHex, f64x2.extract_lane(ex2, 1), f64x2.extract_lane(ey2, 1), f64x2.extract_lane(ez2, 1), nx, ny, nz, ox, oy, oz, invH)
  return true
}

/** The axis of a face's normal when it lies along one (0, 1, 2), else -1. */
@inline function normalAxis(faceNormal: usize, f: i32): i32 {
  const n0 = rf64(faceNormal, 3 * f), n1 = rf64(faceNormal, 3 * f + 1), n2 = rf64(faceNormal, 3 * f + 2)
  return n1 == 0 && n2 == 0 ? 0 : n0 == 0 && n2 == 0 ? 1 : n0 == 0 && n1 == 0 ? 2 : -1
}

/**
 * macGridComponent for two lanes (face A's component aA at its end, face B's aB at its), each
 * lane its scalar sum in order; a lane whose stencil fails (outside, split or missing, NaN) is NaN.
 */
function macComponent2(zGrid: usize, aA: i32, aB: i32, gx: v128, gy: v128, gz: v128, ciA: i32, cjA: i32, ckA: i32, ciB: i32, cjB: i32, ckB: i32, nx: i32, ny: i32, nz: i32): v128 {
  macStencil(aA, f64x2.extract_lane(gx, 0), f64x2.extract_lane(gy, 0), f64x2.extract_lane(gz, 0), ciA, cjA, ckA, nx, ny, nz)
  const baseA = mBase, fxA = mFx, fyA = mFy
  const badA = mBad
  const txA = mTx, tyA = mTy, tzA = mTz
  macStencil(aB, f64x2.extract_lane(gx, 1), f64x2.extract_lane(gy, 1), f64x2.extract_lane(gz, 1), ciB, cjB, ckB, nx, ny, nz)
  const baseB = mBase, fxB = mFx, fyB = mFy
  const badB = mBad
  const one = f64x2.splat(1)
  const tx = f64x2(txA, mTx), ty = f64x2(tyA, mTy), tz = f64x2(tzA, mTz)
  const sx = f64x2.sub(one, tx), sy = f64x2.sub(one, ty), sz = f64x2.sub(one, tz)
  let sum = f64x2.splat(0)
  for (let d = 0; d < 8; d++) {
    const dy = (d & 2) != 0 ? 1 : 0, dz = (d & 4) != 0 ? 1 : 0
    const gA = baseA + (d & 1) + fxA * (dy + fyA * dz), gB = baseB + (d & 1) + fxB * (dy + fyB * dz)
    // A split or missing face is NaN in the table: its lane's sum turns NaN, as the scalar's early NaN.
    const value = f64x2(rf64(zGrid, gA), rf64(zGrid, gB))
    sum = f64x2.add(sum, f64x2.mul(f64x2.mul(f64x2.mul((d & 1) != 0 ? tx : sx, dy != 0 ? ty : sy), dz != 0 ? tz : sz), value))
  }
  if (badA) sum = f64x2.replace_lane(sum, 0, NaN)
  if (badB) sum = f64x2.replace_lane(sum, 1, NaN)
  return sum
}

/** hexFaceTraces' work for face f alone (the reference's loop body). */
function oneFace(
  faceCentre: usize, faceNormal: usize, faceCellA: usize, faceKind: usize, cellCentre: usize, hexVertices: usize,
  cubeHex: usize, hexCube: usize, cellKind: usize,
  vv: usize, zOld: usize, zGrid: usize, step: f64, h: f64, hexCount: i32, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64,
  zNew: usize, at: usize, cell: usize, status: usize, f: i32,
): void {
  const kind = ru8(faceKind, f)
  if (kind == FACE_WALL || kind == FACE_OBSTACLE) {
    wf64(zNew, f, rf64(zOld, f))
    store<u8>(status + <usize>f, DONE)
    return
  }
  const c = ri32(faceCellA, f)
  store<u8>(status + <usize>f, FULL)
  if (c >= hexCount) return
  const ce = hexTraceEnd(cellCentre, hexVertices, cubeHex, vv, rf64(faceCentre, 3 * f), rf64(faceCentre, 3 * f + 1), rf64(faceCentre, 3 * f + 2), c, step, h, nx, ny, nz, ox, oy, oz, invH)
  if (ce < 0) return
  finishFace(faceNormal, hexCube, cellKind, zGrid, nx, ny, nz, ox, oy, oz, invH, zNew, at, cell, status, f, ce, ex, ey, ez)
}

/** A face whose trace ended at (x, y, z) in hexahedron ce: the end recorded, then the staggered velocity where its stencil is whole. */
function finishFace(
  faceNormal: usize, hexCube: usize, cellKind: usize, zGrid: usize,
  nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64, zNew: usize, at: usize, cell: usize, status: usize, f: i32, ce: i32, x: f64, y: f64, z: f64,
): void {
  wf64(at, 3 * f, x); wf64(at, 3 * f + 1, y); wf64(at, 3 * f + 2, z)
  wi32(cell, f, ce)
  store<u8>(status + <usize>f, ACCURATE)
  if (ru8(cellKind, ce) != CELL_HEX) return
  const cube = ri32(hexCube, ce)
  const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
  const gx = (x - ox) * invH, gy = (y - oy) * invH, gz = (z - oz) * invH
  // A face along an axis needs that component alone (hexTraceKernel.ts).
  const axis = normalAxis(faceNormal, f)
  if (axis >= 0) {
    const q = macGridComponent(zGrid, axis, gx, gy, gz, ci, cj, ck, nx, ny, nz)
    if (q != q) return
    wf64(zNew, f, q * rf64(faceNormal, 3 * f + axis))
  } else {
    const n0 = rf64(faceNormal, 3 * f), n1 = rf64(faceNormal, 3 * f + 1), n2 = rf64(faceNormal, 3 * f + 2)
    const u = macGridComponent(zGrid, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz)
    if (u != u) return
    const v = macGridComponent(zGrid, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz)
    if (v != v) return
    const w = macGridComponent(zGrid, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz)
    if (w != w) return
    wf64(zNew, f, u * n0 + v * n1 + w * n2)
  }
  store<u8>(status + <usize>f, DONE)
}

/** Whether face f's trace starts in a plain hexahedron (not closed, not in a tetrahedron). */
@inline function traced(faceKind: usize, faceCellA: usize, hexCount: i32, f: i32): bool {
  const kind = ru8(faceKind, f)
  return kind != FACE_WALL && kind != FACE_OBSTACLE && ri32(faceCellA, f) < hexCount
}

/** hexFaceTraces over faces [f0, f1): two faces at a time where both are traced from a hexahedron (see above), else one. */
export function hexFaceTraces(
  faceCentre: usize, faceNormal: usize, faceCellA: usize, faceKind: usize, cellCentre: usize, hexVertices: usize,
  cubeHex: usize, hexCube: usize, cellKind: usize,
  vv: usize, zOld: usize, zGrid: usize, dt: f64, hexCount: i32, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64,
  zNew: usize, at: usize, cell: usize, status: usize, f0: i32, f1: i32,
): void {
  const step = -dt, h = 0.5 * step
  const step2 = f64x2.splat(step), h2 = f64x2.splat(h)
  for (let f = f0; f < f1;) {
    const g = f + 1
    if (g >= f1 || !traced(faceKind, faceCellA, hexCount, f) || !traced(faceKind, faceCellA, hexCount, g)) {
      oneFace(faceCentre, faceNormal, faceCellA, faceKind, cellCentre, hexVertices, cubeHex, hexCube, cellKind, vv, zOld, zGrid, step, h, hexCount, nx, ny, nz, ox, oy, oz, invH, zNew, at, cell, status, f)
      f++
      continue
    }
    const x = f64x2(rf64(faceCentre, 3 * f), rf64(faceCentre, 3 * g))
    const y = f64x2(rf64(faceCentre, 3 * f + 1), rf64(faceCentre, 3 * g + 1))
    const z = f64x2(rf64(faceCentre, 3 * f + 2), rf64(faceCentre, 3 * g + 2))
    if (!hexTraceEnd2(cellCentre, hexVertices, cubeHex, vv, x, y, z, ri32(faceCellA, f), ri32(faceCellA, g), step2, h2, nx, ny, nz, ox, oy, oz, invH)) {
      oneFace(faceCentre, faceNormal, faceCellA, faceKind, cellCentre, hexVertices, cubeHex, hexCube, cellKind, vv, zOld, zGrid, step, h, hexCount, nx, ny, nz, ox, oy, oz, invH, zNew, at, cell, status, f)
      oneFace(faceCentre, faceNormal, faceCellA, faceKind, cellCentre, hexVertices, cubeHex, hexCube, cellKind, vv, zOld, zGrid, step, h, hexCount, nx, ny, nz, ox, oy, oz, invH, zNew, at, cell, status, g)
      f += 2
      continue
    }
    const cA = endA, cB = endB
    const xe = ex2, ye = ey2, ze = ez2
    store<u8>(status + <usize>f, FULL)
    store<u8>(status + <usize>g, FULL)
    const axisA = normalAxis(faceNormal, f), axisB = normalAxis(faceNormal, g)
    if (cA >= 0 && cB >= 0 && axisA >= 0 && axisB >= 0 && ru8(cellKind, cA) == CELL_HEX && ru8(cellKind, cB) == CELL_HEX) {
      // Both ends in plain hexahedra and both faces along axes: the staggered sums side by side.
      wf64(at, 3 * f, f64x2.extract_lane(xe, 0)); wf64(at, 3 * f + 1, f64x2.extract_lane(ye, 0)); wf64(at, 3 * f + 2, f64x2.extract_lane(ze, 0))
      wf64(at, 3 * g, f64x2.extract_lane(xe, 1)); wf64(at, 3 * g + 1, f64x2.extract_lane(ye, 1)); wf64(at, 3 * g + 2, f64x2.extract_lane(ze, 1))
      wi32(cell, f, cA); wi32(cell, g, cB)
      const cubeA = ri32(hexCube, cA), cubeB = ri32(hexCube, cB)
      const ciA = cubeA % nx, rA = (cubeA - ciA) / nx, cjA = rA % ny, ckA = (rA - cjA) / ny
      const ciB = cubeB % nx, rB = (cubeB - ciB) / nx, cjB = rB % ny, ckB = (rB - cjB) / ny
      const iH = f64x2.splat(invH)
      const gx = f64x2.mul(f64x2.sub(xe, f64x2.splat(ox)), iH), gy = f64x2.mul(f64x2.sub(ye, f64x2.splat(oy)), iH), gz = f64x2.mul(f64x2.sub(ze, f64x2.splat(oz)), iH)
      const q = macComponent2(zGrid, axisA, axisB, gx, gy, gz, ciA, cjA, ckA, ciB, cjB, ckB, nx, ny, nz)
      const qA = f64x2.extract_lane(q, 0), qB = f64x2.extract_lane(q, 1)
      if (qA == qA) {
        wf64(zNew, f, qA * rf64(faceNormal, 3 * f + axisA))
        store<u8>(status + <usize>f, DONE)
      } else store<u8>(status + <usize>f, ACCURATE)
      if (qB == qB) {
        wf64(zNew, g, qB * rf64(faceNormal, 3 * g + axisB))
        store<u8>(status + <usize>g, DONE)
      } else store<u8>(status + <usize>g, ACCURATE)
    } else {
      if (cA >= 0) finishFace(faceNormal, hexCube, cellKind, zGrid, nx, ny, nz, ox, oy, oz, invH, zNew, at, cell, status, f, cA, f64x2.extract_lane(xe, 0), f64x2.extract_lane(ye, 0), f64x2.extract_lane(ze, 0))
      if (cB >= 0) finishFace(faceNormal, hexCube, cellKind, zGrid, nx, ny, nz, ox, oy, oz, invH, zNew, at, cell, status, g, cB, f64x2.extract_lane(xe, 1), f64x2.extract_lane(ye, 1), f64x2.extract_lane(ze, 1))
    }
    f += 2
  }
}


/** hexCellTraces' work for cell c alone (the reference's loop body). */
function oneCell(
  cellCentre: usize, hexVertices: usize, cubeHex: usize, vv: usize, a: usize, b: usize, step: f64, h: f64, hexCount: i32,
  nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64, outA: usize, outB: usize, at: usize, cell: usize, status: usize, c: i32,
): void {
  store<u8>(status + <usize>c, FULL)
  if (c >= hexCount) return
  const ce = hexTraceEnd(cellCentre, hexVertices, cubeHex, vv, rf64(cellCentre, 3 * c), rf64(cellCentre, 3 * c + 1), rf64(cellCentre, 3 * c + 2), c, step, h, nx, ny, nz, ox, oy, oz, invH)
  if (ce < 0) return
  finishCell(cubeHex, a, b, nx, ny, nz, ox, oy, oz, invH, outA, outB, at, cell, status, c, ce, ex, ey, ez)
}

/** A cell whose trace ended at (x, y, z) in hexahedron ce: the end recorded, then the scalars' trilinear values where the 8 centres around it are hexahedra. */
function finishCell(
  cubeHex: usize, a: usize, b: usize, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64,
  outA: usize, outB: usize, at: usize, cell: usize, status: usize, c: i32, ce: i32, x: f64, y: f64, z: f64,
): void {
  wf64(at, 3 * c, x); wf64(at, 3 * c + 1, y); wf64(at, 3 * c + 2, z)
  wi32(cell, c, ce)
  store<u8>(status + <usize>c, ACCURATE)
  const u = (x - ox) * invH - 0.5, v = (y - oy) * invH - 0.5, w = (z - oz) * invH - 0.5
  const fu = Math.floor(u), fv = Math.floor(v), fw = Math.floor(w)
  if (!(fu >= 0 && fv >= 0 && fw >= 0 && fu + 1 < <f64>nx && fv + 1 < <f64>ny && fw + 1 < <f64>nz)) return
  const i0 = <i32>fu, j0 = <i32>fv, k0 = <i32>fw
  let whole = true
  for (let d = 0; d < 8 && whole; d++) whole = ri32(cubeHex, i0 + (d & 1) + nx * (j0 + ((d & 2) != 0 ? 1 : 0) + ny * (k0 + ((d & 4) != 0 ? 1 : 0)))) >= 0
  if (!whole) return
  const tx = u - fu, ty = v - fv, tz = w - fw
  const both = b != 0 && outB != 0
  const ab = trilinearCentres2(cubeHex, a, both ? b : a, i0, j0, k0, tx, ty, tz, nx, ny)
  wf64(outA, c, f64x2.extract_lane(ab, 0))
  if (both) wf64(outB, c, f64x2.extract_lane(ab, 1))
  store<u8>(status + <usize>c, DONE)
}

/**
 * trilinearCentres of the scalars at s and t (lanes) over the same 8 centres, each lane the
 * scalar's operations in its order (a NaN value leaves lo and hi as the scalar's comparisons
 * do), so its bits.
 */
function trilinearCentres2(cubeHex: usize, s: usize, t: usize, i0: i32, j0: i32, k0: i32, tx: f64, ty: f64, tz: f64, nx: i32, ny: i32): v128 {
  let sum = f64x2.splat(0), lo = f64x2.splat(Infinity), hi = f64x2.splat(-Infinity)
  for (let d = 0; d < 8; d++) {
    const e = ri32(cubeHex, i0 + (d & 1) + nx * (j0 + ((d & 2) != 0 ? 1 : 0) + ny * (k0 + ((d & 4) != 0 ? 1 : 0))))
    const p = f64x2(rf64(s, e), rf64(t, e))
    lo = v128.bitselect(p, lo, f64x2.lt(p, lo))
    hi = v128.bitselect(p, hi, f64x2.gt(p, hi))
    const wt = ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz)
    sum = f64x2.add(sum, f64x2.mul(f64x2.splat(wt), p))
  }
  return v128.bitselect(lo, v128.bitselect(hi, sum, f64x2.gt(sum, hi)), f64x2.lt(sum, lo))
}

/** hexCellTraces over cells [c0, c1): two cells at a time where both are hexahedra (see above), else one. */
export function hexCellTraces(
  faceCentre: usize, faceNormal: usize, faceCellA: usize, faceKind: usize, cellCentre: usize, hexVertices: usize,
  cubeHex: usize, hexCube: usize, cellKind: usize,
  vv: usize, a: usize, b: usize, dt: f64, hexCount: i32, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64,
  outA: usize, outB: usize, at: usize, cell: usize, status: usize, c0: i32, c1: i32,
): void {
  const step = -dt, h = 0.5 * step
  const step2 = f64x2.splat(step), h2 = f64x2.splat(h)
  for (let c = c0; c < c1;) {
    const d = c + 1
    if (d >= c1 || d >= hexCount) {
      oneCell(cellCentre, hexVertices, cubeHex, vv, a, b, step, h, hexCount, nx, ny, nz, ox, oy, oz, invH, outA, outB, at, cell, status, c)
      c++
      continue
    }
    const x = f64x2(rf64(cellCentre, 3 * c), rf64(cellCentre, 3 * d))
    const y = f64x2(rf64(cellCentre, 3 * c + 1), rf64(cellCentre, 3 * d + 1))
    const z = f64x2(rf64(cellCentre, 3 * c + 2), rf64(cellCentre, 3 * d + 2))
    if (!hexTraceEnd2(cellCentre, hexVertices, cubeHex, vv, x, y, z, c, d, step2, h2, nx, ny, nz, ox, oy, oz, invH)) {
      oneCell(cellCentre, hexVertices, cubeHex, vv, a, b, step, h, hexCount, nx, ny, nz, ox, oy, oz, invH, outA, outB, at, cell, status, c)
      oneCell(cellCentre, hexVertices, cubeHex, vv, a, b, step, h, hexCount, nx, ny, nz, ox, oy, oz, invH, outA, outB, at, cell, status, d)
      c += 2
      continue
    }
    const cA = endA, cB = endB
    const xe = ex2, ye = ey2, ze = ez2
    store<u8>(status + <usize>c, FULL)
    store<u8>(status + <usize>d, FULL)
    if (cA >= 0) finishCell(cubeHex, a, b, nx, ny, nz, ox, oy, oz, invH, outA, outB, at, cell, status, c, cA, f64x2.extract_lane(xe, 0), f64x2.extract_lane(ye, 0), f64x2.extract_lane(ze, 0))
    if (cB >= 0) finishCell(cubeHex, a, b, nx, ny, nz, ox, oy, oz, invH, outA, outB, at, cell, status, d, cB, f64x2.extract_lane(xe, 1), f64x2.extract_lane(ye, 1), f64x2.extract_lane(ze, 1))
    c += 2
  }
}

/** macStencil.ts macGridValues: every grid face's +a velocity as a whole face gives it (NaN for a split or missing one), grid faces [g0, g1). */
export function macGridValues(single: usize, sign: usize, zf: usize, zGrid: usize, g0: i32, g1: i32): void {
  for (let g = g0; g < g1; g++) {
    const f = ri32(single, g)
    wf64(zGrid, g, f >= 0 ? rf64(zf, f) * rf64(sign, g) : NaN)
  }
}

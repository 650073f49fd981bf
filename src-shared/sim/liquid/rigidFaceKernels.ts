// The rigid coupling's passes over the faces its bodies own (rigidCoupling.ts; the list and its
// torque arms: ownedFaces.ts), as kernel rows. They ran on the calling thread, about 20 ms a
// frame of the gears and bunnies while the kernels' other threads waited:
// - faceBlendSlab: u = (1 - w) u + w u_body on the open faces, u_body the wall velocity of
//   the liquid-only solve (e_a . v + arm . omega: imposeWithReaction's blend) or the body's
//   rigid velocity at the face centre (e_a . (v + omega x r): imposeRigidVelocity, eq. 80);
// - boundaryFacesSlab: the walls of the liquid-only solve (boundary()): each face open by at
//   most 1 - w, closed beside a cell whose centre is inside a body, at the wall velocity;
// - restoreFacesSlab: the liquid's own velocity back on the faces that solve closed;
// - faceExchangeSlab: per body, the markers' share of the momentum exchange with it
//   (imposeWithReaction's 6x6 system, A += m_f w J J^T, b += m_f w J u_f).
// Each face has one owner and appears once in the list, so the rows over entries write
// disjoint faces; the exchange is a row over bodies, each summing its own faces in list order.
// Any split gives the bits of the serial passes (the same float64 expressions in the same
// order; float32 data promoted on load and rounded on store), and so does the twin
// (wasm/assembly/rigidFaces.ts).
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, size, sizedRow, struct } from '../core/kernelTable'
import { FACE_BODY, FACE_STRIDE } from './ownedFaces'

/** Float64 values per body in a rows' body state: v (3), omega (3), centre of mass (3), flag. */
export const BODY_STATE = 10
/** The body state's flag: 1 when the row visits the body's faces. */
export const BODY_FLAG = 9
/** faceBlendSlab's modes: the wall velocity (arm . omega) or the rigid velocity at the face centre. */
export const BLEND_WALL = 0
export const BLEND_RIGID = 1
/** Float64 values per body of the exchange: its 6x6 matrix, then its right-hand side. */
export const EXCHANGE_STRIDE = 42

/** Per-axis arrays of a staggered grid (MacGrid's u, v, w), float32. */
export interface FaceArrays32 {
  u: Float32Array
  v: Float32Array
  w: Float32Array
}
/** Per-axis arrays, float64 (the markers' splat sums: transfer.ts faceSplat). */
export interface FaceArrays64 {
  u: Float64Array
  v: Float64Array
  w: Float64Array
}

const axis32 = (g: FaceArrays32, a: number): Float32Array => (a === 0 ? g.u : a === 1 ? g.v : g.w)

/**
 * The body's share w of entry t's face (fr), or -1 when the row skips the entry: its body's
 * flag is not set or the face is not open (open > 0 fails, NaN included).
 */
function openShare(face: Int32Array, state: Float64Array, fr: FaceArrays32, open: FaceArrays32, t: number): number {
  const o = FACE_STRIDE * t
  if (state[BODY_STATE * face[o + FACE_BODY] + BODY_FLAG] === 0) return -1
  const a = face[o], f = face[o + 1]
  return axis32(open, a)[f] > 0 ? axis32(fr, a)[f] : -1
}

/**
 * The wall velocity the face of entry t (ownedFaces.ts), axis a, takes from its body: e_a . v +
 * arm . omega, its translation and, through faceArm's arm (rigidCoupling.ts), the normal part
 * of its spin, e_a . n (n . (omega x r)), n the outward normal of the surface nearest the face.
 * The tangential part of the spin is left out: on the axis-aligned faces of a voxelised
 * surface it pumps liquid like the teeth of a gear (a sphere spinning about its axis moves no
 * liquid, its staircase does, and the pressure that builds up brakes it). A body's spin still
 * pushes the liquid wherever it moves the surface along its normal (a spinning box, a gear's
 * teeth).
 */
function wallVelocity(state: Float64Array, s: number, a: number, arm: Float64Array, t: number): number {
  const o = 3 * t
  return state[s + a] + arm[o] * state[s + 3] + arm[o + 1] * state[s + 4] + arm[o + 2] * state[s + 5]
}

/** The body's rigid velocity e_a . (v + omega x r) at p. */
function rigidVelocity(state: Float64Array, s: number, a: number, px: number, py: number, pz: number): number {
  const rx = px - state[s + 6], ry = py - state[s + 7], rz = pz - state[s + 8]
  return a === 0 ? state[s] + state[s + 4] * rz - state[s + 5] * ry : a === 1 ? state[s + 1] + state[s + 5] * rx - state[s + 3] * rz : state[s + 2] + state[s + 3] * ry - state[s + 4] * rx
}

/**
 * vel = (1 - w) vel + w u_body on entries [t0, t1) whose body's flag is set and whose face is
 * open (open > 0), w = fr (the body's share of the face), u_body by mode (BLEND_WALL,
 * BLEND_RIGID; the face centre from its lattice indices, the grid's dx and origin).
 */
export function faceBlendSlab(
  face: Int32Array, arm: Float64Array, state: Float64Array, fr: FaceArrays32, open: FaceArrays32, vel: FaceArrays32,
  mode: number, dx: number, ox: number, oy: number, oz: number, t0: number, t1: number,
): void {
  for (let t = t0; t < t1; t++) {
    const w = openShare(face, state, fr, open, t)
    if (w < 0) continue
    const o = FACE_STRIDE * t, s = BODY_STATE * face[o + FACE_BODY]
    const a = face[o], f = face[o + 1]
    let body: number
    if (mode === BLEND_WALL) body = wallVelocity(state, s, a, arm, t)
    else {
      const px = ox + (face[o + 2] + (a === 0 ? 0 : 0.5)) * dx, py = oy + (face[o + 3] + (a === 1 ? 0 : 0.5)) * dx, pz = oz + (face[o + 4] + (a === 2 ? 0 : 0.5)) * dx
      body = rigidVelocity(state, s, a, px, py, pz)
    }
    const comp = axis32(vel, a)
    comp[f] = (1 - w) * comp[f] + w * body
  }
}

/**
 * The liquid-only solve's walls on entries [t0, t1) (rigidCoupling.ts boundary): on an open
 * face (open > 0) of a flagged body, closed = min(closed, 1 - w), or 0 beside a cell whose
 * centre is inside a body (cellPhi < 0), and vel = the wall velocity.
 */
export function boundaryFacesSlab(
  face: Int32Array, arm: Float64Array, state: Float64Array, fr: FaceArrays32, open: FaceArrays32, closed: FaceArrays32, vel: FaceArrays32,
  cellPhi: Float32Array, nx: number, ny: number, nz: number, t0: number, t1: number,
): void {
  for (let t = t0; t < t1; t++) {
    const w = openShare(face, state, fr, open, t)
    if (w < 0) continue
    const o = FACE_STRIDE * t, s = BODY_STATE * face[o + FACE_BODY]
    const a = face[o], f = face[o + 1]
    const i = face[o + 2], j = face[o + 3], k = face[o + 4]
    // Cells on either side of the face along its axis (-1: beyond the grid).
    const hi = a === 0 ? (i < nx ? i + nx * (j + ny * k) : -1) : a === 1 ? (j < ny ? i + nx * (j + ny * k) : -1) : k < nz ? i + nx * (j + ny * k) : -1
    const lo = a === 0 ? (i > 0 ? i - 1 + nx * (j + ny * k) : -1) : a === 1 ? (j > 0 ? i + nx * (j - 1 + ny * k) : -1) : k > 0 ? i + nx * (j + ny * (k - 1)) : -1
    const shut = (hi >= 0 && cellPhi[hi] < 0) || (lo >= 0 && cellPhi[lo] < 0)
    const left = shut ? 0 : 1 - w
    const c = axis32(closed, a)
    if (left < c[f]) c[f] = left
    axis32(vel, a)[f] = wallVelocity(state, s, a, arm, t)
  }
}

/**
 * vel = start on entries [t0, t1) of flagged bodies whose face `closed` shuts (0) and `open`
 * leaves open (> 0) (rigidCoupling.ts restoreClosedFaces).
 */
export function restoreFacesSlab(face: Int32Array, state: Float64Array, open: FaceArrays32, closed: FaceArrays32, vel: FaceArrays32, start: FaceArrays32, t0: number, t1: number): void {
  for (let t = t0; t < t1; t++) {
    const o = FACE_STRIDE * t
    if (state[BODY_STATE * face[o + FACE_BODY] + BODY_FLAG] === 0) continue
    const a = face[o], f = face[o + 1]
    if (axis32(closed, a)[f] === 0 && axis32(open, a)[f] > 0) axis32(vel, a)[f] = axis32(start, a)[f]
  }
}

const jScratch = new Float64Array(6)

/**
 * Bodies [b0, b1) whose flag is set: X[42 b ..] (A, 36 values, then b, 6) += m_f w J J^T and
 * m_f w J u_f over the body's entries start[b] .. start[b + 1] in order, on open faces (open >
 * 0) with marker mass m_f = markerMass * splat[2 f + 1] > 0; J = [e_a ; arm], w = fr.
 */
export function faceExchangeSlab(
  face: Int32Array, arm: Float64Array, start: Int32Array, state: Float64Array, fr: FaceArrays32, open: FaceArrays32, vel: FaceArrays32,
  splat: FaceArrays64, markerMass: number, X: Float64Array, b0: number, b1: number,
): void {
  const J = jScratch
  for (let b = b0; b < b1; b++) {
    if (state[BODY_STATE * b + BODY_FLAG] === 0) continue
    const x = EXCHANGE_STRIDE * b
    for (let t = start[b]; t < start[b + 1]; t++) {
      const o = FACE_STRIDE * t
      const a = face[o], f = face[o + 1]
      if (!(axis32(open, a)[f] > 0)) continue
      const m = markerMass * (a === 0 ? splat.u : a === 1 ? splat.v : splat.w)[2 * f + 1]
      if (!(m > 0)) continue
      J[0] = a === 0 ? 1 : 0; J[1] = a === 1 ? 1 : 0; J[2] = a === 2 ? 1 : 0
      J[3] = arm[3 * t]; J[4] = arm[3 * t + 1]; J[5] = arm[3 * t + 2]
      const mw = m * axis32(fr, a)[f], u = axis32(vel, a)[f]
      for (let r = 0; r < 6; r++) {
        if (J[r] === 0) continue
        X[x + 36 + r] += mw * J[r] * u
        for (let c = 0; c < 6; c++) X[x + 6 * r + c] += mw * J[r] * J[c]
      }
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number
const faces32 = (name: string) => struct(name, { u: 'f32', v: 'f32', w: 'f32' })
// A face's pass is a few dozen flops: weighted as that many cells of a grid pass, so lists of
// a few thousand faces go to the threads.
const FACE_WEIGHT = 16
const ONE = () => 1

/** faceBlendSlab over entries [0, count). */
export const RIGID_FACE_BLEND = sizedRow(
  'rigidFaceBlend',
  [i32('face'), f64('arm'), f64('state'), faces32('fr'), faces32('open'), faces32('vel'), int('mode'), float('dx'), float('ox'), float('oy'), float('oz'), size('count')],
  'rows', ONE, FACE_WEIGHT, faceBlendSlab,
)

/** boundaryFacesSlab over entries [0, count). */
export const RIGID_BOUNDARY_FACES = sizedRow(
  'rigidBoundaryFaces',
  [i32('face'), f64('arm'), f64('state'), faces32('fr'), faces32('open'), faces32('closed'), faces32('vel'), f32('cellPhi'), int('nx'), int('ny'), int('nz'), size('count')],
  'rows', ONE, FACE_WEIGHT, boundaryFacesSlab,
)

/** restoreFacesSlab over entries [0, count). */
export const RIGID_RESTORE_FACES = sizedRow(
  'rigidRestoreFaces',
  [i32('face'), f64('state'), faces32('open'), faces32('closed'), faces32('vel'), faces32('start'), size('count')],
  'rows', ONE, FACE_WEIGHT, restoreFacesSlab,
)

/** faceExchangeSlab over bodies [0, nb); entries: the list's length (for the work). */
export const RIGID_FACE_EXCHANGE = defineKernel({
  name: 'rigidFaceExchange',
  args: [i32('face'), f64('arm'), i32('start'), f64('state'), faces32('fr'), faces32('open'), faces32('vel'), struct('splat', { u: 'f64', v: 'f64', w: 'f64' }), float('markerMass'), f64('X'), size('nb'), size('entries')],
  split: 'rows',
  range: (a) => num(a, 10),
  work: (a) => FACE_WEIGHT * num(a, 11),
  // The bodies own very different numbers of faces: cut where the list's entries split evenly
  // (start is their running count), in pieces the threads take as they finish.
  balance: (a) => a[2] as Int32Array,
  piecesPerThread: 4,
  ref: faceExchangeSlab,
})

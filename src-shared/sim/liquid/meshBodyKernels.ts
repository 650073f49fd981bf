// The two passes of the rigid coupling that test points against one body's signed distance,
// most of the coupling's time on mesh bodies (the thesis's Tables 8-9 say the same):
//  - the samples of the body's box for the rasterisation (rigidCoupling.ts rasterise; Carlson
//    2004 sec. 5.5): per cell, the distance at its centre, and a SUB^3 lattice of inside flags
//    (all the centre's sign where the centre is farther than half a diagonal from the surface,
//    else one test each) counted whole and by halves (lower and upper half of the cell along
//    each axis: a face's control volume, a cell wide and centred on the face, holds the upper
//    half of the cell below it and the lower half of the one above);
//  - markers inside the body pushed to just outside its surface (rigidFluid.ts pushMarkersOut).
//
// sampleBodyCells and pushMarkersSlab are the loops for any body (its phi as a function:
// primitives use them as they are). RASTERISE_MESH and PUSH_MESH_MARKERS are the same loops
// for a mesh body as kernel-table rows, its phi the body's (rigidBody.ts phi with rigidShape.ts
// sdfGridValue) from flat arguments, so that on the WebAssembly backend they run as the
// AssemblyScript twins (wasm/assembly/meshBody.ts, the same float64 expressions) over the
// threads: the rasterisation split by the box's planes, the push by blocks of markers (each
// marker on its own).
import { sdfGridValue } from '../rigid/rigidShape'
import { defineKernel, f32, f64, i32, int, type KernelArgs, ptr, size, struct, u8 } from '../core/kernelTable'

/** Lattice points per cell edge for solid fractions (Carlson sec. 5.5 uses 4: 64 per cell). */
export const SUB = 4
/** A cell centre farther than this (in cells) from the surface is wholly in or out. */
export const HALF_DIAGONAL = Math.sqrt(3) / 2

/** The box's cells (i0, j0, k0 its first, lx x ly x lz of them) on a grid of spacing dx from origin o. */
export interface SampleBox {
  i0: number
  j0: number
  k0: number
  lx: number
  ly: number
  lz: number
}

/** Per cell of halves: lattice points inside in its lower and upper half along x, y, z (in that order). */
export const HALVES = 6

/**
 * Box planes [k0, k1): cp[cell] = phi at the cell's centre, count[cell] = how many of the
 * cell's SUB^3 lattice points are inside, halves[HALVES cell + 2 a + s] = how many of those in
 * its lower (s = 0) or upper (s = 1) half along axis a.
 */
export function sampleBodyCells(phi: (x: number, y: number, z: number) => number, cp: Float32Array, halves: Uint8Array, count: Uint8Array, b: SampleBox, o0: number, o1: number, o2: number, dx: number, k0: number, k1: number): void {
  const { lx, ly } = b
  const h = dx / SUB
  const half = SUB / 2
  for (let k = k0; k < k1; k++) for (let j = 0; j < ly; j++) for (let i = 0; i < lx; i++) {
    const d = phi(o0 + (b.i0 + i + 0.5) * dx, o1 + (b.j0 + j + 0.5) * dx, o2 + (b.k0 + k + 0.5) * dx)
    const cell = i + lx * (j + ly * k)
    cp[cell] = d
    const uniform = Math.abs(d) > HALF_DIAGONAL * dx
    let inside = 0, xl = 0, yl = 0, zl = 0
    if (uniform) {
      // Every lattice point takes the centre's sign.
      inside = d < 0 ? SUB * SUB * SUB : 0
      xl = yl = zl = inside / 2
    } else {
      for (let c2 = 0; c2 < SUB; c2++) for (let b2 = 0; b2 < SUB; b2++) for (let a2 = 0; a2 < SUB; a2++) {
        const flag = phi(o0 + (b.i0 + i) * dx + (a2 + 0.5) * h, o1 + (b.j0 + j) * dx + (b2 + 0.5) * h, o2 + (b.k0 + k) * dx + (c2 + 0.5) * h) < 0 ? 1 : 0
        inside += flag
        if (a2 < half) xl += flag
        if (b2 < half) yl += flag
        if (c2 < half) zl += flag
      }
    }
    count[cell] = inside
    const o = HALVES * cell
    halves[o] = xl; halves[o + 1] = inside - xl
    halves[o + 2] = yl; halves[o + 3] = inside - yl
    halves[o + 4] = zl; halves[o + 5] = inside - zl
  }
}

/**
 * A mesh body's world signed distance (rigidBody.ts phi): beyond twice its bounding radius
 * |p - x| - radius; else its grid's value at R^T (p - x) (r row major, x its centre of mass).
 */
function meshBodyPhi(data: Float32Array, gnx: number, gny: number, gnz: number, gdx: number, gox: number, goy: number, goz: number, r: ArrayLike<number>, bx: number, by: number, bz: number, rb: number, x: number, y: number, z: number): number {
  const px = x - bx, py = y - by, pz = z - bz
  const d2 = px * px + py * py + pz * pz
  if (d2 > 4 * rb * rb) return Math.sqrt(d2) - rb
  return sdfGridValue(data, gnx, gny, gnz, gdx, gox, goy, goz, r[0] * px + r[3] * py + r[6] * pz, r[1] * px + r[4] * py + r[7] * pz, r[2] * px + r[5] * py + r[8] * pz)
}

/** What rasteriseMeshSlab reads from its `pose` array, in this order. */
export const POSE = { gdx: 0, gox: 1, goy: 2, goz: 3, r: 4, bx: 13, by: 14, bz: 15, rb: 16, o0: 17, o1: 18, o2: 19, dx: 20, length: 21 } as const

/** A mesh body as the pose arrays hold it: its grid, rotation (body to world, row major), centre and bounding radius. */
export interface PosedMesh {
  readonly meshGrid: { dx: number; ox: number; oy: number; oz: number } | null
  readonly x: Float64Array
  readonly boundingRadius: number
  rotation(): Float64Array
}

/** Writes body's pose (POSE) at out[at..], with the simulation grid's origin and dx. */
export function writeMeshPose(out: Float64Array, at: number, body: PosedMesh, origin: ArrayLike<number>, dx: number): void {
  const g = body.meshGrid!
  out[at + POSE.gdx] = g.dx; out[at + POSE.gox] = g.ox; out[at + POSE.goy] = g.oy; out[at + POSE.goz] = g.oz
  out.set(body.rotation(), at + POSE.r)
  out[at + POSE.bx] = body.x[0]; out[at + POSE.by] = body.x[1]; out[at + POSE.bz] = body.x[2]; out[at + POSE.rb] = body.boundingRadius
  out[at + POSE.o0] = origin[0]; out[at + POSE.o1] = origin[1]; out[at + POSE.o2] = origin[2]; out[at + POSE.dx] = dx
}


/**
 * RASTERISE_MESH's reference over box planes [k0, k1): the mesh's grid (data, gnx x gny x gnz
 * cells) and the pose array (POSE: the grid's spacing and origin, the body's rotation, centre
 * and bounding radius, the simulation grid's origin and dx).
 */
export function rasteriseMeshSlab(cp: Float32Array, halves: Uint8Array, count: Uint8Array, data: Float32Array, pose: Float64Array, gnx: number, gny: number, gnz: number, i0: number, j0: number, kb0: number, lx: number, ly: number, lz: number, k0: number, k1: number): void {
  const r = pose.subarray(POSE.r, POSE.r + 9)
  const gdx = pose[POSE.gdx], gox = pose[POSE.gox], goy = pose[POSE.goy], goz = pose[POSE.goz]
  const bx = pose[POSE.bx], by = pose[POSE.by], bz = pose[POSE.bz], rb = pose[POSE.rb]
  const phi = (x: number, y: number, z: number) => meshBodyPhi(data, gnx, gny, gnz, gdx, gox, goy, goz, r, bx, by, bz, rb, x, y, z)
  sampleBodyCells(phi, cp, halves, count, { i0, j0, k0: kb0, lx, ly, lz }, pose[POSE.o0], pose[POSE.o1], pose[POSE.o2], pose[POSE.dx], k0, k1)
}

const num = (a: KernelArgs, i: number) => a[i] as number

export const RASTERISE_MESH = defineKernel({
  name: 'rasteriseMesh',
  args: [
    f32('cp'), u8('halves'), u8('count'), f32('data'), ptr('pose', 'f64', { stage: () => POSE.length }),
    int('gnx'), int('gny'), int('gnz'), int('i0'), int('j0'), int('kb0'), int('lx'), int('ly'), int('lz'),
  ],
  split: 'planes',
  range: (a) => num(a, 13),
  // A cell near the surface samples the mesh's distance at its centre and at its SUB^3 lattice
  // points: counted as one cell, a gear's box (about 9,000 cells, 5 ms) stayed under the pool's
  // threshold for going parallel and ran on the calling thread alone.
  work: (a) => (SUB * SUB * SUB + 1) * num(a, 11) * num(a, 12) * num(a, 13),
  // The planes through the body's middle cross more of its surface than its caps do.
  piecesPerThread: 4,
  ref: rasteriseMeshSlab,
})

/** pushMarkersSlab's cell codes (near): no body's box, a box whose body is certainly not in the cell, test. */
export const PUSH_SKIP = 2
export const PUSH_TEST = 1

/** The markers' positions (MarkerParticles' arrays). */
export interface MarkerPositions {
  px: Float32Array
  py: Float32Array
  pz: Float32Array
}

/**
 * Markers [q0, q1) inside the bodies go to eps = dx / 20 outside the surface along the
 * central-difference gradient of phi (steps of dx / 4), body after body in order, each seeing
 * where the one before left the marker; positions are float32, each move rounded as stored.
 * A marker is skipped when its cell's code in `near` rules every body out (0, or PUSH_SKIP
 * for a marker inside the grid), and a body when the marker is outside its bounding sphere
 * (ball: centre and radius per body). phis[b] is body b's world signed distance.
 */
export function pushMarkersSlab(phis: readonly ((x: number, y: number, z: number) => number)[], ball: Float64Array, P: MarkerPositions, near: Uint8Array, nx: number, ny: number, nz: number, dx: number, o0: number, o1: number, o2: number, q0: number, q1: number): void {
  const { px, py, pz } = P
  const eps = 0.05 * dx, e = 0.25 * dx, inv = 1 / dx
  for (let q = q0; q < q1; q++) {
    let x = px[q], y = py[q], z = pz[q]
    const fi = Math.floor((x - o0) * inv), fj = Math.floor((y - o1) * inv), fk = Math.floor((z - o2) * inv)
    const i = Math.min(nx - 1, Math.max(0, fi)), j = Math.min(ny - 1, Math.max(0, fj)), k = Math.min(nz - 1, Math.max(0, fk))
    const code = near[i + nx * (j + ny * k)]
    if (code === 0) continue
    // (A marker outside the grid is not in the cell it was clamped to: tested.)
    if (code === PUSH_SKIP && i === fi && j === fj && k === fk) continue
    for (let b = 0; b < phis.length; b++) {
      const cx = ball[4 * b], cy = ball[4 * b + 1], cz = ball[4 * b + 2], rb = ball[4 * b + 3]
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) > rb * rb) continue
      const phi = phis[b]
      const d = phi(x, y, z)
      if (!(d < 0)) continue
      // Outward normal by central differences of the body's distance.
      let gx = phi(x + e, y, z) - phi(x - e, y, z)
      let gy = phi(x, y + e, z) - phi(x, y - e, z)
      let gz = phi(x, y, z + e) - phi(x, y, z - e)
      const len = Math.sqrt(gx * gx + gy * gy + gz * gz)
      if (!(len > 0)) continue
      gx /= len; gy /= len; gz /= len
      const s = -d + eps
      px[q] = x + s * gx
      py[q] = y + s * gy
      pz[q] = z + s * gz
      // (Read back: the next body sees the stored position.)
      x = px[q]; y = py[q]; z = pz[q]
    }
  }
}

/** Per body in PUSH_MESH_MARKERS's `meta`: offset of its grid in `grids`, then its cell counts. */
export const MESH_META = 4

/**
 * PUSH_MESH_MARKERS's reference over markers [q0, q1): nb mesh bodies, body b's distance grid
 * at meta[4b] in `grids` (meta[4b + 1..3] its cells), its pose at poses[POSE.length b] (POSE).
 */
export function pushMeshMarkersSlab(P: MarkerPositions, near: Uint8Array, grids: Float32Array, meta: Int32Array, poses: Float64Array, nb: number, nx: number, ny: number, nz: number, q0: number, q1: number): void {
  const phis: ((x: number, y: number, z: number) => number)[] = []
  const ball = new Float64Array(4 * nb)
  for (let b = 0; b < nb; b++) {
    const m = MESH_META * b, o = POSE.length * b
    const gnx = meta[m + 1], gny = meta[m + 2], gnz = meta[m + 3]
    const data = grids.subarray(meta[m], meta[m] + (gnx + 1) * (gny + 1) * (gnz + 1))
    const r = poses.subarray(o + POSE.r, o + POSE.r + 9)
    const gdx = poses[o + POSE.gdx], gox = poses[o + POSE.gox], goy = poses[o + POSE.goy], goz = poses[o + POSE.goz]
    const bx = poses[o + POSE.bx], by = poses[o + POSE.by], bz = poses[o + POSE.bz], rb = poses[o + POSE.rb]
    phis.push((x, y, z) => meshBodyPhi(data, gnx, gny, gnz, gdx, gox, goy, goz, r, bx, by, bz, rb, x, y, z))
    ball[4 * b] = bx; ball[4 * b + 1] = by; ball[4 * b + 2] = bz; ball[4 * b + 3] = rb
  }
  // The simulation grid's origin and spacing are the same in every body's pose.
  pushMarkersSlab(phis, ball, P, near, nx, ny, nz, poses[POSE.dx], poses[POSE.o0], poses[POSE.o1], poses[POSE.o2], q0, q1)
}

export const PUSH_MESH_MARKERS = defineKernel({
  name: 'pushMeshMarkers',
  args: [
    struct('P', { px: 'f32', py: 'f32', pz: 'f32' }), u8('near'), f32('grids'), i32('meta'), f64('poses'),
    int('nb'), int('nx'), int('ny'), int('nz'), size('count'),
  ],
  split: 'blocks',
  range: (a) => num(a, 9),
  work: (a) => num(a, 9),
  // Markers near the bodies cost far more than the rest: pieces go to whichever thread is free.
  piecesPerThread: 8,
  ref: pushMeshMarkersSlab,
})

// The samples of one body's box for the coupling's rasterisation (rigidCoupling.ts rasterise;
// Carlson 2004 sec. 5.5): per cell, the body's signed distance at its centre, and a SUB^3
// lattice of inside flags (all equal to the centre's sign where the centre is farther than
// half a diagonal from the surface, else one distance test each) with their count.
//
// sampleBodyCells is the loop for any body (its phi as a function, primitives use it as is);
// RASTERISE_MESH is the same loop for a mesh body as a kernel-table row split by the box's
// planes, its phi the body's (rigidBody.ts phi with rigidShape.ts sdfGridValue) from flat
// arguments, so that on the WebAssembly backend it runs as the AssemblyScript twin
// (wasm/assembly/rasterise.ts, the same float64 expressions) over the threads. The distance
// tests are most of the coupling's time on mesh bodies (the thesis's Tables 8-9 say the same).
import { sdfGridValue } from '../rigid/rigidShape'
import { defineKernel, f32, int, type KernelArgs, ptr, u8 } from '../core/kernelTable'

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

/**
 * Box planes [k0, k1): cp[cell] = phi at the cell's centre, lat = the inside flags of the
 * box's (SUB lx) x (SUB ly) x (SUB lz) lattice, count[cell] = the cell's flags set.
 */
export function sampleBodyCells(phi: (x: number, y: number, z: number) => number, cp: Float32Array, lat: Uint8Array, count: Uint8Array, b: SampleBox, o0: number, o1: number, o2: number, dx: number, k0: number, k1: number): void {
  const { lx, ly } = b
  const h = dx / SUB
  const sx = SUB * lx, sy = SUB * ly
  for (let k = k0; k < k1; k++) for (let j = 0; j < ly; j++) for (let i = 0; i < lx; i++) {
    const d = phi(o0 + (b.i0 + i + 0.5) * dx, o1 + (b.j0 + j + 0.5) * dx, o2 + (b.k0 + k + 0.5) * dx)
    const cell = i + lx * (j + ly * k)
    cp[cell] = d
    const uniform = Math.abs(d) > HALF_DIAGONAL * dx
    let inside = 0
    for (let c2 = 0; c2 < SUB; c2++) for (let b2 = 0; b2 < SUB; b2++) for (let a2 = 0; a2 < SUB; a2++) {
      const flag = uniform ? (d < 0 ? 1 : 0) : phi(o0 + (b.i0 + i) * dx + (a2 + 0.5) * h, o1 + (b.j0 + j) * dx + (b2 + 0.5) * h, o2 + (b.k0 + k) * dx + (c2 + 0.5) * h) < 0 ? 1 : 0
      lat[SUB * i + a2 + sx * (SUB * j + b2 + sy * (SUB * k + c2))] = flag
      inside += flag
    }
    count[cell] = inside
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

/**
 * RASTERISE_MESH's reference over box planes [k0, k1): the mesh's grid (data, gnx x gny x gnz
 * cells) and the pose array (POSE: the grid's spacing and origin, the body's rotation, centre
 * and bounding radius, the simulation grid's origin and dx).
 */
export function rasteriseMeshSlab(cp: Float32Array, lat: Uint8Array, count: Uint8Array, data: Float32Array, pose: Float64Array, gnx: number, gny: number, gnz: number, i0: number, j0: number, kb0: number, lx: number, ly: number, lz: number, k0: number, k1: number): void {
  const r = pose.subarray(POSE.r, POSE.r + 9)
  const gdx = pose[POSE.gdx], gox = pose[POSE.gox], goy = pose[POSE.goy], goz = pose[POSE.goz]
  const bx = pose[POSE.bx], by = pose[POSE.by], bz = pose[POSE.bz], rb = pose[POSE.rb]
  const phi = (x: number, y: number, z: number) => meshBodyPhi(data, gnx, gny, gnz, gdx, gox, goy, goz, r, bx, by, bz, rb, x, y, z)
  sampleBodyCells(phi, cp, lat, count, { i0, j0, k0: kb0, lx, ly, lz }, pose[POSE.o0], pose[POSE.o1], pose[POSE.o2], pose[POSE.dx], k0, k1)
}

const num = (a: KernelArgs, i: number) => a[i] as number

export const RASTERISE_MESH = defineKernel({
  name: 'rasteriseMesh',
  args: [
    f32('cp'), u8('lat'), u8('count'), f32('data'), ptr('pose', 'f64', { stage: () => POSE.length }),
    int('gnx'), int('gny'), int('gnz'), int('i0'), int('j0'), int('kb0'), int('lx'), int('ly'), int('lz'),
  ],
  split: 'planes',
  range: (a) => num(a, 13),
  work: (a) => num(a, 11) * num(a, 12) * num(a, 13),
  ref: rasteriseMeshSlab,
})

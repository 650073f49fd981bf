// The accurate velocity a face's back-trace carries forward (seed 000 section 3.5), for every
// face the trace rows left open, as one kernel-table row over the faces: the TypeScript
// reference below and its AssemblyScript twin (wasm/assembly/hybridFit.ts accurateFaceValues,
// split over the faces on the WebAssembly backend's threads).
//
// After the hexahedral and the whole traces (hexTraceKernel.ts, fullTraceKernel.ts) a face
// that is not HEX_TRACE_DONE has its trace's end at at[3f..3f+2] in cell cell[f]. Its new
// normal velocity is the accurate velocity of zOld there projected on its normal: the
// staggered trilinear in a plain hexahedron whose stencil is whole (macStencil.ts macNormalAt),
// else the linear MLS fit (eq. 11, linearFitKernel.ts) over the cell's listed neighbourhood.
// The row writes zNew[f] and marks the face FACE_VALUE_DONE, or FACE_VALUE_DONE_CLAMPED when
// its whole trace had left the fluid (left[f], so the caller can count those without reading
// the traces); a face whose cell has no listed neighbourhood is left as it was, for the caller.
//
// Each face is answered alone, in the operations and order HybridAdvection took one face at a
// time before this row existed (the fit's bits do not depend on which points share a solve), so
// the answers are the same bits on any backend and split.
import { defineKernel, f64, float, int, type KernelArgs, i32, scratch, size, struct, u8 } from '../core/kernelTable'
import { HEX_TRACE_DONE, HEX_TRACE_FULL } from './hexTraceKernel'
import { CELL_HEX } from './hybridMesh'
import { fitScratch, LINEAR_FIT_CHUNK, LINEAR_FIT_PAIR_SCRATCH, LINEAR_FIT_SCRATCH, linearFitAt } from './linearFitKernel'
import { macNormalAt, type MacTables } from './macStencil'

/** A face this row answered (the same value as HEX_TRACE_DONE: nothing left to do). */
export const FACE_VALUE_DONE = HEX_TRACE_DONE
/** A face this row answered whose whole trace was stopped at the fluid's boundary. */
export const FACE_VALUE_DONE_CLAMPED = 3

/** The mesh arrays the row reads (the twin receives them as consecutive pointers, in this order). */
export interface FaceValueMesh extends MacTables {
  faceCentre: Float64Array
  hexCube: Int32Array
  cellKind: Uint8Array
  /** Per cell its fit neighbourhood neighbourFaces[neighbourStart[c] .. neighbourStart[c + 1] - 1], sorted by normal class. */
  neighbourStart: Int32Array
  neighbourFaces: Int32Array
  /** Per face its normal class (faceNormalClasses.ts). */
  faceClass: Uint8Array
  cellMeanEdge: Float64Array
}

export const FACE_VALUE_MESH_FIELDS = {
  faceCentre: 'f64',
  faceNormal: 'f64',
  faceArea: 'f64',
  hexCube: 'i32',
  cellKind: 'u8',
  macSingle: 'i32',
  macSign: 'f64',
  gridFaceStart: 'i32',
  gridFaces: 'i32',
  neighbourStart: 'i32',
  neighbourFaces: 'i32',
  faceClass: 'u8',
  cellMeanEdge: 'f64',
} as const

/**
 * Faces [f0, f1): each face whose status is not HEX_TRACE_DONE, its trace's end at at[3f..]
 * in cell[f] on an nx x ny x nz grid at (ox, oy, oz) (invH = 1 / dx), gets zNew[f] = the
 * accurate velocity of zOld there along its normal (eps2: the MLS epsilon factor squared), and
 * status FACE_VALUE_DONE (FACE_VALUE_DONE_CLAMPED when it was HEX_TRACE_FULL with left[f] set);
 * one whose cell has no listed neighbourhood keeps its status. work: a LINEAR_FIT_SCRATCH block.
 */
export function accurateFaceValues(
  M: FaceValueMesh, zOld: Float64Array, nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, invH: number, eps2: number,
  at: Float64Array, cell: Int32Array, left: Uint8Array, status: Uint8Array, zNew: Float64Array, work: Float64Array | null, f0: number, f1: number,
): void {
  const { faceCentre: C, faceNormal: N, hexCube, cellKind, neighbourStart, neighbourFaces, faceClass, cellMeanEdge } = M
  const S = fitScratch(work ?? undefined)
  const u = new Float64Array(3)
  for (let f = f0; f < f1; f++) {
    const st = status[f]
    if (st === HEX_TRACE_DONE) continue
    const c = cell[f]
    const x = at[3 * f], y = at[3 * f + 1], z = at[3 * f + 2]
    const n0 = N[3 * f], n1 = N[3 * f + 1], n2 = N[3 * f + 2]
    let q = NaN
    if (cellKind[c] === CELL_HEX) q = macNormalAt(M, zOld, (x - ox) * invH, (y - oy) * invH, (z - oz) * invH, hexCube[c], nx, ny, nz, n0, n1, n2)
    if (q !== q) {
      const s = neighbourStart[c], e = neighbourStart[c + 1]
      if (e <= s) continue
      linearFitAt(C, N, zOld, neighbourFaces, faceClass, s, e, x, y, z, cellMeanEdge[c], eps2, S, u, 0)
      q = u[0] * n0 + u[1] * n1 + u[2] * n2
    }
    zNew[f] = q
    status[f] = st === HEX_TRACE_FULL && left[f] !== 0 ? FACE_VALUE_DONE_CLAMPED : FACE_VALUE_DONE
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/**
 * accurateFaceValues over faces [0, faces). Args: M, zOld, nx, ny, nz, ox, oy, oz, invH, eps2,
 * at, cell, left, status, zNew, work, faces.
 */
export const ACCURATE_FACE_VALUES = defineKernel({
  name: 'accurateFaceValues',
  args: [
    struct('M', FACE_VALUE_MESH_FIELDS), f64('zOld'), int('nx'), int('ny'), int('nz'), float('ox'), float('oy'), float('oz'), float('invH'), float('eps2'),
    f64('at'), i32('cell'), u8('left'), u8('status'), f64('zNew'), scratch('work', () => 8 * (LINEAR_FIT_SCRATCH + 12 * LINEAR_FIT_CHUNK + LINEAR_FIT_PAIR_SCRATCH)), size('faces'),
  ],
  split: 'rows',
  range: (a) => num(a, 16),
  // Most faces were answered by the traces; the fits (about 110 faces a neighbourhood, some 90
  // multiply-adds each) of the others are nearly all the cost.
  work: (a) => 40 * num(a, 16),
  // The faces that need fits cluster (the tetrahedra's come last): many pieces, taken by
  // whichever thread is free, keep the threads finishing together.
  piecesPerThread: 16,
  worker: true,
  ref: accurateFaceValues,
})

// `eddy bench hybrid`'s fit section: the linear-basis MLS fits of seed 000 eq. 11 (the value a
// face's back-trace carries forward in tetrahedra and transition cells) are the largest single
// cost of a hybrid frame, so the bench times them alone: one batch with a point in each
// tetrahedron and transition cell of the hybrid mesh (within half a mean edge of its centre, as
// back-traces end), over random face velocities, on the bench's kernels. Figures per point and
// per face of the neighbourhoods (sim/hybrid/linearFitKernel.ts, wasm/assembly/hybridFit.ts).
import type { KernelBackend } from '../../src-shared/sim/core/kernelTypes'
import { Prng } from '../../src-shared/sim/core/prng'
import { HybridInterpolation } from '../../src-shared/sim/hybrid/hybridInterpolation'
import { CELL_HEX, type HybridMesh } from '../../src-shared/sim/hybrid/hybridMesh'
import { LINEAR_FIT_POINTS } from '../../src-shared/sim/hybrid/linearFitKernel'

export interface FitFigures {
  points: number
  facesPerPoint: number
  /** Fastest and median of the timed batches, ms. */
  bestMs: number
  medianMs: number
  /** The same batch with every face taking the general 60 products (no normal classes), fastest, ms. */
  generalBestMs: number
  /** Share of the neighbourhoods' faces in a normal class (faceNormalClasses.ts). */
  classifiedShare: number
  /** bestMs per point (µs) and per neighbourhood face (ns). */
  usPerPoint: number
  nsPerFace: number
}

/** Times `runs` batches of the linear fits over the mesh's non-hexahedral cells on `kernels`. */
export function timeLinearFits(mesh: HybridMesh, kernels: KernelBackend, runs = 7): FitFigures {
  const interp = new HybridInterpolation(mesh)
  const { neighbourStart } = interp
  const cells: number[] = []
  for (let c = 0; c < mesh.cellCount; c++) if (mesh.cellKind[c] !== CELL_HEX && neighbourStart[c + 1] > neighbourStart[c]) cells.push(c)
  const n = cells.length
  const rng = new Prng(7)
  const at = kernels.f64(3 * n), start = kernels.i32(n), end = kernels.i32(n), len = kernels.f64(n), out = kernels.f64(3 * n)
  let faces = 0
  for (let q = 0; q < n; q++) {
    const c = cells[q], l = mesh.cellMeanEdge[c]
    for (let a = 0; a < 3; a++) at[3 * q + a] = mesh.cellCentre[3 * c + a] + (rng.next() - 0.5) * 0.5 * l
    start[q] = neighbourStart[c]
    end[q] = neighbourStart[c + 1]
    len[q] = l
    faces += end[q] - start[q]
  }
  const own = <T extends Float64Array | Int32Array>(a: T, make: (m: number) => T): T => {
    const b = make(a.length)
    b.set(a)
    return b
  }
  const C = own(mesh.faceCentre, (m) => kernels.f64(m)), N = own(mesh.faceNormal, (m) => kernels.f64(m))
  const list = own(interp.neighbourFaces, (m) => kernels.i32(m))
  const codes = kernels.u8(mesh.faceCount)
  codes.set(interp.faceClass)
  let classified = 0
  for (let q = 0; q < n; q++) for (let i = start[q]; i < end[q]; i++) if (codes[list[i]] >= 2) classified++
  const z = kernels.f64(mesh.faceCount)
  for (let f = 0; f < mesh.faceCount; f++) z[f] = 2 * rng.next() - 1
  const eps2 = interp.epsilonFactor * interp.epsilonFactor
  // Alternated, so both see the machine's same minutes.
  const times: number[] = [], general: number[] = []
  for (let r = 0; r < runs; r++) {
    for (const withClasses of [true, false]) {
      const t0 = performance.now()
      kernels.run(LINEAR_FIT_POINTS, C, N, z, list, withClasses ? codes : null, at, start, end, len, eps2, out, null, n)
      ;(withClasses ? times : general).push(performance.now() - t0)
    }
  }
  times.sort((a, b) => a - b)
  general.sort((a, b) => a - b)
  const best = times[0]
  return {
    points: n, facesPerPoint: faces / Math.max(1, n), bestMs: best, medianMs: times[Math.floor(runs / 2)], generalBestMs: general[0],
    classifiedShare: classified / Math.max(1, faces), usPerPoint: (1000 * best) / Math.max(1, n), nsPerFace: (1e6 * best) / Math.max(1, faces),
  }
}

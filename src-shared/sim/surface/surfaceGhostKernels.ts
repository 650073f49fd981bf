// The surface grid's ghost fills (surfaceGrid.ts fillScalar / fillVector, sec. 4.2) as kernel
// rows over their tables: every ghost copies a real sample of a neighbour (cells clamped into
// the neighbour, faces rounded onto its real faces; SurfaceGrid.useKernels checks that no source
// is itself a ghost), so the entries are independent and any split over threads gives the same
// bits. A step fills a scalar after every transport substep of every density and the flux after
// every change, about fifteen passes over some 60,000 ghosts a step on the 450-patch cage at 32^2,
// which in TypeScript on the calling thread took 10-14 ms of it. Twins: wasm/assembly/surfaceGhosts.ts.
import { defineKernel, f64, i32, int, size } from '../core/kernelTable'

/** s[dst[t]] = s[src[t]] for table entries [t0, t1). */
export function fillScalarEntries(s: Float64Array, dst: Int32Array, src: Int32Array, t0: number, t1: number): void {
  for (let t = t0; t < t1; t++) s[dst[t]] = s[src[t]]
}

/**
 * For table entries [t0, t1): the ghost face dst[t] (x-faces below nx, then y-faces) takes
 * sign[t] times the source face src[t] of kind[t] (1 an x-face, else a y-face).
 */
export function fillVectorEntries(fx: Float64Array, fy: Float64Array, dst: Int32Array, kind: Int32Array, src: Int32Array, sign: Float64Array, nx: number, t0: number, t1: number): void {
  for (let t = t0; t < t1; t++) {
    const v = sign[t] * (kind[t] === 1 ? fx[src[t]] : fy[src[t]])
    const d = dst[t]
    if (d < nx) fx[d] = v
    else fy[d - nx] = v
  }
}

const count = (a: unknown[]) => a[a.length - 1] as number

export const SURFACE_FILL_SCALAR = defineKernel({
  name: 'surfaceFillScalar',
  args: [f64('s'), i32('dst'), i32('src'), size('count')],
  split: 'blocks',
  range: count,
  work: count,
  ref: fillScalarEntries,
})

export const SURFACE_FILL_VECTOR = defineKernel({
  name: 'surfaceFillVector',
  args: [f64('fx'), f64('fy'), i32('dst'), i32('kind'), i32('src'), f64('sign'), int('nx'), size('count')],
  split: 'blocks',
  range: count,
  work: count,
  ref: fillVectorEntries,
})

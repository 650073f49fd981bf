// The MAC (staggered) grid of Harlow and Welch as described in Carlson 2004, section 3.2.1:
// scalars (pressure, density, temperature) at cell centres, each velocity component on the
// faces normal to its axis. World position of
//   cell (i, j, k) centre:  origin + (i + 0.5, j + 0.5, k + 0.5) * dx
//   u face (i, j, k):       origin + (i,       j + 0.5, k + 0.5) * dx   i in [0, nx]
//   v face (i, j, k):       origin + (i + 0.5, j,       k + 0.5) * dx   j in [0, ny]
//   w face (i, j, k):       origin + (i + 0.5, j + 0.5, k      ) * dx   k in [0, nz]
// so u(i) is the left face of cell i (Carlson's u_{i,j,k}, Bridson's u_{i-1/2,j,k}).
//
// Storage is flat, x fastest: cell index i + nx*(j + ny*k); a face array uses its own
// dimensions (nx+1 for u along x, ny+1 for v along y, nz+1 for w along z).
// Arrays may live on a SharedArrayBuffer so worker threads can run kernels on z-slabs.
import { EddyError } from '../../api/errors'
import type { KernelBackend } from './kernelTypes'

export interface GridSpec {
  nx: number
  ny: number
  nz: number
  /** Cell edge length, metres. */
  dx: number
  /** World position of the grid's minimum corner, metres. */
  origin: [number, number, number]
}

/** Face axis: 0 = u (x faces), 1 = v (y faces), 2 = w (z faces). */
export type Axis = 0 | 1 | 2

/** Largest resolution accepted along one axis. */
export const MAX_CELLS_PER_AXIS = 1024
/** Largest total cell count accepted (typed-array lengths and int32 index math stay safe). */
export const MAX_CELLS = 2 ** 31 - 1
/** Default memory ceiling for validateGridSpec, bytes. */
export const DEFAULT_MAX_GRID_BYTES = 4 * 1024 ** 3
/** Bytes per cell of one MAC velocity (three float32 components); callers pass their real footprint. */
export const MAC_BYTES_PER_CELL = 12

export interface AllocOptions {
  /** Allocate on a SharedArrayBuffer so worker threads can share the array. */
  shared?: boolean
  /**
   * Allocate through this kernel backend (for WebAssembly kernels: in their shared memory)
   * and, in solver parts, run its kernels. Default: the TypeScript reference kernels.
   */
  kernels?: KernelBackend
}

/** A zeroed Float32Array from options.kernels, else allocF32(length, options.shared). */
export function allocF32With(length: number, options: AllocOptions = {}): Float32Array {
  return options.kernels ? options.kernels.f32(length) : allocF32(length, options.shared)
}

/** A zeroed Float64Array from options.kernels, else allocF64(length, options.shared). */
export function allocF64With(length: number, options: AllocOptions = {}): Float64Array {
  return options.kernels ? options.kernels.f64(length) : allocF64(length, options.shared)
}

/** A zeroed Float32Array, on a SharedArrayBuffer when asked. */
export function allocF32(length: number, shared = false): Float32Array {
  if (!shared) return new Float32Array(length)
  if (typeof SharedArrayBuffer === 'undefined') {
    throw new EddyError('INVALID_PARAM', 'shared memory is not available here (SharedArrayBuffer needs cross-origin isolation)')
  }
  return new Float32Array(new SharedArrayBuffer(length * 4))
}

/** A zeroed Float64Array, on a SharedArrayBuffer when asked. */
export function allocF64(length: number, shared = false): Float64Array {
  if (!shared) return new Float64Array(length)
  if (typeof SharedArrayBuffer === 'undefined') {
    throw new EddyError('INVALID_PARAM', 'shared memory is not available here (SharedArrayBuffer needs cross-origin isolation)')
  }
  return new Float64Array(new SharedArrayBuffer(length * 8))
}

function invalid(field: string, message: string, value: unknown): EddyError {
  return new EddyError('INVALID_PARAM', `grid ${field} ${message}`, { field, value })
}

/**
 * Throws INVALID_PARAM naming the offending field when the spec cannot be simulated:
 * sizes that are not whole numbers from 1 to MAX_CELLS_PER_AXIS, more than MAX_CELLS cells,
 * a cell size that is not a finite positive number, a non-finite origin, or a memory estimate
 * (cells * bytesPerCell) above maxBytes.
 */
export function validateGridSpec(
  spec: GridSpec,
  maxBytes: number = DEFAULT_MAX_GRID_BYTES,
  bytesPerCell: number = MAC_BYTES_PER_CELL,
): void {
  if (typeof spec !== 'object' || spec === null) throw invalid('spec', 'must be an object', spec)
  for (const field of ['nx', 'ny', 'nz'] as const) {
    const n = spec[field]
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_CELLS_PER_AXIS) {
      throw invalid(field, `must be a whole number from 1 to ${MAX_CELLS_PER_AXIS}, got ${String(n)}`, n)
    }
  }
  const dx = spec.dx
  if (typeof dx !== 'number' || !Number.isFinite(dx) || dx <= 0) {
    throw invalid('dx', `(cell size) must be a finite number above 0 m, got ${String(dx)}`, dx)
  }
  const o = spec.origin
  if (!Array.isArray(o) || o.length !== 3 || !o.every((c) => typeof c === 'number' && Number.isFinite(c))) {
    throw invalid('origin', 'must be three finite numbers (metres)', o)
  }
  const cells = spec.nx * spec.ny * spec.nz
  if (cells > MAX_CELLS) throw invalid('nx*ny*nz', `must be at most ${MAX_CELLS} cells, got ${cells}`, cells)
  const bytes = cells * bytesPerCell
  if (bytes > maxBytes) {
    const mib = (b: number) => `${Math.ceil(b / 1024 ** 2)} MiB`
    throw invalid('nx*ny*nz', `needs about ${mib(bytes)} of memory, more than the ${mib(maxBytes)} allowed; use a coarser grid`, cells)
  }
}

export function cellCount(spec: GridSpec): number {
  return spec.nx * spec.ny * spec.nz
}

/** Dimensions of the sample lattice of a component: axis -1 = cell centres, 0/1/2 = u/v/w faces. */
export function sampleDims(axis: -1 | Axis, nx: number, ny: number, nz: number, out: Int32Array | number[]): void {
  out[0] = axis === 0 ? nx + 1 : nx
  out[1] = axis === 1 ? ny + 1 : ny
  out[2] = axis === 2 ? nz + 1 : nz
}

/** A cell-centred scalar field (density, temperature, pressure, solid fraction). */
export class ScalarField {
  readonly spec: GridSpec
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly data: Float32Array

  constructor(spec: GridSpec, options: AllocOptions = {}) {
    this.spec = spec
    this.nx = spec.nx
    this.ny = spec.ny
    this.nz = spec.nz
    this.data = allocF32With(spec.nx * spec.ny * spec.nz, options)
  }

  index(i: number, j: number, k: number): number {
    return i + this.nx * (j + this.ny * k)
  }

  /** World position of cell (i, j, k)'s centre into out. */
  position(i: number, j: number, k: number, out: Float64Array | number[]): void {
    const { dx, origin } = this.spec
    out[0] = origin[0] + (i + 0.5) * dx
    out[1] = origin[1] + (j + 0.5) * dx
    out[2] = origin[2] + (k + 0.5) * dx
  }
}

/** Velocity (or any face-sampled vector) on the staggered grid. */
export class MacGrid {
  readonly spec: GridSpec
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** x component on x faces, (nx+1)*ny*nz. */
  readonly u: Float32Array
  /** y component on y faces, nx*(ny+1)*nz. */
  readonly v: Float32Array
  /** z component on z faces, nx*ny*(nz+1). */
  readonly w: Float32Array

  constructor(spec: GridSpec, options: AllocOptions = {}) {
    const { nx, ny, nz } = spec
    this.spec = spec
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.u = allocF32With((nx + 1) * ny * nz, options)
    this.v = allocF32With(nx * (ny + 1) * nz, options)
    this.w = allocF32With(nx * ny * (nz + 1), options)
  }

  uIndex(i: number, j: number, k: number): number {
    return i + (this.nx + 1) * (j + this.ny * k)
  }

  vIndex(i: number, j: number, k: number): number {
    return i + this.nx * (j + (this.ny + 1) * k)
  }

  wIndex(i: number, j: number, k: number): number {
    return i + this.nx * (j + this.ny * k)
  }

  component(axis: Axis): Float32Array {
    return axis === 0 ? this.u : axis === 1 ? this.v : this.w
  }

  /** World position of face (i, j, k) of the given axis into out. */
  facePosition(axis: Axis, i: number, j: number, k: number, out: Float64Array | number[]): void {
    const { dx, origin } = this.spec
    out[0] = origin[0] + (i + (axis === 0 ? 0 : 0.5)) * dx
    out[1] = origin[1] + (j + (axis === 1 ? 0 : 0.5)) * dx
    out[2] = origin[2] + (k + (axis === 2 ? 0 : 0.5)) * dx
  }

  fill(value: number): void {
    this.u.fill(value)
    this.v.fill(value)
    this.w.fill(value)
  }

  copyFrom(other: MacGrid): void {
    this.u.set(other.u)
    this.v.set(other.v)
    this.w.set(other.w)
  }
}

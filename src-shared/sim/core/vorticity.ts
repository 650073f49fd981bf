// Vorticity and vorticity confinement (Fedkiw, Stam, Jensen 2001; the
// same force couples vortex particles to the grid in Selle, Rasmussen, Fedkiw 2005, section 3):
//   omega = curl u,   eta = grad |omega|,   N = eta / |eta|,   f = eps * dx * (N x omega).
// omega is taken at cell centres by central differences of the cell-centred velocity (the
// face average, Carlson 2004 eq. 6), one-sided at the grid border; for a linear velocity field
// (rigid rotation) both are exact. The force is computed at cell centres and averaged onto
// the faces (a border face takes its one cell's value), then added with dt.
//
// Three passes, each reading neighbours of the previous one's output (a barrier between them
// in a worker split): vorticity + |omega|, force at cells, force onto faces.
import { allocF32With, type AllocOptions, type GridSpec, type MacGrid } from './grid'
import { type KernelBackend, kernelsOf } from './kernelBackend'

export * from './vorticityKernels'

/** Owns the vorticity and force fields for one grid size. */
export class VorticityConfinement {
  readonly spec: GridSpec
  /** Vorticity at cell centres (1/s) after computeVorticity or apply. */
  readonly wx: Float32Array
  readonly wy: Float32Array
  readonly wz: Float32Array
  readonly magnitude: Float32Array
  /** Confinement force at cell centres (m/s^2) after apply. */
  readonly fx: Float32Array
  readonly fy: Float32Array
  readonly fz: Float32Array
  private readonly kernels: KernelBackend

  /** options.kernels runs the kernels and allocates the fields (default TypeScript). */
  constructor(spec: GridSpec, options: AllocOptions = {}) {
    const n = spec.nx * spec.ny * spec.nz
    this.spec = spec
    this.kernels = kernelsOf(options)
    this.wx = allocF32With(n, options)
    this.wy = allocF32With(n, options)
    this.wz = allocF32With(n, options)
    this.magnitude = allocF32With(n, options)
    this.fx = allocF32With(n, options)
    this.fy = allocF32With(n, options)
    this.fz = allocF32With(n, options)
  }

  computeVorticity(vel: MacGrid): void {
    const { nx, ny, nz, dx } = this.spec
    this.kernels.vorticity(this.wx, this.wy, this.wz, this.magnitude, vel.u, vel.v, vel.w, nx, ny, nz, dx)
  }

  /** Adds dt * eps dx (N x omega) to vel (epsilon dimensionless, ~0.1-1 for smoke). */
  apply(vel: MacGrid, epsilon: number, dt: number): void {
    const { nx, ny, nz, dx } = this.spec
    this.computeVorticity(vel)
    this.kernels.confinementForce(this.fx, this.fy, this.fz, this.wx, this.wy, this.wz, this.magnitude, epsilon, nx, ny, nz, dx)
    this.kernels.addCellForceToFaces(vel.u, vel.v, vel.w, this.fx, this.fy, this.fz, dt, nx, ny, nz)
  }
}

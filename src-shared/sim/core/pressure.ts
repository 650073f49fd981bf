// Pressure projection on the MAC grid (Carlson 2004, section 3.2.4; Bridson 2015, ch. 5):
// make the velocity discretely divergence free with respect to the face open fractions,
// leaving closed faces at the obstacle velocity.
//
//   1. b = -(net weighted outflux) per cell                        (Carlson 2004, eq. 35)
//   2. solve A phi = b by PCG, preconditioned by a multigrid V-cycle (default) or MIC(0)
//   3. u -= grad phi on open faces                                  (Carlson 2004, eq. 29)
//
// phi = dt p / (rho dx) (see poisson.ts), so the velocity update does not depend on dt or
// rho; pass them to get the physical pressure p = phi rho dx / dt (Pa) out.
import { EddyError } from '../../api/errors'
import { FluidComponents } from './components'
import { allocF64With, type AllocOptions, type GridSpec, type MacGrid, type ScalarField } from './grid'
import { type KernelBackend, kernelsOf } from './kernelBackend'
import { Mic0Preconditioner } from './mic0'
import { type MultigridOptions, MultigridPreconditioner } from './multigrid'
import { type LinearOperator, type PcgOptions, PcgSolver, type Preconditioner, type SolveStats } from './pcg'
import { netOutfluxSlab } from './poisson'
import { PREPARE_SOLVE } from './pressureKernels'

export type PreconditionerKind = 'multigrid' | 'mic0' | 'none'

export interface PressureOptions extends PcgOptions {
  /** Default 'multigrid'. */
  preconditioner?: PreconditionerKind
  multigrid?: MultigridOptions
  /** Start each solve from the previous phi (Carlson 2004, section 3.3.4); default true. */
  warmStart?: boolean
  /** Allocate solver vectors on SharedArrayBuffer. */
  shared?: boolean
  /**
   * Kernels for the solve (default TypeScript). With WebAssembly kernels the velocity,
   * fractions and obstacle grids passed to project() must be allocated through them too.
   */
  kernels?: KernelBackend
}

export interface ProjectArgs {
  /** Polled every CG iteration; true cancels the solve (see PcgOptions.shouldStop). */
  shouldStop?: () => boolean
  /** Obstacle velocity on faces (normal components); null = static obstacles. */
  obstacle?: MacGrid | null
  /** Receives p in Pa; needs dt and density. */
  pressure?: ScalarField | null
  /** Time step, s (only for the pressure output). */
  dt?: number
  /** Fluid density, kg/m^3 (only for the pressure output). */
  density?: number
  /**
   * A number the caller changes whenever it rewrites the fractions (e.g. ObstacleField.version).
   * With it, an unchanged version and the same fraction arrays skip the comparison of their
   * contents; without it, the contents are compared with those of the last setup.
   */
  fractionsVersion?: number
  /** This solve's relative residual, in place of the solver's own (PressureOptions.tolerance). */
  tolerance?: number
  /**
   * Where this solve starts (the warm start) and leaves its solution, in place of `phi`: for a
   * caller whose solves alternate between two kinds of right-hand side (advection-reflection's
   * half-step and substep projections), each kind then starts from its own last solution. An
   * array of the solver's length allocated like its vectors (newSolution()).
   */
  solution?: Float64Array
}

/**
 * Remembers the face weights the pressure setup (fluid components, multigrid levels, MIC(0)
 * factors: all functions of the weights alone) was last built for, so that a projection over
 * unchanged weights (static obstacles) reuses it; the result is bit for bit the same.
 */
class FaceWeightsMemo {
  private u: Float32Array | null = null
  private v: Float32Array | null = null
  private w: Float32Array | null = null
  private version: number | undefined = undefined
  /** Bit copies of the weights of the last setup. */
  private readonly bits: [Int32Array, Int32Array, Int32Array]

  constructor(nx: number, ny: number, nz: number) {
    this.bits = [new Int32Array((nx + 1) * ny * nz), new Int32Array(nx * (ny + 1) * nz), new Int32Array(nx * ny * (nz + 1))]
  }

  /** Whether (u, v, w) differ from the last call's weights; records them if so. */
  changed(u: Float32Array, v: Float32Array, w: Float32Array, version: number | undefined): boolean {
    const sameArrays = u === this.u && v === this.v && w === this.w
    if (sameArrays && version !== undefined && version === this.version) return false
    this.version = version
    let changed = !sameArrays
    const arrays = [u, v, w]
    for (let a = 0; a < 3; a++) {
      const f = arrays[a]
      const now = new Int32Array(f.buffer, f.byteOffset, f.length)
      const bits = this.bits[a]
      if (!changed) {
        for (let c = 0; c < now.length; c++) {
          if (now[c] !== bits[c]) {
            changed = true
            break
          }
        }
      }
      if (changed) bits.set(now)
    }
    this.u = u
    this.v = v
    this.w = w
    return changed
  }

  /** Forgets the weights: the next changed() is true. */
  reset(): void {
    this.u = this.v = this.w = null
    this.version = undefined
  }
}

/** The weighted 7-point operator over a set of face weights. */
class PoissonOperator implements LinearOperator {
  fu: Float32Array = new Float32Array(0)
  fv: Float32Array = new Float32Array(0)
  fw: Float32Array = new Float32Array(0)
  constructor(
    readonly nx: number,
    readonly ny: number,
    readonly nz: number,
    readonly components: FluidComponents,
    readonly kernels: KernelBackend,
  ) {}

  apply(x: Float64Array, out: Float64Array): void {
    this.kernels.applyPoisson(out, x, this.fu, this.fv, this.fw, this.nx, this.ny, this.nz)
  }

  residual(b: Float64Array, x: Float64Array, r: Float64Array): void {
    this.kernels.residual(r, b, x, this.fu, this.fv, this.fw, this.nx, this.ny, this.nz)
  }

  removeNullSpace(v: Float64Array): void {
    this.components.removeMeans(v)
  }
}

/** Weighted divergence of vel per cell into out, 1/s (Carlson 2004, eq. 9 with weights). */
export function divergence(vel: MacGrid, fractions: MacGrid, obstacle: MacGrid | null, out: Float32Array | Float64Array): void {
  const { nx, ny, nz, spec } = vel
  netOutfluxSlab(out, vel.u, vel.v, vel.w, fractions.u, fractions.v, fractions.w, obstacle?.u ?? null, obstacle?.v ?? null, obstacle?.w ?? null, nx, ny, 0, nz)
  const inv = 1 / spec.dx
  for (let c = 0; c < nx * ny * nz; c++) out[c] *= inv
}

export class PressureSolver {
  readonly spec: GridSpec
  /** Last solution, the velocity potential dt p / (rho dx) per cell (m/s). */
  readonly phi: Float64Array
  private readonly b: Float64Array
  private readonly pcg: PcgSolver
  private readonly op: PoissonOperator
  private readonly components: FluidComponents
  private readonly precond: Preconditioner | null
  private readonly options: PressureOptions
  private readonly kernels: KernelBackend
  private readonly memo: FaceWeightsMemo
  private readonly alloc: AllocOptions
  readonly kind: PreconditionerKind

  constructor(spec: GridSpec, options: PressureOptions = {}) {
    const { nx, ny, nz } = spec
    this.spec = spec
    this.options = options
    this.kind = options.preconditioner ?? 'multigrid'
    const shared = options.shared
    const kernels = kernelsOf(options)
    const alloc = { shared, kernels }
    this.alloc = alloc
    this.kernels = kernels
    this.phi = allocF64With(nx * ny * nz, alloc)
    this.b = allocF64With(nx * ny * nz, alloc)
    this.pcg = new PcgSolver(nx, ny, nz, alloc)
    this.components = new FluidComponents(nx, ny, nz, kernels)
    this.memo = new FaceWeightsMemo(nx, ny, nz)
    this.op = new PoissonOperator(nx, ny, nz, this.components, kernels)
    this.precond =
      this.kind === 'mic0'
        ? new Mic0Preconditioner(nx, ny, nz, alloc)
        : this.kind === 'multigrid'
          ? new MultigridPreconditioner(nx, ny, nz, { ...options.multigrid, ...alloc })
          : null
  }

  /**
   * Projects vel in place. fractions = face open fractions (boundaries.ts); closed faces must
   * already hold the obstacle velocity (enforceSolidVelocity) and are not changed.
   */
  project(vel: MacGrid, fractions: MacGrid, args: ProjectArgs = {}): SolveStats {
    const { nx, ny, nz } = this.spec
    if (vel.nx !== nx || vel.ny !== ny || vel.nz !== nz || fractions.nx !== nx || fractions.ny !== ny || fractions.nz !== nz) {
      throw new EddyError('INVALID_PARAM', 'pressure projection: velocity, fractions and solver grids differ in size')
    }
    const { u, v, w } = fractions
    const obstacle = args.obstacle ?? null
    const { b, op } = this
    const phi = args.solution ?? this.phi
    if (phi.length !== this.phi.length) throw new EddyError('INVALID_PARAM', `pressure projection: a solution array of ${phi.length} values for ${this.phi.length} cells`)
    this.kernels.netOutflux(b, vel.u, vel.v, vel.w, u, v, w, obstacle?.u ?? null, obstacle?.v ?? null, obstacle?.w ?? null, nx, ny, nz)
    // Components and preconditioner depend on the weights alone: rebuilt only when they change.
    if (this.memo.changed(u, v, w, args.fractionsVersion)) {
      try {
        this.components.build(u, v, w)
        if (this.precond instanceof Mic0Preconditioner) this.precond.factor(u, v, w)
        else if (this.precond instanceof MultigridPreconditioner) this.precond.setup(u, v, w)
      } catch (e) {
        this.memo.reset()
        throw e
      }
    }
    // b = -(net outflux) on the unknowns, the warm start kept where it is finite (a kernel row).
    this.kernels.run(PREPARE_SOLVE, b, phi, this.components.labels, this.options.warmStart === false ? 0 : 1, nx * ny, nz)
    op.fu = u
    op.fv = v
    op.fw = w
    const { shouldStop, tolerance } = args
    const opts = shouldStop || tolerance !== undefined ? { ...this.options, shouldStop: shouldStop ?? this.options.shouldStop, tolerance: tolerance ?? this.options.tolerance } : this.options
    const stats = this.pcg.solve(op, this.precond, b, phi, opts)
    this.kernels.subtractGradient(vel.u, vel.v, vel.w, phi, u, v, w, nx, ny, nz)
    if (args.pressure) this.writePressure(args.pressure, phi, args.dt, args.density)
    return stats
  }

  /** A zeroed array for ProjectArgs.solution, in the same memory as phi. */
  newSolution(): Float64Array {
    return allocF64With(this.phi.length, this.alloc)
  }

  private writePressure(out: ScalarField, phi: Float64Array, dt: number | undefined, density: number | undefined): void {
    if (dt === undefined || density === undefined || !(dt > 0) || !(density > 0)) {
      throw new EddyError('INVALID_PARAM', 'pressure output needs a positive time step and fluid density')
    }
    const scale = (density * this.spec.dx) / dt
    for (let c = 0; c < phi.length; c++) out.data[c] = phi[c] * scale
  }
}


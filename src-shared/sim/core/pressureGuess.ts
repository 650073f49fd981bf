// The start of a pressure solve at the end of a step: p extrapolated linearly in time from the
// last two step solves, instead of the last solve alone (the usual warm start).
//
// The projections here solve for p = dt / rho times the pressure (the velocity they remove is
// dt times the pressure's acceleration), so with pi = p / dt the pressure's trend is
//   pi_guess = pi_n + (pi_n - pi_(n-1)) dt / dt_n,   p_guess = dt pi_guess,
// i.e. p_guess = r (1 + r) p_n - r^2 (dt_n / dt_(n-1)) p_(n-1) with r = dt / dt_n (2 p_n -
// p_(n-1) at a constant step); after a single step solve only the scaling r p_n. The steps'
// lengths vary with the flow's speed (CFL substeps), hence the ratios. The answer is the same
// to the solver's tolerance; the start is nearer it. Figures (README): the surface flow at 450 x
// 32^2 took 4.0 PCG iterations a step against 4.75, the hybrid-mesh smoke's ramp jet 10 against
// 12 a frame.
//
// A solve that is not a step's (fluxes set directly, a new mesh) starts no history: reset().
import type { KernelBackend } from './kernelTypes'
import { EXTRAPOLATE_BLOCKS, SPARSE_BLOCK } from './sparse/rows'

export class PressureGuess {
  /** The step solve before the last one (after start(): the last one, p_n). */
  readonly prev: Float64Array
  /** The step lengths of the last step solve and the one before it; 0 where there was none. */
  dtLast = 0
  dtBefore = 0

  /** n unknowns; prev lives in the kernels' memory, as p must. */
  constructor(readonly n: number, readonly kernels: KernelBackend) {
    this.prev = kernels.f64(n)
  }

  /** p (the last solve) becomes the guess for a step of length dt; prev keeps p_n. One pass. */
  start(p: Float64Array, dt: number): void {
    const { dtLast, dtBefore } = this
    let a = 1, b = 0
    if (dtLast > 0 && dt > 0) {
      const r = dt / dtLast
      a = dtBefore > 0 ? r * (1 + r) : r
      b = dtBefore > 0 ? (-r * r * dtLast) / dtBefore : 0
    }
    this.kernels.run(EXTRAPOLATE_BLOCKS, p, this.prev, a, b, this.n, SPARSE_BLOCK)
  }

  /** Records that p now holds the solve of a step of length dt. */
  solved(dt: number): void {
    this.dtBefore = this.dtLast
    this.dtLast = dt > 0 ? dt : 0
  }

  /**
   * Runs `solver` on p: a step's solve (dt given) starts from the extrapolated guess and is
   * recorded; any other starts from p as it is and drops the history.
   */
  around<T>(p: Float64Array, dt: number | undefined, solver: () => T): T {
    if (dt === undefined) {
      this.reset()
      return solver()
    }
    this.start(p, dt)
    const result = solver()
    this.solved(dt)
    return result
  }

  /** The next solve starts from p alone (the last solve was no step's). */
  reset(): void {
    this.dtLast = this.dtBefore = 0
  }

  /** The history for a checkpoint: the step lengths (prev is its own section). */
  get steps(): [number, number] {
    return [this.dtBefore, this.dtLast]
  }

  /**
   * Restores the history from a checkpoint's step lengths and prev (null: a checkpoint from
   * before the extrapolation, whose next solve starts from p alone).
   */
  restore(steps: unknown, prev: Float64Array | null): void {
    const ok = prev !== null && prev.length === this.n && Array.isArray(steps) && steps.length === 2 && steps.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)
    if (!ok) return this.reset()
    this.prev.set(prev)
    this.dtBefore = (steps as number[])[0]
    this.dtLast = (steps as number[])[1]
  }
}

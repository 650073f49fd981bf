// How every family splits a frame's dt into substeps: a CFL substep (the fastest thing in the
// domain travels `cfl` cells), kept within [dt / maxSubsteps, dt / minSubsteps] and split
// evenly over what is left of the frame, re-planned after each substep because speeds change.
// The loop also honours Cancel between substeps and runs the family's stability guard after
// each one. One copy of this, used by every solver, so the rule is the same everywhere.
// A family may also bound the angle its flow turns through per substep (SubstepHooks.turn):
// advect-then-project splitting keeps only cos(angle) of a rotating velocity each substep.
import { cancelledError, type StepControl, type StepStats, type SubstepLimits } from './solver'

export interface SubstepHooks {
  /**
   * Largest speed the next substep must follow, m/s (NaN = the state is broken: the family's
   * guard reports it), measured at `offset` simulated seconds into the frame.
   */
  speed(offset: number): number
  /**
   * Extra speed allowed for in the substep size but not counted as fluid motion in cflMax
   * (the liquid adds what gravity reaches over a cell).
   */
  reach: number
  /** Advances by h; `offset` is where in the frame the substep starts. */
  substep(h: number, offset: number): void
  /** After each substep: throws SIM_UNSTABLE on a blow-up. `end` is the offset reached. */
  guard(end: number): void
  /**
   * Optional rotation limit: h <= maxAngle / rate(offset), within the same min/max substep
   * bounds as the CFL size. rate is the largest angular rate (rad/s) at which the flow turns
   * its velocity, measured at `offset`; maxAngle in radians. A rate that is not > 0 (none, or
   * NaN: the guard reports that) sets no bound. Absent: the substeps are the CFL's alone.
   */
  turn?: { rate(offset: number): number; maxAngle: number }
}

/**
 * Runs substeps covering dt; counts them and the largest cells-per-substep into `stats`.
 * `clock` is the simulated time at the start of the frame (for Cancel's message).
 */
export function runSubsteps(dt: number, limits: SubstepLimits, dx: number, clock: number, hooks: SubstepHooks, stats: StepStats, control?: StepControl): void {
  const { cfl, minSubsteps, maxSubsteps } = limits
  let done = 0
  while (dt > 0) {
    if (control?.shouldStop()) throw cancelledError(clock + done)
    const remaining = dt - done
    const umax = hooks.speed(done)
    const speed = umax + hooks.reach
    let h = speed > 0 ? (cfl * dx) / speed : Infinity
    if (hooks.turn !== undefined) {
      const rate = hooks.turn.rate(done)
      if (rate > 0) h = Math.min(h, hooks.turn.maxAngle / rate)
    }
    h = Math.min(Math.max(h, dt / maxSubsteps), dt / minSubsteps)
    let n = Math.max(1, Math.ceil(remaining / h - 1e-9))
    if (stats.substeps + n > maxSubsteps) n = Math.max(1, maxSubsteps - stats.substeps)
    h = remaining / n
    hooks.substep(h, done)
    stats.substeps++
    stats.cflMax = Math.max(stats.cflMax, (umax * h) / dx)
    hooks.guard(done + h)
    if (n === 1) break
    done += h
  }
}

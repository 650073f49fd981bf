// Martin and Moyce's collapse of a liquid column (Phil. Trans. R. Soc. A 244, 312-324, 1952):
// the experiment liquid dam breaks are checked against. A column a wide and n^2 a = 2a tall
// (a = 2.25 in) is released on a dry floor; the surge front's distance from the back wall,
// Z = x / a, at the dimensionless time T = t sqrt(2 g / a). The front was timed as it passed
// marks every half inch (Z steps of 0.222), the table reproduced by the many dam-break
// comparisons since (Koshizuka and Oka 1996, and the SPH, MPS and VOF literature).
//
// The experiment's gate took a moment to leave the column, and its floor and walls were not
// frictionless: inviscid simulations run ahead of it, by up to about 15% in the early surge, and
// the checks allow 20%.
import { expect } from 'vitest'
import { surfaceInColumn } from './surfaceColumn'

/** (T, Z) for n^2 = 2. */
export const MARTIN_MOYCE: readonly (readonly [number, number])[] = [
  [0.41, 1.11], [0.84, 1.22], [1.19, 1.44], [1.43, 1.67], [1.63, 1.89], [1.83, 2.11], [1.98, 2.33], [2.2, 2.56],
  [2.32, 2.78], [2.51, 3.0], [2.65, 3.22], [2.83, 3.44], [2.98, 3.67], [3.11, 3.89], [3.33, 4.11],
]

/** The depth under which a column counts as dry for the front: a twentieth of the column's width. */
export const FRONT_DEPTH = 0.05

/**
 * The surge front's x, m: the first column, walking out from `firstColumn` (the back wall's),
 * whose liquid depth above the floor (y = 0) falls below FRONT_DEPTH a, interpolated between it and the
 * one before. phi: a level set on a grid (samples i + nx (j + ny k), negative in the liquid)
 * whose sample (i, j) sits at x0 + (i + 0.5) h, y0 + (j + 0.5) h; k is the slice read.
 */
export function surgeFront(phi: ArrayLike<number>, nx: number, ny: number, k: number, h: number, x0: number, y0: number, a: number, firstColumn = 0): number {
  const depthAt = (i: number) => {
    const j = surfaceInColumn(phi, nx, ny, i, k)
    return j === j ? y0 + j * h : 0
  }
  const dry = FRONT_DEPTH * a
  let before = depthAt(firstColumn)
  for (let i = firstColumn + 1; i < nx; i++) {
    const d = depthAt(i)
    if (d < dry) return x0 + (i - 0.5) * h + (h * (before - dry)) / (before - d)
    before = d
  }
  return x0 + (nx - 0.5) * h
}

export interface FrontCheck {
  /** Z over Martin and Moyce's Z at each of their T inside the run (the front interpolated between frames). */
  ratios: number[]
  /** Their T at which each ratio was taken. */
  times: number[]
}

/**
 * The run's front against the table: fronts[f] (m) at times[f] (s) for a column of width a,
 * compared at every T of the table from `fromT` while the run covers it.
 */
export function againstMartinMoyce(times: readonly number[], fronts: readonly number[], a: number, g: number, fromT: number): FrontCheck {
  const rate = Math.sqrt((2 * g) / a)
  const ratios: number[] = [], at: number[] = []
  for (const [T, Z] of MARTIN_MOYCE) {
    if (T < fromT) continue
    const t = T / rate
    for (let f = 0; f + 1 < times.length; f++) {
      if (times[f] <= t && t <= times[f + 1]) {
        const x = fronts[f] + ((fronts[f + 1] - fronts[f]) * (t - times[f])) / (times[f + 1] - times[f])
        ratios.push(x / a / Z)
        at.push(T)
        break
      }
    }
  }
  return { ratios, times: at }
}

/**
 * Prints the run's front over the table's at each T and checks it: at least `points` of the
 * table's times covered, every ratio within 20% (the file comment says why).
 */
export function expectFrontNearMartinMoyce(label: string, r: FrontCheck, points: number): void {
  console.log(`${label}: over Martin and Moyce ${r.ratios.map((x, i) => `T ${r.times[i]} ${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)}%`).join(', ')}`)
  expect(r.ratios.length, 'table points the run covers').toBeGreaterThanOrEqual(points)
  for (const x of r.ratios) {
    expect(x).toBeGreaterThan(0.8)
    expect(x).toBeLessThan(1.2)
  }
}

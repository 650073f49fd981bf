// The rising-thermal budget check shared by the grid smoke's and the hybrid gas's validation
// (smoke/transport.test.ts, hybrid/smokeBudget.test.ts): the amounts before and after, how far
// the smoke rose, and the largest density and heat any cell reached on the way.
import { expect } from 'vitest'

export interface ThermalRun {
  label: string
  /** Smoke, heat and the smoke's mean height before and after. */
  before: [number, number, number]
  after: [number, number, number]
  /** Largest density and kelvin above ambient over the run; the ball started at 1 and dT. */
  peakDensity: number
  peakHeat: number
  dT: number
  /** Relative slack on the peaks (float32 fields round at about 6e-8). */
  peakSlack: number
}

/** It rose, kept its smoke and heat within 0.1%, and no cell passed the ball's density or heat. */
export function expectThermalBudget(r: ThermalRun): void {
  const [m0, h0, y0] = r.before
  const [m1, h1, y1] = r.after
  console.log(`${r.label}: smoke ${((m1 / m0 - 1) * 100).toFixed(4)}%, heat ${((h1 / h0 - 1) * 100).toFixed(4)}%; rose ${(y1 - y0).toFixed(3)} m; peaks ${r.peakDensity.toFixed(4)}, ${r.peakHeat.toFixed(3)} K`)
  // It did rise (the test is not of a fluid at rest).
  expect(y1 - y0).toBeGreaterThan(0.03)
  expect(Math.abs(m1 / m0 - 1)).toBeLessThan(0.001)
  expect(Math.abs(h1 / h0 - 1)).toBeLessThan(0.001)
  expect(r.peakDensity).toBeLessThanOrEqual(1 + r.peakSlack)
  expect(r.peakHeat).toBeLessThanOrEqual(r.dT * (1 + r.peakSlack))
}

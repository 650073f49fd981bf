// The end of every `eddy bench`: the process's peak resident memory (issue 19 asks for it next
// to ms/frame in every bench: Mantaflow's 128^3 liquid peaks at 3.4 GB), then the machine-read
// `EDDY_BENCH {json}` line with it included as peakRssMiB.
import { resourceUsage } from 'node:process'

/** Peak resident set size of this process so far (all its threads), MiB. */
export function peakRssMiB(): number {
  // maxRSS is in kilobytes (getrusage's ru_maxrss on Linux).
  return resourceUsage().maxRSS / 1024
}

export function printBenchResult(result: Record<string, unknown>, log: (line: string) => void): void {
  const peak = peakRssMiB()
  log(`peak RSS ${peak.toFixed(0)} MiB`)
  log(`EDDY_BENCH ${JSON.stringify({ ...result, peakRssMiB: peak })}`)
}

// Frame-cache record sizes and speeds for a 128^3 smoke-like frame (EDDY_BENCH_N to change):
// a density/temperature plume filling ~15% of the domain plus its velocity (vec3, non-zero in
// a wider halo), encoded at each precision and deflate level 1 vs 6. Prints medians; never
// asserts on time, so the default encoding can be chosen by measurement.
//   npx vitest run --config tests/bench/vitest.config.ts frameRecord
import { it } from 'vitest'
import { decodeFrame, encodeFrame, type FramePrecision } from '../../src-shared/formats/frameRecord'
import { plume } from '../fixtures/smokePlume'
import type { FrameData } from '../../src-shared/sim/frame'

const N = Number(process.env.EDDY_BENCH_N ?? 128)
const REPS = Number(process.env.EDDY_BENCH_REPS ?? 3)

/** The shared synthetic plume (tests/fixtures/smokePlume.ts), temperature in kelvin as the solver writes it. */
const smokeFrame = (n: number): FrameData => plume(n)

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

it('frame record: sizes and speeds at 128^3', () => {
  const frame = smokeFrame(N)
  let raw = 0
  for (const v of frame.volumes) raw += v.data.byteLength
  const occ = (a: Float32Array, c: number) => {
    let nz = 0
    for (let i = 0; i < a.length; i += c) if (a[i] !== 0 || (c === 3 && (a[i + 1] !== 0 || a[i + 2] !== 0))) nz++
    return (100 * nz) / (a.length / c)
  }
  const lines: string[] = []
  lines.push(`frame record bench: ${N}^3, density ${occ(frame.volumes[0].data, 1).toFixed(1)}% / temperature ${occ(frame.volumes[1].data, 1).toFixed(1)}% / velocity ${occ(frame.volumes[2].data, 3).toFixed(1)}% non-zero cells; median of ${REPS}`)
  lines.push(`raw float32 volumes: ${(raw / 2 ** 20).toFixed(2)} MiB (${raw} B)`)
  lines.push('precision | level | encoded B | MiB | % of raw | encode ms | decode ms')
  const precisions: FramePrecision[] = ['float32', 'float16', 'uint8']
  for (const precision of precisions) {
    for (const level of [1, 6]) {
      const enc: number[] = []
      const dec: number[] = []
      let bytes: Uint8Array = new Uint8Array(0)
      for (let rep = 0; rep < REPS; rep++) {
        let t = performance.now()
        bytes = encodeFrame(frame, { precision, level })
        enc.push(performance.now() - t)
        t = performance.now()
        decodeFrame(bytes)
        dec.push(performance.now() - t)
      }
      lines.push(
        `${precision.padEnd(9)} | ${String(level).padStart(5)} | ${String(bytes.length).padStart(9)} | ${(bytes.length / 2 ** 20).toFixed(2).padStart(5)} | ${((100 * bytes.length) / raw).toFixed(1).padStart(8)} | ${median(enc).toFixed(0).padStart(9)} | ${median(dec).toFixed(0).padStart(9)}`,
      )
    }
  }
  console.log(lines.join('\n'))
})

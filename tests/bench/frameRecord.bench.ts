// Frame-cache record sizes and speeds for a 128^3 smoke-like frame (EDDY_BENCH_N to change):
// a density/temperature plume filling ~15% of the domain plus its velocity (vec3, non-zero in
// a wider halo), encoded at each precision and deflate level 1 vs 6. Prints medians; never
// asserts on time, so the default encoding can be chosen by measurement.
//   npx vitest run --config tests/bench/vitest.config.ts frameRecord
import { it } from 'vitest'
import { decodeFrame, encodeFrame, type FramePrecision } from '../../src-shared/formats/frameRecord'
import type { FrameData, Volume } from '../../src-shared/sim/frame'

const N = Number(process.env.EDDY_BENCH_N ?? 128)
const REPS = Number(process.env.EDDY_BENCH_REPS ?? 3)

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function smokeFrame(n: number): FrameData {
  const r = rng(42)
  const ph = Array.from({ length: 12 }, () => r() * Math.PI * 2)
  const cells = n * n * n
  const density = new Float32Array(cells)
  const temperature = new Float32Array(cells)
  const velocity = new Float32Array(cells * 3)
  // A rising column that widens with height and wobbles; radius chosen for ~15% occupancy.
  for (let k = 0; k < n; k++) {
    const z = (k + 0.5) / n
    for (let j = 0; j < n; j++) {
      const y = (j + 0.5) / n
      const cx = 0.5 + 0.08 * Math.sin(6 * y + ph[0])
      const cz = 0.5 + 0.08 * Math.cos(5 * y + ph[1])
      const rad = 0.12 + 0.2 * y
      for (let i = 0; i < n; i++) {
        const x = (i + 0.5) / n
        const d = Math.hypot(x - cx, z - cz) / rad
        const idx = i + n * (j + n * k)
        const swirl = Math.sin(13 * x + ph[2]) * Math.sin(11 * y + ph[3]) * Math.sin(17 * z + ph[4])
        if (d < 1) {
          const fall = 1 - d * d
          density[idx] = Math.max(0, fall * (0.6 + 0.4 * swirl) * (1 - 0.5 * y))
          temperature[idx] = Math.max(0, fall * (1 - y) * (0.8 + 0.2 * Math.sin(9 * x + 7 * z + ph[5])))
        }
        if (d < 1.35) {
          const fall = d < 1 ? 1 : (1.35 - d) / 0.35
          velocity[idx * 3] = fall * 0.4 * Math.sin(7 * y + 5 * z + ph[6])
          velocity[idx * 3 + 1] = fall * (1.2 + 0.5 * swirl)
          velocity[idx * 3 + 2] = fall * 0.4 * Math.cos(6 * x + 8 * y + ph[7])
        }
      }
    }
  }
  const vol = (name: string, components: 1 | 3, data: Float32Array): Volume => ({
    name,
    components,
    dims: [n, n, n],
    voxelSize: 1 / n,
    origin: [0, 0, 0],
    data,
  })
  return {
    time: 2,
    frame: 49,
    volumes: [vol('density', 1, density), vol('temperature', 1, temperature), vol('velocity', 3, velocity)],
    meshes: [],
    particles: [],
    stats: { substeps: 2, 'pressure.iterations': 12 },
  }
}

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

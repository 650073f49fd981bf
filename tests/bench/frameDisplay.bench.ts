// What showing a baked frame costs before the GPU: a 128^3 smoke frame (a rising Gaussian
// plume over about a quarter of the 8^3 tiles; density, temperature in kelvin over an ambient
// 293.15 K everywhere, as the smoke solver writes it, and velocity) encoded at each precision.
// Compares decode-for-display (velocity left deflated, RG8 texels) with a full decode, and
// prints the bytes that cross to the render thread and to the GPU. Figures only, never a
// verdict on time.
//   npx vitest run --config tests/bench/vitest.config.ts frameDisplay
import { it } from 'vitest'
import { decodeFrame, encodeFrame, type FramePrecision } from '../../src-shared/formats/frameRecord'
import type { FrameData, Volume } from '../../src-shared/sim/frame'
import { decodeForDisplay, displayFromFrame, displayTransferables } from '../../src-renderer/viewport/cache/displayData'

const N = Number(process.env.EDDY_BENCH_N ?? 128)
const RUNS = Number(process.env.EDDY_BENCH_RUNS ?? 20)
const AMBIENT = 293.15

/** `ambient` 293.15 as the smoke solver writes it (every tile non-zero), or 0 for kelvin above ambient. */
function plume(n: number, ambient = AMBIENT): FrameData {
  const cells = n * n * n
  const density = new Float32Array(cells)
  const temperature = new Float32Array(cells).fill(ambient)
  const velocity = new Float32Array(cells * 3)
  for (let k = 0; k < n; k++) {
    const z = (k + 0.5) / n
    for (let j = 0; j < n; j++) {
      const y = (j + 0.5) / n
      if (y > 0.9) continue
      // The column leans and widens as it rises; beyond 1.4 radii there is no smoke at all.
      const cx = 0.5 + 0.06 * Math.sin(5 * y)
      const cz = 0.5 + 0.05 * Math.cos(4 * y)
      const r = 0.08 + 0.16 * y
      for (let i = 0; i < n; i++) {
        const x = (i + 0.5) / n
        const q = ((x - cx) ** 2 + (z - cz) ** 2) / (r * r)
        if (q > 1.96) continue
        const c = i + n * (j + n * k)
        const g = Math.exp(-2 * q)
        const curl = Math.sin(23 * x + 17 * y) * Math.cos(19 * z - 11 * y)
        density[c] = g * (0.8 + 0.2 * curl) * (1 - 0.6 * y)
        temperature[c] = ambient + 600 * g * (1 - y) ** 2
        velocity[3 * c] = 0.3 * curl * g
        velocity[3 * c + 1] = 1.5 * g
        velocity[3 * c + 2] = -0.3 * curl * g
      }
    }
  }
  const vol = (name: string, components: 1 | 3, data: Float32Array): Volume => ({ name, components, dims: [n, n, n], voxelSize: 2 / n, origin: [-1, 0, -1], data })
  return {
    time: 2,
    frame: 49,
    volumes: [vol('density', 1, density), vol('temperature', 1, temperature), vol('velocity', 3, velocity)],
    meshes: [],
    particles: [],
    stats: {},
  }
}

function tileOccupancy(v: Volume): number {
  const n = v.dims[0]
  const t = Math.ceil(n / 8)
  let used = 0
  for (let c = 0; c < t; c++)
    for (let b = 0; b < t; b++)
      for (let a = 0; a < t; a++) {
        let any = false
        for (let k = c * 8; k < Math.min(n, c * 8 + 8) && !any; k++)
          for (let j = b * 8; j < Math.min(n, b * 8 + 8) && !any; j++)
            for (let i = a * 8; i < Math.min(n, a * 8 + 8); i++)
              if (v.data[i + n * (j + n * k)] !== 0) {
                any = true
                break
              }
        if (any) used++
      }
  return used / t ** 3
}

function timeIt(f: (run: number) => void): { median: number; p95: number } {
  f(RUNS) // warm-up: JIT and the float16 table
  const ms: number[] = []
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now()
    f(r)
    ms.push(performance.now() - t0)
  }
  ms.sort((a, b) => a - b)
  return { median: ms[Math.floor(ms.length / 2)], p95: ms[Math.min(ms.length - 1, Math.ceil(0.95 * ms.length) - 1)] }
}

const mib = (b: number): string => (b / 1048576).toFixed(2)
const fmt = (t: { median: number; p95: number }): string => `${t.median.toFixed(1).padStart(7)} ${t.p95.toFixed(1).padStart(7)}`

it(`frame display: decode for display vs full decode at ${N}^3`, () => {
  const frame = plume(N)
  console.log(`\n${N}^3 plume: density in ${(100 * tileOccupancy(frame.volumes[0])).toFixed(1)}% of the 8^3 tiles, velocity in ${(100 * tileOccupancy(frame.volumes[2])).toFixed(1)}%; temperature is stored as kelvin, so every tile of it is stored`)
  console.log(`${RUNS} runs each, ms (median, p95); this machine has 2 cores and may be loaded\n`)
  console.log('precision  record MiB   full decode    display decode   of which RG8 build   clone w/o transfer   clone with transfer')
  for (const precision of ['float32', 'float16', 'uint8'] as FramePrecision[]) {
    const record = encodeFrame(frame, { precision })
    const full = timeIt(() => decodeFrame(record))
    const display = timeIt(() => decodeForDisplay(record))
    const decoded = decodeFrame(record, { volumes: ['density', 'temperature'] })
    const build = timeIt(() => displayFromFrame(decoded))
    // What postMessage does to the result: a structured clone, copying the arrays or moving
    // them (a transferred buffer is detached, so each run gets its own copy).
    const shown = decodeForDisplay(record)
    const copied = timeIt(() => structuredClone(shown))
    const copies = Array.from({ length: RUNS + 1 }, () => structuredClone(shown))
    const moved = timeIt((r) => structuredClone(copies[r], { transfer: displayTransferables(copies[r]) }))
    console.log(
      `${precision.padEnd(9)}  ${mib(record.length).padStart(10)}  ${fmt(full)}   ${fmt(display)}    ${fmt(build)}       ${fmt(copied)}      ${fmt(moved)}`,
    )
  }
  // The same plume with temperature stored as kelvin above ambient: its tiles become as
  // sparse as the density's. A figure for choosing what the solver writes, not a format change.
  const relative = plume(N, 0)
  console.log('\ntemperature stored as kelvin above ambient (sparse):')
  console.log('precision  record MiB   full decode    display decode')
  for (const precision of ['float32', 'float16', 'uint8'] as FramePrecision[]) {
    const record = encodeFrame(relative, { precision })
    const full = timeIt(() => decodeFrame(record))
    const display = timeIt(() => decodeForDisplay(record, { ambientTemperature: 0 }))
    console.log(`${precision.padEnd(9)}  ${mib(record.length).padStart(10)}  ${fmt(full)}   ${fmt(display)}`)
  }

  const texels = N ** 3 * 2
  console.log(
    `\nPer frame to the GPU: RG8 ${mib(texels)} MiB (two float32 textures would be ${mib(N ** 3 * 8)} MiB); at 24 fps that is ${((texels * 24) / 1048576).toFixed(0)} MiB/s of texImage3D.`,
  )
})

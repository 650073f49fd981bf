// What showing a baked frame costs before the GPU: a 128^3 smoke frame (a rising Gaussian
// plume over about a quarter of the 8^3 tiles; density, temperature in kelvin over an ambient
// 293.15 K everywhere, as the smoke solver writes it, and velocity) encoded at each precision.
// Compares decode-for-display (velocity left deflated, RG8 texels) with a full decode, and
// prints the bytes that cross to the render thread and to the GPU. Figures only, never a
// verdict on time.
//   npx vitest run --config tests/bench/vitest.config.ts frameDisplay
import { it } from 'vitest'
import { decodeFrame, encodeFrame, type FramePrecision } from '../../src-shared/formats/frameRecord'
import type { Volume } from '../../src-shared/sim/frame'
import { plume } from '../fixtures/smokePlume'
import { decodeForDisplay, displayFromFrame, displayTransferables } from '../../src-renderer/viewport/cache/displayData'
import { encodePreview } from '../../src-shared/formats/framePreview'
import { volumeDisplay } from '../../src-shared/formats/volumePreview'

const N = Number(process.env.EDDY_BENCH_N ?? 128)
const RUNS = Number(process.env.EDDY_BENCH_RUNS ?? 20)
const AMBIENT = 293.15

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

it(`frame display: with the bake-time preview at ${N}^3`, () => {
  const frame = plume(N)
  const preview = encodePreview(volumeDisplay(frame.volumes[0], frame.volumes[1], 293.15)!)
  console.log(`\n${RUNS} runs each, ms (median, p95): display decode of a 'cache.display' bundle (preview + record; no volume inflated)`)
  for (const precision of ['float32', 'float16', 'uint8'] as FramePrecision[]) {
    const record = encodeFrame(frame, { precision })
    const bundle = new Uint8Array(4 + preview.length + record.length)
    new DataView(bundle.buffer).setUint32(0, preview.length, true)
    bundle.set(preview, 4)
    bundle.set(record, 4 + preview.length)
    const t = timeIt(() => decodeForDisplay(bundle))
    console.log(`${precision.padEnd(9)} preview ${mib(preview.length)} MiB + record ${mib(record.length)} MiB   ${fmt(t)}`)
  }
})

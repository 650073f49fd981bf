// `eddy render`: the built CLI draws the viewport flipbook through the headless host and Chromium.
// The moving-wake example's sphere crosses the view on keys, so three frames of it (no bake
// needed) must be drawn, not blank, and each different from the last. Skipped, saying why,
// without Chromium.
import { findFfmpeg } from '../../../src-main/app/flipbookHandlers'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { PNG } from 'pngjs'

const CLI = fileURLToPath(new URL('../../../out/main/cli.js', import.meta.url))
const CHROMIUM = process.env.EDDY_CHROMIUM ?? '/usr/bin/chromium'
const dir = mkdtempSync(join(tmpdir(), 'eddy-render-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const eddy = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir })
/** The CLI run to the end, asynchronously (a render takes seconds; a sync spawn would stall the worker). */
function eddyAsync(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd: dir })
    let stdout = ''
    let stderr = ''
    p.stdout.on('data', (d) => (stdout += d))
    p.stderr.on('data', (d) => (stderr += d))
    p.on('exit', (status) => res({ status, stdout, stderr }))
  })
}

function variance(png: Buffer): number {
  const img = PNG.sync.read(png)
  let s = 0
  let s2 = 0
  const n = img.width * img.height
  for (let p = 0; p < n; p++) {
    const y = 0.2126 * img.data[4 * p] + 0.7152 * img.data[4 * p + 1] + 0.0722 * img.data[4 * p + 2]
    s += y
    s2 += y * y
  }
  return s2 / n - (s / n) ** 2
}

function differing(a: Buffer, b: Buffer): number {
  const x = PNG.sync.read(a)
  const y = PNG.sync.read(b)
  let d = 0
  for (let i = 0; i < x.data.length; i += 4) if (Math.abs(x.data[i] - y.data[i]) + Math.abs(x.data[i + 1] - y.data[i + 1]) + Math.abs(x.data[i + 2] - y.data[i + 2]) > 24) d++
  return d / (x.width * x.height)
}

describe('eddy render', () => {
  const ready = existsSync(CLI) && existsSync(CHROMIUM)
  if (!ready) console.log(`skipping eddy render: ${existsSync(CLI) ? `no Chromium at ${CHROMIUM}` : 'out/main/cli.js is not built'}`)

  it('refuses a range outside the scene and a missing folder before starting anything', () => {
    if (!existsSync(CLI)) return
    expect(eddy('example', 'moving-wake', 'wake.eddy').status).toBe(0)
    const outside = eddy('render', 'wake.eddy', '--out', 'frames', '--frames', '0-500')
    expect(outside.status).toBe(2)
    expect(outside.stderr).toMatch(/outside the scene's frames 1-168/)
    const noOut = eddy('render', 'wake.eddy')
    expect(noOut.status).toBe(2)
    expect(noOut.stderr).toMatch(/needs --out DIR/)
  })

  it.skipIf(!ready)('draws three frames of the moving sphere as PNGs, none blank, each different from the last', async () => {
    if (!existsSync(join(dir, 'wake.eddy'))) expect(eddy('example', 'moving-wake', 'wake.eddy').status).toBe(0)
    const r = await eddyAsync('render', 'wake.eddy', '--out', 'frames', '--frames', '40-42', '--size', '480x270', '--overlays')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/Wrote 3 frames to .*frames\. (No MP4: ffmpeg is not installed|Wrote .*\.mp4)/)
    const files = readdirSync(join(dir, 'frames')).filter((f) => f.endsWith('.png')).sort()
    expect(files).toEqual(['Moving_wake_0040.png', 'Moving_wake_0041.png', 'Moving_wake_0042.png'])
    const pngs = files.map((f) => readFileSync(join(dir, 'frames', f)))
    expect([PNG.sync.read(pngs[0]).width, PNG.sync.read(pngs[0]).height]).toEqual([480, 270])
    for (const p of pngs) expect(variance(p)).toBeGreaterThan(5)
    for (let i = 1; i < pngs.length; i++) expect(differing(pngs[i - 1], pngs[i])).toBeGreaterThan(0.0005)
    // Where ffmpeg is installed (CI installs it), the MP4 holds the three frames at that size.
    if (findFfmpeg() !== null) {
      expect(r.stdout).toMatch(/Wrote .*Moving_wake\.mp4/)
      const probe = spawnSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'json', join(dir, 'frames', 'Moving_wake.mp4')], { encoding: 'utf8' })
      expect(probe.status, probe.stderr).toBe(0)
      expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ codec_name: 'h264', width: 480, height: 270, nb_read_frames: '3' })
    }
  }, 180_000)
})

// Wedges through the UI: a wedge on the emitter's rate made in the inspector (object and
// parameter menus, a typed value list, an empty list refused with its sentence, list/range
// switching undone step by step), its three variants baked from the bake panel side by side,
// a row per variant under the timeline's cache bar (checked in a screenshot), and variant 2
// promoted: its frames become the main cache, its rate the emitter's, and undo takes it back.
// Where a Slurm cluster is up, the wedge submitted with `eddy farm submit` shows in the bake
// panel's farm section: its tasks finishing, their logs, and Cancel of a variant and of all.
// A smoke domain at 8 cells over 8 frames keeps each bake to seconds under SwiftShader.
import { execFile, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Locator, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPath, ROOT, startApp, type RunningApp } from './harness'
import { addObject, commitField, field, newProject, selectObject, tid, undoLabel, waitFor } from './ui'

const FRAMES = 8
/** The scrubber's cached colour (#3fa34d), which the variant rows share. */
const CACHED_RGB = [0x3f, 0xa3, 0x4d] as const

function cacheRanges(page: Page): Promise<string[]> {
  return page.locator(tid('cache-range')).evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.state} ${(e as HTMLElement).dataset.from}-${(e as HTMLElement).dataset.to}`))
}

function variantRows(page: Page): Promise<{ k: string; state: string; cached: string }[]> {
  return page.locator(tid('variant-row')).evaluateAll((els) => els.map((e) => ({ k: (e as HTMLElement).dataset.k ?? '', state: (e as HTMLElement).dataset.state ?? '', cached: (e as HTMLElement).dataset.cached ?? '' })))
}

async function undo(page: Page): Promise<void> {
  await page.click(tid('menu-edit'))
  await page.click(tid('undo'))
}

/** Pixels of the cached colour inside each box (page coordinates) of a screenshot of `area`. */
async function cachedPixelsPerRow(area: Locator, rows: Locator, shot: string): Promise<number[]> {
  const png = PNG.sync.read(await area.screenshot({ path: artifactPath(shot) }))
  const origin = (await area.boundingBox())!
  const counts: number[] = []
  for (const box of await rows.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }))) {
    let n = 0
    const scale = png.width / origin.width
    for (let y = Math.floor((box.y - origin.y) * scale); y < Math.ceil((box.y - origin.y + box.height) * scale); y++) {
      for (let x = Math.floor((box.x - origin.x) * scale); x < Math.ceil((box.x - origin.x + box.width) * scale); x++) {
        const i = 4 * (y * png.width + x)
        if (CACHED_RGB.every((c, j) => Math.abs(png.data[i + j] - c) <= 12)) n++
      }
    }
    counts.push(n)
  }
  return counts
}

describe('wedges: sweep a parameter, bake the variants, promote one', () => {
  let app: RunningApp
  let emitter = ''
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('makes a wedge on the emitter rate in the inspector, refusing an empty value list', async () => {
    const { page } = app
    await newProject(page, 'Wedges', app.projectsDir)
    await commitField(page, 'frame-end', String(FRAMES))
    emitter = await addObject(page, 'emitter')
    await addObject(page, 'domain')
    await commitField(page, 'param-resolution', '8')

    await page.click(tid('wedge-add'))
    const wedge = page.locator(`${tid('wedge')}[data-name="wedge1"]`)
    await wedge.waitFor()
    // A new wedge starts on the domain's first scalar channel, at its current value.
    expect(await wedge.locator(tid('wedge-param')).getAttribute('data-path')).toBe('resolution')
    expect(await page.inputValue(tid('wedge-values'))).toBe('8')
    expect(await wedge.locator(tid('wedge-count')).textContent()).toBe('1 variant')

    await wedge.locator(tid('wedge-object')).selectOption({ label: emitter })
    await waitFor(() => wedge.locator(tid('wedge-param')).getAttribute('data-object'), (n) => n === emitter, 'the row to vary the emitter')
    await wedge.locator(tid('wedge-channel')).selectOption('rate')
    await waitFor(() => wedge.locator(tid('wedge-param')).getAttribute('data-path'), (p) => p === 'rate', 'the row to vary the rate')
    expect(await page.inputValue(tid('wedge-values'))).toBe('1')
    // Menus and switches are not offered: they cannot be wedged.
    const offered = await wedge.locator(`${tid('wedge-channel')} option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))
    expect(offered).toContain('position.1')
    expect(offered).not.toContain('shape')
    expect(offered).not.toContain('fluid')

    await commitField(page, 'wedge-values', '0.5, 2, 3')
    await waitFor(() => wedge.locator(tid('wedge-count')).textContent(), (t) => t === '3 variants', '"3 variants"')
    expect(await undoLabel(page)).toBe('Undo Change Domain wedges')

    // An empty list is refused with wedgeProblem's sentence; Escape shows the stored list again.
    await field(page, 'wedge-values').fill('')
    await field(page, 'wedge-values').press('Enter')
    await waitFor(() => wedge.locator(tid('wedge-problem')).textContent(), (t) => t === `Rate of "${emitter}" has an empty list of values`, 'the empty-list sentence')
    expect(await field(page, 'wedge-values').getAttribute('class')).toContain('invalid')
    await field(page, 'wedge-values').press('Escape')
    await waitFor(() => wedge.locator(tid('wedge-count')).textContent(), (t) => t === '3 variants', 'the problem to clear on Escape')
    expect(await page.inputValue(tid('wedge-values'))).toBe('0.5, 2, 3')

    // Start/stop/count instead of a list, then back: each switch and each field is one undo step.
    await wedge.locator(tid('wedge-mode-range')).click()
    await waitFor(() => wedge.locator(tid('wedge-resolved')).count(), (n) => n === 1, 'the range fields')
    expect([await page.inputValue(tid('wedge-range-start')), await page.inputValue(tid('wedge-range-stop')), await page.inputValue(tid('wedge-range-count'))]).toEqual(['0.5', '3', '3'])
    expect(await wedge.locator(tid('wedge-resolved')).textContent()).toBe('0.5, 1.75, 3')
    await commitField(page, 'wedge-range-count', '6')
    await waitFor(() => wedge.locator(tid('wedge-count')).textContent(), (t) => t === '6 variants', '"6 variants"')
    await undo(page)
    await waitFor(() => page.inputValue(tid('wedge-range-count')), (v) => v === '3', 'undo to restore the count')
    await undo(page)
    await waitFor(() => field(page, 'wedge-values').count(), (n) => n === 1, 'undo to restore the list')
    expect(await page.inputValue(tid('wedge-values'))).toBe('0.5, 2, 3')

    // A subset bakes some variants, under their numbers in the whole product.
    await commitField(page, 'wedge-subset', '1,3', '1, 3')
    await waitFor(() => wedge.locator(tid('wedge-count')).textContent(), (t) => t === '2 variants of 3', '"2 variants of 3"')
    expect(await variantRows(page).then((r) => r.map((x) => x.k))).toEqual(['1', '3'])
    await undo(page)
    await waitFor(() => wedge.locator(tid('wedge-count')).textContent(), (t) => t === '3 variants', 'undo to clear the subset')

    // What only the services check (two wedges of one name) comes back as their sentence, in a
    // toast and on the wedge's line.
    await page.click(tid('wedge-add'))
    const second = page.locator(`${tid('wedge')}[data-name="wedge2"]`)
    await second.waitFor()
    await second.locator(tid('wedge-name')).fill('wedge1')
    await second.locator(tid('wedge-name')).press('Enter')
    const duplicate = 'Two wedges are named "wedge1": give each its own name'
    await waitFor(() => second.locator(tid('wedge-problem')).textContent(), (t) => t === duplicate, 'the refusal on the line')
    expect(await page.textContent(tid('error-message'))).toBe(duplicate)
    await second.locator(tid('wedge-remove')).click()
    await waitFor(() => page.locator(tid('wedge')).count(), (n) => n === 1, 'the second wedge to go')
    await page.click(tid('error-dismiss'))
    await wedge.screenshot({ path: artifactPath('wedge-editor.png') })
  })

  it('bakes the three variants from the bake panel and shows a row per variant under the timeline', async () => {
    const { page } = app
    // Nothing is submitted to a farm yet, and the main cache is empty.
    expect(await page.locator(tid('farm-submission')).count()).toBe(0)
    // The farm section offers Submit only where a scheduler answers (here: a Slurm cluster up).
    const slurmUp = spawnSync('bash', [join(ROOT, 'scripts/slurm-cluster.sh'), 'status']).status === 0
    await waitFor(() => page.locator(tid('farm-open-submit')).count(), (n) => n === (slurmUp ? 1 : 0), 'the farm section to answer', 20_000)
    expect(await cacheRanges(page)).toEqual([])
    await waitFor(() => variantRows(page), (r) => r.map((x) => `${x.k} ${x.state}`).join() === '1 none,2 none,3 none', 'three unbaked variant rows')
    expect(await page.locator(tid('variant-row')).first().textContent()).toContain('wedge1_v1')
    expect(await page.locator(`${tid('variant-row')}[data-k="2"]`).textContent()).toContain('Rate 2')
    expect(await page.locator(`${tid('variant-row')}[data-k="2"] ${tid('variant-promote')}`).isDisabled()).toBe(true)

    await page.click(tid('wedge-bake-start'))
    const rows = await waitFor(() => variantRows(page), (r) => r.length === 3 && r.every((x) => x.state === 'done' || x.state === 'failed'), 'the three variants to finish', 150_000)
    expect(rows).toEqual([1, 2, 3].map((k) => ({ k: String(k), state: 'done', cached: String(FRAMES) })))
    // Variants are simulations of their own: the main cache is still empty.
    expect(await cacheRanges(page)).toEqual([])

    const timelineRows = page.locator(tid('variant-cache-row'))
    await waitFor(() => timelineRows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tag).join()), (t) => t === 'wedge1_v1,wedge1_v2,wedge1_v3', 'three variant rows on the timeline')
    const bars = await page.locator(`${tid('variant-cache-row')} .cache`).evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.state} ${(e as HTMLElement).dataset.from}-${(e as HTMLElement).dataset.to}`))
    expect(bars).toEqual(Array(3).fill(`cached 1-${FRAMES}`))
    // Each row is drawn: the whole range in the cache colour (a bar 4 px high across the lane).
    const counts = await cachedPixelsPerRow(page.locator(tid('variant-rows')), timelineRows, 'wedge-variant-rows.png')
    const laneWidth = ((await timelineRows.first().boundingBox())!.width - 24) * 0.9
    for (const n of counts) expect(n).toBeGreaterThan(laneWidth * 3)
    await page.locator(tid('timeline')).screenshot({ path: artifactPath('wedge-timeline.png') })
    await page.locator(tid('bake-panel')).screenshot({ path: artifactPath('wedge-bake-panel.png') })

    // A variant exports through the export panel, its files named with its tag.
    const row = page.locator(`${tid('variant-row')}[data-k="1"]`)
    await row.locator(tid('variant-export')).click()
    const panel = row.locator(tid('variant-export-panel'))
    const outDir = join(app.projectsDir, 'variant-export')
    await panel.locator(tid('export-folder')).fill(outDir)
    await panel.locator(tid('export-start')).click()
    const phase = await waitFor(() => panel.locator(tid('export-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the export to finish', 60_000)
    expect(phase, (await panel.textContent()) ?? '').toBe('done')
    const files = readdirSync(outDir)
    expect(files.filter((f) => f.endsWith('.vdb')).length).toBe(FRAMES)
    expect(files.every((f) => f.includes('wedge1_v1')), files.join()).toBe(true)
    await row.locator(tid('variant-export')).click()
  })

  it('promotes variant 2: its frames become the main cache, its rate the emitter’s; undo restores the rate', async () => {
    const { page } = app
    await page.click(`${tid('variant-row')}[data-k="2"] ${tid('variant-promote')}`)
    await waitFor(() => cacheRanges(page), (r) => r.join() === `cached 1-${FRAMES}`, 'the promoted frames in the main cache')
    expect(await undoLabel(page)).toBe('Undo Promote wedge1_v2 (Rate 2)')
    // The wedge itself is unchanged, and so are its variants' caches.
    expect(await page.inputValue(tid('wedge-values'))).toBe('0.5, 2, 3')
    expect((await variantRows(page)).map((r) => r.state)).toEqual(['done', 'done', 'done'])

    await selectObject(page, emitter)
    expect(await page.inputValue(tid('param-rate'))).toBe('2')
    await undo(page)
    await waitFor(() => page.inputValue(tid('param-rate')), (v) => v === '1', 'undo to restore the rate')
    // The promoted frames were baked with rate 2: with rate 1 again they are stale.
    await waitFor(() => cacheRanges(page), (r) => r.join() === `stale 1-${FRAMES}`, 'the main cache to turn stale')
  })

  // Only where a Slurm cluster is up (scripts/slurm-cluster.sh start, as root): the e2e tests
  // start no daemons.
  it('shows the wedge submitted to the farm, its tasks and their logs, updated while they run', async (ctx) => {
    if (spawnSync('bash', [join(ROOT, 'scripts/slurm-cluster.sh'), 'status']).status !== 0) ctx.skip('no Slurm cluster is up (scripts/slurm-cluster.sh start)')
    const { page } = app
    const project = join(app.projectsDir, readdirSync(app.projectsDir).find((f) => f.endsWith('.eddy'))!)
    // Submitted from the bake panel: the wedge, on Slurm (the engine that answers here).
    await selectObject(page, 'Domain')
    await page.click(tid('farm-open-submit'))
    await page.selectOption(tid('farm-what'), { label: 'wedge wedge1' })
    await page.click(tid('farm-submit'))
    await waitFor(() => page.locator(tid('farm-submit-form')).count(), (n) => n === 0, 'the submission to be queued (after the probe task)', 90_000)
    const submission = page.locator(tid('farm-submission'))
    await waitFor(() => submission.count(), (n) => n === 1, 'the submission in the farm section', 20_000)
    expect(await submission.textContent()).toContain('Domain · wedge1 · slurm')
    const states = () => page.locator(tid('farm-task')).evaluateAll((els) => els.map((e) => `${e.textContent?.replace(/\s+/g, ' ').trim()}|${(e as HTMLElement).dataset.state}`))
    // Polled every 3 s while tasks are pending or running, until all three are done.
    const done = await waitFor(states, (s) => s.length === 3 && s.every((x) => /\|(done|failed|cancelled)$/.test(x)), 'the farm tasks to finish', 150_000)
    expect(done.map((x) => x.split('|')[1])).toEqual(['done', 'done', 'done'])
    expect(done[1]).toMatch(/^bake variant 2 done exit 0/)
    expect(await submission.locator(tid('farm-cancel')).isDisabled()).toBe(true)
    const log = submission.locator('details').nth(1)
    await log.locator('summary').click()
    expect(await log.locator('pre').textContent()).toMatch(/baked 8 frames/)
    await page.locator(tid('farm-panel')).screenshot({ path: artifactPath('wedge-farm.png') })

    // A long sweep: Cancel one variant, then the whole submission. A running task stays
    // 'running' until Slurm has stopped it (it may complete for up to its KillWait, 30 s).
    await commitField(page, 'param-resolution', '64')
    await commitField(page, 'frame-end', '250')
    await promisify(execFile)(process.execPath, [join(ROOT, 'out/main/cli.js'), 'farm', 'submit', project, '--sim', 'Domain', '--wedge', 'wedge1', '--engine', 'slurm'], { timeout: 120_000 })
    try {
      await selectObject(page, emitter)
      await selectObject(page, 'Domain')
      const long = page.locator(tid('farm-submission')).nth(1)
      await waitFor(() => long.locator(tid('farm-task')).count(), (n) => n === 3, 'the second submission', 20_000)
      const longStates = () => long.locator(tid('farm-task')).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.state ?? ''))
      await long.locator(tid('farm-cancel-variant')).first().click()
      await waitFor(longStates, (s) => s[0] === 'cancelled' && s.slice(1).every((x) => x === 'pending' || x === 'running'), 'variant 1 alone to be cancelled', 90_000)
      await long.locator(tid('farm-cancel')).click()
      await waitFor(longStates, (s) => s.every((x) => x === 'cancelled'), 'the whole submission to be cancelled', 90_000)
      expect(await long.locator(tid('farm-cancel')).isDisabled()).toBe(true)
      // Resume submits the three unfinished variants again, into the same submission.
      await long.locator(tid('farm-resume')).click()
      await waitFor(() => long.locator(tid('farm-task')).count(), (n) => n === 6, 'the resumed tasks', 90_000)
      expect((await longStates()).filter((x) => x === 'pending' || x === 'running')).toHaveLength(3)
    } finally {
      // Never leave a quarter-hour bake on a cluster other tests share.
      await promisify(execFile)(process.execPath, [join(ROOT, 'out/main/cli.js'), 'farm', 'cancel', project], { timeout: 60_000 }).catch(() => undefined)
    }
  }, 360_000)
})

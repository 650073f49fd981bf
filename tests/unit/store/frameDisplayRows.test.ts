// A smoke frame's rows for the viewport (frameCache.ts): the preview and the record without
// its volumes are written with the frame, so 'cache.display' reads neither the volumes nor
// their CRC; frames baked before the display row existed still get a stripped record; a frame
// rewritten without a preview keeps neither row.
import Database from 'better-sqlite3'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { encodePreview } from '../../../src-shared/formats/framePreview'
import { decodeFrame, encodeFrame, withoutVolumes } from '../../../src-shared/formats/frameRecord'
import { volumeDisplay } from '../../../src-shared/formats/volumePreview'
import { sampleFrame } from '../renderer/cache/sampleFrames'

const STATS = { ms: 0, substeps: 0, pressureIterations: 0, particleCount: 0, bytes: 0 }

function project(): { file: string; store: ProjectStore } {
  const file = join(mkdtempSync(join(tmpdir(), 'eddy-display-')), 'd.eddy')
  const store = ProjectStore.create(file, { name: 'Display', fps: 24, frameStart: 1, frameEnd: 4 })
  store.cache.setBake('dom', { frameStart: 1, frameEnd: 4, checkpointEvery: 10, precision: 'float32', solver: 'smoke' }, 'done')
  return { file, store }
}

describe('display rows of cached smoke frames', () => {
  it('are written with the frame: the preview and the record without volumes, not counted as frames', () => {
    const { store } = project()
    const frame = { ...sampleFrame(), frame: 2 }
    const record = encodeFrame(frame)
    const preview = encodePreview(volumeDisplay(frame.volumes[0], frame.volumes[1], 293.15)!)
    store.cache.writeFrame('dom', 2, record, 'sig2', STATS, preview)
    const shown = store.cache.readDisplay('dom', 2)!
    expect(Buffer.from(shown.preview).equals(Buffer.from(preview))).toBe(true)
    expect(Buffer.from(shown.record).equals(Buffer.from(withoutVolumes(record)))).toBe(true)
    expect(shown.record.length).toBeLessThan(record.length / 4)
    const decoded = decodeFrame(shown.record, { volumes: [] })
    expect(decoded.frame).toBe(2)
    expect(decoded.volumes).toEqual([])
    expect(decoded.particles.length).toBe(frame.particles.length)
    expect(store.cache.frames('dom').map((f) => f.frame)).toEqual([2])
    store.close()
  })

  it('a frame baked before the display row existed gets its record stripped on read', () => {
    const { file, store } = project()
    const frame = { ...sampleFrame(), frame: 3 }
    const record = encodeFrame(frame)
    store.cache.writeFrame('dom', 3, record, 'sig3', STATS, encodePreview(volumeDisplay(frame.volumes[0], frame.volumes[1], 293.15)!))
    store.close()
    const db = new Database(file)
    expect(db.prepare(`DELETE FROM frames WHERE kind = 'display'`).run().changes).toBe(1)
    db.close()
    const again = ProjectStore.open(file)
    expect(Buffer.from(again.cache.readDisplay('dom', 3)!.record).equals(Buffer.from(withoutVolumes(record)))).toBe(true)
    again.close()
  })

  it('a frame rewritten without a preview keeps neither row', () => {
    const { file, store } = project()
    const frame = { ...sampleFrame(), frame: 1 }
    store.cache.writeFrame('dom', 1, encodeFrame(frame), 's', STATS, encodePreview(volumeDisplay(frame.volumes[0], frame.volumes[1], 293.15)!))
    store.cache.writeFrame('dom', 1, encodeFrame(frame), 's', STATS, null)
    expect(store.cache.readDisplay('dom', 1)).toBeNull()
    store.close()
    const db = new Database(file, { readonly: true })
    expect(db.prepare(`SELECT count(*) FROM frames WHERE frame = 1`).pluck().get()).toBe(1)
    db.close()
  })
})

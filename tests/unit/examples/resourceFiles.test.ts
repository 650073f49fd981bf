// The example projects shipped in resources/examples/ are the example scenes as code
// (src-shared/scene/examples) written by `eddy example`: each file opens, passes the
// integrity check, and holds exactly the document its builder makes, so a change to a
// builder without regenerating the files (see resources/examples/README.md) fails here.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { EXAMPLES } from '../../../src-shared/scene/examples'

const DIR = path.resolve(import.meta.dirname, '../../../resources/examples')

describe('resources/examples', () => {
  it('holds one project per example', () => {
    expect(fs.readdirSync(DIR).filter((f) => f.endsWith('.eddy')).sort()).toEqual(EXAMPLES.map((e) => `${e.id}.eddy`).sort())
  })

  for (const example of EXAMPLES) {
    it(`${example.id}.eddy matches its builder`, () => {
      // Opened from a copy: opening migrates and switches to WAL, which must not touch the repository.
      const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-res-')), `${example.id}.eddy`)
      fs.copyFileSync(path.join(DIR, `${example.id}.eddy`), copy)
      const store = ProjectStore.open(copy)
      try {
        expect(store.integrityCheck()).toBe('ok')
        const { doc, meshes } = example.build()
        const saved = store.readDocument()
        expect(saved.meta).toEqual(doc.meta)
        expect(saved.objects).toEqual(doc.objects)
        expect(saved.tracks).toEqual(doc.tracks)
        for (const m of meshes) {
          const stored = store.readMesh(m.id)
          expect(stored.positions).toEqual(m.positions)
          expect(stored.indices).toEqual(m.indices)
        }
      } finally {
        store.close()
        fs.rmSync(path.dirname(copy), { recursive: true, force: true })
      }
    })
  }
})

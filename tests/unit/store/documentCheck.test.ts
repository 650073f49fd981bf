// The full check project.open runs (ProjectStore.openChecked) must accept every sound file:
// the shipped example projects and every example builder's document.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkDocument } from '../../../src-main/store/documentCheck'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { EXAMPLES } from '../../../src-shared/scene/examples'

const DIR = path.resolve(import.meta.dirname, '../../../resources/examples')

describe('checkDocument accepts sound projects', () => {
  for (const example of EXAMPLES) {
    it(`${example.id}: the builder's document and the shipped file`, () => {
      expect(() => checkDocument(example.build().doc, `${example.id}.eddy`)).not.toThrow()
      const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-check-')), `${example.id}.eddy`)
      fs.copyFileSync(path.join(DIR, `${example.id}.eddy`), copy)
      try {
        const { store, doc } = ProjectStore.openChecked(copy)
        expect(doc.objects.length).toBeGreaterThan(0)
        store.close()
      } finally {
        fs.rmSync(path.dirname(copy), { recursive: true, force: true })
      }
    })
  }
})

describe('checkDocument refuses a visibility that is not true or false', () => {
  it('names the object and the field', () => {
    const doc = structuredClone(EXAMPLES[0].build().doc)
    ;(doc.objects[0] as unknown as Record<string, unknown>).hidden = 'yes'
    expect(() => checkDocument(doc, 'x.eddy')).toThrow(new RegExp(`${doc.objects[0].name}.*visibility of "yes"`))
    doc.objects[0].hidden = true
    expect(() => checkDocument(doc, 'x.eddy')).not.toThrow()
  })
})

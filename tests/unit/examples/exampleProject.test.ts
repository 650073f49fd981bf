// createExampleProject: every example becomes a project file that opens with the same document
// and mesh triangles; an existing file is refused and left as it was; an unknown id creates
// nothing; no temporary file is left behind either way.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorOf } from '../../fixtures/errorOf'
import { EXAMPLES } from '../../../src-shared/scene/examples'
import { createExampleProject } from '../../../src-main/store/exampleProject'
import { ProjectStore } from '../../../src-main/store/projectStore'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-example-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const thrown = errorOf

describe('createExampleProject', () => {
  for (const e of EXAMPLES) {
    it(`${e.id}: writes a project that opens with the example's document and meshes`, () => {
      const file = path.join(dir, `${e.id}.eddy`)
      createExampleProject(e.id, file)
      expect(fs.readdirSync(dir)).toEqual([`${e.id}.eddy`])
      const { doc, meshes } = e.build()
      const store = ProjectStore.open(file)
      try {
        expect(store.integrityCheck()).toBe('ok')
        const read = store.readDocument()
        expect(read.meta).toEqual(doc.meta)
        expect(read.objects).toEqual(doc.objects)
        expect(read.tracks).toEqual(doc.tracks)
        expect(read.meshes.map((m) => m.id)).toEqual(doc.meshes.map((m) => m.id))
        for (const m of meshes) {
          const stored = store.readMesh(m.id)
          expect(stored.positions).toEqual(m.positions)
          expect(stored.indices).toEqual(m.indices)
        }
      } finally {
        store.close()
      }
    })
  }

  it('refuses an existing file and leaves it untouched', () => {
    const file = path.join(dir, 'taken.eddy')
    fs.writeFileSync(file, 'not mine')
    const err = thrown(() => createExampleProject('dam-break', file))
    expect(err.code).toBe('IO_ERROR')
    expect(err.message).toMatch(/already exists/)
    expect(fs.readFileSync(file, 'utf8')).toBe('not mine')
    expect(fs.readdirSync(dir)).toEqual(['taken.eddy'])
  })

  it('names the known examples for an unknown id and writes nothing', () => {
    const err = thrown(() => createExampleProject('lava-lamp', path.join(dir, 'x.eddy')))
    expect(err.code).toBe('NOT_FOUND')
    for (const e of EXAMPLES) expect(err.message).toContain(e.id)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('refuses a folder that does not exist', () => {
    const err = thrown(() => createExampleProject('toothpaste', path.join(dir, 'missing', 'x.eddy')))
    expect(err.code).toBe('IO_ERROR')
  })
})

// A new project file from one of the shipped example scenes (src-shared/scene/examples): the
// CLI's `eddy example` and the app's "new from example" request both call this. The file is
// built complete under a temporary name and only then linked into place, so `path` never
// holds half an example, and an existing file is never overwritten.
import fs from 'node:fs'
import nodePath from 'node:path'
import { randomBytes } from 'node:crypto'
import { EddyError } from '../../src-shared/api/errors'
import { EXAMPLES, findExample } from '../../src-shared/scene/examples'
import { ProjectStore } from './projectStore'

export function unknownExampleError(id: string): EddyError {
  return new EddyError('NOT_FOUND', `No example named "${id}" (examples: ${EXAMPLES.map((e) => e.id).join(', ')})`, {
    id,
    examples: EXAMPLES.map((e) => e.id),
  })
}

export function createExampleProject(id: string, path: string): void {
  const example = findExample(id)
  if (!example) throw unknownExampleError(id)
  const target = nodePath.resolve(path)
  const dir = nodePath.dirname(target)
  if (!fs.existsSync(dir)) throw new EddyError('IO_ERROR', `Folder ${dir} does not exist`, { path: dir })
  if (fs.existsSync(target)) throw new EddyError('IO_ERROR', `${target} already exists`, { path: target })
  const { doc, meshes } = example.build()
  const tmp = nodePath.join(dir, `.${nodePath.basename(target)}.example-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
  try {
    const store = ProjectStore.create(tmp, doc.meta)
    try {
      for (const m of meshes) {
        const info = doc.meshes.find((i) => i.id === m.id)
        if (!info) throw new EddyError('INTERNAL', `Example "${id}" carries mesh ${m.id} that its document does not list`, { id, meshId: m.id })
        store.insertMesh(info, m.positions, m.indices)
      }
      store.apply({
        objects: doc.objects.map((o, ord) => ({ id: o.id, after: o, ord })),
        tracks: doc.tracks.map((t) => ({ objectId: t.objectId, path: t.path, after: t })),
      })
    } finally {
      store.close()
    }
    // link() refuses an existing target (rename would replace it), so a file that appeared
    // meanwhile is still never overwritten.
    fs.linkSync(tmp, target)
  } catch (e) {
    if (isExistsError(e)) throw new EddyError('IO_ERROR', `${target} already exists`, { path: target })
    throw e
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true })
  }
}

function isExistsError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'EEXIST'
}

// A small smoke project on disk for bake tests: the Blender peer scene at a low resolution,
// with vortex particles from the emitter so particle sets are cached too.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { ProjectStore } from '../../../src-main/store/projectStore'

export function makeSmokeProject(dir: string, opts: { res?: number; frames?: number; name?: string; domainParams?: Record<string, unknown> } = {}): string {
  const doc = blenderSmokeScene(opts.res ?? 12)
  const domain = doc.objects.find((o) => o.kind === 'domain')!
  Object.assign(domain.params, opts.domainParams ?? {})
  const file = path.join(dir, `${opts.name ?? 'smoke'}.eddy`)
  const store = ProjectStore.create(file, { ...doc.meta, frameEnd: opts.frames ?? 6 })
  const source = doc.objects.find((o) => o.id === 'source')!
  source.params.vortexRate = 48
  store.apply({ objects: doc.objects.map((o) => ({ id: o.id, after: o })) })
  store.close()
  return file
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

// The benchmark and example scenes bake to the same numbers as the day their hashes were
// stored (tests/fixtures/bakeGolden.json): a refactor of the bake path (the solver registry,
// the kernel table, the frame record) must not change a single bit of what a solver computes.
// Each frame is baked through runBake (what the Bake button runs) at float32 precision, read
// back with decodeFrame, and hashed over its volumes, particle sets and meshes; the record's
// own bytes are not hashed, so a new record version that stores the same data still passes.
// A physics fix that changes results on purpose rewrites the file with EDDY_WRITE_GOLDEN=1
// and says so in its commit.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { EXAMPLES } from '../../../src-shared/scene/examples'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { runBake } from '../../../src-main/bake/runner'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { frameHash } from '../../fixtures/frameHash'
import { tempDir } from './bakeFixtures'

const GOLDEN = path.resolve(import.meta.dirname, '../../fixtures/bakeGolden.json')
const dir = tempDir('eddy-golden-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

interface Case {
  name: string
  frames: number
  kernels: 'wasm' | 'ts'
  threads: number
  build(): { doc: SceneDocument; meshes: { id: string; positions: Float32Array; indices: Uint32Array }[] }
}

function example(id: string, resolution: number) {
  return () => EXAMPLES.find((e) => e.id === id)!.build({ resolution })
}

const CASES: Case[] = [
  {
    name: 'smoke: Mantaflow peer scene 16^3 with emitter vortex particles',
    frames: 8,
    kernels: 'wasm',
    threads: 2,
    build: () => {
      const doc = blenderSmokeScene(16)
      doc.objects.find((o) => o.id === 'source')!.params.vortexRate = 48
      return { doc, meshes: [] }
    },
  },
  { name: 'liquid: dam break 16', frames: 8, kernels: 'ts', threads: 1, build: example('dam-break', 16) },
  { name: 'liquid: melting bunny 16', frames: 4, kernels: 'ts', threads: 1, build: example('melting-bunny', 16) },
  { name: 'liquid: toothpaste 20 (full stress)', frames: 4, kernels: 'ts', threads: 1, build: example('toothpaste', 20) },
]

function writeProject(file: string, c: Case, frames: number): string[] {
  const { doc, meshes } = c.build()
  const store = ProjectStore.create(file, { ...doc.meta, frameStart: 1, frameEnd: frames })
  try {
    for (const m of meshes) store.insertMesh(doc.meshes.find((i) => i.id === m.id)!, m.positions, m.indices)
    store.apply({
      objects: doc.objects.map((o, ord) => ({ id: o.id, after: o, ord })),
      tracks: doc.tracks.map((t) => ({ objectId: t.objectId, path: t.path, after: t })),
    })
  } finally {
    store.close()
  }
  return doc.objects.filter((o) => o.kind === 'domain').map((o) => o.id)
}

async function bakeHashes(c: Case, index: number): Promise<Record<string, string[]>> {
  const file = path.join(dir, `golden-${index}.eddy`)
  const domains = writeProject(file, c, c.frames)
  const out: Record<string, string[]> = {}
  for (const domainId of domains) {
    await runBake({ projectPath: file, domainId, mode: 'bake', precision: 'float32', kernels: c.kernels, threads: c.threads, checkpointEvery: 1000 })
    const store = ProjectStore.open(file)
    try {
      out[domainId] = store.cache.frames(domainId).map((r) => frameHash(decodeFrame(store.cache.readFrame(domainId, r.frame))))
    } finally {
      store.close()
    }
  }
  return out
}

describe('bakes are bit-identical to the stored hashes', () => {
  const write = process.env.EDDY_WRITE_GOLDEN === '1'
  const stored: Record<string, Record<string, string[]>> = fs.existsSync(GOLDEN) ? JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) : {}
  const fresh: Record<string, Record<string, string[]>> = {}
  CASES.forEach((c, i) => {
    it(c.name, async () => {
      const got = await bakeHashes(c, i)
      expect(Object.values(got).every((frames) => frames.length === c.frames)).toBe(true)
      if (write) fresh[c.name] = got
      else expect(got, `${c.name}: frames differ from tests/fixtures/bakeGolden.json`).toEqual(stored[c.name])
    }, 180_000)
  })
  afterAll(() => {
    if (write) fs.writeFileSync(GOLDEN, `${JSON.stringify(fresh, null, 1)}\n`)
  })
})

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import type { MeshInfo, ProjectMeta, SceneObject, Track } from '../../../src-shared/scene/types'
import { openDatabase } from '../../../src-main/store/database'
import { ProjectStore } from '../../../src-main/store/projectStore'

const META: ProjectMeta = { name: 'Smoke test', fps: 24, frameStart: 1, frameEnd: 250 }

const OBJECTS: SceneObject[] = [
  {
    id: 'dom',
    kind: 'domain',
    name: 'Domain',
    params: { position: [0, 1, 0], rotation: [0, 0, 0], scale: [4, 2, 4], resolution: 128, boundary: 'open', viscosity: 1e-6 },
  },
  {
    id: 'obs',
    kind: 'obstacle',
    name: 'Teapot',
    params: { position: [0.25, 0, -0.5], rotation: [0, 45, 0], scale: [1, 1, 1], shape: 'mesh' },
    meshId: 'mesh-tri',
  },
  {
    id: 'emi',
    kind: 'emitter',
    name: 'Nozzle',
    params: { position: [0, 0.1, 0], velocity: [0, 2.5, 0], rate: 0.75, temperature: 300, enabled: true },
  },
  { id: 'vor', kind: 'vortexSeed', name: 'Swirl', params: { position: [1, 1, 1], axis: [0, 1, 0], strength: -3.125, radius: 0.2 } },
  {
    id: 'cage',
    kind: 'ccCage',
    name: 'Blob',
    params: { position: [0, 0, 0], subdivisions: 3, solid: false },
    cage: {
      positions: [-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1],
      faces: [
        [0, 3, 2, 1],
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [2, 3, 7, 6],
        [1, 2, 6, 5],
        [0, 4, 7, 3],
      ],
    },
  },
  { id: 'heat', kind: 'heatSource', name: 'Burner', params: { position: [0, -0.9, 0], power: 1500, falloff: 'quadratic' } },
]

const TRACKS: Track[] = [
  {
    objectId: 'emi',
    path: 'position.1',
    keys: [
      { frame: 1, value: 0, interp: 'bezier', handleRight: [10, 0] },
      { frame: 48, value: 2.5, interp: 'bezier', handleLeft: [40, 2.5], handleRight: [56, 2.5] },
      { frame: 96, value: 0.1, interp: 'linear' },
    ],
  },
  {
    objectId: 'emi',
    path: 'rate',
    keys: [
      { frame: 1, value: 0, interp: 'constant' },
      { frame: 12, value: 0.75, interp: 'bezier' },
    ],
  },
  { objectId: 'vor', path: 'strength', keys: [{ frame: 5, value: -3.125, interp: 'linear' }] },
]

// Bit patterns chosen to catch any float conversion: -0, a subnormal, max float,
// a NaN with a payload, 0.1 (inexact), pi.
const POSITION_BITS = new Uint32Array([
  0x00000000, 0x80000000, 0x00000001, 0x7f7fffff, 0x7fc00001, 0x3dcccccd, 0x40490fdb, 0xbf800000, 0x3f800000,
  0x41200000, 0xc1200000, 0x3eaaaaab, 0x00800000, 0x3f000000, 0x3f000001,
])
const INDICES = new Uint32Array([0, 1, 2, 2, 3, 4, 4, 0, 1])
const MESH: MeshInfo = {
  id: 'mesh-tri',
  name: 'three triangles',
  format: 'obj',
  vertexCount: 5,
  triangleCount: 3,
  bounds: { min: [-1, -10, 0], max: [10, 1, 0.5] },
}

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-store-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function expectEddyError(fn: () => unknown, code: string, messagePart?: string): EddyError {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(EddyError)
    expect((e as EddyError).code).toBe(code)
    if (messagePart) expect((e as EddyError).message).toContain(messagePart)
    return e as EddyError
  }
  throw new Error(`expected EddyError ${code}`)
}

/** A store holding the full fixture document. Positions start at byte 4 of a bigger buffer. */
function fullStore(file = path.join(dir, 'full.eddy')): ProjectStore {
  const store = ProjectStore.create(file, META)
  const backing = new ArrayBuffer(POSITION_BITS.byteLength + 8)
  new Uint32Array(backing, 4, POSITION_BITS.length).set(POSITION_BITS)
  store.insertMesh(MESH, new Float32Array(backing, 4, POSITION_BITS.length), INDICES)
  store.apply({
    objects: OBJECTS.map((o) => ({ id: o.id, after: o })),
    tracks: TRACKS.map((t) => ({ objectId: t.objectId, path: t.path, after: t })),
  })
  return store
}

function bits(a: Float32Array): number[] {
  return Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))
}

describe('ProjectStore', () => {
  it('round-trips a full document and a mesh bit-exactly, also after reopening', () => {
    const file = path.join(dir, 'full.eddy')
    const store = fullStore(file)
    const expected = { meta: META, objects: OBJECTS, tracks: TRACKS, meshes: [MESH] }
    expect(store.readDocument()).toEqual(expected)
    store.close()

    const reopened = ProjectStore.open(file)
    expect(reopened.path).toBe(file)
    expect(reopened.readDocument()).toEqual(expected)
    const mesh = reopened.readMesh('mesh-tri')
    expect(mesh.info).toEqual(MESH)
    expect(mesh.positions).toBeInstanceOf(Float32Array)
    expect(mesh.positions.byteOffset).toBe(0)
    expect(bits(mesh.positions)).toEqual(Array.from(POSITION_BITS))
    expect(Object.is(mesh.positions[1], -0)).toBe(true)
    expect(Array.from(mesh.indices)).toEqual(Array.from(INDICES))
    reopened.close()
  })

  it('refuses to create over an existing file or in a missing folder', () => {
    const file = path.join(dir, 'a.eddy')
    ProjectStore.create(file, META).close()
    expectEddyError(() => ProjectStore.create(file, META), 'IO_ERROR', 'already exists')
    const missing = path.join(dir, 'no-such-folder')
    expectEddyError(() => ProjectStore.create(path.join(missing, 'b.eddy'), META), 'IO_ERROR', missing)
    expect(fs.existsSync(missing)).toBe(false)
    // Creation leaves only the project behind (no temporary siblings).
    expect(fs.readdirSync(dir).sort()).toEqual(['a.eddy'])
  })

  it('updates meta and keeps existing order on plain updates', () => {
    const store = fullStore()
    store.apply({ meta: { ...META, name: 'Renamed', frameEnd: 96 } })
    expect(store.readDocument().meta).toEqual({ ...META, name: 'Renamed', frameEnd: 96 })
    const before = store.objectOrders()
    const renamed = { ...OBJECTS[0], name: 'Big domain' }
    store.apply({ objects: [{ id: 'dom', after: renamed }] })
    expect(store.objectOrders()).toEqual(before)
    expect(store.readDocument().objects[0]).toEqual(renamed)
    // An update replaces the object but keeps its tracks (upsert, not delete + insert).
    expect(store.readDocument().tracks).toEqual(TRACKS)
    store.close()
  })

  it('restores the order of a deleted object re-inserted with its old ord', () => {
    const store = fullStore()
    const orders = store.objectOrders()
    expect([...orders.entries()]).toEqual(OBJECTS.map((o, i) => [o.id, i]))
    const vor = OBJECTS[3]
    store.apply({ objects: [{ id: 'vor', after: null }] })
    expect(store.objectOrders().has('vor')).toBe(false)

    // A new object without ord goes last.
    const extra: SceneObject = { id: 'extra', kind: 'emitter', name: 'Second nozzle', params: { rate: 1 } }
    store.apply({ objects: [{ id: 'extra', after: extra }] })
    expect(store.objectOrders().get('extra')).toBe(OBJECTS.length)

    // Undo of the delete: same ord, same place.
    store.apply({ objects: [{ id: 'vor', after: vor, ord: orders.get('vor') }] })
    expect(store.readDocument().objects.map((o) => o.id)).toEqual([...OBJECTS.map((o) => o.id), 'extra'])
    store.close()
  })

  it('cascades an object delete to its tracks', () => {
    const store = fullStore()
    store.apply({ objects: [{ id: 'emi', after: null }] })
    const doc = store.readDocument()
    expect(doc.objects.map((o) => o.id)).not.toContain('emi')
    expect(doc.tracks).toEqual([TRACKS[2]])
    store.close()
    const db = new Database(path.join(dir, 'full.eddy'), { readonly: true })
    expect(db.prepare("SELECT count(*) FROM tracks WHERE object_id = 'emi'").pluck().get()).toBe(0)
    db.close()
  })

  it('deletes single tracks and applies object+track creation in one change set', () => {
    const store = fullStore()
    const obj: SceneObject = { id: 'new', kind: 'heatSource', name: 'Lamp', params: { power: 10 } }
    const track: Track = { objectId: 'new', path: 'power', keys: [{ frame: 1, value: 10, interp: 'linear' }] }
    store.apply({
      objects: [{ id: 'new', after: obj }],
      tracks: [
        { objectId: 'new', path: 'power', after: track },
        { objectId: 'emi', path: 'rate', after: null },
      ],
    })
    const doc = store.readDocument()
    expect(doc.objects.at(-1)).toEqual(obj)
    expect(doc.tracks).toEqual([TRACKS[0], TRACKS[2], track])
    store.close()
  })

  it('leaves the document untouched when a change set fails midway', () => {
    const store = fullStore()
    const before = store.readDocument()
    const ordersBefore = store.objectOrders()
    const bigChange = {
      meta: { ...META, name: 'should not stick' },
      objects: [
        { id: 'dom', after: { ...OBJECTS[0], name: 'should not stick' } },
        { id: 'fresh', after: { id: 'fresh', kind: 'emitter' as const, name: 'Fresh', params: {} } },
        { id: 'heat', after: null },
      ],
      tracks: [
        { objectId: 'emi', path: 'rate', after: null },
        { objectId: 'fresh', path: 'rate', after: { objectId: 'fresh', path: 'rate', keys: [{ frame: 1, value: 1, interp: 'linear' as const }] } },
        // Fails after meta, object upserts and two track changes were already written.
        { objectId: 'ghost', path: 'rate', after: { objectId: 'ghost', path: 'rate', keys: [] } },
      ],
    }
    expectEddyError(() => store.apply(bigChange), 'NOT_FOUND', 'ghost')
    expect(store.readDocument()).toEqual(before)
    expect(store.objectOrders()).toEqual(ordersBefore)

    // A failure SQLite never sees (JSON.stringify of a BigInt throws) rolls back just the same.
    const poisoned = { id: 'poison', kind: 'emitter', name: 'Poison', params: { rate: 1n } } as unknown as SceneObject
    expect(() =>
      store.apply({ meta: { ...META, name: 'nope' }, objects: [{ id: 'dom', after: null }, { id: 'emi', after: { ...OBJECTS[2], name: 'x' } }, { id: 'poison', after: poisoned }] }),
    ).toThrow(TypeError)
    expect(store.readDocument()).toEqual(before)

    // And the store keeps working afterwards.
    store.apply({ meta: { ...META, name: 'after failures' } })
    expect(store.readDocument().meta.name).toBe('after failures')
    expect(store.integrityCheck()).toBe('ok')
    store.close()
  })

  it('rejects inconsistent changes', () => {
    const store = fullStore()
    expectEddyError(() => store.apply({ objects: [{ id: 'dom', after: OBJECTS[1] }] }), 'INVALID_PARAM')
    expectEddyError(() => store.apply({ tracks: [{ objectId: 'emi', path: 'rate', after: TRACKS[0] }] }), 'INVALID_PARAM')
    expectEddyError(() => store.apply({ objects: [{ id: 'dom', after: OBJECTS[0], ord: 1.5 }] }), 'INVALID_PARAM')
    expect(store.readDocument().objects).toEqual(OBJECTS)
    store.close()
  })

  it('validates meshes, reports missing ones and deletes unused ones', () => {
    const store = fullStore()
    expectEddyError(() => store.readMesh('nope'), 'NOT_FOUND', 'nope')
    expectEddyError(() => store.insertMesh(MESH, new Float32Array(15), INDICES), 'INVALID_PARAM', 'already exists')
    expectEddyError(() => store.insertMesh({ ...MESH, id: 'short' }, new Float32Array(14), INDICES), 'INVALID_PARAM')
    const spare: MeshInfo = { ...MESH, id: 'spare', name: 'spare', vertexCount: 3, triangleCount: 1, format: 'stl' }
    store.insertMesh(spare, new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2]))
    expect(store.readDocument().meshes.map((m) => m.id)).toEqual(['spare', 'mesh-tri'])
    expect(store.deleteUnusedMeshes()).toBe(1)
    expect(store.readDocument().meshes).toEqual([MESH])
    expect(store.deleteUnusedMeshes()).toBe(0)
    // Once the obstacle is gone its mesh is unused too.
    store.apply({ objects: [{ id: 'obs', after: null }] })
    expect(store.deleteUnusedMeshes()).toBe(1)
    expect(store.readDocument().meshes).toEqual([])
    store.close()
  })

  it('saveAs writes an identical, independent copy and refuses existing files', () => {
    const store = fullStore()
    const before = store.readDocument()
    const copyPath = path.join(dir, 'copy.eddy')
    const copy = store.saveAs(copyPath)
    expect(copy.path).toBe(copyPath)
    expect(copy.readDocument()).toEqual(before)
    expect(bits(copy.readMesh('mesh-tri').positions)).toEqual(Array.from(POSITION_BITS))
    expect(copy.integrityCheck()).toBe('ok')

    // Both stay usable and independent.
    store.apply({ objects: [{ id: 'dom', after: null }] })
    expect(store.readDocument().objects).toHaveLength(OBJECTS.length - 1)
    expect(copy.readDocument()).toEqual(before)
    copy.apply({ meta: { ...META, name: 'Copy' } })
    expect(store.readDocument().meta.name).toBe(META.name)

    expectEddyError(() => store.saveAs(copyPath), 'IO_ERROR', 'already exists')
    expectEddyError(() => store.saveAs(path.join(dir, 'missing', 'x.eddy')), 'IO_ERROR', 'missing')
    copy.close()
    store.close()

    // The copy is a proper Eddy file in WAL mode, and no temporary files were left behind.
    const db = new Database(copyPath, { readonly: true })
    expect(db.pragma('application_id', { simple: true })).toBe(0x45444459)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('passes the integrity check and runs with WAL, foreign keys and synchronous=FULL', () => {
    const file = path.join(dir, 'full.eddy')
    const store = fullStore(file)
    expect(store.integrityCheck()).toBe('ok')
    store.close()
    const db = openDatabase(file, { create: false })
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('synchronous', { simple: true })).toBe(2)
    db.close()
  })

  it('integrityCheck reports dangling references', () => {
    const file = path.join(dir, 'full.eddy')
    fullStore(file).close()
    const raw = new Database(file)
    raw.pragma('foreign_keys = OFF') // better-sqlite3 turns it on by default
    raw.prepare("INSERT INTO tracks (object_id, path, keys) VALUES ('ghost', 'rate', '[]')").run()
    raw.close()
    const store = ProjectStore.open(file)
    expect(store.integrityCheck()).toMatch(/tracks row \d+ refers to a missing objects row/)
    store.close()
  })
})

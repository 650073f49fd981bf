import { describe, expect, it } from 'vitest'
import { findFfmpeg } from '../../../src-main/app/flipbookHandlers'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { call, callError, makeService } from './serviceHelpers'

const b64 = (s: string): string => Buffer.from(s).toString('base64')
const TRIANGLE_OBJ = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 3 4\nf 1 4 2\nf 2 4 3\n'

describe('EddyService: projects', () => {
  it('creates a project in the projects folder, lists it, and records it as recent', async () => {
    const { service, projectsDir } = makeService()
    const s = await call(service, 'project.create', { name: 'Plume study' })
    expect(s.path).toBe(join(projectsDir, 'Plume study.eddy'))
    expect(s.document.meta).toEqual({ name: 'Plume study', fps: 24, frameStart: 1, frameEnd: 120 })
    expect((await call(service, 'project.list', {})).files.map((f) => f.name)).toEqual(['Plume study'])
    expect((await call(service, 'project.recent', {}))[0].path).toBe(s.path)
    const again = await callError(service, 'project.create', { name: 'Plume study' })
    expect(again.code).toBe('IO_ERROR')
    service.close()
  })

  it('keeps the current project when opening a file that is not a project', async () => {
    const { service, projectsDir } = makeService()
    const s = await call(service, 'project.create', { name: 'Keep' })
    const bogus = join(projectsDir, 'bogus.eddy')
    writeFileSync(bogus, 'this is not sqlite at all, just text that is long enough to look like a header')
    const err = await callError(service, 'project.open', { path: bogus })
    expect(err.code).toBe('PROJECT_FORMAT')
    expect((await call(service, 'project.get', {}))?.path).toBe(s.path)
    service.close()
  })

  it('answers project requests without a project with NO_PROJECT', async () => {
    const { service } = makeService()
    expect((await callError(service, 'object.add', { kind: 'domain' })).code).toBe('NO_PROJECT')
  })
})

describe('EddyService: edits, validation, undo', () => {
  it('adds every kind with defaults and unique Blender-style names', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Kinds' })
    for (const kind of ['domain', 'obstacle', 'emitter', 'vortexSeed', 'ccCage', 'heatSource', 'emitter'] as const) {
      await call(service, 'object.add', { kind })
    }
    const s = await call(service, 'project.get', {})
    expect(s?.document.objects.map((o) => o.name)).toEqual(['Domain', 'Obstacle', 'Emitter', 'Vortex seed', 'Catmull-Clark cage', 'Heat source', 'Emitter.001'])
    expect(s?.document.objects.find((o) => o.kind === 'ccCage')?.cage?.faces.length).toBe(6)
    service.close()
  })

  it('rejects out-of-range values with a message naming the parameter, leaving the object unchanged', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Ranges' })
    const { id, state } = await call(service, 'object.add', { kind: 'domain' })
    const before = state.document.objects[0]
    const err = await callError(service, 'object.update', { id, patch: { params: { resolution: 5000 } } })
    expect(err.code).toBe('INVALID_PARAM')
    expect(err.message).toMatch(/Resolution/)
    expect(err.details?.path).toBe('resolution')
    const nan = await callError(service, 'object.update', { id, patch: { params: { cfl: Number.NaN } } })
    expect(nan.code).toBe('INVALID_MESSAGE') // NaN cannot even be expressed in the JSON message
    const cross = await callError(service, 'object.update', { id, patch: { params: { minSubsteps: 8, maxSubsteps: 2 } } })
    expect(cross.code).toBe('INVALID_PARAM')
    expect((await call(service, 'project.get', {}))?.document.objects[0]).toEqual(before)
    service.close()
  })

  it('undoes and redoes add, update, delete (with its keyframes) and key edits in order', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Undo' })
    const { id } = await call(service, 'object.add', { kind: 'emitter' })
    await call(service, 'object.add', { kind: 'domain' })
    await call(service, 'object.update', { id, patch: { params: { rate: 5 } } })
    await call(service, 'key.set', { objectId: id, path: 'rate', frame: 1, value: 2 })
    await call(service, 'key.set', { objectId: id, path: 'rate', frame: 50, value: 40 })
    const full = (await call(service, 'project.get', {}))!.document
    const deleted = await call(service, 'object.delete', { ids: [id] })
    expect(deleted.document.objects.map((o) => o.kind)).toEqual(['domain'])
    expect(deleted.document.tracks).toEqual([])
    const restored = await call(service, 'edit.undo', {})
    // Same objects in the same order, and the keyframes come back with the object.
    expect(restored.document).toEqual(full)
    expect(restored.canRedo).toBe(true)
    const redone = await call(service, 'edit.redo', {})
    expect(redone.document.objects.length).toBe(1)
    await call(service, 'edit.undo', {})
    await call(service, 'edit.undo', {}) // key at 50
    await call(service, 'edit.undo', {}) // key at 1
    await call(service, 'edit.undo', {}) // rate 5
    const s = await call(service, 'project.get', {})
    expect(s?.document.tracks).toEqual([])
    expect(s?.document.objects.find((o) => o.id === id)?.params.rate).toBe(1)
    expect((await callError(service, 'edit.redo', { extra: 1 })).code).toBe('INVALID_MESSAGE')
    service.close()
  })

  it('sets, re-times and deletes keys; refuses keys on non-animatable parameters', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Keys' })
    const { id } = await call(service, 'object.add', { kind: 'emitter' })
    await call(service, 'key.set', { objectId: id, path: 'rate', frame: 1, value: 0 })
    let s = await call(service, 'key.set', { objectId: id, path: 'rate', frame: 50, value: 10, interp: 'linear' })
    expect(s.document.tracks[0].keys.map((k) => [k.frame, k.value])).toEqual([
      [1, 0],
      [50, 10],
    ])
    s = await call(service, 'key.setInterp', { objectId: id, path: 'rate', frame: 1, interp: 'constant' })
    expect(s.document.tracks[0].keys[0].interp).toBe('constant')
    expect((await callError(service, 'key.set', { objectId: id, path: 'shape', frame: 3, value: 1 })).code).toBe('INVALID_PARAM')
    expect((await callError(service, 'key.set', { objectId: id, path: 'rate', frame: 3, value: -5 })).code).toBe('INVALID_PARAM')
    expect((await callError(service, 'key.delete', { objectId: id, path: 'rate', frame: 7 })).code).toBe('NOT_FOUND')
    await call(service, 'key.delete', { objectId: id, path: 'rate', frame: 1 })
    s = await call(service, 'key.delete', { objectId: id, path: 'rate', frame: 50 })
    expect(s.document.tracks).toEqual([])
    service.close()
  })

  it('keys animated channels at the given frame when an update carries one (gizmo on a keyframed object)', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'AutoKey' })
    const { id } = await call(service, 'object.add', { kind: 'obstacle' })
    await call(service, 'key.set', { objectId: id, path: 'position.1', frame: 1, value: 0 })
    const s = await call(service, 'object.update', { id, patch: { params: { position: [2, 3, 4], scale: [2, 2, 2] } }, frame: 10 })
    const obj = s.document.objects[0]
    // x and z are not animated: they change statically; y is animated: it gets a key at 10.
    expect(obj.params.position).toEqual([2, 0, 4])
    expect(obj.params.scale).toEqual([2, 2, 2])
    expect(s.document.tracks[0].keys.map((k) => [k.frame, k.value])).toEqual([
      [1, 0],
      [10, 3],
    ])
    const undone = await call(service, 'edit.undo', {})
    expect(undone.document.tracks[0].keys.length).toBe(1)
    expect(undone.document.objects[0].params.position).toEqual([0, 0, 0])
    service.close()
  })

  it('imports an OBJ as a mesh obstacle and serves its triangles', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Mesh' })
    const { id, state } = await call(service, 'mesh.import', { fileName: 'tet.obj', data: b64(TRIANGLE_OBJ) })
    const obj = state.document.objects.find((o) => o.id === id)!
    expect(obj.params.shape).toBe('mesh')
    expect(obj.name).toBe('tet')
    const info = state.document.meshes[0]
    expect([info.vertexCount, info.triangleCount]).toEqual([4, 4])
    const data = await call(service, 'mesh.data', { meshId: obj.meshId! })
    const pos = new Float32Array(new Uint8Array(Buffer.from(data.positions, 'base64')).buffer)
    expect(Array.from(pos.slice(3, 6))).toEqual([1, 0, 0])
    service.close()
  })

  it('hides and shows an object in the viewport as one undo step each, stored only while hidden', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Eye' })
    const { id } = await call(service, 'object.add', { kind: 'emitter' })
    const hidden = await call(service, 'object.update', { id, patch: { hidden: true } })
    expect(hidden.document.objects[0].hidden).toBe(true)
    expect(hidden.undoLabel).toBe('Hide Emitter')
    const shown = await call(service, 'object.update', { id, patch: { hidden: false } })
    expect('hidden' in shown.document.objects[0]).toBe(false)
    expect(shown.undoLabel).toBe('Show Emitter')
    const undone = await call(service, 'edit.undo', {})
    expect(undone.document.objects[0].hidden).toBe(true)
    const err = await callError(service, 'object.update', { id, patch: { hidden: 'no' as unknown as boolean } })
    expect(err.code).toBe('INVALID_MESSAGE')
    service.close()
  })

  it('lists the copies made of each example, newest first, so the UI can offer to reopen one', async () => {
    const { service, projectsDir } = makeService()
    const first = (await call(service, 'project.examples', {})).find((e) => e.id === 'melting-bunny')!
    expect(first.copies).toEqual([])
    const a = await call(service, 'project.createExample', { id: 'melting-bunny' })
    await new Promise((r) => setTimeout(r, 20))
    const b = await call(service, 'project.createExample', { id: 'melting-bunny' })
    expect(b.path).toBe(join(projectsDir, 'Melting bunny 2.eddy'))
    // A project merely named like it is not a copy.
    await call(service, 'project.create', { name: 'Melting bunny notes' })
    const list = await call(service, 'project.examples', {})
    const bunny = list.find((e) => e.id === 'melting-bunny')!
    expect(bunny.copies.map((c) => c.path)).toEqual([b.path, a.path])
    expect(bunny.copies.map((c) => c.name)).toEqual(['Melting bunny 2', 'Melting bunny'])
    expect(list.filter((e) => e.id !== 'melting-bunny').every((e) => e.copies.length === 0)).toBe(true)
    service.close()
  })

  it('shapes a key with explicit Bezier handles, keeps them when its value changes, and puts them back to automatic', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Curves' })
    const { id } = await call(service, 'object.add', { kind: 'emitter' })
    await call(service, 'key.set', { objectId: id, path: 'rate', frame: 1, value: 2 })
    await call(service, 'key.set', { objectId: id, path: 'rate', frame: 49, value: 8 })
    const keyAt = (st: { document: { tracks: { keys: { frame: number }[] }[] } }, f: number) => st.document.tracks[0].keys.find((k) => k.frame === f) as Record<string, unknown>
    const shaped = await call(service, 'key.setHandles', { objectId: id, path: 'rate', frame: 1, handleLeft: null, handleRight: [17, 6] })
    expect(keyAt(shaped, 1)).toEqual({ frame: 1, value: 2, interp: 'bezier', handleRight: [17, 6] })
    expect(shaped.undoLabel).toBe('Shape Emitter rate key at frame 1')
    // A new value for the key moves its handle with it.
    const moved = await call(service, 'key.set', { objectId: id, path: 'rate', frame: 1, value: 3 })
    expect(keyAt(moved, 1)).toEqual({ frame: 1, value: 3, interp: 'bezier', handleRight: [17, 7] })
    const back = await call(service, 'key.setHandles', { objectId: id, path: 'rate', frame: 1, handleLeft: null, handleRight: null })
    expect('handleRight' in keyAt(back, 1)).toBe(false)
    expect((await callError(service, 'key.setHandles', { objectId: id, path: 'rate', frame: 1, handleLeft: null, handleRight: [0, 3] })).message).toMatch(/must not lie before it/)
    expect((await callError(service, 'key.setHandles', { objectId: id, path: 'rate', frame: 5, handleLeft: null, handleRight: null })).code).toBe('NOT_FOUND')
    service.close()
  })

  it('writes flipbook frames only as PNGs with plain names, and says when no MP4 can be made', async () => {
    const { service, projectsDir } = makeService()
    const dir = join(projectsDir, 'flip')
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64')
    const r = await call(service, 'flipbook.writeFrame', { outDir: dir, name: 'shot_0001.png', png })
    expect(r).toEqual({ path: join(dir, 'shot_0001.png'), bytes: 11 })
    expect(readFileSync(r.path).subarray(0, 4).toString('latin1')).toBe('\x89PNG')
    expect((await callError(service, 'flipbook.writeFrame', { outDir: dir, name: 'shot_0002.png', png: Buffer.from('GIF89a').toString('base64') })).message).toMatch(/not a PNG/)
    for (const name of ['../escape.png', 'shot.jpg', '.hidden.png']) expect((await callError(service, 'flipbook.writeFrame', { outDir: dir, name, png })).code).toBe('INVALID_MESSAGE')
    const movieRequest = { outDir: dir, baseName: 'shot', padding: 4, frameStart: 1, fps: 24 }
    if (findFfmpeg() === null) expect((await call(service, 'flipbook.encodeMovie', movieRequest)).note).toMatch(/ffmpeg is not installed/)
    // With ffmpeg, a frame that is a PNG signature and nothing else is refused by name.
    else expect((await callError(service, 'flipbook.encodeMovie', movieRequest)).message).toMatch(/ffmpeg could not make .*shot\.mp4/)
    service.close()
  })

  it('imports a mesh at the 3D cursor, lifted onto the ground when it would reach below it', async () => {
    const { service } = makeService()
    await call(service, 'project.create', { name: 'Cursor' })
    // A tetrahedron whose lowest vertex is 0.25 m below its origin.
    const low = 'v 0 -0.25 0\nv 1 -0.25 0\nv 0 0.75 0\nv 0 -0.25 1\nf 1 2 3\nf 1 3 4\nf 1 4 2\nf 2 4 3\n'
    const onGround = await call(service, 'mesh.import', { fileName: 'a.obj', data: b64(low), at: [2, 0, -1] })
    expect(onGround.state.document.objects.find((o) => o.id === onGround.id)!.params.position).toEqual([2, 0.25, -1])
    const above = await call(service, 'mesh.import', { fileName: 'b.obj', data: b64(low), at: [0, 3, 0] })
    expect(above.state.document.objects.find((o) => o.id === above.id)!.params.position).toEqual([0, 3, 0])
    const err = await callError(service, 'mesh.import', { fileName: 'c.obj', data: b64(low), at: [0, Number.NaN, 0] })
    expect(err.code).toBe('INVALID_MESSAGE')
    service.close()
  })

  it('rejects a corrupt OBJ naming the line, and leaves the project file untouched', async () => {
    const { service } = makeService()
    const s = await call(service, 'project.create', { name: 'Corrupt' })
    await call(service, 'object.add', { kind: 'domain' })
    const before = await call(service, 'project.get', {})
    const bytesBefore = readFileSync(s.path)
    const err = await callError(service, 'mesh.import', { fileName: 'broken.obj', data: b64('v 0 0 0\nv 1 0 0\nv 0 1 oops\nf 1 2 3\n') })
    expect(err.code).toBe('MESH_PARSE')
    expect(err.message).toMatch(/line 3/)
    const after = await call(service, 'project.get', {})
    expect(after).toEqual(before)
    expect(readFileSync(s.path).equals(bytesBefore)).toBe(true)
    service.close()
  })

  it('answers malformed messages with typed errors and keeps working', async () => {
    const { service } = makeService()
    for (const raw of ['{not json', '[]', '{"id":1}', '{"id":2,"type":"no.such"}', '{"id":3,"type":"object.add","params":{"kind":"dragon"}}', 42, null]) {
      const r = await service.request(raw)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error.code).toBe('INVALID_MESSAGE')
    }
    expect((await call(service, 'app.info', {})).mode).toBe('headless')
  })
})

// Version 3 of the frame record: per-vertex mesh attributes and rigid bodies round trip at
// every precision, damage to a rigid body is named, and records written by the version 2
// encoder (kept as bytes in fixtures/) still decode to the frame they were made from.
import { deflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import { crc32, decodeFrame, encodeFrame, withoutVolumes, type FramePrecision } from '../../../src-shared/formats/frameRecord'
import type { FrameData, FrameMesh, RigidBodyState } from '../../../src-shared/sim/frame'
import { V2_RECORDS, v2FixtureFrame } from './fixtures/frameRecordV2'

const PRECISIONS: FramePrecision[] = ['float32', 'float16', 'uint8']
const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))

function tetra(name: string, scale: number): FrameMesh {
  return {
    name,
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1].map((v) => v * scale)),
    indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
  }
}

function body(id: string, name: string, p: [number, number, number], mesh: FrameMesh): RigidBodyState {
  const s = Math.SQRT1_2
  return { id, name, position: p, orientation: [0, s, 0, s], linearVelocity: [0.1, -9.81 / 3, 1e-9], angularVelocity: [-0, 2.5, Math.PI], mesh }
}

function v3Frame(): FrameData {
  const surface: FrameMesh = {
    name: 'surface',
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5]),
    indices: new Uint32Array([0, 1, 2, 2, 1, 3]),
    normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0.6, 0.8]),
    attributes: {
      color: { components: 3, data: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.25, 1e-40]) },
      density: { components: 1, data: new Float32Array([0.1, -0, NaN, 7]) },
      velocity: { components: 3, data: new Float32Array(12).map((_, i) => i - 5.5) },
    },
  }
  const crate = { ...tetra('crate local', 0.5), normals: new Float32Array(12).fill(0.5), attributes: { temperature: { components: 1 as const, data: new Float32Array([300, 301, 302, 303]) } } }
  const temperature = new Float32Array(16 * 4 * 4).fill(293.15)
  temperature[100] = 500
  return {
    time: 0.75,
    frame: 19,
    volumes: [{ name: 'temperature', components: 1, dims: [16, 4, 4], voxelSize: 0.1, origin: [0, 0, 0], data: temperature }],
    meshes: [surface, { name: 'plain', positions: new Float32Array([0, 0, 0, 1, 2, 3, 4, 5, 6]), indices: new Uint32Array([0, 1, 2]) }],
    particles: [{ name: 'spray', count: 1, positions: new Float32Array([1, 2, 3]), attributes: { age: { components: 1, data: new Float32Array([0.5]) } } }],
    rigidBodies: [body('obj-1', 'Crate', [1.5, 2.25, -3], crate), body('obj-2', 'Ball ⚽', [0, 1e-30, 1e30], tetra('ball', 0.25))],
    stats: { substeps: 1 },
  }
}

function expectMeshEqual(a: FrameMesh, b: FrameMesh): void {
  expect(b.name).toBe(a.name)
  expect(bits(b.positions)).toEqual(bits(a.positions))
  expect(Array.from(b.indices)).toEqual(Array.from(a.indices))
  expect(b.normals ? bits(b.normals) : undefined).toEqual(a.normals ? bits(a.normals) : undefined)
  expect(Object.keys(b.attributes ?? {})).toEqual(Object.keys(a.attributes ?? {}))
  for (const [k, attr] of Object.entries(a.attributes ?? {})) {
    expect(b.attributes![k].components).toBe(attr.components)
    expect(bits(b.attributes![k].data)).toEqual(bits(attr.data))
  }
}

function expectBodiesEqual(a: RigidBodyState[] | undefined, b: RigidBodyState[] | undefined): void {
  expect((b ?? []).length).toBe((a ?? []).length)
  ;(a ?? []).forEach((x, i) => {
    const y = b![i]
    expect({ ...y, mesh: null }).toEqual({ ...x, mesh: null })
    // toEqual treats -0 and 0 alike; the pose is meant to be exact.
    for (const k of ['position', 'orientation', 'linearVelocity', 'angularVelocity'] as const) x[k].forEach((v, j) => expect(Object.is(y[k][j], v), `${k}[${j}]`).toBe(true))
    expectMeshEqual(x.mesh, y.mesh)
  })
}

function expectFormatError(f: () => unknown, re: RegExp): void {
  let err: unknown
  try {
    f()
  } catch (e) {
    err = e
  }
  expect(err, 'should throw').toBeInstanceOf(EddyError)
  expect((err as EddyError).code).toBe('PROJECT_FORMAT')
  expect((err as EddyError).message).toMatch(re)
}

/** The record with its header edited (and optionally its payload replaced), re-signed. */
function withHeader(rec: Uint8Array, edit: (h: any) => void, payload?: (p: Uint8Array, h: any) => Uint8Array): Uint8Array {
  const hl = new DataView(rec.buffer, rec.byteOffset).getUint32(8, true)
  const h = JSON.parse(Buffer.from(rec.subarray(20, 20 + hl)).toString('utf8'))
  edit(h)
  const body = payload ? payload(rec.slice(20 + hl), h) : rec.subarray(20 + hl)
  const hb = Buffer.from(JSON.stringify(h), 'utf8')
  const out = new Uint8Array(20 + hb.length + body.length)
  out.set(rec.subarray(0, 20))
  const dv = new DataView(out.buffer)
  dv.setUint32(8, hb.length, true)
  dv.setUint32(12, body.length, true)
  out.set(hb, 20)
  out.set(body, 20 + hb.length)
  dv.setUint32(16, crc32(out, 20, out.length, crc32(out, 0, 16)), true)
  return out
}

describe('frame record version 3', () => {
  it('writes the current version (4)', () => {
    expect(new DataView(encodeFrame(v3Frame()).buffer).getUint16(4, true)).toBe(4)
  })

  it('round trips mesh attributes and rigid bodies bit for bit at every precision', () => {
    const f = v3Frame()
    for (const precision of PRECISIONS) {
      for (const level of [0, 6]) {
        const back = decodeFrame(encodeFrame(f, { precision, level }))
        expect(back.meshes.length).toBe(2)
        f.meshes.forEach((m, i) => expectMeshEqual(m, back.meshes[i]))
        expect(back.meshes[1].attributes).toBeUndefined()
        expectBodiesEqual(f.rigidBodies, back.rigidBodies)
        expect(bits(back.particles[0].positions)).toEqual(bits(f.particles[0].positions))
      }
    }
  })

  it('a frame without rigid bodies decodes without the field; a partial decode keeps the bodies', () => {
    const f = { ...v3Frame(), rigidBodies: [] }
    expect(decodeFrame(encodeFrame(f)).rigidBodies).toBeUndefined()
    const rec = encodeFrame(v3Frame())
    const partial = decodeFrame(rec, { volumes: [] })
    expect(partial.volumes).toEqual([])
    expectBodiesEqual(v3Frame().rigidBodies, partial.rigidBodies)
  })

  it('withoutVolumes keeps meshes with attributes and rigid bodies', () => {
    const f = v3Frame()
    const slim = decodeFrame(withoutVolumes(encodeFrame(f, { precision: 'uint8' })))
    expect(slim.volumes).toEqual([])
    expectMeshEqual(f.meshes[0], slim.meshes[0])
    expectBodiesEqual(f.rigidBodies, slim.rigidBodies)
  })

  it('refuses attributes and bodies it cannot store with INVALID_PARAM', () => {
    const bad = (edit: (f: FrameData) => void) => {
      const f = v3Frame()
      edit(f)
      let err: unknown
      try {
        encodeFrame(f)
      } catch (e) {
        err = e
      }
      expect((err as EddyError)?.code).toBe('INVALID_PARAM')
    }
    bad((f) => (f.meshes[0].attributes!.density.data = new Float32Array(3)))
    bad((f) => (f.meshes[0].attributes!.density = { components: 2 as 1, data: new Float32Array(8) }))
    bad((f) => (f.rigidBodies![0].orientation = [0, 0, 1] as unknown as [number, number, number, number]))
    bad((f) => (f.rigidBodies![1].mesh = undefined as unknown as FrameMesh))
  })
})

describe('frame record version 3 corruption', () => {
  const good = encodeFrame(v3Frame(), { level: 6 })

  it('names the rigid body whose section or header is damaged', () => {
    expect(() => decodeFrame(withHeader(good, () => {}))).not.toThrow()
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[1].mesh.positions += 3))), /rigid body 1 \('Ball ⚽'\) mesh size/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[0].mesh.raw -= 4))), /rigid body 0 \('Crate'\) mesh/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[0].orientation = [0, 0, 1]))), /rigid body 0 orientation is malformed/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[0].position[1] = 'up'))), /rigid body 0 position is not a number/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[1].id = 7))), /rigid body 1 id/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[0].mesh = null))), /rigid body 0 mesh header/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.rigidBodies[0].mesh.attributes[0].length = 3))), /rigid body 0 \('Crate'\) mesh attribute 0 length/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => delete h.rigidBodies)), /rigid bodies is not a list/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.meshes[0].attributes[1].components = 2))), /mesh 0 attribute 1 has 2 components/)
    // The last body's section replaced by a valid deflate stream of the wrong length, and by garbage.
    const lastPacked = (h: any) => h.rigidBodies[1].mesh.packed
    const replaceLast = (bytes: Uint8Array) => (p: Uint8Array, h: any) => {
      const head = p.subarray(0, p.length - lastPacked(h))
      h.rigidBodies[1].mesh.packed = bytes.length
      const q = new Uint8Array(head.length + bytes.length)
      q.set(head)
      q.set(bytes, head.length)
      return q
    }
    expectFormatError(() => decodeFrame(withHeader(good, () => {}, replaceLast(new Uint8Array(deflateRawSync(new Uint8Array(8)))))), /rigid body 1 \('Ball ⚽'\) mesh inflates to 8 bytes/)
    expectFormatError(() => decodeFrame(withHeader(good, () => {}, replaceLast(new Uint8Array(20).fill(0xff)))), /rigid body 1 \('Ball ⚽'\) mesh does not inflate/)
  })

  it('every truncation and flipped byte of a record with bodies is PROJECT_FORMAT', () => {
    for (let n = 0; n < good.length; n += 3) expectFormatError(() => decodeFrame(good.subarray(0, n)), /corrupt/)
    for (let n = 0; n < good.length; n++) {
      const bad = good.slice()
      bad[n] ^= 0x41
      expectFormatError(() => decodeFrame(bad), /corrupt/)
    }
  })

  it('an old version number on a header with version 3 fields is refused', () => {
    const relabelled = good.slice()
    new DataView(relabelled.buffer).setUint16(4, 2, true)
    expectFormatError(() => decodeFrame(withHeader(relabelled, () => {})), /version 2 header has version 3 fields/)
  })
})

describe('records written by the version 2 encoder', () => {
  for (const precision of PRECISIONS) {
    it(`still decode (${precision})`, () => {
      const rec = new Uint8Array(Buffer.from(V2_RECORDS[precision], 'base64'))
      expect(new DataView(rec.buffer, rec.byteOffset).getUint16(4, true)).toBe(2)
      const want = v2FixtureFrame()
      const back = decodeFrame(rec)
      expect(back.time).toBe(want.time)
      expect(back.frame).toBe(want.frame)
      expect(back.stats).toEqual(want.stats)
      expect(back.rigidBodies).toBeUndefined()
      expectMeshEqual(want.meshes[0], back.meshes[0])
      expect(back.particles[0].count).toBe(2)
      expect(bits(back.particles[0].positions)).toEqual(bits(want.particles[0].positions))
      expect(bits(back.particles[0].attributes.velocity.data)).toEqual(bits(want.particles[0].attributes.velocity.data))
      want.volumes.forEach((v, i) => {
        const w = back.volumes[i]
        expect(w.name).toBe(v.name)
        expect(w.dims).toEqual(v.dims)
        if (precision === 'float32') expect(bits(w.data)).toEqual(bits(v.data))
        else v.data.forEach((x, j) => expect(Math.abs(w.data[j] - x)).toBeLessThan(precision === 'uint8' ? 1.3 : 0.3))
      })
      // A slimmed old record becomes a current-version one holding the same meshes and particles.
      const slim = decodeFrame(withoutVolumes(rec))
      expectMeshEqual(want.meshes[0], slim.meshes[0])
      expect(slim.particles[0].attributes.id.data).toEqual(want.particles[0].attributes.id.data)
    })
  }
})

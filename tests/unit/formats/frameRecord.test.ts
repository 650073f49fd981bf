import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import { crc32, decodeFrame, encodeFrame, fromHalf, toHalf } from '../../../src-shared/formats/frameRecord'
import { floatToHalfBits } from '../../../src-shared/formats/openvdb/writer'
import type { FrameData, Volume } from '../../../src-shared/sim/frame'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function volume(name: string, dims: [number, number, number], components: 1 | 3, fill: (i: number, j: number, k: number, c: number) => number): Volume {
  const [nx, ny, nz] = dims
  const data = new Float32Array(nx * ny * nz * components)
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) for (let c = 0; c < components; c++) data[(i + nx * (j + ny * k)) * components + c] = fill(i, j, k, c)
  return { name, components, dims, voxelSize: 0.05, origin: [-1, 0, 0.5], data }
}

function frameOf(volumes: Volume[], extra: Partial<FrameData> = {}): FrameData {
  return { time: 0.125, frame: 4, volumes, meshes: [], particles: [], stats: { substeps: 3, iterations: 41, ms: 12.5 }, ...extra }
}

const bitsOf = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length)

function expectBitwise(a: Float32Array, b: Float32Array): void {
  expect(a.length).toBe(b.length)
  const x = bitsOf(a)
  const y = bitsOf(b)
  let bad = -1
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) { bad = i; break }
  expect(bad).toBe(-1)
}

function expectFormatError(f: () => unknown, re?: RegExp): void {
  let err: unknown
  try {
    f()
  } catch (e) {
    err = e
  }
  expect(err, 'should throw').toBeInstanceOf(EddyError)
  expect((err as EddyError).code).toBe('PROJECT_FORMAT')
  expect((err as EddyError).message).toMatch(/^Cached frame record is corrupt: /)
  if (re) expect((err as EddyError).message).toMatch(re)
}

function richFrame(): FrameData {
  const r = rng(7)
  const density = volume('density', [20, 13, 9], 1, (i, j, k) => (i > 10 && j < 6 ? r() * 3 - 0.5 : 0))
  density.data[5] = -0
  density.data[7] = 1e-42 // subnormal float32
  const velocity = volume('velocity', [9, 17, 11], 3, (i, j, k, c) => (k < 4 ? 0 : (r() - 0.5) * 10 + c))
  const positions = new Float32Array(3 * 50).map(() => r())
  return {
    time: 1 / 24,
    frame: 2,
    volumes: [density, velocity, volume('empty', [0, 0, 0], 1, () => 0)],
    meshes: [
      { name: 'surface', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5]), indices: new Uint32Array([0, 1, 2, 2, 1, 3]), normals: new Float32Array(12).map(() => r()) },
      { name: 'no normals', positions: new Float32Array([0, 0, 0, 1, 2, 3, 4, 5, 6]), indices: new Uint32Array([0, 1, 2]) },
      { name: 'empty', positions: new Float32Array(0), indices: new Uint32Array(0) },
    ],
    particles: [
      {
        name: 'spray',
        count: 50,
        positions,
        attributes: { velocity: { components: 3, data: new Float32Array(150).map(() => r() - 0.5) }, age: { components: 1, data: new Float32Array(50).map(() => r()) } },
      },
      { name: 'none', count: 0, positions: new Float32Array(0), attributes: {} },
    ],
    stats: { substeps: 3, 'pressure.iterations': 17, ms: 4.25, weird: NaN, big: Infinity, neg: -0 },
  }
}

/**
 * A current record relabelled as an older version: the header loses the fields that version
 * did not have (rigid bodies, mesh attributes, textures), and the CRC is recomputed.
 */
function asOldVersion(rec: Uint8Array, version: 1 | 2): Uint8Array {
  const hl = new DataView(rec.buffer, rec.byteOffset).getUint32(8, true)
  const h = JSON.parse(Buffer.from(rec.subarray(20, 20 + hl)).toString('utf8'))
  delete h.rigidBodies
  delete h.textures
  for (const m of h.meshes) delete m.attributes
  const hb = Buffer.from(JSON.stringify(h), 'utf8')
  const payload = rec.subarray(20 + hl)
  const out = new Uint8Array(20 + hb.length + payload.length)
  out.set(rec.subarray(0, 20))
  const dv = new DataView(out.buffer)
  dv.setUint16(4, version, true)
  dv.setUint32(8, hb.length, true)
  out.set(hb, 20)
  out.set(payload, 20 + hb.length)
  dv.setUint32(16, crc32(out, 20, out.length, crc32(out, 0, 16)), true)
  return out
}

function expectFramesEqual(a: FrameData, b: FrameData): void {
  expect(b.time).toBe(a.time)
  expect(b.frame).toBe(a.frame)
  expect(Object.keys(b.stats)).toEqual(Object.keys(a.stats))
  for (const k of Object.keys(a.stats)) expect(Object.is(b.stats[k], a.stats[k]), k).toBe(true)
  expect(b.volumes.length).toBe(a.volumes.length)
  a.volumes.forEach((v, i) => {
    const w = b.volumes[i]
    expect({ ...w, data: null }).toEqual({ ...v, data: null })
    expectBitwise(v.data, w.data)
  })
  expect(b.meshes.length).toBe(a.meshes.length)
  a.meshes.forEach((m, i) => {
    const n = b.meshes[i]
    expect(n.name).toBe(m.name)
    expectBitwise(m.positions, n.positions)
    expect(Array.from(n.indices)).toEqual(Array.from(m.indices))
    if (m.normals) expectBitwise(m.normals, n.normals!)
    else expect(n.normals).toBeUndefined()
  })
  expect(b.particles.length).toBe(a.particles.length)
  a.particles.forEach((p, i) => {
    const q = b.particles[i]
    expect(q.name).toBe(p.name)
    expect(q.count).toBe(p.count)
    expectBitwise(p.positions, q.positions)
    expect(Object.keys(q.attributes)).toEqual(Object.keys(p.attributes))
    for (const [k, attr] of Object.entries(p.attributes)) {
      expect(q.attributes[k].components).toBe(attr.components)
      expectBitwise(attr.data, q.attributes[k].data)
    }
  })
}

describe('crc32', () => {
  it('matches the IEEE check value and zlib', () => {
    const ascii = new Uint8Array([...'123456789'].map((c) => c.charCodeAt(0)))
    expect(crc32(ascii)).toBe(0xcbf43926)
    expect(crc32(new Uint8Array(0))).toBe(0)
    const r = rng(3)
    const data = new Uint8Array(1000).map(() => (r() * 256) | 0)
    // incremental == one shot
    expect(crc32(data, 400, 1000, crc32(data, 0, 400))).toBe(crc32(data))
  })
})

describe('float16', () => {
  it('agrees with the OpenVDB writer for many values and round trips every half', () => {
    const r = rng(11)
    for (let n = 0; n < 20000; n++) {
      const v = (r() - 0.5) * 2 ** (r() * 40 - 26)
      expect(toHalf(v)).toBe(floatToHalfBits(v))
    }
    for (let h = 0; h < 65536; h++) {
      const v = fromHalf(h)
      if (Number.isNaN(v)) expect((h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0).toBe(true)
      else expect(toHalf(v)).toBe(h)
    }
    expect(toHalf(65520)).toBe(0x7c00) // rounds past 65504 -> Infinity
    expect(toHalf(65519)).toBe(0x7bff)
  })
})

describe('frame record round trip (float32)', () => {
  it('is bitwise exact for volumes (sparse, vec3, empty), meshes, particles and stats', () => {
    const f = richFrame()
    for (const level of [0, 1, 6, 9]) expectFramesEqual(f, decodeFrame(encodeFrame(f, { level })))
  })

  it('with the deflater the caller passes (Node zlib, as the bake runner does): every section goes through it, and the record decodes to the same frame', () => {
    const f = richFrame()
    const ref = encodeFrame(f, { level: 1 })
    let calls = 0
    const rec = encodeFrame(f, {
      level: 1,
      deflate: (raw, level) => {
        calls++
        expect(level).toBe(1)
        return deflateRawSync(raw, { level })
      },
    })
    expect(calls).toBe(f.volumes.length + f.meshes.length + f.particles.length + (f.rigidBodies?.length ?? 0) + (f.textures?.length ?? 0))
    expect(Array.from(rec)).not.toEqual(Array.from(ref)) // zlib's deflate stream is not fflate's
    expectFramesEqual(decodeFrame(rec), decodeFrame(ref))
    expectFramesEqual(decodeFrame(rec), f)
  })

  it('keeps -0 and subnormals in tiles and skips only +0 tiles', () => {
    const v = volume('d', [16, 8, 8], 1, () => 0)
    v.data[3] = -0 // a tile of -0 and +0 must still be stored (bitwise exact)
    const out = decodeFrame(encodeFrame(frameOf([v])))
    expect(Object.is(out.volumes[0].data[3], -0)).toBe(true)
    expectBitwise(v.data, out.volumes[0].data)
  })

  it('round trips an all-zero, a fully dense and odd-sized volumes', () => {
    const r = rng(5)
    const vols = [
      volume('zeros', [32, 32, 32], 1, () => 0),
      volume('dense', [24, 16, 8], 1, () => r() + 0.001),
      volume('odd', [1, 9, 17], 3, () => r() - 0.5),
      volume('one', [1, 1, 1], 1, () => 2),
      volume('flat', [5, 0, 3], 1, () => 1),
    ]
    const f = frameOf(vols)
    const out = decodeFrame(encodeFrame(f))
    expectFramesEqual(f, out)
    const zeroBytes = encodeFrame(frameOf([vols[0]]))
    expect(zeroBytes.length).toBeLessThan(400)
  })

  it('keeps NaN and Infinity bitwise', () => {
    const v = volume('d', [9, 9, 9], 1, (i) => i)
    v.data[0] = NaN
    v.data[10] = Infinity
    v.data[11] = -Infinity
    const f = frameOf([v])
    expectFramesEqual(f, decodeFrame(encodeFrame(f)))
  })

  it('stores a mostly empty 64^3 volume in well under 10% of its raw size', () => {
    const r = rng(9)
    const v = volume('density', [64, 64, 64], 1, (i, j, k) => ((i - 20) ** 2 + (j - 30) ** 2 + (k - 40) ** 2 < 64 ? r() : 0))
    const raw = v.data.byteLength
    const denseBytes = encodeFrame(frameOf([volume('density', [64, 64, 64], 1, () => r())])).length
    const sparse = encodeFrame(frameOf([v]))
    expect(sparse.length).toBeLessThan(raw * 0.1)
    expect(sparse.length).toBeLessThan(denseBytes * 0.1)
    expectFramesEqual(frameOf([v]), decodeFrame(sparse))
  })
})

describe('frame record lossy precisions', () => {
  const r = rng(21)
  const density = volume('density', [33, 20, 17], 1, (i, j) => (j < 10 ? 0 : (r() - 0.2) * 10 ** (r() * 6 - 3)))
  const velocity = volume('velocity', [16, 16, 16], 3, (i, j, k, c) => (k < 8 ? 0 : (r() - 0.5) * 40 + c))
  const f = frameOf([density, velocity], { meshes: richFrame().meshes, particles: richFrame().particles })

  it('float16: relative error <= 2^-11 for normal halves, absolute <= 2^-25 below', () => {
    const out = decodeFrame(encodeFrame(f, { precision: 'float16' }))
    for (let n = 0; n < 2; n++) {
      const a = f.volumes[n].data
      const b = out.volumes[n].data
      for (let i = 0; i < a.length; i++) {
        const x = a[i]
        const err = Math.abs(b[i] - x)
        if (Math.abs(x) >= 2 ** -14) expect(err).toBeLessThanOrEqual(Math.abs(x) * 2 ** -11)
        else expect(err).toBeLessThanOrEqual(2 ** -25)
      }
    }
    // meshes and particles stay exact float32
    expectFramesEqual({ ...f, volumes: [] }, { ...out, volumes: [] })
  })

  it('uint8: error <= (tile max - tile min) / 510 per 8^3 tile', () => {
    const bytes = encodeFrame(f, { precision: 'uint8' })
    const out = decodeFrame(bytes)
    for (let n = 0; n < 2; n++) {
      const v = f.volumes[n]
      const a = v.data
      const b = out.volumes[n].data
      const [nx, ny, nz] = v.dims
      const C = v.components
      for (let tz = 0; tz < nz; tz += 8)
        for (let ty = 0; ty < ny; ty += 8)
          for (let tx = 0; tx < nx; tx += 8) {
            const idx: number[] = []
            for (let k = tz; k < Math.min(tz + 8, nz); k++)
              for (let j = ty; j < Math.min(ty + 8, ny); j++)
                for (let i = tx; i < Math.min(tx + 8, nx); i++) for (let c = 0; c < C; c++) idx.push((i + nx * (j + ny * k)) * C + c)
            let lo = Infinity
            let hi = -Infinity
            for (const i of idx) {
              lo = Math.min(lo, a[i])
              hi = Math.max(hi, a[i])
            }
            for (const i of idx) {
              const bound = (hi - lo) / 510 + Math.abs(a[i]) * 2 ** -23 + 1e-30
              expect(Math.abs(b[i] - a[i])).toBeLessThanOrEqual(bound)
              if (lo === 0 && hi === 0) expect(b[i]).toBe(0)
            }
          }
    }
    expect(bytes.length).toBeLessThan(encodeFrame(f, { precision: 'float16' }).length)
  })

  it('uint8 falls back to float32 for a volume holding non-finite values', () => {
    const v = volume('d', [8, 8, 8], 1, (i) => i)
    v.data[1] = NaN
    const g = frameOf([v])
    expectFramesEqual(g, decodeFrame(encodeFrame(g, { precision: 'uint8' })))
    const wide = volume('w', [8, 8, 8], 1, (i) => (i % 2 ? 3e38 : -3e38))
    const h = frameOf([wide])
    expectFramesEqual(h, decodeFrame(encodeFrame(h, { precision: 'uint8' })))
  })

  it('rejects bad options and inconsistent volumes with INVALID_PARAM', () => {
    expect(() => encodeFrame(f, { level: 12 })).toThrow(/level/)
    expect(() => encodeFrame(f, { precision: 'float64' as never })).toThrow(/precision/)
    const bad = volume('d', [4, 4, 4], 1, () => 1)
    bad.data = new Float32Array(10)
    try {
      encodeFrame(frameOf([bad]))
      expect.unreachable()
    } catch (e) {
      expect((e as EddyError).code).toBe('INVALID_PARAM')
    }
  })
})

describe('frame record corruption', () => {
  const good = encodeFrame(richFrame(), { level: 6 })
  const headerLength = new DataView(good.buffer).getUint32(8, true)

  it('throws PROJECT_FORMAT for every truncation', () => {
    for (let n = 0; n < good.length; n++) expectFormatError(() => decodeFrame(good.subarray(0, n)))
    expectFormatError(() => decodeFrame(new Uint8Array(0)), /prefix/)
    const longer = new Uint8Array(good.length + 1)
    longer.set(good)
    expectFormatError(() => decodeFrame(longer), /lengths/)
  })

  it('throws PROJECT_FORMAT for a flipped byte anywhere (prefix, header, payload)', () => {
    const r = rng(13)
    for (let n = 0; n < good.length; n++) {
      for (const mask of [0x01, (1 + r() * 255) | 0]) {
        const bad = good.slice()
        bad[n] ^= mask
        expectFormatError(() => decodeFrame(bad))
      }
    }
  })

  it('names the reason: magic, version, flags, CRC', () => {
    const magic = good.slice()
    magic[0] = 'X'.charCodeAt(0)
    expectFormatError(() => decodeFrame(magic), /magic/)
    const version = good.slice()
    version[4] = 5
    expectFormatError(() => decodeFrame(version), /version 5/)
    const flags = good.slice()
    flags[6] = 1
    expectFormatError(() => decodeFrame(flags), /flags/)
    const header = good.slice()
    header[20 + Math.floor(headerLength / 2)] ^= 0x20
    expectFormatError(() => decodeFrame(header), /CRC/)
    const payload = good.slice()
    payload[good.length - 3] ^= 0x10
    expectFormatError(() => decodeFrame(payload), /CRC/)
  })

  // Records that pass the CRC (re-signed after tampering) must still be caught by the checks
  // behind it: header shape, section sizes, inflate failures, tile bitmap consistency.
  function resign(bytes: Uint8Array): Uint8Array {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    dv.setUint32(16, crc32(bytes, 20, bytes.length, crc32(bytes, 0, 16)), true)
    return bytes
  }
  function withHeader(edit: (h: any) => void, payloadEdit?: (p: Uint8Array) => Uint8Array): Uint8Array {
    const h = JSON.parse(Buffer.from(good.subarray(20, 20 + headerLength)).toString('utf8'))
    edit(h)
    const hb = Buffer.from(JSON.stringify(h), 'utf8')
    let payload: Uint8Array = good.slice(20 + headerLength)
    if (payloadEdit) payload = payloadEdit(payload)
    const out = new Uint8Array(20 + hb.length + payload.length)
    out.set(good.subarray(0, 20))
    const dv = new DataView(out.buffer)
    dv.setUint32(8, hb.length, true)
    dv.setUint32(12, payload.length, true)
    out.set(hb, 20)
    out.set(payload, 20 + hb.length)
    return resign(out)
  }

  it('checks the header shape and sizes behind the CRC', () => {
    expect(() => decodeFrame(withHeader(() => {}))).not.toThrow()
    for (let n = 20; n < 20 + headerLength; n++) {
      const bad = good.slice()
      bad[n] ^= 0x04
      try {
        decodeFrame(resign(bad))
      } catch (e) {
        expect((e as EddyError).code).toBe('PROJECT_FORMAT')
      }
    }
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].dims = [20, 13, 'x']))), /dims/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].dims = [2e6, 2e6, 1]))), /large/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].components = 2))), /components/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].raw += 1))), /volume 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].raw -= 1))), /volume 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].tiles -= 1))), /volume 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].packed += 1))), /volume|payload|past/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].dims = [21, 13, 9]))), /volume 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.volumes[0].precision = 'float16'))), /volume 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.meshes[0].positions += 3))), /mesh 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => h.particles[0].attributes.pop())), /particle set 0/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.stats = { a: 1 }))), /stats/)
    expectFormatError(() => decodeFrame(withHeader((h) => delete h.meshes)), /meshes/)
    expectFormatError(() => decodeFrame(withHeader((h) => (h.time = 'soon'))), /time/)
    expectFormatError(() => decodeFrame(withHeader(() => {}, (p) => p.subarray(0, p.length - 1))), /past|inflate/)
    expectFormatError(() => decodeFrame(withHeader(() => {}, (p) => { const q = new Uint8Array(p.length + 4); q.set(p); return q })), /payload/)
    // garbage deflate stream of the right length
    expectFormatError(() => decodeFrame(withHeader(() => {}, (p) => { const q = p.slice(); q.fill(0xff, 0, 16); return q })), /volume 0/)
    // a valid deflate stream that inflates to more (or less) than the header says
    const h0 = JSON.parse(Buffer.from(good.subarray(20, 20 + headerLength)).toString('utf8'))
    const first = new Uint8Array(inflateRawSync(Buffer.from(good.subarray(20 + headerLength, 20 + headerLength + h0.volumes[0].packed))))
    expect(first.length).toBe(h0.volumes[0].raw)
    for (const extra of [1, -1]) {
      const raw2 = new Uint8Array(first.length + extra)
      raw2.set(first.subarray(0, Math.min(first.length, raw2.length)))
      const packed2 = new Uint8Array(deflateRawSync(raw2))
      const rest = good.subarray(20 + headerLength + h0.volumes[0].packed)
      expectFormatError(
        () =>
          decodeFrame(
            withHeader(
              (h) => (h.volumes[0].packed = packed2.length),
              () => { const q = new Uint8Array(packed2.length + rest.length); q.set(packed2); q.set(rest, packed2.length); return q },
            ),
          ),
        /inflates to/,
      )
    }
  })

  it('a bitmap bit beyond the grid or a bad uint8 range is corruption', () => {
    // A 9x1x1 volume has 2 tiles: bit 2 of the bitmap is out of the grid.
    const v = volume('d', [9, 1, 1], 1, (i) => (i === 0 ? 0 : 1))
    const rec = encodeFrame(frameOf([v]), { precision: 'uint8' })
    const hl = new DataView(rec.buffer).getUint32(8, true)
    const h = JSON.parse(Buffer.from(rec.subarray(20, 20 + hl)).toString('utf8'))
    const raw = new Uint8Array(inflateRawSync(Buffer.from(rec.subarray(20 + hl))))
    // rewrite helper for this record
    const build = (raw2: Uint8Array): Uint8Array => {
      const packed = new Uint8Array(deflateRawSync(raw2))
      h.volumes[0].packed = packed.length
      const hb = Buffer.from(JSON.stringify(h))
      const out = new Uint8Array(20 + hb.length + packed.length)
      out.set(rec.subarray(0, 20))
      new DataView(out.buffer).setUint32(8, hb.length, true)
      new DataView(out.buffer).setUint32(12, packed.length, true)
      out.set(hb, 20)
      out.set(packed, 20 + hb.length)
      return resign(out)
    }
    expect(decodeFrame(build(raw)).volumes[0].data[8]).toBe(1)
    const outside = raw.slice()
    outside[0] |= 4
    expectFormatError(() => decodeFrame(build(outside)), /outside the grid/)
    const range = raw.slice()
    new DataView(range.buffer).setFloat32(1, 5, true) // min > max
    expectFormatError(() => decodeFrame(build(range)), /range/)
  })

  it('skips tiles equal to the background (cell 0), e.g. kelvin at ambient, and still reads version 1 records', () => {
    // 24^3 at 293.15 K with a hot blob in one corner tile: one tile stored, not 27.
    const t = volume('temperature', [24, 24, 24], 1, (i, j, k) => (i > 18 && j > 18 && k > 18 ? 900 : 293.15))
    const vel = volume('velocity', [24, 24, 24], 3, (i, j, k, c) => (i > 18 && j > 18 && k > 18 ? c + 1 : c === 1 ? 0.5 : 0))
    for (const precision of ['float32', 'float16', 'uint8'] as const) {
      const rec = encodeFrame(frameOf([t, vel]), { precision })
      const hl = new DataView(rec.buffer).getUint32(8, true)
      const h = JSON.parse(Buffer.from(rec.subarray(20, 20 + hl)).toString('utf8'))
      expect(h.volumes.map((v: { tiles: number }) => v.tiles)).toEqual([1, 1])
      expect(h.volumes[0].background).toEqual([bitsOf(new Float32Array([293.15]))[0]])
      const back = decodeFrame(rec)
      if (precision === 'float32') {
        expectBitwise(back.volumes[0].data, t.data)
        expectBitwise(back.volumes[1].data, vel.data)
      } else {
        // Background cells come back exactly; stored cells within the precision's error.
        expect(back.volumes[0].data[0]).toBe(Math.fround(293.15))
        expect(back.volumes[1].data[1]).toBe(0.5)
        expect(Math.abs(back.volumes[0].data[23 + 24 * (23 + 24 * 23)] - 900)).toBeLessThan(precision === 'uint8' ? 2.5 : 0.5)
      }
    }
    // A version-1 record: no background field, zeros skipped, as written before version 2.
    const z = volume('density', [9, 9, 9], 1, (i) => (i === 8 ? 2 : 0))
    const v1 = asOldVersion(encodeFrame(frameOf([z])), 1)
    expectBitwise(decodeFrame(v1).volumes[0].data, z.data)
  })
})

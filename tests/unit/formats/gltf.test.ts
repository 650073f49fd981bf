import { Document, WebIO, type GLTF } from '@gltf-transform/core'
import { describe, expect, it } from 'vitest'
import { parseGltf } from '../../../src-shared/formats/gltf'

const TRI = [0, 0, 0, 1, 0, 0, 0, 1, 0] // counter-clockwise seen from +z

/** parent (translated +5 y) -> child (translated +10 x) -> one indexed triangle. */
function makeDoc(opts: { childScale?: [number, number, number]; mode?: GLTF.MeshPrimitiveMode } = {}): Document {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const position = doc.createAccessor().setType('VEC3').setArray(new Float32Array(TRI)).setBuffer(buffer)
  const indices = doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 1, 2])).setBuffer(buffer)
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices)
  if (opts.mode !== undefined) prim.setMode(opts.mode)
  const mesh = doc.createMesh('tri').addPrimitive(prim)
  const child = doc.createNode('child').setMesh(mesh).setTranslation([10, 0, 0])
  if (opts.childScale) child.setScale(opts.childScale)
  const parent = doc.createNode('parent').setTranslation([0, 5, 0]).addChild(child)
  const scene = doc.createScene('main').addChild(parent)
  doc.getRoot().setDefaultScene(scene)
  return doc
}

const io = new WebIO()
const enc = new TextEncoder()

/** .gltf text with the (single) buffer embedded as a base64 data: URI. */
async function embeddedGltf(doc: Document): Promise<Uint8Array> {
  const { json, resources } = await io.writeJSON(doc)
  for (const b of json.buffers ?? []) {
    const data = resources[b.uri as string]
    b.uri = 'data:application/octet-stream;base64,' + Buffer.from(data).toString('base64')
  }
  return enc.encode(JSON.stringify(json))
}

async function expectParseError(p: Promise<unknown>, pattern: RegExp) {
  let caught: unknown
  try {
    await p
  } catch (e) {
    caught = e
  }
  expect(caught).toMatchObject({ code: 'MESH_PARSE' })
  expect((caught as Error).message).toMatch(pattern)
}

describe('parseGltf', () => {
  it('reads a GLB and applies the node hierarchy transforms', async () => {
    const glb = await io.writeBinary(makeDoc())
    const m = await parseGltf(glb, 'tri.glb', true)
    expect(Array.from(m.positions)).toEqual([10, 5, 0, 11, 5, 0, 10, 6, 0])
    expect(Array.from(m.indices)).toEqual([0, 1, 2])
  })

  it('reads a .gltf with an embedded base64 buffer', async () => {
    const m = await parseGltf(await embeddedGltf(makeDoc()), 'tri.gltf', false)
    expect(Array.from(m.positions)).toEqual([10, 5, 0, 11, 5, 0, 10, 6, 0])
    expect(Array.from(m.indices)).toEqual([0, 1, 2])
  })

  it('gives non-indexed primitives sequential indices and merges meshes', async () => {
    // Hand-written: two nodes share one non-indexed mesh, mode left out (= triangles).
    const bin = new Uint8Array(new Float32Array(TRI).buffer)
    const json = {
      asset: { version: '2.0' },
      buffers: [{ byteLength: bin.length, uri: 'data:application/gltf-buffer;base64,' + Buffer.from(bin).toString('base64') }],
      bufferViews: [{ buffer: 0, byteLength: bin.length }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      nodes: [{ mesh: 0 }, { mesh: 0, translation: [0, 0, 2] }],
      scenes: [{ nodes: [0, 1] }],
      scene: 0,
    }
    const m = await parseGltf(enc.encode(JSON.stringify(json)), 'two.gltf', false)
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 3, 4, 5])
    expect(Array.from(m.positions.subarray(9))).toEqual([0, 0, 2, 1, 0, 2, 0, 1, 2])
  })

  it('keeps triangles outward under a mirroring transform', async () => {
    const glb = await io.writeBinary(makeDoc({ childScale: [-1, 1, 1] }))
    const m = await parseGltf(glb, 'mirror.glb', true)
    const p = m.positions
    const [a, b, c] = Array.from(m.indices, (i) => [p[3 * i], p[3 * i + 1]])
    const crossZ = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    expect(crossZ).toBeGreaterThan(0) // still counter-clockwise from +z
    expect(Array.from(p)).toEqual([10, 5, 0, 9, 5, 0, 10, 6, 0])
  })

  it('converts triangle strips and skips points', async () => {
    const strip = await parseGltf(await io.writeBinary(makeDoc({ mode: 5 })), 'strip.glb', true)
    expect(strip.indices.length).toBe(3)
    await expectParseError(parseGltf(await io.writeBinary(makeDoc({ mode: 0 })), 'points.glb', true), /"points\.glb" has no triangle meshes/)
  })

  it('refuses external buffers with advice', async () => {
    const { json } = await io.writeJSON(makeDoc())
    json.buffers![0].uri = 'tri.bin'
    await expectParseError(
      parseGltf(enc.encode(JSON.stringify(json)), 'ext.gltf', false),
      /"ext\.gltf" references external file tri\.bin; import a \.glb or a \.gltf with embedded buffers/,
    )
  })

  it('turns garbage and library errors into MESH_PARSE', async () => {
    const garbage = new Uint8Array(256).map((_, i) => (i * 37 + 11) & 0xff)
    await expectParseError(parseGltf(garbage, 'junk.glb', true), /"junk\.glb" is not a GLB file/)
    await expectParseError(parseGltf(garbage, 'junk.gltf', false), /"junk\.gltf" is not valid glTF JSON/)
    await expectParseError(parseGltf(enc.encode('{"hello": 1}'), 'hello.gltf', false), /is not a glTF file/)
    await expectParseError(parseGltf(enc.encode('{"asset": {"version": "1.0"}}'), 'old.gltf', false), /glTF 1\.0; Eddy reads glTF 2\.0/)
    const glb = await io.writeBinary(makeDoc())
    await expectParseError(parseGltf(glb.slice(0, 40), 'cut.glb', true), /"cut\.glb" is not a valid GLB file/)
    // Errors raised inside gltf-transform are wrapped with the file name.
    const { json } = await io.writeJSON(makeDoc())
    json.extensionsRequired = ['KHR_draco_mesh_compression']
    json.extensionsUsed = ['KHR_draco_mesh_compression']
    const { resources } = await io.writeJSON(makeDoc())
    json.buffers![0].uri = 'data:application/octet-stream;base64,' + Buffer.from(Object.values(resources)[0]).toString('base64')
    await expectParseError(
      parseGltf(enc.encode(JSON.stringify(json)), 'draco.gltf', false),
      /"draco\.gltf" could not be read as glTF: Missing required extension/,
    )
  })

  it('reads a GLB renamed to .gltf', async () => {
    const glb = await io.writeBinary(makeDoc())
    const m = await parseGltf(glb, 'renamed.gltf', false)
    expect(m.indices.length).toBe(3)
  })
})

// glTF 2.0 (.gltf with embedded buffers, and .glb) through @gltf-transform/core, flattened to
// one world-space triangle mesh: every triangle primitive of every node in the default scene,
// with the node's world transform applied.
//
// The container (GLB chunks, data: URIs) is unpacked here rather than by the library so that
// (a) nothing ever tries to fetch or read a file (WebIO would call fetch() for a URI), and
// (b) external files get a clear message instead of a network error. Images are never
// decoded: geometry is all Eddy needs.
import { GLB_BUFFER, Logger, WebIO, type Document, type GLTF, type Node, type Primitive } from '@gltf-transform/core'
import { EddyError, isEddyError } from '../api/errors'
import type { TriMesh } from '../geometry/triMesh'
import { decodeUtf8 } from './textBytes'

const GLB_MAGIC = 0x46546c67 // "glTF"
const CHUNK_JSON = 0x4e4f534a
const CHUNK_BIN = 0x004e4942

interface JsonDoc {
  json: GLTF.IGLTF
  resources: Record<string, Uint8Array<ArrayBuffer>>
}

/** Throws MESH_PARSE (naming `name`) for malformed files, external resources, or no triangles. */
export async function parseGltf(bytes: Uint8Array, name: string, isBinary: boolean): Promise<TriMesh> {
  let doc: Document
  try {
    // Sniff rather than trust the extension: a GLB renamed .gltf still reads.
    const jsonDoc = isGlb(bytes) ? splitGlb(bytes, name) : readJsonText(bytes, name, isBinary)
    resolveResources(jsonDoc, name)
    const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT))
    doc = await io.readJSON(jsonDoc)
  } catch (e) {
    throw asParseError(e, name)
  }
  try {
    return flatten(doc, name)
  } catch (e) {
    throw asParseError(e, name)
  }
}

function asParseError(e: unknown, name: string): EddyError {
  if (isEddyError(e)) return e
  const message = e instanceof Error ? e.message : String(e)
  return new EddyError('MESH_PARSE', `"${name}" could not be read as glTF: ${message}`)
}

function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === GLB_MAGIC
}

function readJsonText(bytes: Uint8Array, name: string, isBinary: boolean): JsonDoc {
  if (isBinary) throw new EddyError('MESH_PARSE', `"${name}" is not a GLB file (no glTF binary header)`)
  let json: unknown
  try {
    json = JSON.parse(decodeUtf8(bytes).replace(/^\uFEFF/, ''))
  } catch (e) {
    throw new EddyError('MESH_PARSE', `"${name}" is not valid glTF JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  return { json: checkJson(json, name), resources: {} }
}

/** GLB: 12-byte header, a JSON chunk, then optionally a BIN chunk (which buffer 0 refers to). */
function splitGlb(bytes: Uint8Array, name: string): JsonDoc {
  const bad = (why: string): never => {
    throw new EddyError('MESH_PARSE', `"${name}" is not a valid GLB file: ${why}`)
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 20) bad('it is truncated')
  const version = view.getUint32(4, true)
  if (version !== 2) bad(`glTF version ${version} is not supported (Eddy reads glTF 2.0)`)
  const length = view.getUint32(8, true)
  if (length > bytes.length) bad(`the header declares ${length} bytes but the file holds ${bytes.length}`)
  let at = 12
  let json: unknown
  let bin: Uint8Array<ArrayBuffer> | undefined
  while (at + 8 <= length) {
    const chunkLength = view.getUint32(at, true)
    const type = view.getUint32(at + 4, true)
    const start = at + 8
    if (start + chunkLength > length) bad('a chunk runs past the end of the file')
    if (at === 12 && type !== CHUNK_JSON) bad('the first chunk is not JSON')
    if (type === CHUNK_JSON && json === undefined) {
      try {
        json = JSON.parse(decodeUtf8(bytes, start, start + chunkLength))
      } catch (e) {
        bad(`its JSON chunk does not parse (${e instanceof Error ? e.message : String(e)})`)
      }
    } else if (type === CHUNK_BIN && bin === undefined) {
      // Copy: the library wants an ArrayBuffer-backed view it may keep.
      bin = bytes.slice(start, start + chunkLength) as Uint8Array<ArrayBuffer>
    }
    at = start + chunkLength
  }
  if (json === undefined) bad('it has no JSON chunk')
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {}
  if (bin) resources[GLB_BUFFER] = bin
  return { json: checkJson(json, name), resources }
}

function checkJson(json: unknown, name: string): GLTF.IGLTF {
  const asset = (json as { asset?: { version?: unknown } } | null)?.asset
  if (typeof json !== 'object' || json === null || Array.isArray(json) || typeof asset?.version !== 'string') {
    throw new EddyError('MESH_PARSE', `"${name}" is not a glTF file (no asset.version)`)
  }
  if (!asset.version.startsWith('2.')) {
    throw new EddyError('MESH_PARSE', `"${name}" is glTF ${asset.version}; Eddy reads glTF 2.0`)
  }
  return json as GLTF.IGLTF
}

/**
 * Decodes data: URI buffers into the resource map and refuses external ones. Images get an
 * empty placeholder so the library neither decodes nor looks them up.
 */
function resolveResources(doc: JsonDoc, name: string): void {
  const buffers = doc.json.buffers ?? []
  for (let i = 0; i < buffers.length; i++) {
    const uri = buffers[i].uri
    if (uri === undefined) continue // the GLB BIN chunk
    if (uri.startsWith('data:')) {
      const comma = uri.indexOf(',')
      if (comma < 0 || !uri.slice(0, comma).endsWith(';base64')) {
        throw new EddyError('MESH_PARSE', `"${name}": buffer ${i} has a data: URI that is not base64`)
      }
      const key = `__eddy_buffer_${i}.bin` // "__" prefix: the library treats it as internal
      doc.resources[key] = decodeBase64(uri.slice(comma + 1), name)
      buffers[i].uri = key
    } else if (!(uri in doc.resources)) {
      throw new EddyError(
        'MESH_PARSE',
        `"${name}" references external file ${uri}; import a .glb or a .gltf with embedded buffers`,
        { uri },
      )
    }
  }
  for (const image of doc.json.images ?? []) {
    if (image.uri !== undefined) doc.resources[image.uri] = new Uint8Array(0)
  }
}

const B64 = new Int16Array(128).fill(-1)
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i
B64['-'.charCodeAt(0)] = 62 // base64url, which some tools emit
B64['_'.charCodeAt(0)] = 63

function decodeBase64(text: string, name: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let n = 0, acc = 0, bitsHeld = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 61) break // '=' padding ends the data
    if (c === 32 || c === 10 || c === 13 || c === 9) continue
    const v = c < 128 ? B64[c] : -1
    if (v < 0) throw new EddyError('MESH_PARSE', `"${name}": an embedded buffer is not valid base64`)
    acc = ((acc << 6) | v) & 0xffffff
    bitsHeld += 6
    if (bitsHeld >= 8) {
      bitsHeld -= 8
      out[n++] = (acc >> bitsHeld) & 0xff
    }
  }
  return out.slice(0, n)
}

function flatten(doc: Document, name: string): TriMesh {
  const root = doc.getRoot()
  // glTF without a default scene: use the first; without any scene, all top-level nodes.
  const scene = root.getDefaultScene() ?? root.listScenes()[0]
  const nodes: Node[] = []
  if (scene) scene.traverse((node) => nodes.push(node))
  else for (const top of root.listNodes().filter((n) => !n.getParentNode())) top.traverse((node) => nodes.push(node))

  const posParts: Float32Array[] = []
  const idxParts: Uint32Array[] = []
  let vertexBase = 0
  for (const node of nodes) {
    const mesh = node.getMesh()
    if (!mesh) continue
    const m = node.getWorldMatrix()
    // A mirroring transform turns counter-clockwise into clockwise; swap to keep outward.
    const flip = det3(m) < 0
    for (const prim of mesh.listPrimitives()) {
      const tri = primitiveTriangles(prim, name)
      if (!tri) continue
      const { local, indices } = tri
      const world = new Float32Array(local.length)
      for (let i = 0; i < local.length; i += 3) {
        const x = local[i], y = local[i + 1], z = local[i + 2]
        // column-major 4x4 (gl-matrix layout)
        world[i] = m[0] * x + m[4] * y + m[8] * z + m[12]
        world[i + 1] = m[1] * x + m[5] * y + m[9] * z + m[13]
        world[i + 2] = m[2] * x + m[6] * y + m[10] * z + m[14]
      }
      for (let t = 0; t < indices.length; t += 3) {
        const a = indices[t], b = indices[t + 1], c = indices[t + 2]
        indices[t] = a + vertexBase
        indices[t + 1] = (flip ? c : b) + vertexBase
        indices[t + 2] = (flip ? b : c) + vertexBase
      }
      posParts.push(world)
      idxParts.push(indices)
      vertexBase += local.length / 3
    }
  }
  if (idxParts.length === 0) throw new EddyError('MESH_PARSE', `"${name}" has no triangle meshes`)
  return { positions: concat(posParts, Float32Array), indices: concat(idxParts, Uint32Array) }
}

function det3(m: ArrayLike<number>): number {
  return (
    m[0] * (m[5] * m[10] - m[9] * m[6]) -
    m[4] * (m[1] * m[10] - m[9] * m[2]) +
    m[8] * (m[1] * m[6] - m[5] * m[2])
  )
}

/** Local positions and 0-based triangle indices of one primitive; null for points/lines. */
function primitiveTriangles(prim: Primitive, name: string): { local: Float32Array; indices: Uint32Array } | null {
  const mode = prim.getMode() // the library reports 4 when the file leaves mode out
  if (mode !== 4 && mode !== 5 && mode !== 6) return null
  const position = prim.getAttribute('POSITION')
  if (!position || !position.getArray()) return null
  const count = position.getCount()
  let local: Float32Array
  const raw = position.getArray()
  if (raw instanceof Float32Array && !position.getNormalized() && position.getElementSize() === 3) {
    local = raw.slice(0, count * 3)
  } else {
    // Quantised or normalised integer positions: getElement decodes them.
    local = new Float32Array(count * 3)
    const e = [0, 0, 0]
    for (let i = 0; i < count; i++) {
      position.getElement(i, e)
      local[3 * i] = e[0]; local[3 * i + 1] = e[1]; local[3 * i + 2] = e[2]
    }
  }
  const indexAccessor = prim.getIndices()
  const order = indexAccessor?.getArray() ?? null
  const n = order ? order.length : count // non-indexed: vertices in order
  const at = (k: number): number => (order ? order[k] : k)
  for (let k = 0; k < n; k++) {
    const v = at(k)
    if (!(v >= 0 && v < count)) {
      throw new EddyError('MESH_PARSE', `"${name}": a primitive index (${v}) is out of range (${count} vertices)`)
    }
  }
  let indices: Uint32Array
  if (mode === 4) {
    const t = Math.floor(n / 3)
    indices = new Uint32Array(t * 3)
    for (let k = 0; k < t * 3; k++) indices[k] = at(k)
  } else if (mode === 5) {
    // Strip: every other triangle is reversed so all keep the first one's winding.
    const t = Math.max(0, n - 2)
    indices = new Uint32Array(t * 3)
    for (let k = 0; k < t; k++) {
      const even = k % 2 === 0
      indices[3 * k] = at(k)
      indices[3 * k + 1] = at(even ? k + 1 : k + 2)
      indices[3 * k + 2] = at(even ? k + 2 : k + 1)
    }
  } else {
    const t = Math.max(0, n - 2)
    indices = new Uint32Array(t * 3)
    for (let k = 0; k < t; k++) {
      indices[3 * k] = at(0)
      indices[3 * k + 1] = at(k + 1)
      indices[3 * k + 2] = at(k + 2)
    }
  }
  if (indices.length === 0) return null
  return { local, indices }
}

function concat<T extends Float32Array | Uint32Array>(parts: T[], Ctor: { new (n: number): T }): T {
  let total = 0
  for (const p of parts) total += p.length
  const out = new Ctor(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

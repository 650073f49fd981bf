// One frame of simulated meshes as a self-contained glTF 2.0 file (.glb, or .gltf with the
// buffer embedded as a data: URI), one node + mesh per FrameMesh, through @gltf-transform/core.
// Self-contained because a sequence of .gltf files sharing "buffer.bin" names would overwrite
// each other's buffers; frame number and time go into the scene's extras for pipelines that
// want them. glTF is Y up by specification, so meshes are written in Eddy's own axes.
import { Document, Format, Logger, WebIO } from '@gltf-transform/core'
import { EddyError } from '../api/errors'
import type { FrameMesh } from '../sim/frame'

export interface GltfFrameOptions {
  /** true: .glb bytes; false: .gltf JSON text (UTF-8) with embedded buffer. */
  binary: boolean
  frame?: number
  time?: number
}

/** What the file holds, for manifests. Empty meshes (no triangles) are left out of the file. */
export interface GltfFrameSummary {
  meshes: number
  vertices: number
  triangles: number
}

export async function writeGltfFrame(meshes: readonly FrameMesh[], opts: GltfFrameOptions): Promise<{ bytes: Uint8Array; summary: GltfFrameSummary }> {
  const doc = new Document()
  doc.createBuffer()
  const scene = doc.createScene('Eddy')
  if (opts.frame !== undefined || opts.time !== undefined) scene.setExtras({ eddyFrame: opts.frame, eddyTime: opts.time })
  doc.getRoot().setDefaultScene(scene)
  const summary: GltfFrameSummary = { meshes: 0, vertices: 0, triangles: 0 }
  for (const m of meshes) {
    checkMesh(m)
    // glTF accessors must hold at least one element: an empty surface has no mesh, only its
    // node, so the name still shows up in an outliner.
    const node = doc.createNode(m.name)
    scene.addChild(node)
    if (m.indices.length === 0) continue
    node.setMesh(meshOf(doc, m))
    summary.meshes++
    summary.vertices += m.positions.length / 3
    summary.triangles += m.indices.length / 3
  }
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT))
  if (opts.binary) return { bytes: await io.writeBinary(doc), summary }
  const { json, resources } = await io.writeJSON(doc, { format: Format.GLTF })
  for (const buffer of json.buffers ?? []) {
    if (buffer.uri === undefined) continue
    const data = resources[buffer.uri]
    if (!data) throw new EddyError('INTERNAL', `glTF writer lost buffer "${buffer.uri}"`)
    buffer.uri = 'data:application/octet-stream;base64,' + toBase64(data)
  }
  return { bytes: encodeUtf8(JSON.stringify(json)), summary }
}

function meshOf(doc: Document, m: FrameMesh) {
  const prim = doc.createPrimitive()
  prim.setAttribute('POSITION', doc.createAccessor(`${m.name}_positions`).setType('VEC3').setArray(m.positions))
  if (m.normals) prim.setAttribute('NORMAL', doc.createAccessor(`${m.name}_normals`).setType('VEC3').setArray(m.normals))
  prim.setIndices(doc.createAccessor(`${m.name}_indices`).setType('SCALAR').setArray(m.indices))
  return doc.createMesh(m.name).addPrimitive(prim)
}

function checkMesh(m: FrameMesh): void {
  const n = m.positions.length / 3
  if (!Number.isInteger(n) || m.indices.length % 3 !== 0) throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" has malformed arrays`)
  if (m.normals && m.normals.length !== m.positions.length) throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" has ${m.normals.length / 3} normals for ${n} vertices`)
  for (let i = 0; i < m.indices.length; i++) {
    if (m.indices[i] >= n) throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" triangle ${Math.floor(i / 3)} uses vertex ${m.indices[i]} of ${n}`)
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Standard base64 with padding (no btoa or Buffer: shared code has neither). */
export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = []
  let line = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i], b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0
    const n = (a << 16) | (b << 8) | c
    line += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=')
    // Joining chunks keeps string building linear for multi-megabyte buffers.
    if (line.length >= 8192) {
      parts.push(line)
      line = ''
    }
  }
  parts.push(line)
  return parts.join('')
}

/** UTF-8 bytes of a string (src-shared's ES lib has no TextEncoder). */
function encodeUtf8(text: string): Uint8Array {
  const out = new Uint8Array(3 * text.length) // a UTF-16 unit never needs more than 3 bytes
  let o = 0
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c < 0x80) {
      out[o++] = c
      continue
    }
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1)
      if (lo >= 0xdc00 && lo < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00)
        i++
      }
    }
    if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6)
    } else if (c < 0x10000) {
      out[o++] = 0xe0 | (c >> 12)
      out[o++] = 0x80 | ((c >> 6) & 63)
    } else {
      out[o++] = 0xf0 | (c >> 18)
      out[o++] = 0x80 | ((c >> 12) & 63)
      out[o++] = 0x80 | ((c >> 6) & 63)
    }
    out[o++] = 0x80 | (c & 63)
  }
  return out.slice(0, o)
}

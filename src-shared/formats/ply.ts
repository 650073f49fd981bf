// Binary little-endian PLY for particle caches and triangle meshes: the format Blender,
// Houdini and MeshLab all import. Particles carry their solver attributes as extra vertex
// properties (velocity -> vx vy vz, vorticity -> vorticity_x …, id -> id); meshes carry their
// per-vertex attributes the same way, the 'color' attribute as the red green blue bytes
// every PLY reader shows as vertex colour (sRGB-encoded, see vertexColour.ts).
import { EddyError } from '../api/errors'
import type { FrameMesh, ParticleSet } from '../sim/frame'
import { linearToSrgb, vertexColours } from './vertexColour'

interface Column {
  name: string
  data: Float32Array | Uint32Array | Uint8Array
  components: number
  component: number
  type: 'float' | 'uint' | 'uchar'
}

const BYTES = { float: 4, uint: 4, uchar: 1 } as const

const AXES = ['x', 'y', 'z', 'w']

function propertyNames(name: string, components: number): string[] {
  if (components === 1) return [name]
  if (name === 'velocity' && components === 3) return ['vx', 'vy', 'vz']
  return Array.from({ length: components }, (_, c) => `${name}_${AXES[c] ?? c}`)
}

function checkName(name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new EddyError('INVALID_PARAM', `PLY property name "${name}" must be letters, digits and underscores`, { field: name })
}

function encode(header: string, vertexCount: number, columns: Column[], faces?: Uint32Array): Uint8Array {
  const head = new Uint8Array(header.length)
  for (let i = 0; i < header.length; i++) head[i] = header.charCodeAt(i) & 0x7f
  let rowBytes = 0
  for (const c of columns) rowBytes += BYTES[c.type]
  const vertexBytes = rowBytes * vertexCount
  const faceBytes = faces ? (faces.length / 3) * 13 : 0
  const out = new Uint8Array(head.length + vertexBytes + faceBytes)
  out.set(head)
  const view = new DataView(out.buffer)
  let o = head.length
  for (let v = 0; v < vertexCount; v++) {
    for (const c of columns) {
      const value = c.data[v * c.components + c.component]
      if (c.type === 'float') view.setFloat32(o, value, true)
      else if (c.type === 'uint') view.setUint32(o, value, true)
      else view.setUint8(o, value)
      o += BYTES[c.type]
    }
  }
  if (faces) {
    for (let t = 0; t < faces.length; t += 3) {
      view.setUint8(o, 3)
      view.setUint32(o + 1, faces[t], true)
      view.setUint32(o + 5, faces[t + 1], true)
      view.setUint32(o + 9, faces[t + 2], true)
      o += 13
    }
  }
  return out
}

/** A particle set as binary PLY: x y z, then every attribute (ids as uint32). */
export function writeParticlePly(set: ParticleSet, comment = 'Eddy particle cache'): Uint8Array {
  if (set.positions.length !== 3 * set.count) throw new EddyError('INVALID_PARAM', `Particle set "${set.name}" has ${set.positions.length / 3} positions for ${set.count} particles`)
  const columns: Column[] = [0, 1, 2].map((c) => ({ name: AXES[c], data: set.positions, components: 3, component: c, type: 'float' }))
  for (const [name, attr] of Object.entries(set.attributes)) {
    checkName(name)
    if (attr.data.length !== attr.components * set.count) throw new EddyError('INVALID_PARAM', `Attribute "${name}" has ${attr.data.length} values for ${set.count} particles x ${attr.components}`)
    // Ids are whole numbers stored as float32 by the solvers; PLY readers expect integers.
    const isId = name === 'id' && attr.components === 1
    const data = isId ? Uint32Array.from(attr.data) : attr.data
    propertyNames(name, attr.components).forEach((p, c) => columns.push({ name: p, data, components: attr.components, component: c, type: isId ? 'uint' : 'float' }))
  }
  const header =
    `ply\nformat binary_little_endian 1.0\ncomment ${comment}\nelement vertex ${set.count}\n` +
    columns.map((c) => `property ${c.type === 'float' ? 'float' : 'uint'} ${c.name}\n`).join('') +
    'end_header\n'
  return encode(header, set.count, columns)
}

/**
 * A triangle mesh as binary PLY: x y z, nx ny nz when the mesh has normals, then every
 * per-vertex attribute (velocity -> vx vy vz, other vectors name_x name_y name_z, scalars by
 * name; 'color' -> uchar red green blue).
 */
export function writeMeshPly(mesh: FrameMesh, comment = 'Eddy mesh'): Uint8Array {
  const n = mesh.positions.length / 3
  if (!Number.isInteger(n) || mesh.indices.length % 3 !== 0) throw new EddyError('INVALID_PARAM', `Mesh "${mesh.name}" has malformed arrays`)
  for (let i = 0; i < mesh.indices.length; i++) {
    if (mesh.indices[i] >= n) throw new EddyError('INVALID_PARAM', `Mesh "${mesh.name}" triangle ${Math.floor(i / 3)} uses vertex ${mesh.indices[i]} of ${n}`)
  }
  const columns: Column[] = [0, 1, 2].map((c) => ({ name: AXES[c], data: mesh.positions, components: 3, component: c, type: 'float' }))
  if (mesh.normals) {
    if (mesh.normals.length !== mesh.positions.length) throw new EddyError('INVALID_PARAM', `Mesh "${mesh.name}" has ${mesh.normals.length / 3} normals for ${n} vertices`)
    ;['nx', 'ny', 'nz'].forEach((name, c) => columns.push({ name, data: mesh.normals!, components: 3, component: c, type: 'float' }))
  }
  columns.push(...attributeColumns(mesh, n))
  const names = new Set<string>()
  for (const c of columns) {
    if (names.has(c.name)) throw new EddyError('INVALID_PARAM', `Mesh "${mesh.name}" would have two PLY properties named "${c.name}"; rename an attribute`, { field: c.name })
    names.add(c.name)
  }
  const header =
    `ply\nformat binary_little_endian 1.0\ncomment ${comment}\nelement vertex ${n}\n` +
    columns.map((c) => `property ${c.type} ${c.name}\n`).join('') +
    `element face ${mesh.indices.length / 3}\nproperty list uchar uint vertex_indices\nend_header\n`
  return encode(header, n, columns, mesh.indices)
}

function attributeColumns(mesh: FrameMesh, vertices: number): Column[] {
  const columns: Column[] = []
  const colours = vertexColours(mesh)
  for (const [name, attr] of Object.entries(mesh.attributes ?? {})) {
    if (attr.data === colours) {
      const bytes = new Uint8Array(colours.length)
      for (let i = 0; i < colours.length; i++) bytes[i] = Math.round(255 * linearToSrgb(colours[i]))
      ;['red', 'green', 'blue'].forEach((p, c) => columns.push({ name: p, data: bytes, components: 3, component: c, type: 'uchar' }))
      continue
    }
    checkName(name)
    if (attr.data.length !== attr.components * vertices) {
      throw new EddyError('INVALID_PARAM', `Mesh "${mesh.name}" attribute "${name}" has ${attr.data.length} values for ${vertices} vertices x ${attr.components}`)
    }
    propertyNames(name, attr.components).forEach((p, c) => columns.push({ name: p, data: attr.data, components: attr.components, component: c, type: 'float' }))
  }
  return columns
}

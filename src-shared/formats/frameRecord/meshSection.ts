// Mesh sections (frame meshes, and each rigid body's local mesh): positions f32[] | indices
// u32[] | normals f32[] | each per-vertex attribute's f32[] in header order.
import { EddyError } from '../../api/errors'
import type { FrameMesh, MeshAttribute } from '../../sim/frame'
import { concat, f32Bytes, readF32, readU32, u32Bytes } from './bytes'
import { corrupt } from './corrupt'
import type { MeshHeader } from './header'

/** The raw (not yet deflated) bytes of a mesh and its header without the packed length. */
export function encodeMesh(m: FrameMesh, what: string): { raw: Uint8Array; header: Omit<MeshHeader, 'packed'> } {
  const vertices = m.positions.length / 3
  const attrs = Object.entries(m.attributes ?? {})
  for (const [name, a] of attrs) {
    if (a.components !== 1 && a.components !== 3) throw new EddyError('INVALID_PARAM', `${what} attribute '${name}' has ${String(a.components)} components (1 or 3)`)
    if (a.data.length !== a.components * vertices) {
      throw new EddyError('INVALID_PARAM', `${what} attribute '${name}' has ${a.data.length} values for ${vertices} vertices x ${a.components}`)
    }
  }
  const raw = concat([
    f32Bytes(m.positions),
    u32Bytes(m.indices),
    ...(m.normals ? [f32Bytes(m.normals)] : []),
    ...attrs.map(([, a]) => f32Bytes(a.data)),
  ])
  return {
    raw,
    header: {
      name: m.name,
      positions: m.positions.length,
      indices: m.indices.length,
      normals: m.normals ? m.normals.length : null,
      attributes: attrs.map(([name, a]) => ({ name, components: a.components, length: a.data.length })),
      raw: raw.length,
    },
  }
}

/** Checks the header's lengths against each other; `what` names the mesh in errors. */
export function checkMeshHeader(mh: MeshHeader, what: string): void {
  let want = mh.positions + mh.indices + (mh.normals ?? 0)
  for (const [j, a] of (mh.attributes ?? []).entries()) {
    if (a.components !== 1 && a.components !== 3) throw corrupt(`${what} attribute ${j} has ${a.components} components`)
    if (a.length * 3 !== a.components * mh.positions) throw corrupt(`${what} attribute ${j} length disagrees with its vertex count`)
    want += a.length
  }
  if (mh.raw !== 4 * want) throw corrupt(`${what} size disagrees with its array lengths`)
}

export function decodeMesh(mh: MeshHeader, raw: Uint8Array): FrameMesh {
  const m: FrameMesh = {
    name: mh.name,
    positions: readF32(raw, 0, mh.positions),
    indices: readU32(raw, mh.positions * 4, mh.indices),
  }
  let o = 4 * (mh.positions + mh.indices)
  if (mh.normals !== null) {
    m.normals = readF32(raw, o, mh.normals)
    o += 4 * mh.normals
  }
  if (mh.attributes && mh.attributes.length > 0) {
    const attributes: Record<string, MeshAttribute> = {}
    for (const a of mh.attributes) {
      attributes[a.name] = { components: a.components as 1 | 3, data: readF32(raw, o, a.length) }
      o += 4 * a.length
    }
    m.attributes = attributes
  }
  return m
}

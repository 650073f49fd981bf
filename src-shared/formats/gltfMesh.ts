// A FrameMesh as a glTF mesh: POSITION, NORMAL, indices, and its per-vertex attributes: the
// linear-RGB 'color' as COLOR_0 (glTF's own vertex colour, linear by specification) and every
// other attribute as an application-specific `_<name>` accessor (the spec's rule for custom
// attributes: a leading underscore), SCALAR or VEC3. Blender imports these as attributes.
import type { Document, Mesh } from '@gltf-transform/core'
import { EddyError } from '../api/errors'
import type { FrameMesh } from '../sim/frame'
import { vertexColours } from './vertexColour'

/** Custom attribute semantic of an attribute name (letters, digits and _ only, like PLY). */
export function customSemantic(name: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new EddyError('INVALID_PARAM', `glTF attribute name "${name}" must be letters, digits and underscores`, { field: name })
  return `_${name}`
}

export function gltfMeshOf(doc: Document, m: FrameMesh): Mesh {
  const prim = doc.createPrimitive()
  prim.setAttribute('POSITION', doc.createAccessor(`${m.name}_positions`).setType('VEC3').setArray(m.positions))
  if (m.normals) prim.setAttribute('NORMAL', doc.createAccessor(`${m.name}_normals`).setType('VEC3').setArray(m.normals))
  const colours = vertexColours(m)
  for (const [name, a] of Object.entries(m.attributes ?? {})) {
    const accessor = doc.createAccessor(`${m.name}_${name}`).setType(a.components === 3 ? 'VEC3' : 'SCALAR').setArray(a.data)
    prim.setAttribute(a.data === colours ? 'COLOR_0' : customSemantic(name), accessor)
  }
  prim.setIndices(doc.createAccessor(`${m.name}_indices`).setType('SCALAR').setArray(m.indices))
  return doc.createMesh(m.name).addPrimitive(prim)
}

/** Throws INVALID_PARAM for arrays that do not make a triangle mesh (glTF readers would choke). */
export function checkMesh(m: FrameMesh): void {
  const n = m.positions.length / 3
  if (!Number.isInteger(n) || m.indices.length % 3 !== 0) throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" has malformed arrays`)
  if (m.normals && m.normals.length !== m.positions.length) throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" has ${m.normals.length / 3} normals for ${n} vertices`)
  for (const [name, a] of Object.entries(m.attributes ?? {})) {
    if ((a.components !== 1 && a.components !== 3) || a.data.length !== a.components * n) {
      throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" attribute "${name}" has ${a.data.length} values for ${n} vertices x ${a.components}`)
    }
  }
  for (let i = 0; i < m.indices.length; i++) {
    if (m.indices[i] >= n) throw new EddyError('INVALID_PARAM', `Mesh "${m.name}" triangle ${Math.floor(i / 3)} uses vertex ${m.indices[i]} of ${n}`)
  }
}

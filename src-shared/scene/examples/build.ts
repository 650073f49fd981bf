// Small builders the example scenes share: objects filled from the kind's defaults (so an
// example only states what differs, and new parameters reach examples automatically) and
// the MeshInfo a document lists for each mesh it carries.
import { computeBounds } from '../../geometry/triMesh'
import { defaultParams } from '../defaults'
import type { MeshInfo, ObjectKind, ParamValue, SceneDocument, SceneObject } from '../types'
import type { ExampleMesh } from './types'

export function sceneObject(id: string, kind: ObjectKind, name: string, params: Record<string, ParamValue>, meshId?: string): SceneObject {
  const obj: SceneObject = { id, kind, name, params: { ...defaultParams(kind), ...params } }
  if (meshId !== undefined) obj.meshId = meshId
  return obj
}

/** A box of still liquid at 293.15 K filling the given region at the first frame (an initial-volume emitter). */
export function liquidBox(id: string, name: string, position: [number, number, number], scale: [number, number, number]): SceneObject {
  return sceneObject(id, 'emitter', name, { shape: 'box', fluid: 'liquid', behavior: 'geometry', position, scale, velocity: [0, 0, 0], temperature: 293.15 })
}

/** A liquid domain: the liquid solver plus the settings given (everything else default). */
export function liquidDomain(id: string, name: string, params: Record<string, ParamValue>): SceneObject {
  return sceneObject(id, 'domain', name, { solver: 'liquid', ...params })
}

/** The info row a project stores next to the triangles (format 'obj': how an artist would import it). */
export function meshInfoOf(mesh: ExampleMesh): MeshInfo {
  return {
    id: mesh.id,
    name: mesh.name,
    format: 'obj',
    vertexCount: mesh.positions.length / 3,
    triangleCount: mesh.indices.length / 3,
    bounds: computeBounds(mesh.positions),
  }
}

/** The example's resolution unless the caller overrides it. */
export function resolutionOr(options: { resolution?: number } | undefined, fallback: number): number {
  return options?.resolution ?? fallback
}

/** The document with these parameters set on every domain (a variant of an example: another solver, setting or resolution). */
export function withDomainParams(doc: SceneDocument, params: Record<string, ParamValue>): SceneDocument {
  return { ...doc, objects: doc.objects.map((o) => (o.kind === 'domain' ? { ...o, params: { ...o.params, ...params } } : o)) }
}

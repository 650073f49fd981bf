// The body of an object that has a `shape`: a unit primitive, or the triangles of its imported
// mesh (obstacles, emitters that fill a mesh with liquid, rigid bodies). While the mesh's
// triangles are still loading (or missing) a stand-in box is drawn; `key` tells when to rebuild.
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData'
import type { SceneObject } from '../../../src-shared/scene/types'
import type { VisualContext } from '../objectVisuals'
import { createUnitPrimitive, isPrimitiveShape, useCounterClockwiseFront } from '../shapes'

export interface ShapeBody {
  body: Mesh
  key: string
  /** 'primitive', 'mesh', or 'placeholder' (mesh not loaded yet). */
  kind: 'primitive' | 'mesh' | 'placeholder'
}

/** What a body built now would be made from; compare with the last one to skip rebuilding. */
export function shapeKey(ctx: VisualContext, obj: SceneObject, shape: string): string {
  if (shape !== 'mesh') return shape
  const ready = obj.meshId ? ctx.meshes.get(obj.meshId) !== undefined : false
  return `mesh:${obj.meshId ?? ''}:${ready ? 'ready' : 'pending'}`
}

export function buildShapeBody(ctx: VisualContext, obj: SceneObject, shape: string, name: string): ShapeBody {
  const key = shapeKey(ctx, obj, shape)
  const data = shape === 'mesh' && obj.meshId ? ctx.meshes.get(obj.meshId) : undefined
  if (data) {
    const body = new Mesh(`${name}:mesh`, ctx.scene)
    const vd = new VertexData()
    vd.positions = data.positions
    vd.indices = data.indices
    vd.normals = data.normals
    vd.applyToMesh(body)
    useCounterClockwiseFront(body)
    return { body, key, kind: 'mesh' }
  }
  if (isPrimitiveShape(shape)) return { body: createUnitPrimitive(shape, `${name}:${shape}`, ctx.scene), key, kind: 'primitive' }
  return { body: createUnitPrimitive('box', `${name}:placeholder`, ctx.scene), key, kind: 'placeholder' }
}

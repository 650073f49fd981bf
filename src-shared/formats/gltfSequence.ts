// One frame of simulated meshes as a self-contained glTF 2.0 file (.glb, or .gltf with the
// buffer embedded as a data: URI), through @gltf-transform/core: one node + mesh per
// FrameMesh, and one node per rigid body holding the body's local mesh at the frame's pose
// (translation + rotation), so a tool sees the body as one object that moves. Frame number
// and time go into the scene's extras for pipelines that want them. glTF is Y up by
// specification, so meshes are written in Eddy's own axes.
import { Document } from '@gltf-transform/core'
import type { FrameMesh, RigidBodyState } from '../sim/frame'
import { checkMesh, gltfMeshOf } from './gltfMesh'
import { serializeGltf } from './gltfSerialize'
import { unitQuat } from './rigidBodyPose'

export { toBase64 } from './gltfSerialize'

export interface GltfFrameOptions {
  /** true: .glb bytes; false: .gltf JSON text (UTF-8) with embedded buffer. */
  binary: boolean
  frame?: number
  time?: number
  /** Rigid bodies of the frame, each a node posed by its translation and rotation. */
  rigidBodies?: readonly RigidBodyState[]
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
  const place = (name: string, m: FrameMesh) => {
    checkMesh(m)
    // glTF accessors must hold at least one element: an empty surface has no mesh, only its
    // node, so the name still shows up in an outliner.
    const node = doc.createNode(name)
    scene.addChild(node)
    if (m.indices.length > 0) {
      node.setMesh(gltfMeshOf(doc, m))
      summary.meshes++
      summary.vertices += m.positions.length / 3
      summary.triangles += m.indices.length / 3
    }
    return node
  }
  for (const m of meshes) place(m.name, m)
  for (const b of opts.rigidBodies ?? []) {
    place(b.name, b.mesh)
      .setTranslation([b.position[0], b.position[1], b.position[2]])
      .setRotation(unitQuat(b.orientation))
      .setExtras({ eddyBodyId: b.id })
  }
  return { bytes: await serializeGltf(doc, opts.binary), summary }
}

// Rigid bodies over a frame range as ONE animated glTF 2.0 file: a node per body holding its
// body-local mesh, and one animation whose translation and rotation channels key every
// exported frame the body exists in (LINEAR interpolation; keys at the frames' times, so
// Blender and other importers place them on the same frames). Nodes start at their first pose,
// so a viewer without animation support still shows the bodies where they began.
import { Document } from '@gltf-transform/core'
import type { FrameMesh, RigidBodyState } from '../sim/frame'
import { checkMesh, gltfMeshOf } from './gltfMesh'
import { serializeGltf } from './gltfSerialize'
import { unitQuat } from './rigidBodyPose'

/** One body's keys, in time order. */
export interface RigidBodyTrack {
  id: string
  name: string
  /** Body-local mesh (from the first frame the body appears in). */
  mesh: FrameMesh
  /** Key times, s. */
  times: number[]
  /** xyz per key, m. */
  translations: number[]
  /** Unit quaternion xyzw per key, each in the hemisphere of the one before. */
  rotations: number[]
}

/** Collects the bodies of successive frames into tracks (keyed by body id). */
export class RigidTrackRecorder {
  private readonly byId = new Map<string, RigidBodyTrack>()

  add(time: number, bodies: readonly RigidBodyState[]): void {
    for (const b of bodies) {
      let t = this.byId.get(b.id)
      if (!t) {
        t = { id: b.id, name: b.name, mesh: b.mesh, times: [], translations: [], rotations: [] }
        this.byId.set(b.id, t)
      }
      const q = unitQuat(b.orientation)
      // q and -q are the same rotation; interpolating towards the far one spins the long way.
      const n = t.rotations.length
      if (n > 0 && q[0] * t.rotations[n - 4] + q[1] * t.rotations[n - 3] + q[2] * t.rotations[n - 2] + q[3] * t.rotations[n - 1] < 0) {
        for (let k = 0; k < 4; k++) q[k] = -q[k]
      }
      t.times.push(time)
      t.translations.push(b.position[0], b.position[1], b.position[2])
      t.rotations.push(q[0], q[1], q[2], q[3])
    }
  }

  get tracks(): RigidBodyTrack[] {
    return [...this.byId.values()]
  }
}

export interface RigidAnimationSummary {
  bodies: number
  keyframes: number
  vertices: number
  triangles: number
}

export async function writeGltfRigidAnimation(
  tracks: readonly RigidBodyTrack[],
  opts: { binary: boolean; name?: string },
): Promise<{ bytes: Uint8Array; summary: RigidAnimationSummary }> {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const scene = doc.createScene('Eddy')
  doc.getRoot().setDefaultScene(scene)
  const animation = doc.createAnimation(opts.name ?? 'Eddy rigid bodies')
  const summary: RigidAnimationSummary = { bodies: 0, keyframes: 0, vertices: 0, triangles: 0 }
  for (const t of tracks) {
    if (t.times.length === 0) continue
    checkMesh(t.mesh)
    const node = doc
      .createNode(t.name)
      .setTranslation([t.translations[0], t.translations[1], t.translations[2]])
      .setRotation([t.rotations[0], t.rotations[1], t.rotations[2], t.rotations[3]])
      .setExtras({ eddyBodyId: t.id })
    scene.addChild(node)
    if (t.mesh.indices.length > 0) {
      node.setMesh(gltfMeshOf(doc, t.mesh))
      summary.vertices += t.mesh.positions.length / 3
      summary.triangles += t.mesh.indices.length / 3
    }
    const input = doc.createAccessor(`${t.name}_times`).setType('SCALAR').setArray(new Float32Array(t.times)).setBuffer(buffer)
    const channel = (path: 'translation' | 'rotation', values: number[], type: 'VEC3' | 'VEC4') => {
      const output = doc.createAccessor(`${t.name}_${path}`).setType(type).setArray(new Float32Array(values)).setBuffer(buffer)
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR')
      animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler))
    }
    channel('translation', t.translations, 'VEC3')
    channel('rotation', t.rotations, 'VEC4')
    summary.bodies++
    summary.keyframes += t.times.length
  }
  return { bytes: await serializeGltf(doc, opts.binary), summary }
}

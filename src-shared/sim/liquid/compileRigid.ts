// Scene rigid bodies -> the liquid solver's rigid body setup (read once, at the bake's first
// frame) and each step's keyed poses with their rates (as obstacles' rates: compile.ts).
import { evaluateObject } from '../../scene/keyframes'
import type { SceneDocument, SceneObject, Vec3 } from '../../scene/types'
import type { PrimitiveShape } from '../../geometry/primitiveSdf'
import type { TriMesh } from '../../geometry/triMesh'
import { type CompileOptions, fail, num, str, vec } from '../compile'
import { angularVelocityFromEuler } from '../transformRates'
import type { RigidBodySetup, RigidPoseInput } from './rigidInput'
import { isClosedSurfaceRemembered } from '../../geometry/closedSurface'

const DEG = Math.PI / 180

/** The object's mesh with its scale applied (the rigid solver weighs the scaled shape). */
function scaledMesh(obj: SceneObject, scale: Vec3, opts: CompileOptions): TriMesh {
  const tri = obj.meshId ? opts.resolveMesh?.(obj.meshId) : undefined
  if (!obj.meshId || !tri) fail(obj, 'meshId', obj.meshId ? `its mesh ${obj.meshId} is not in the project` : 'shape Mesh needs an imported mesh: use Add > Import Mesh', obj.meshId ?? null)
  if (!isClosedSurfaceRemembered(tri)) fail(obj, 'meshId', 'its mesh is not closed (it has holes or open edges); a rigid body needs a watertight mesh to have a volume and a mass', obj.meshId)
  const positions = new Float32Array(tri.positions.length)
  for (let i = 0; i < positions.length; i++) positions[i] = tri.positions[i] * scale[i % 3]
  return { positions, indices: tri.indices }
}

export function compileRigidBodies(doc: SceneDocument, frame: number, frameDt: number, opts: CompileOptions): RigidBodySetup[] {
  const out: RigidBodySetup[] = []
  const starts = new Map(compileRigidPoses(doc, frame, frameDt).map((p) => [p.id, p]))
  for (const obj of doc.objects) {
    if (obj.kind !== 'rigidBody') continue
    const p = evaluateObject(obj, doc.tracks, frame)
    const shape = str(obj, p, 'shape') as PrimitiveShape | 'mesh'
    const scale = vec(obj, p, 'scale')
    const relativeDensity = num(obj, p, 'relativeDensity')
    if (!(relativeDensity > 0)) fail(obj, 'relativeDensity', `Relative density must be above 0 (got ${relativeDensity})`, relativeDensity)
    const spin = vec(obj, p, 'initialSpin')
    out.push({
      id: obj.id,
      name: obj.name,
      shape,
      scale,
      mesh: shape === 'mesh' ? scaledMesh(obj, scale, opts) : null,
      relativeDensity,
      initialVelocity: vec(obj, p, 'initialVelocity'),
      initialSpin: [spin[0] * DEG, spin[1] * DEG, spin[2] * DEG],
      restitution: num(obj, p, 'restitution'),
      friction: num(obj, p, 'friction'),
      activeFrom: num(obj, p, 'activeFrom'),
      start: { ...starts.get(obj.id)!, frame },
    })
  }
  return out
}

/** Keyed poses at `frame` and their rates over the next frame (frameDt simulated seconds). */
export function compileRigidPoses(doc: SceneDocument, frame: number, frameDt: number): RigidPoseInput[] {
  const out: RigidPoseInput[] = []
  const perSecond = frameDt > 0 ? 1 / frameDt : 0
  for (const obj of doc.objects) {
    if (obj.kind !== 'rigidBody') continue
    const p0 = evaluateObject(obj, doc.tracks, frame)
    const p1 = evaluateObject(obj, doc.tracks, frame + 1)
    const position = vec(obj, p0, 'position')
    const rotation = vec(obj, p0, 'rotation')
    const position1 = vec(obj, p1, 'position')
    const rotation1 = vec(obj, p1, 'rotation')
    out.push({
      id: obj.id,
      position,
      rotation,
      velocity: [(position1[0] - position[0]) * perSecond, (position1[1] - position[1]) * perSecond, (position1[2] - position[2]) * perSecond],
      spin: angularVelocityFromEuler(rotation, rotation1, frameDt),
    })
  }
  return out
}

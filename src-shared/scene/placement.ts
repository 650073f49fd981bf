// Where a new object goes: at the 3D cursor (Blender's rule), lifted to stand on the ground
// plane when the cursor is on or above it and the object would otherwise reach below it
// (a unit box at the origin used to be half buried in the floor).
import { defaultParams } from './defaults'
import type { ObjectKind, ParamValue, Vec3 } from './types'

type Bounds = { min: Vec3; max: Vec3 }

function vec(v: ParamValue | undefined, d: Vec3): Vec3 {
  return Array.isArray(v) && v.length === 3 ? (v as Vec3) : d
}
function num(v: ParamValue | undefined, d: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : d
}

/**
 * How far below its origin an unrotated object of this kind reaches (m). The built-in shapes
 * and the default cage span -0.5..0.5 before Scale; an imported mesh reaches its file's lowest
 * point; a domain half its height; vortex seeds and heat sources their radius.
 */
export function depthBelowOrigin(kind: ObjectKind, params: Record<string, ParamValue>, meshBounds?: Bounds): number {
  const p = { ...defaultParams(kind), ...params }
  switch (kind) {
    case 'domain':
      return vec(p.size, [2, 2, 2])[1] / 2
    case 'vortexSeed':
    case 'heatSource':
      return num(p.radius, 0)
    case 'ccCage':
      return 0.5 * vec(p.scale, [1, 1, 1])[1]
    case 'obstacle':
    case 'emitter':
    case 'rigidBody': {
      const sy = vec(p.scale, [1, 1, 1])[1]
      if (p.shape === 'mesh') return meshBounds ? Math.max(0, -meshBounds.min[1]) * sy : 0
      return 0.5 * sy
    }
  }
}

/** The new object's position for a cursor at `cursor`. */
export function positionAtCursor(kind: ObjectKind, params: Record<string, ParamValue>, cursor: Vec3, meshBounds?: Bounds): Vec3 {
  const depth = depthBelowOrigin(kind, params, meshBounds)
  const onOrAboveGround = cursor[1] >= 0
  const y = onOrAboveGround && cursor[1] - depth < 0 ? depth : cursor[1]
  return [cursor[0], y, cursor[2]]
}

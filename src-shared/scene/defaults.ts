// Starting values for new objects and names: everything a "create" request fills in.
import { KIND_SPECS } from './specs'
import type { CageGeometry, ObjectKind, ParamValue } from './types'

/** Default parameters of a kind; vec3 arrays are fresh copies so callers may mutate them. */
export function defaultParams(kind: ObjectKind): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {}
  for (const spec of KIND_SPECS[kind].params) params[spec.key] = copyValue(spec.default)
  return params
}

export function copyValue(value: ParamValue): ParamValue {
  return Array.isArray(value) ? [value[0], value[1], value[2]] : value
}

/**
 * Unit cube centred at the origin (corners at ±0.5): vertices 0-3 are the z = -0.5
 * ring, 4-7 the z = +0.5 ring. Every quad is counter-clockwise seen from outside,
 * so normals computed from the winding point outwards.
 */
export function defaultCage(): CageGeometry {
  const h = 0.5
  return {
    positions: [
      -h, -h, -h, // 0
      h, -h, -h, // 1
      h, h, -h, // 2
      -h, h, -h, // 3
      -h, -h, h, // 4
      h, -h, h, // 5
      h, h, h, // 6
      -h, h, h, // 7
    ],
    faces: [
      [0, 3, 2, 1], // -z
      [4, 5, 6, 7], // +z
      [0, 1, 5, 4], // -y
      [3, 7, 6, 2], // +y
      [0, 4, 7, 3], // -x
      [1, 2, 6, 5], // +x
    ],
  }
}

const SUFFIX = /\.\d{3,}$/

/**
 * Blender-style unique name: `base` itself when free, otherwise the lowest free
 * "stem.001", "stem.002", ... where stem is `base` without any numeric suffix
 * (so duplicating "Emitter.001" gives "Emitter.002", not "Emitter.001.001").
 */
export function uniqueName(base: string, existing: Iterable<string>): string {
  const taken = new Set(existing)
  if (!taken.has(base)) return base
  const stem = base.replace(SUFFIX, '')
  for (let n = 1; ; n++) {
    const candidate = `${stem}.${String(n).padStart(3, '0')}`
    if (!taken.has(candidate)) return candidate
  }
}

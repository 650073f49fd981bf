// Typed reads of evaluated parameters. Values come from app.valuesAt(obj); a missing or
// malformed entry (old file, partial object) falls back to the kind's spec default so the
// viewport always has something sensible to draw instead of NaN transforms.
import { specFor } from '../../src-shared/scene/specs'
import type { ObjectKind, ParamValue, Vec3 } from '../../src-shared/scene/types'

export type Values = Record<string, ParamValue>

function fallback(kind: ObjectKind, key: string): ParamValue | undefined {
  return specFor(kind, key)?.default
}

export function vec3Of(kind: ObjectKind, values: Values, key: string, dflt: Vec3 = [0, 0, 0]): Vec3 {
  const v = values[key]
  if (Array.isArray(v) && v.length === 3 && v.every(Number.isFinite)) return [v[0], v[1], v[2]]
  const d = fallback(kind, key)
  return Array.isArray(d) ? [d[0], d[1], d[2]] : dflt
}

export function numOf(kind: ObjectKind, values: Values, key: string, dflt = 0): number {
  const v = values[key]
  if (typeof v === 'number' && Number.isFinite(v)) return v
  const d = fallback(kind, key)
  return typeof d === 'number' ? d : dflt
}

export function strOf(kind: ObjectKind, values: Values, key: string, dflt = ''): string {
  const v = values[key]
  if (typeof v === 'string') return v
  const d = fallback(kind, key)
  return typeof d === 'string' ? d : dflt
}

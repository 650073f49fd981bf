// Keyframe animation: channel addressing ("rate", "position.1") and evaluation of a
// track at any fractional frame, following Blender's F-curve conventions.
import type { Keyframe, ObjectKind, ParamValue, SceneObject, Track, Vec3 } from './types'
import { specFor } from './specs'

/** Two keys closer than this (in frames) are the same key. */
const FRAME_EPS = 1e-6

export function parseChannel(path: string): { key: string; component: 0 | 1 | 2 | null } {
  const match = /^(.+)\.([0-2])$/.exec(path)
  if (!match) return { key: path, component: null }
  return { key: match[1], component: Number(match[2]) as 0 | 1 | 2 }
}

/** The number a channel addresses, or undefined when the params have no such numeric channel. */
export function readChannel(params: Record<string, ParamValue>, path: string): number | undefined {
  const { key, component } = parseChannel(path)
  const value = params[key]
  if (component === null) return typeof value === 'number' ? value : undefined
  return Array.isArray(value) ? value[component] : undefined
}

/** A new params object with one channel set; vectors are copied, never mutated. */
export function writeChannel(params: Record<string, ParamValue>, path: string, value: number): Record<string, ParamValue> {
  const { key, component } = parseChannel(path)
  const next = { ...params }
  if (component === null) {
    next[key] = value
  } else {
    const old = params[key]
    const vec: Vec3 = Array.isArray(old) ? [old[0], old[1], old[2]] : [0, 0, 0]
    vec[component] = value
    next[key] = vec
  }
  return next
}

/**
 * Value of a track at `frame`. Keys must be sorted by frame (setKey keeps them so).
 * Outside the keyed range the nearest key's value holds. Throws on an empty track:
 * there is no sensible value, and callers (evaluateObject) skip empty tracks.
 */
export function evaluateTrack(keys: readonly Keyframe[], frame: number): number {
  if (keys.length === 0) throw new RangeError('cannot evaluate a track with no keys')
  const last = keys.length - 1
  if (frame <= keys[0].frame) return keys[0].value
  if (frame >= keys[last].frame) return keys[last].value

  const i = segmentIndex(keys, frame)
  const k0 = keys[i]
  const k1 = keys[i + 1]
  switch (k0.interp) {
    case 'constant':
      return k0.value
    case 'linear':
      return k0.value + ((frame - k0.frame) / (k1.frame - k0.frame)) * (k1.value - k0.value)
    case 'bezier':
      return evaluateBezierSegment(keys, i, frame)
  }
}

/** Index i of the segment keys[i]..keys[i+1] containing frame (binary search; frame is strictly inside the key range). */
function segmentIndex(keys: readonly Keyframe[], frame: number): number {
  let lo = 0
  let hi = keys.length - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (keys[mid].frame <= frame) lo = mid
    else hi = mid
  }
  return lo
}

function evaluateBezierSegment(keys: readonly Keyframe[], i: number, frame: number): number {
  const k0 = keys[i]
  const k1 = keys[i + 1]
  const [h1, h2] = clampHandles(k0, rightHandle(keys, i), leftHandle(keys, i + 1), k1)
  const t = solveBezierT(k0.frame, h1[0], h2[0], k1.frame, frame)
  return bezier(k0.value, h1[1], h2[1], k1.value, t)
}

/**
 * Like Blender's correct_bezpart: handles may not point out of the segment, and their
 * frame extents together may not exceed it (both are scaled down keeping direction).
 * That makes frame(t) monotone, so each frame maps to exactly one curve point.
 */
function clampHandles(k0: Keyframe, h1: [number, number], h2: [number, number], k1: Keyframe): [[number, number], [number, number]] {
  const span = k1.frame - k0.frame
  // A handle pointing backwards in time is flattened onto the key's frame.
  let a: [number, number] = [Math.max(h1[0] - k0.frame, 0), h1[1] - k0.value]
  let c: [number, number] = [Math.max(k1.frame - h2[0], 0), k1.value - h2[1]]
  const reach = a[0] + c[0]
  if (reach > span) {
    const s = span / reach
    a = [a[0] * s, a[1] * s]
    c = [c[0] * s, c[1] * s]
  }
  return [
    [k0.frame + a[0], k0.value + a[1]],
    [k1.frame - c[0], k1.value - c[1]],
  ]
}

function bezier(p0: number, p1: number, p2: number, p3: number, t: number): number {
  const u = 1 - t
  return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3
}

function bezierDerivative(p0: number, p1: number, p2: number, p3: number, t: number): number {
  const u = 1 - t
  return 3 * (u * u * (p1 - p0) + 2 * u * t * (p2 - p1) + t * t * (p3 - p2))
}

/**
 * Curve parameter t in [0, 1] with x(t) = frame, for a monotone x(t).
 * Newton converges in a few steps on smooth curves; whenever a step would leave the
 * bracket (or the slope vanishes, e.g. at a zero-length handle) it bisects instead,
 * so it always converges.
 */
function solveBezierT(x0: number, x1: number, x2: number, x3: number, frame: number): number {
  const tolerance = 1e-10 * Math.max(1, x3 - x0)
  let lo = 0
  let hi = 1
  let t = (frame - x0) / (x3 - x0)
  for (let iter = 0; iter < 100; iter++) {
    const error = bezier(x0, x1, x2, x3, t) - frame
    if (Math.abs(error) < tolerance) return t
    if (error < 0) lo = t
    else hi = t
    if (hi - lo < 1e-15) return t
    const slope = bezierDerivative(x0, x1, x2, x3, t)
    let next = t - error / slope
    if (!(slope > 0) || !(next > lo && next < hi)) next = (lo + hi) / 2
    t = next
  }
  return t
}

function rightHandle(keys: readonly Keyframe[], i: number): [number, number] {
  const k = keys[i]
  if (k.handleRight) return k.handleRight
  const length = (keys[i + 1].frame - k.frame) / 3
  const slope = autoSlope(keys, i)
  return [k.frame + length, k.value + slope * length]
}

function leftHandle(keys: readonly Keyframe[], i: number): [number, number] {
  const k = keys[i]
  if (k.handleLeft) return k.handleLeft
  const length = (k.frame - keys[i - 1].frame) / 3
  const slope = autoSlope(keys, i)
  return [k.frame - length, k.value - slope * length]
}

/**
 * Tangent slope (value per frame) of an "auto clamped" key, as in Blender:
 * flat at the first/last key and at local extremes; otherwise the mean of the two
 * neighbouring secant slopes, limited to 3x the smaller one so that with one-third
 * handles neither handle passes its neighbour's value (hence no overshoot).
 */
function autoSlope(keys: readonly Keyframe[], i: number): number {
  if (i === 0 || i === keys.length - 1) return 0
  const prev = keys[i - 1]
  const k = keys[i]
  const next = keys[i + 1]
  const before = (k.value - prev.value) / (k.frame - prev.frame)
  const after = (next.value - k.value) / (next.frame - k.frame)
  if (before * after <= 0) return 0
  const mean = (before + after) / 2
  const limit = 3 * Math.min(Math.abs(before), Math.abs(after))
  return Math.sign(mean) * Math.min(Math.abs(mean), limit)
}

/**
 * The handles a key's Bezier segments use now (its own, or the automatic ones): the left one
 * when a segment arrives at it, the right one when one leaves it; null at the ends.
 */
export function keyHandles(keys: readonly Keyframe[], i: number): { left: [number, number] | null; right: [number, number] | null } {
  return { left: i > 0 ? leftHandle(keys, i) : null, right: i < keys.length - 1 ? rightHandle(keys, i) : null }
}

/** A new sorted array with `key` added, replacing any key at the same frame. */
export function setKey(keys: readonly Keyframe[], key: Keyframe): Keyframe[] {
  const kept = keys.filter((k) => Math.abs(k.frame - key.frame) >= FRAME_EPS)
  kept.push({ ...key })
  return kept.sort((a, b) => a.frame - b.frame)
}

export function deleteKey(keys: readonly Keyframe[], frame: number): Keyframe[] {
  return keys.filter((k) => Math.abs(k.frame - frame) >= FRAME_EPS)
}

export function findKey(keys: readonly Keyframe[], frame: number): Keyframe | undefined {
  return keys.find((k) => Math.abs(k.frame - frame) < FRAME_EPS)
}

/**
 * The object's params at `frame`: every animated channel replaced by its track's value.
 * Tracks of other objects, empty tracks and tracks addressing a channel the params do
 * not have (stale paths) are ignored rather than inventing parameters.
 */
/**
 * Animated values stay valid: integer parameters round (a keyed particle count of 10.4 is
 * 10), and explicit Bezier handles that overshoot are held inside the parameter's range.
 */
function conformToSpec(kind: ObjectKind, path: string, value: number): number {
  const spec = specFor(kind, parseChannel(path).key)
  if (!spec) return value
  let v = spec.type === 'int' ? Math.round(value) : value
  if (spec.min !== undefined && v < spec.min) v = spec.min
  if (spec.max !== undefined && v > spec.max) v = spec.max
  return v
}

export function evaluateObject(obj: SceneObject, tracks: readonly Track[], frame: number): Record<string, ParamValue> {
  // Copy vectors up front so the result never aliases obj.params.
  let params: Record<string, ParamValue> = {}
  for (const [key, value] of Object.entries(obj.params)) params[key] = Array.isArray(value) ? [value[0], value[1], value[2]] : value
  for (const track of tracks) {
    if (track.objectId !== obj.id || track.keys.length === 0) continue
    if (readChannel(params, track.path) === undefined) continue
    params = writeChannel(params, track.path, conformToSpec(obj.kind, track.path, evaluateTrack(track.keys, frame)))
  }
  return params
}

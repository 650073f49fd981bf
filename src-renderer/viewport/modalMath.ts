// The numbers behind Blender's modal G / R / S (modalTransform.ts drives them from the mouse
// and keyboard): how far, how much and about what, with an axis constraint, Ctrl snapping and
// a typed value. Plain arithmetic on tuples, so it is unit tested without a scene.
import type { Vec3 } from '../../src-shared/scene/types'

export type Axis = 0 | 1 | 2

/** Ctrl snapping increments (Blender's defaults at a 1 m grid, in the units artists type). */
export const SNAP = { translate: 0.1, rotateDeg: 5, scale: 0.1 } as const

/**
 * What the artist typed ("-1.5", "90", "") as a number, or null while it is not one yet
 * ("-", ".", "") so the mouse still rules.
 */
export function typedNumber(typed: string): number | null {
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(typed)) return null
  const n = Number(typed)
  return Number.isFinite(n) ? n : null
}

const snapTo = (v: number, step: number): number => Math.round(v / step) * step

/**
 * A move: `drag` is where the mouse's ray meets the plane through the object facing the camera,
 * minus where it met it at the start. Constrained to a world axis it keeps only that component;
 * a typed number moves along the axis (X when none is chosen, as Blender does).
 */
export function moveDelta(drag: Vec3, axis: Axis | null, snap: boolean, typed: number | null): Vec3 {
  if (typed !== null) {
    const out: Vec3 = [0, 0, 0]
    out[axis ?? 0] = typed
    return out
  }
  const out: Vec3 = axis === null ? [drag[0], drag[1], drag[2]] : ([0, 0, 0] as Vec3)
  if (axis !== null) out[axis] = drag[axis]
  return snap ? (out.map((v) => snapTo(v, SNAP.translate)) as Vec3) : out
}

/**
 * A turn in degrees: the angle the mouse swept around the object's centre on screen (screen y
 * points down, so a clockwise sweep is positive), unwrapped past half a turn by the caller.
 */
export function turnDegrees(sweptRad: number, snap: boolean, typed: number | null): number {
  if (typed !== null) return typed
  const deg = (sweptRad * 180) / Math.PI
  return snap ? snapTo(deg, SNAP.rotateDeg) : deg
}

/** The signed difference b - a of two angles, in (-pi, pi]. */
export function angleStep(a: number, b: number): number {
  let d = b - a
  while (d > Math.PI) d -= 2 * Math.PI
  while (d <= -Math.PI) d += 2 * Math.PI
  return d
}

/** A scale factor: the mouse's distance from the object's centre on screen over its distance at the start. */
export function scaleFactor(startDistance: number, distance: number, snap: boolean, typed: number | null): number {
  if (typed !== null) return typed
  const f = startDistance > 1e-6 ? distance / startDistance : 1
  return snap ? snapTo(f, SNAP.scale) : f
}

/** The scaling that factor gives, on every axis or only the constrained one. */
export function scaled(start: Vec3, factor: number, axis: Axis | null): Vec3 {
  return start.map((s, a) => (axis === null || axis === a ? s * factor : s)) as Vec3
}

// Keeps the smoke raymarch within a frame-time budget, so "High" on a software renderer (or a
// big 3D view) leaves the page interactive: while frames take longer than BUDGET_MS the number of
// steps shrinks, and while they are well under it the steps grow back to what the preset asks.
// Fewer steps only coarsen the march (the jittered samples hide it as noise); nothing is skipped.

/** Longest frame, ms, the viewport accepts while smoke is on screen (about 8 frames a second). */
export const BUDGET_MS = 125
/** Frames well under this leave room to grow the steps again. */
export const ROOM_MS = 60
/** Never fewer steps across the box than this. */
export const MIN_STEPS = 24

/**
 * The fraction of the preset's steps to march next frame, from this one's and the last frame's
 * duration: shrink by the overrun (at most halving), grow by a tenth while there is room.
 */
export function nextStepScale(scale: number, frameMs: number, requested: number): number {
  const floor = Math.min(1, MIN_STEPS / Math.max(1, requested))
  if (!Number.isFinite(frameMs) || frameMs <= 0) return scale
  if (frameMs > BUDGET_MS) return Math.max(floor, scale * Math.max(0.5, BUDGET_MS / frameMs))
  if (frameMs < ROOM_MS) return Math.min(1, scale * 1.1)
  return scale
}

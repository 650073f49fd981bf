// The messages between the viewport (liveSurfaceView.ts) and the live surface-flow worker
// (liveSurfaceWorker.ts). Points, drags and gravity cross in the cage's own axes with its
// scale applied (the viewport turns world quantities into them), so the worker knows nothing
// of the scene but the cage.
import type { LiveStroke, LiveSurfaceSettings } from '../../../src-shared/sim/surface/liveSurface'

export type LiveRequest =
  | { type: 'start'; positions: number[]; faces: number[][]; N: number; settings: LiveSurfaceSettings }
  | { type: 'settings'; settings: LiveSurfaceSettings }
  | { type: 'stroke'; stroke: LiveStroke }

export type LiveResponse =
  /** Once, after the surface is built: the display mesh in cage-local (scaled) axes. */
  | { type: 'ready'; positions: Float32Array; normals: Float32Array; indices: Uint32Array; patches: number; N: number }
  /** After each step: vertex colours (linear RGB, 3 per vertex) and the worker's pace. */
  | { type: 'frame'; colors: Float32Array; stepsPerSecond: number; msPerStep: number; paint: number; steps: number }
  | { type: 'error'; message: string }

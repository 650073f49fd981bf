// Figures every family's bake estimate shares (SolverFamily.estimate): what a bake worker
// costs before any field is allocated, bytes per stored value at each cache precision, and
// how well frames and checkpoints compress.
import type { FramePrecision } from '../formats/frameRecord'
import { evaluateObject } from '../scene/keyframes'
import type { SceneDocument, Vec3 } from '../scene/types'

/** Fixed cost of a bake worker: V8 heap, WebAssembly code, SQLite connection. */
export const WORKER_OVERHEAD = 96 * 1024 ** 2

export const PRECISION_BYTES: Record<FramePrecision, number> = { float32: 4, float16: 2, uint8: 1 }

/**
 * Share of the dense size a typical volume frame takes once empty tiles are skipped and the
 * rest deflated: a 128^3 plume measured 3.3 MiB in float16 against 20 MiB dense
 * (tests/bench/frameRecord.bench.ts), i.e. 0.16; 0.25 leaves room for fuller domains.
 */
export const TYPICAL_FILL = 0.25

/**
 * Checkpoints deflate to about this share of their raw size. A solver's state is mostly dense
 * floats (the pressures, the velocities, the markers): a few frames into each family's example
 * the runner's deflate (src-main/bake/checkpointDeflate.ts) kept 47-82% of the raw bytes
 * (tests/unit/bake/checkpointEstimate.test.ts prints them), and a bake's fields fill as it goes.
 * (It was 0.35 until 2026-12-08, with raw sizes that left out the pressures' float64 arrays:
 * every family's checkpoints were estimated at 0.3-0.5 of what the runner wrote.)
 */
export const CHECKPOINT_FILL = 0.8

/** Checkpoints a bake of `frames` frames writes: one every N frames plus the last. */
export function checkpointCount(frames: number, checkpointEvery: number): number {
  return Math.ceil(frames / Math.max(1, checkpointEvery)) + 1
}

/**
 * Liquid a bake's emitters put in, m^3: each initial volume's shape plus each inflow's shape
 * times its rate over `seconds` of simulated time, the shapes read at frame `at` from their
 * 1 m forms scaled (a sphere fills about half its box; meshes likewise). What the liquids'
 * estimates size their particles, cells and tetrahedra by.
 */
export function liquidEmitterVolume(doc: SceneDocument, at: number, seconds: number): number {
  let volume = 0
  for (const o of doc.objects) {
    if (o.kind !== 'emitter') continue
    const q = evaluateObject(o, doc.tracks, at)
    if (q.fluid !== 'liquid') continue
    const s = q.scale as Vec3
    const fill = q.shape === 'box' ? 1 : q.shape === 'cylinder' ? Math.PI / 4 : 0.52
    const shape = Math.abs(s[0] * s[1] * s[2]) * fill
    volume += q.behavior === 'geometry' ? shape : shape * Math.max(0, Number(q.rate ?? 0)) * seconds
  }
  return volume
}

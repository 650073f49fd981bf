// Module worker of the live surface flow: builds the LiveSurface for a cage, then steps it as
// fast as the wall clock allows (each step's dt is the real time since the last, capped by
// MAX_LIVE_STEP), applying brush strokes as they arrive and posting the vertex colours after
// every step. Off the render thread, so the viewport keeps its frame rate whatever the flow costs.
// Created by liveSurfaceView.ts as new Worker(new URL('./liveSurfaceWorker.ts', import.meta.url), { type: 'module' }).
import { LiveSurface } from '../../../src-shared/sim/surface/liveSurface'
import type { LiveRequest, LiveResponse } from './liveProtocol'

interface WorkerScope {
  onmessage: ((e: { data: LiveRequest }) => void) | null
  postMessage(message: LiveResponse, transfer?: ArrayBuffer[]): void
}
const scope = globalThis as unknown as WorkerScope

let live: LiveSurface | null = null
let last = 0
let steps = 0
/** Recent step times, ms, for the pace shown in the panel. */
const recent: number[] = []

function loop(): void {
  if (!live) return
  const t0 = performance.now()
  try {
    live.step((t0 - last) / 1000)
  } catch (err) {
    scope.postMessage({ type: 'error', message: `The live flow stopped: ${err instanceof Error ? err.message : String(err)}` })
    live = null
    return
  }
  last = t0
  steps++
  const colors = live.vertexColours(new Float32Array(3 * live.display.vertexCount))
  const ms = performance.now() - t0
  recent.push(ms)
  if (recent.length > 30) recent.shift()
  const mean = recent.reduce((a, b) => a + b, 0) / recent.length
  scope.postMessage({ type: 'frame', colors, stepsPerSecond: 1000 / Math.max(mean, 1e-3), msPerStep: mean, paint: live.paint(), steps }, [colors.buffer as ArrayBuffer])
  // Yield so strokes and settings queued meanwhile are delivered before the next step.
  setTimeout(loop, 0)
}

scope.onmessage = (e) => {
  const m = e.data
  try {
    if (m.type === 'start') {
      live = new LiveSurface(m.positions, m.faces, m.N, m.settings)
      const d = live.display
      const positions = Float32Array.from(d.localPositions), normals = Float32Array.from(d.localNormals), indices = d.indices.slice()
      scope.postMessage({ type: 'ready', positions, normals, indices, patches: live.fluid.grid.P, N: m.N }, [positions.buffer, normals.buffer, indices.buffer])
      last = performance.now()
      steps = 0
      loop()
    } else if (m.type === 'settings') {
      if (live) live.settings = m.settings
    } else if (m.type === 'stroke') {
      live?.stroke(m.stroke)
    }
  } catch (err) {
    scope.postMessage({ type: 'error', message: `The live flow could not start: ${err instanceof Error ? err.message : String(err)}` })
  }
}

// `eddy bench hybrid`'s keyframed-obstacle section: a sphere keyframed at 1 m/s along a channel
// with open ends, a jet of smoke behind it, on a hybrid mesh of about Table 1's hybrid cell count.
// A moving obstacle remeshes the band every substep (hybridSolver.ts placeObstacles: the new
// mesh, the state carried onto it, its fields and multigrid built), so the same scene with the
// sphere held still is timed beside it: the difference is what following the obstacle costs.
import { sceneObject } from '../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../src-shared/scene/types'
import type { KernelBackend } from '../../src-shared/sim/core/kernelTypes'
import { createBakeSolver } from '../../src-shared/sim/registry'

export interface MovingObstacleFigures {
  resolution: number
  cells: number
  tetrahedra: number
  /** ms a frame with the sphere held still, and keyframed (each the mean over the timed frames). */
  staticMsPerFrame: number
  movingMsPerFrame: number
  /** Of movingMsPerFrame, the remeshing (the solver's meshing phase: mesh, carry, fields). */
  movingMeshingMsPerFrame: number
  substepsPerFrame: number
}

function channel(resolution: number, moving: boolean): SceneDocument {
  return {
    meta: { name: 'Keyframed sphere', fps: 24, frameStart: 1, frameEnd: 48 },
    objects: [
      sceneObject('domain', 'domain', 'Channel', { solver: 'hybrid', position: [1, 0.6, 0.6], size: [2, 1.2, 1.2], resolution, hybridBand: 2, openXMin: true, openXMax: true }),
      sceneObject('ball', 'obstacle', 'Ball', { shape: 'sphere', position: [0.6, 0.6, 0.6], scale: [0.3, 0.3, 0.3] }),
      sceneObject('jet', 'emitter', 'Jet', { shape: 'sphere', fluid: 'gas', position: [0.2, 0.6, 0.6], scale: [0.15, 0.15, 0.15], density: 1, temperature: 320, velocity: [1.5, 0, 0], rate: 24 }),
    ],
    tracks: moving ? [{ objectId: 'ball', path: 'position.0', keys: [{ frame: 1, value: 0.6, interp: 'linear' }, { frame: 25, value: 1.6, interp: 'linear' }] }] : [],
    meshes: [],
  }
}

/** Steps the channel still and keyframed: `warmup` frames, then `frames` timed, on `kernels`. */
export function timeMovingObstacle(fraction: number, frames: number, warmup: number, kernels: KernelBackend | undefined): MovingObstacleFigures {
  // 64 cubes along the channel: 110,000 cells, about Table 1's hybrid mesh.
  const resolution = Math.max(12, Math.round(64 * Math.cbrt(fraction)))
  const run = (moving: boolean) => {
    const solver = createBakeSolver(channel(resolution, moving), 'domain', kernels ? { kernels, shared: kernels.kind === 'wasm' } : {})
    for (let f = 1; f <= warmup; f++) solver.stepFrame(f)
    let meshing = 0, substeps = 0
    const t0 = performance.now()
    for (let f = warmup + 1; f <= warmup + frames; f++) {
      const st = solver.stepFrame(f)
      meshing += st.ms.meshing ?? 0
      substeps += st.substeps
      solver.frame()
    }
    const stats = solver.frame().stats
    return { ms: (performance.now() - t0) / frames, meshing: meshing / frames, substeps: substeps / frames, cells: (stats.hexahedra as number) + (stats.tetrahedra as number), tetrahedra: stats.tetrahedra as number }
  }
  const still = run(false)
  const moving = run(true)
  return {
    resolution,
    cells: moving.cells,
    tetrahedra: moving.tetrahedra,
    staticMsPerFrame: still.ms,
    movingMsPerFrame: moving.ms,
    movingMeshingMsPerFrame: moving.meshing,
    substepsPerFrame: moving.substeps,
  }
}

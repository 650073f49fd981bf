// What a surface-flow bake costs before it starts: patches x cells per patch for the solver,
// and per frame the display mesh, the colour textures and the density shell.
import { buildLimitSurface } from '../../geometry/catmullClarkEval'
import { evaluateObject } from '../../scene/keyframes'
import { CHECKPOINT_FILL, checkpointCount, PRECISION_BYTES, TYPICAL_FILL, WORKER_OVERHEAD } from '../bakeCost'
import type { BakeEstimate, EstimateRequest } from '../family'
import { findCage } from './compileSurface'
import { MAX_DISPLAY_CELLS, SHELL_VOXELS } from './surfaceDisplay'

/**
 * Solver bytes per cell: about 60 doubles (six face arrays, the densities, the metric at cells,
 * faces and nodes, positions), the projection's matrix and multigrid (about 13 entries a row)
 * and up to four cached diffusion systems.
 */
export const SURFACE_BYTES_PER_CELL = 1500

/** Float32 cache values deflate to about this share (smooth fields, repeated indices). */
const MESH_FILL = 0.6

export function estimateSurface({ doc, hostId, frames, precision, checkpointEvery }: EstimateRequest): BakeEstimate {
  const cage = findCage(doc, hostId)
  const p = evaluateObject(cage, doc.tracks, doc.meta.frameStart)
  const N = Number(p.cellsPerPatch ?? 32)
  const geometry = cage.cage ?? { positions: [], faces: [] }
  // The patches are the faces of the base mesh the evaluator builds (the cage subdivided once
  // or twice until every patch has at most one extraordinary corner).
  const patches = buildLimitSurface({ positions: geometry.positions, faces: geometry.faces }).faces.length
  const cells = patches * N * N
  const M = Math.min(N, MAX_DISPLAY_CELLS)
  const vertices = patches * (M + 1) ** 2
  const densities = p.flowMode === 'reactionDiffusion' ? 2 : 3
  // Per frame: positions, normals, colour, density (and u, v) per vertex; 6 indices per cell;
  // the RGB texture; the shell volume.
  const meshBytes = vertices * 4 * (10 + (densities === 2 ? 2 : 0)) + patches * M * M * 24 + cells * 12
  const shell = SHELL_VOXELS ** 3 * PRECISION_BYTES[precision]
  const gridBytes = cells * SURFACE_BYTES_PER_CELL
  return {
    layout: `${patches} patches x ${N}^2 cells`,
    cells,
    frames,
    particles: 0,
    memoryBytes: gridBytes + vertices * 64 + WORKER_OVERHEAD,
    scalingBytes: gridBytes,
    cacheBytes: Math.ceil(frames * (meshBytes * MESH_FILL + shell * TYPICAL_FILL)),
    cacheBytesMax: Math.ceil(frames * (meshBytes + shell)),
    // Float64 per patch: the two face velocity arrays ((N + 2)(N + 3) each, with ghosts), the
    // pressure and the previous one (N^2 each) and the densities ((N + 2)^2 each).
    checkpointBytes: Math.ceil(checkpointCount(frames, checkpointEvery) * patches * 8 * (2 * (N + 2) * (N + 3) + 2 * N * N + densities * (N + 2) ** 2) * CHECKPOINT_FILL),
    lower: { key: 'cellsPerPatch', label: 'cells per patch', value: N, exponent: 2, min: 4 },
  }
}

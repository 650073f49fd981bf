// What a tetrahedral-liquid bake costs before it starts: the contouring grid, the tetrahedra the
// initial and inflowing liquid fills (as a uniform mesh: see below), the surface triangles per
// frame, and checkpoints (grid, surface, mesh and face velocities).
import { evaluateObject } from '../../scene/keyframes'
import type { Vec3 } from '../../scene/types'
import { CHECKPOINT_FILL, checkpointCount, liquidEmitterVolume, PRECISION_BYTES, TYPICAL_FILL, WORKER_OVERHEAD } from '../bakeCost'
import { domainGrid, findDomain } from '../compile'
import type { BakeEstimate, EstimateRequest } from '../family'
import { tetLiquidBytes } from './compileTetLiquid'

/** Tetrahedra per finest lattice cube (12 in the body-centred cubic lattice). */
const TETS_PER_CUBE = 12

export function estimateTetLiquid({ doc, hostId, frames, precision, checkpointEvery }: EstimateRequest): BakeEstimate {
  const at = doc.meta.frameStart
  const p = evaluateObject(findDomain(doc, hostId), doc.tracks, at)
  const resolution = p.resolution as number
  const g = domainGrid(p.position as Vec3, p.size as Vec3, resolution)
  const nodes = (g.nx + 3) * (g.ny + 3) * (g.nz + 3)
  const h = 2 * g.dx
  const seconds = (frames / doc.meta.fps) * ((p.timeScale as number | undefined) ?? 1)
  let liquid = liquidEmitterVolume(doc, at, seconds)
  const boxVolume = g.nx * g.ny * g.nz * g.dx ** 3
  liquid = Math.min(liquid, boxVolume)
  // Counted as a uniform mesh, graded or not: the mesher grades only where the coarse leaves
  // pay (gradedLattice.ts, GRADING_PAYS), which liquid spread thin does not. The dam break at
  // resolution 96 meshes 121,694 tetrahedra in its fourth frame: 119,440 counted so, 41,804
  // with the third of a uniform mesh a graded one was taken for until 2026-12-08.
  const tets = Math.ceil((liquid / h ** 3) * TETS_PER_CUBE)
  // A closed surface of the liquid's volume, as a sphere, in contouring cells: ~2 triangles per cell of area.
  const area = 4.84 * Math.pow(Math.max(liquid, g.dx ** 3), 2 / 3)
  const triangles = Math.ceil((2 * area) / g.dx ** 2)
  const perFrame = triangles * 1.5 * 24 + nodes * PRECISION_BYTES[precision] * TYPICAL_FILL
  const bytes = tetLiquidBytes(nodes, tets)
  return {
    layout: `${g.nx}x${g.ny}x${g.nz} contouring grid, about ${tets} tetrahedra`,
    cells: tets,
    frames,
    particles: 0,
    memoryBytes: bytes + WORKER_OVERHEAD,
    scalingBytes: bytes,
    cacheBytes: Math.ceil(frames * perFrame),
    cacheBytesMax: Math.ceil(frames * (triangles * 1.5 * 24 + nodes * PRECISION_BYTES[precision])),
    checkpointBytes: Math.ceil(checkpointCount(frames, checkpointEvery) * (nodes * 4 + triangles * 30 + tets * 72) * CHECKPOINT_FILL),
    lower: { key: 'resolution', label: 'resolution', value: resolution, exponent: 3, min: 8 },
  }
}

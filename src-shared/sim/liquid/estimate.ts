// What a liquid bake costs before it starts: markers in the initial volumes plus what inflow
// can add (capped at a full domain), the grids, and the surface mesh.
import { evaluateObject } from '../../scene/keyframes'
import type { Vec3 } from '../../scene/types'
import { CHECKPOINT_FILL, checkpointCount, liquidEmitterVolume, PRECISION_BYTES, TYPICAL_FILL, WORKER_OVERHEAD } from '../bakeCost'
import { domainGrid, findDomain } from '../compile'
import type { BakeEstimate, EstimateRequest } from '../family'
import { LIQUID_BYTES_PER_PARTICLE } from './compileLiquid'
import { LIQUID_BYTES_PER_CELL } from './liquidInput'

export function estimateLiquid({ doc, hostId, frames, precision, checkpointEvery }: EstimateRequest): BakeEstimate {
  // Read where compileLiquidScene reads the fixed settings: the bake's first frame.
  const at = doc.meta.frameStart
  const p = evaluateObject(findDomain(doc, hostId), doc.tracks, at)
  const resolution = p.resolution as number
  const g = domainGrid(p.position as Vec3, p.size as Vec3, resolution)
  const cells = g.nx * g.ny * g.nz
  const seconds = (frames / doc.meta.fps) * ((p.timeScale as number | undefined) ?? 1)
  const ppc = Number(p.particlesPerCell ?? 8)
  const refinement = Number(p.meshRefinement ?? 2)
  const mesh = p.meshSurface !== false
  const cellVolume = g.dx ** 3
  const liquidCells = Math.min(cells, liquidEmitterVolume(doc, at, seconds) / cellVolume)
  const particles = Math.ceil(liquidCells * ppc)
  const surfaceTriangles = mesh ? 4 * refinement * refinement * Math.pow(Math.max(1, liquidCells), 2 / 3) * 6 : 0
  // Per frame: particles (position, velocity, temperature, id), two volumes, the mesh.
  const perFrame = particles * 32 + 2 * cells * PRECISION_BYTES[precision] * TYPICAL_FILL + surfaceTriangles * 30
  const gridBytes = cells * LIQUID_BYTES_PER_CELL + (mesh ? cells * refinement ** 3 * 16 : 0)
  return {
    layout: `${g.nx}x${g.ny}x${g.nz} grid`,
    cells,
    frames,
    particles,
    memoryBytes: gridBytes + particles * LIQUID_BYTES_PER_PARTICLE + WORKER_OVERHEAD,
    scalingBytes: gridBytes,
    cacheBytes: Math.ceil(frames * perFrame),
    cacheBytesMax: Math.ceil(frames * (particles * 32 + 2 * cells * PRECISION_BYTES[precision] + surfaceTriangles * 30)),
    // Per cell temperature, two level sets and the surface's (float32), the pressure and its drift
    // (float64); per marker position, velocity, temperature, id and APIC's 3x3 matrix (68 bytes).
    checkpointBytes: Math.ceil(checkpointCount(frames, checkpointEvery) * (cells * (4 * 4 + 2 * 8) + particles * 68) * CHECKPOINT_FILL),
    lower: { key: 'resolution', label: 'resolution', value: resolution, exponent: 3, min: 8 },
  }
}

// What a smoke bake costs before it starts: memory from the grid and the vortex particles,
// cache size from the resolution, frame count and storage precision.
import { evaluateObject } from '../../scene/keyframes'
import type { Vec3 } from '../../scene/types'
import { CHECKPOINT_FILL, checkpointCount, PRECISION_BYTES, TYPICAL_FILL, WORKER_OVERHEAD } from '../bakeCost'
import { domainGrid, findDomain } from '../compile'
import type { BakeEstimate, EstimateRequest } from '../family'
import { SMOKE_BYTES_PER_CELL } from './compileSmoke'

/** Bytes per live vortex particle (position, vorticity, radius, scratch, id). */
const BYTES_PER_PARTICLE = 64
/** Vortex particles the smoke solver keeps at most (compileSmokeScene's default). */
const MAX_PARTICLES = 1_000_000
/** Cached values per cell: density, temperature, velocity xyz. */
const VALUES_PER_CELL = 5

export function estimateSmoke({ doc, hostId, frames, precision, checkpointEvery }: EstimateRequest): BakeEstimate {
  // Read where compileSmokeScene reads the fixed settings: frame 1.
  const p = evaluateObject(findDomain(doc, hostId), doc.tracks, 1)
  const resolution = p.resolution as number
  const g = domainGrid(p.position as Vec3, p.size as Vec3, resolution)
  const cells = g.nx * g.ny * g.nz
  const seconds = (frames / doc.meta.fps) * ((p.timeScale as number | undefined) ?? 1)
  let particles = 0
  for (const o of doc.objects) {
    const q = evaluateObject(o, doc.tracks, 1)
    if (o.kind === 'vortexSeed') particles += (q.particleCount as number | undefined) ?? 0
    if (o.kind === 'emitter') particles += ((q.vortexRate as number | undefined) ?? 0) * seconds
  }
  particles = Math.min(MAX_PARTICLES, Math.ceil(particles))
  const dense = cells * VALUES_PER_CELL * PRECISION_BYTES[precision]
  return {
    layout: `${g.nx}x${g.ny}x${g.nz} grid`,
    cells,
    frames,
    particles,
    memoryBytes: cells * SMOKE_BYTES_PER_CELL + particles * BYTES_PER_PARTICLE + WORKER_OVERHEAD,
    scalingBytes: cells * SMOKE_BYTES_PER_CELL,
    cacheBytes: Math.ceil(frames * (dense * TYPICAL_FILL + particles * 32)),
    cacheBytesMax: Math.ceil(frames * (dense + particles * 32)),
    // Per cell the velocity's three faces, density and temperature (float32), the pressure and
    // the advection-reflection's half-step pressure (float64); per particle eight float64.
    checkpointBytes: Math.ceil(checkpointCount(frames, checkpointEvery) * (cells * (5 * 4 + 2 * 8) + particles * 64) * CHECKPOINT_FILL),
    lower: { key: 'resolution', label: 'resolution', value: resolution, exponent: 3, min: 8 },
  }
}

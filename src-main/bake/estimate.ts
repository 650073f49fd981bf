// What a bake will cost before it starts: memory from the grid and the particle count,
// cache size from the resolution, frame count and storage precision. The bake is refused
// with a sentence the artist can act on when it would not fit, instead of dying part-way
// (an out-of-memory crash mid-bake is a classic complaint about peer tools).
import fs from 'node:fs'
import os from 'node:os'
import nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import { formatBytes } from '../../src-shared/formatBytes'

export { formatBytes }
import { domainGrid, SMOKE_BYTES_PER_CELL } from '../../src-shared/sim/compile'
import { LIQUID_BYTES_PER_PARTICLE } from '../../src-shared/sim/liquid/compileLiquid'
import { LIQUID_BYTES_PER_CELL } from '../../src-shared/sim/liquid/liquidInput'
import { DEFAULT_MAX_GRID_BYTES } from '../../src-shared/sim/core/grid'
import { evaluateObject } from '../../src-shared/scene/keyframes'
import type { SceneDocument, Vec3 } from '../../src-shared/scene/types'

/** Bytes per live vortex particle (position, vorticity, radius, scratch, id). */
const BYTES_PER_PARTICLE = 64
/** Vortex particles the smoke solver keeps at most (compileScene's default). */
const MAX_PARTICLES = 1_000_000
/** Fixed cost of a bake worker: V8 heap, WebAssembly code, SQLite connection. */
const WORKER_OVERHEAD = 96 * 1024 ** 2
/** Cached values per cell: density, temperature, velocity xyz. */
const VALUES_PER_CELL = 5
/**
 * Share of the dense size a typical smoke frame takes once empty tiles are skipped and the
 * rest deflated: a 128^3 plume measured 3.3 MiB in float16 against 20 MiB dense
 * (tests/bench/frameRecord.bench.ts), i.e. 0.16; 0.25 leaves room for fuller domains.
 */
const TYPICAL_FILL = 0.25
/** Checkpoints deflate to about this share of their raw size (mostly empty fields compress). */
const CHECKPOINT_FILL = 0.35

export interface BakeEstimate {
  grid: [number, number, number]
  cells: number
  frames: number
  particles: number
  /** Peak memory of the bake worker, bytes. */
  memoryBytes: number
  /** Cache size for the frames, typical and upper bound (every tile full), bytes. */
  cacheBytes: number
  cacheBytesMax: number
  checkpointBytes: number
}

const PRECISION_BYTES = { float32: 4, float16: 2, uint8: 1 } as const

export function estimateBake(
  doc: SceneDocument,
  domainId: string,
  frames: number,
  precision: keyof typeof PRECISION_BYTES,
  checkpointEvery: number,
): BakeEstimate {
  const domain = doc.objects.find((o) => o.id === domainId && o.kind === 'domain')
  if (!domain) throw new EddyError('NOT_FOUND', `There is no simulation domain with id ${domainId}`, { field: 'domainId' })
  const p = evaluateObject(domain, doc.tracks, 1)
  const g = domainGrid(p.position as Vec3, p.size as Vec3, p.resolution as number)
  const cells = g.nx * g.ny * g.nz
  const seconds = (frames / doc.meta.fps) * ((p.timeScale as number | undefined) ?? 1)
  if (p.solver === 'liquid') return estimateLiquid(doc, g, cells, frames, seconds, Number(p.particlesPerCell ?? 8), Number(p.meshRefinement ?? 2), p.meshSurface !== false, precision, checkpointEvery)
  let particles = 0
  for (const o of doc.objects) {
    const q = evaluateObject(o, doc.tracks, 1)
    if (o.kind === 'vortexSeed') particles += (q.particleCount as number | undefined) ?? 0
    if (o.kind === 'emitter') particles += ((q.vortexRate as number | undefined) ?? 0) * seconds
  }
  particles = Math.min(MAX_PARTICLES, Math.ceil(particles))
  const dense = cells * VALUES_PER_CELL * PRECISION_BYTES[precision]
  const checkpoints = Math.ceil(frames / Math.max(1, checkpointEvery)) + 1
  return {
    grid: [g.nx, g.ny, g.nz],
    cells,
    frames,
    particles,
    memoryBytes: cells * SMOKE_BYTES_PER_CELL + particles * BYTES_PER_PARTICLE + WORKER_OVERHEAD,
    cacheBytes: Math.ceil(frames * (dense * TYPICAL_FILL + particles * 32)),
    cacheBytesMax: Math.ceil(frames * (dense + particles * 32)),
    checkpointBytes: Math.ceil(checkpoints * (cells * 6 * 4 + particles * 40) * CHECKPOINT_FILL),
  }
}

/** Liquid: markers in the initial volumes plus what inflow can add, capped at a full domain. */
function estimateLiquid(
  doc: SceneDocument,
  g: { nx: number; ny: number; nz: number; dx: number },
  cells: number,
  frames: number,
  seconds: number,
  ppc: number,
  refinement: number,
  mesh: boolean,
  precision: keyof typeof PRECISION_BYTES,
  checkpointEvery: number,
): BakeEstimate {
  const cellVolume = g.dx ** 3
  let liquidCells = 0
  for (const o of doc.objects) {
    if (o.kind !== 'emitter') continue
    const q = evaluateObject(o, doc.tracks, 1)
    if (q.fluid !== 'liquid') continue
    const s = q.scale as Vec3
    // Shape volume from its 1 m form scaled (a sphere fills about half its box; meshes likewise).
    const fill = q.shape === 'box' ? 1 : q.shape === 'cylinder' ? Math.PI / 4 : 0.52
    const shapeCells = (Math.abs(s[0] * s[1] * s[2]) * fill) / cellVolume
    liquidCells += q.behavior === 'geometry' ? shapeCells : shapeCells * Math.max(0, Number(q.rate ?? 0)) * seconds
  }
  liquidCells = Math.min(cells, liquidCells)
  const particles = Math.ceil(liquidCells * ppc)
  const surfaceTriangles = mesh ? 4 * refinement * refinement * Math.pow(Math.max(1, liquidCells), 2 / 3) * 6 : 0
  // Per frame: particles (position, velocity, temperature, id), two volumes, the mesh.
  const perFrame = particles * 32 + 2 * cells * PRECISION_BYTES[precision] * TYPICAL_FILL + surfaceTriangles * 30
  return {
    grid: [g.nx, g.ny, g.nz],
    cells,
    frames,
    particles,
    memoryBytes: cells * LIQUID_BYTES_PER_CELL + particles * LIQUID_BYTES_PER_PARTICLE + (mesh ? cells * refinement ** 3 * 16 : 0) + WORKER_OVERHEAD,
    cacheBytes: Math.ceil(frames * perFrame),
    cacheBytesMax: Math.ceil(frames * (particles * 32 + 2 * cells * PRECISION_BYTES[precision] + surfaceTriangles * 30)),
    checkpointBytes: Math.ceil((Math.ceil(frames / Math.max(1, checkpointEvery)) + 1) * (cells * 8 * 4 + particles * 40) * CHECKPOINT_FILL),
  }
}

export interface Budget {
  /** Memory the bake may use, bytes (default: 80% of RAM minus other running bakes). */
  memoryBytes: number
  /** Free space on the project's disk, bytes. */
  diskBytes: number
}

export function machineBudget(projectPath: string, reservedMemory = 0): Budget {
  let diskBytes = Number.POSITIVE_INFINITY
  try {
    const s = fs.statfsSync(nodePath.dirname(projectPath))
    diskBytes = s.bavail * s.bsize
  } catch {
    // statfs unsupported (some network file systems): the cache write reports a full disk.
  }
  return { memoryBytes: Math.max(0, os.totalmem() * 0.8 - reservedMemory), diskBytes }
}

/**
 * Throws RESOURCE_LIMIT when the estimate does not fit: grid memory above the 4 GiB
 * WebAssembly limit or the machine's budget, or a typical cache larger than the free disk.
 */
export function checkFits(e: BakeEstimate, budget: Budget, resolution: number): void {
  const [nx, ny, nz] = e.grid
  const gridBytes = e.memoryBytes - WORKER_OVERHEAD - e.particles * BYTES_PER_PARTICLE
  const limit = Math.min(budget.memoryBytes, DEFAULT_MAX_GRID_BYTES)
  if (e.memoryBytes > budget.memoryBytes || gridBytes > DEFAULT_MAX_GRID_BYTES) {
    // Memory grows with the cube of the resolution.
    const fit = Math.floor(resolution * Math.cbrt(Math.max(0, limit - WORKER_OVERHEAD - e.particles * BYTES_PER_PARTICLE) / gridBytes))
    const which = gridBytes > DEFAULT_MAX_GRID_BYTES ? `the 4 GiB a simulation may use` : `the ${formatBytes(budget.memoryBytes)} available for bakes on this machine`
    throw new EddyError(
      'RESOURCE_LIMIT',
      `This bake needs about ${formatBytes(e.memoryBytes)} of memory (${nx}x${ny}x${nz} grid, ${e.particles.toLocaleString('en')} particles), more than ${which}. Lower the resolution to ${Math.max(8, fit)} or less.`,
      { field: 'resolution', memoryBytes: e.memoryBytes, budget: budget.memoryBytes },
    )
  }
  if (e.cacheBytes + e.checkpointBytes > budget.diskBytes) {
    throw new EddyError(
      'RESOURCE_LIMIT',
      `The cache of this bake needs about ${formatBytes(e.cacheBytes + e.checkpointBytes)} but the project's disk has ${formatBytes(budget.diskBytes)} free. Free some space, shorten the frame range or lower the resolution.`,
      { field: 'resolution', cacheBytes: e.cacheBytes, diskBytes: budget.diskBytes },
    )
  }
}

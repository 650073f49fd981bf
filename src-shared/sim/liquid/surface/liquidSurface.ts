// The liquid's surface for one frame: particles -> level set (particleLevelSet.ts) -> marching
// cubes (geometry/marchingCubes.ts) -> optional small-drop removal (dropRemoval.ts) -> area-weighted
// normals (normals.ts), the level set computed and meshed a window of node planes at a time.
// The result is a closed, consistently oriented (counter-clockwise seen from outside) triangle
// mesh shaped as a FrameMesh. A LiquidSurfacer keeps every scratch buffer between frames, so a
// frame allocates only its three output arrays.
import type { KernelBackend } from '../../core/kernelTypes'
import { EddyError } from '../../../api/errors'
import type { Vec3 } from '../../../scene/types'
import type { FrameMesh } from '../../frame'
import { DropRemover } from './dropRemoval'
import { MarchingCubes, MeshBuffers } from '../../../geometry/marchingCubes'
import { areaWeightedNormals, NORMALS_ACCUMULATE, NORMALS_NORMALIZE } from './normals'
import { reuseOrGrow } from '../../core/growCapacity'
import { ParticleLevelSet } from './particleLevelSet'
import { KernelMarchingCubes } from './kernelMarchingCubes'
import { FrameBuffers, frameArray } from '../../frameBuffers'

export interface LiquidSurfaceInput {
  /** xyz per particle, m. */
  positions: Float32Array
  count: number
  /** Particle radius r, m (about half the particle spacing is typical). */
  particleRadius: number
  /** Simulation grid: origin = cell (0,0,0)'s minimum corner, dx = cell size, n* = cells. */
  grid: { origin: Vec3; dx: number; nx: number; ny: number; nz: number }
  /** Level-set nodes per simulation cell edge, 1..4 (default 2). */
  refinement?: number
  /** Laplacian passes over the inside of the level set, 0..8 (default 0). */
  smoothing?: number
  /** Pieces enclosing less than this many simulation cells of volume are dropped (default 0). */
  minDropVolume?: number
  /**
   * Kernel support R in particle radii, 2..4 (default 3). R should span at least about 1.5
   * particle spacings: with R = one spacing (r = spacing / 2, scale 2) nodes between
   * particles see none and the mesh fills with bubbles.
   */
  kernelScale?: number
  /**
   * The simulation's signed distance to the same particles' surface on its cells (negative
   * inside, redistanced down to at least -depth), when there is one: the level set is filled in
   * deeper than depth instead of splatted there (particleLevelSet.ts, surfaceDeepKernels.ts).
   */
  interior?: { phi: Float32Array; depth: number } | null
}

export interface LiquidMesh extends FrameMesh {
  name: 'liquid'
  positions: Float32Array
  indices: Uint32Array
  normals: Float32Array
}

// Level-set nodes beyond this are refused: phi alone would take over 500 MB.
export const MAX_SURFACE_NODES = 1 << 27

/** Node z-planes of the level set meshed at a time (plus the slice shared with the next window and the smoothing's halo). */
export const WINDOW_PLANES = 32

export class LiquidSurfacer {
  private readonly levelSet: ParticleLevelSet
  /** Marching cubes: on the kernels' threads (kernelMarchingCubes.ts) with WebAssembly, else the plain sweep; the same mesh. */
  private readonly cubes: MarchingCubes | KernelMarchingCubes
  private readonly drops = new DropRemover()
  private readonly mesh = new MeshBuffers()
  private normalAcc: Float64Array = new Float64Array(0)
  /** The normals of transient meshes, kept between frames (in the kernels' memory on WebAssembly, for the normals' rows). */
  private readonly kept: FrameBuffers
  private readonly kernels: KernelBackend | null
  /** Small pieces the last frame dropped. */
  lastDropsRemoved = 0

  /**
   * kernels: where the particle splat runs (surfaceSplatKernels.ts); default TypeScript.
   * borrowed: kernel memory free while a frame is meshed (ParticleLevelSet), or null.
   */
  constructor(kernels?: KernelBackend, borrowed: Float64Array | null = null) {
    this.levelSet = new ParticleLevelSet(kernels, borrowed)
    this.cubes = kernels?.kind === 'wasm' ? new KernelMarchingCubes(kernels) : new MarchingCubes()
    const wasm = kernels?.kind === 'wasm' ? kernels : null
    this.kernels = wasm
    this.kept = new FrameBuffers(wasm ? (n) => wasm.f32(n) : null)
  }

  /**
   * transient: the caller is done with the mesh before the next call (solver.ts
   * FrameOptions.transient), so its arrays may be views of this mesher's own buffers.
   */
  surface(input: LiquidSurfaceInput, transient = false): LiquidMesh {
    const p = validate(input)
    const { grid } = input
    const mesh = this.mesh
    mesh.reset()
    this.lastDropsRemoved = 0
    if (input.count === 0) return { name: 'liquid', positions: new Float32Array(0), indices: new Uint32Array(0), normals: new Float32Array(0) }
    const ls = this.levelSet
    const bad = ls.prepare(
      {
        positions: input.positions,
        count: input.count,
        particleRadius: input.particleRadius,
        kernelScale: p.kernelScale,
        origin: grid.origin,
        dx: grid.dx,
        cells: [grid.nx, grid.ny, grid.nz],
        refinement: p.refinement,
        smoothing: p.smoothing,
        interior: input.interior ?? null,
      },
      WINDOW_PLANES + 1,
    )
    if (bad >= 0) throw nonFinite(input.positions, bad)
    // A window of node planes at a time: the level set's sums then take a few planes, not four
    // node grids (278 MB at 128^3 and refinement 2). Each window after the first starts at the
    // last slice the cubes have, so the slab between two windows is meshed too; the mesh is the
    // same bits as one sweep over the whole grid. (Windows of one length: the first one's
    // buffers serve them all.)
    const nz = ls.grid.nz
    this.cubes.begin(ls.grid, mesh)
    for (let k0 = 0; ; k0 += WINDOW_PLANES) {
      const k1 = Math.min(nz, k0 + WINDOW_PLANES + 1)
      ls.computePlanes(k0, k1)
      this.cubes.addPlanes(ls.phi, ls.base, k1)
      if (k1 === nz) break
    }
    this.lastDropsRemoved = p.minDropVolume > 0 ? this.drops.removeSmall(mesh, p.minDropVolume * grid.dx ** 3) : 0
    const nv = mesh.vertexCount, nt = mesh.triangleCount
    const normals = frameArray(transient ? this.kept : null, 'normals', 3 * nv)
    const k = this.kernels
    if (k && k.holds(normals) && k.holds(mesh.positions) && k.holds(mesh.indices)) {
      this.normalAcc = reuseOrGrow(this.normalAcc, 3 * nv, (n) => k.f64(n))
      k.run(NORMALS_ACCUMULATE, mesh.positions, mesh.indices, nt, this.normalAcc, nv)
      k.run(NORMALS_NORMALIZE, this.normalAcc, normals, nv)
    } else {
      if (this.normalAcc.length < 3 * nv) this.normalAcc = new Float64Array(Math.ceil(3 * nv * 1.25))
      areaWeightedNormals(mesh.positions, nv, mesh.indices, nt, normals, this.normalAcc)
    }
    const positions = mesh.positions.subarray(0, 3 * nv), indices = mesh.indices.subarray(0, 3 * nt)
    return { name: 'liquid', positions: transient ? positions : positions.slice(), indices: transient ? indices : indices.slice(), normals }
  }
}

/** One frame without keeping scratch; prefer a LiquidSurfacer when meshing a sequence. */
export function meshLiquidSurface(input: LiquidSurfaceInput): LiquidMesh {
  return new LiquidSurfacer().surface(input)
}

function invalid(message: string, field: string, value: unknown): EddyError {
  return new EddyError('INVALID_PARAM', message, { field, value })
}

/** The error for particle i's non-finite coordinate. */
function nonFinite(positions: ArrayLike<number>, i: number): EddyError {
  let a = 0
  while (a < 2 && Number.isFinite(positions[3 * i + a])) a++
  const value = positions[3 * i + a]
  return invalid(`Liquid surface: particle ${i} has a non-finite position (${value}).`, 'positions', i)
}

function validate(input: LiquidSurfaceInput): { refinement: number; smoothing: number; minDropVolume: number; kernelScale: number } {
  const { positions, count, particleRadius, grid } = input
  if (!Number.isInteger(count) || count < 0) throw invalid(`Liquid surface: particle count must be a whole number >= 0 (got ${count}).`, 'count', count)
  if (positions.length < 3 * count) throw invalid(`Liquid surface: ${count} particles need ${3 * count} coordinates, got ${positions.length}.`, 'positions', positions.length)
  if (!(particleRadius > 0) || !Number.isFinite(particleRadius)) throw invalid(`Liquid surface: particle radius must be a positive number (got ${particleRadius}).`, 'particleRadius', particleRadius)
  if (!(grid.dx > 0) || !Number.isFinite(grid.dx)) throw invalid(`Liquid surface: cell size must be a positive number (got ${grid.dx}).`, 'grid.dx', grid.dx)
  if (!grid.origin.every(Number.isFinite)) throw invalid('Liquid surface: grid origin must be finite.', 'grid.origin', grid.origin)
  for (const [name, n] of [['nx', grid.nx], ['ny', grid.ny], ['nz', grid.nz]] as const) {
    if (!Number.isInteger(n) || n < 1) throw invalid(`Liquid surface: grid.${name} must be a whole number >= 1 (got ${n}).`, `grid.${name}`, n)
  }
  const refinement = input.refinement ?? 2
  if (!Number.isInteger(refinement) || refinement < 1 || refinement > 4) throw invalid(`Liquid surface: refinement must be 1, 2, 3 or 4 (got ${refinement}).`, 'refinement', refinement)
  const smoothing = input.smoothing ?? 0
  if (!Number.isInteger(smoothing) || smoothing < 0 || smoothing > 8) throw invalid(`Liquid surface: smoothing must be a whole number of passes, 0..8 (got ${smoothing}).`, 'smoothing', smoothing)
  const minDropVolume = input.minDropVolume ?? 0
  if (!(minDropVolume >= 0) || !Number.isFinite(minDropVolume)) throw invalid(`Liquid surface: minimum drop volume must be >= 0 cells (got ${minDropVolume}).`, 'minDropVolume', minDropVolume)
  const kernelScale = input.kernelScale ?? 3
  if (!(kernelScale >= 2 && kernelScale <= 4)) throw invalid(`Liquid surface: kernel scale must be 2..4 particle radii (got ${kernelScale}).`, 'kernelScale', kernelScale)
  const nodes = (grid.nx * refinement + 3) * (grid.ny * refinement + 3) * (grid.nz * refinement + 3)
  if (nodes > MAX_SURFACE_NODES) throw invalid(`Liquid surface: ${nodes} level-set nodes is over the limit of ${MAX_SURFACE_NODES}; lower the refinement.`, 'refinement', refinement)
  const interior = input.interior
  if (interior) {
    const cells = grid.nx * grid.ny * grid.nz
    if (interior.phi.length < cells) throw invalid(`Liquid surface: the interior level set holds ${interior.phi.length} values, the grid has ${cells} cells.`, 'interior.phi', interior.phi.length)
    if (!(interior.depth > 0) || !Number.isFinite(interior.depth)) throw invalid(`Liquid surface: the interior depth must be a positive number of metres (got ${interior.depth}).`, 'interior.depth', interior.depth)
  }
  // Non-finite positions are found by the level set's sort (surface() throws nonFinite()).
  return { refinement, smoothing, minDropVolume, kernelScale }
}

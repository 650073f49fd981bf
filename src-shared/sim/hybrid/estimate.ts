// What a hybrid-mesh smoke bake costs before it starts. The mesh is not built for the
// estimate (meshing is the bake's first step): the band is bounded by the shell within the
// band's reach of each obstacle's box, filled with 14 tetrahedra a cube (TETS_PER_CUBE), the rest of the domain
// hexahedra; the two limit modes are near exact (every cube a hexahedron, or 14 tetrahedra).
import { evaluateObject } from '../../scene/keyframes'
import type { Vec3 } from '../../scene/types'
import { CHECKPOINT_FILL, checkpointCount, PRECISION_BYTES, TYPICAL_FILL, WORKER_OVERHEAD } from '../bakeCost'
import { domainGrid, findDomain } from '../compile'
import type { BakeEstimate, EstimateRequest } from '../family'

/**
 * Bytes per mesh cell: geometry, adjacency, the MLS operators and neighbourhoods, the pressure
 * matrix and multigrid, and the garbage a remesh leaves (the Table 1 bench peaked at 602 MiB for
 * meshes of up to 126,000 cells: about 4 KB a cell over Node's own 100 MiB).
 */
export const HYBRID_BYTES_PER_CELL = 4000
/** Tetrahedra per band cube: the BCC lattice's 12, and the stencils' extra where an obstacle cuts (12.8 measured on the ramp). */
const TETS_PER_CUBE = 14
/** Cached values per resampled grid cell: density, temperature, velocity xyz. */
const VALUES_PER_CELL = 5

/** Cells of the mesh a domain would get (an upper bound in hybrid mode), and the layout in words. */
export function hybridCellEstimate(doc: EstimateRequest['doc'], hostId: string): { cells: number; tets: number; hexes: number; layout: string; resolution: number } {
  const p = evaluateObject(findDomain(doc, hostId), doc.tracks, doc.meta.frameStart)
  const resolution = p.resolution as number
  const g = domainGrid(p.position as Vec3, p.size as Vec3, resolution)
  const cubes = g.nx * g.ny * g.nz
  const mode = p.hybridMesh as string
  let band = 0
  if (mode === 'tetrahedra') band = cubes
  else if (mode === 'hybrid') {
    const reach = ((p.hybridBand as number) + 1) * g.dx
    for (const o of doc.objects) {
      if (o.kind !== 'obstacle') continue
      const q = evaluateObject(o, doc.tracks, doc.meta.frameStart)
      const scale = q.scale as Vec3
      // A primitive is a unit shape scaled; a mesh is its own size (the project's mesh info) scaled.
      const info = q.shape === 'mesh' ? doc.meshes.find((m) => m.id === o.meshId) : undefined
      const s = info ? scale.map((v, a) => v * (info.bounds.max[a] - info.bounds.min[a])) : scale
      // The shell within the reach of the shape's box (its own axes: rotation moves the shell,
      // it does not grow it), less the core deeper inside than the reach.
      const outer = (s[0] + 2 * reach) * (s[1] + 2 * reach) * (s[2] + 2 * reach)
      const inner = Math.max(0, s[0] - 2 * reach) * Math.max(0, s[1] - 2 * reach) * Math.max(0, s[2] - 2 * reach)
      band += Math.ceil((outer - inner) / g.dx ** 3)
    }
    band = Math.min(band, cubes)
  }
  const hexes = mode === 'tetrahedra' ? 0 : cubes - band
  const tets = TETS_PER_CUBE * band
  const what = mode === 'hexahedra' ? `${hexes} hexahedra` : mode === 'tetrahedra' ? `${tets} tetrahedra` : `${hexes} hexahedra and at most ${tets} tetrahedra`
  return { cells: hexes + tets, tets, hexes, layout: `${g.nx}x${g.ny}x${g.nz} grid, ${what}`, resolution }
}

export function estimateHybrid({ doc, hostId, frames, precision, checkpointEvery }: EstimateRequest): BakeEstimate {
  const p = evaluateObject(findDomain(doc, hostId), doc.tracks, doc.meta.frameStart)
  const g = domainGrid(p.position as Vec3, p.size as Vec3, p.resolution as number)
  const gridCells = g.nx * g.ny * g.nz
  const { cells, layout, resolution } = hybridCellEstimate(doc, hostId)
  const seconds = (frames / doc.meta.fps) * ((p.timeScale as number | undefined) ?? 1)
  let particles = 0
  for (const o of doc.objects) {
    if (o.kind !== 'emitter') continue
    const q = evaluateObject(o, doc.tracks, doc.meta.frameStart)
    particles += (((q.trackerRate as number | undefined) ?? 0) + ((q.vortexRate as number | undefined) ?? 0)) * seconds
  }
  particles = Math.min(1_000_000, Math.ceil(particles))
  const dense = gridCells * VALUES_PER_CELL * PRECISION_BYTES[precision]
  const bytes = cells * HYBRID_BYTES_PER_CELL + particles * 64
  return {
    layout,
    cells,
    frames,
    particles,
    memoryBytes: bytes + WORKER_OVERHEAD,
    scalingBytes: bytes,
    cacheBytes: Math.ceil(frames * (dense * TYPICAL_FILL + particles * 16)),
    cacheBytesMax: Math.ceil(frames * (dense + particles * 16)),
    // Float64 face velocities (about 2.4 faces a cell), density, temperature and the last two
    // pressures, per cell of the at-most count above (a third more than the mesh has); particles.
    checkpointBytes: Math.ceil(checkpointCount(frames, checkpointEvery) * (cells * 4.5 * 8 + particles * 64) * CHECKPOINT_FILL),
    lower: { key: 'resolution', label: 'resolution', value: resolution, exponent: 3, min: 8 },
  }
}

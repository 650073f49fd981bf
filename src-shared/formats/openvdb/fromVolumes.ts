// Solver volumes (sim/frame.ts) as OpenVDB grids, in Eddy's Y-up world or converted for Z-up
// tools such as Blender: (x, y, z) -> (x, -z, y), which permutes the cells and rotates vectors.
import type { Volume } from '../../sim/frame'
import type { VdbGrid } from './writer'

export interface VolumeExportOptions {
  /** Write for a Z-up application (Blender, Houdini set to Z up). Default false (Y up). */
  zUp?: boolean
  /** Store values as 16-bit halves. */
  halfFloat?: boolean
}

/** Y-up cell (i, j, k) goes to Z-up cell (i, nz-1-k, j): world (x, y, z) -> (x, -z, y). */
function toZUp(v: Volume): { dims: [number, number, number]; origin: [number, number, number]; data: Float32Array } {
  const [nx, ny, nz] = v.dims
  const c = v.components
  const data = new Float32Array(v.data.length)
  // New dims: x stays, new y spans old -z, new z spans old y.
  const mx = nx
  const my = nz
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const src = c * (i + nx * (j + ny * k))
        const dst = c * (i + mx * (nz - 1 - k + my * j))
        if (c === 1) data[dst] = v.data[src]
        else {
          data[dst] = v.data[src]
          data[dst + 1] = -v.data[src + 2]
          data[dst + 2] = v.data[src + 1]
        }
      }
    }
  }
  const [ox, oy, oz] = v.origin
  const h = v.voxelSize
  return { dims: [nx, nz, ny], origin: [ox, -(oz + nz * h), oy], data }
}

/**
 * Volumes that are signed distances (metres, negative inside, redistanced to a band of three
 * cells): written as OpenVDB level sets under the grid name Blender's and Houdini's liquid tools
 * look for. The liquid family's surface is the one today.
 */
const LEVEL_SETS: Record<string, { grid: string; bandCells: number }> = {
  liquid: { grid: 'surface', bandCells: 3 },
}

/**
 * The background of a scalar grid: the value more than half its cells hold exactly (the
 * ambient temperature of air around a liquid or a plume), else 0. Those cells stay inactive,
 * so a temperature grid is as sparse as its density.
 */
export function dominantValue(data: Float32Array): number {
  if (data.length === 0) return 0
  for (const candidate of [0, data[0]]) {
    let same = 0
    for (let i = 0; i < data.length; i++) if (data[i] === candidate) same++
    if (2 * same > data.length) return candidate
  }
  return 0
}

export function vdbGridsFromVolumes(volumes: readonly Volume[], opts: VolumeExportOptions = {}): VdbGrid[] {
  return volumes.map((v) => {
    const placed = opts.zUp ? toZUp(v) : { dims: v.dims, origin: [v.origin[0], v.origin[1], v.origin[2]] as [number, number, number], data: v.data }
    const grid: VdbGrid = {
      name: v.name,
      type: v.components === 3 ? 'vec3s' : 'float',
      dims: placed.dims,
      voxelSize: v.voxelSize,
      origin: placed.origin,
      data: placed.data,
      saveAsHalf: opts.halfFloat ?? false,
    }
    // Velocity is a contravariant vector field (it transforms with the grid).
    if (v.components === 3) grid.vectorType = 'contravariant relative'
    const levelSet = v.components === 1 ? LEVEL_SETS[v.name] : undefined
    if (levelSet) {
      grid.name = levelSet.grid
      grid.gridClass = 'level set'
      grid.background = levelSet.bandCells * v.voxelSize
    } else if (v.components === 1) grid.background = dominantValue(placed.data)
    return grid
  })
}

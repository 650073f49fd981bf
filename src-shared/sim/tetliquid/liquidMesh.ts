// The simulation mesh M_t of one step (seed 003 section 3.3): isosurface stuffing of the liquid
// with the obstacles cut out, obstacle snapping, and the boundary faces sorted into
// liquid-obstacle (closed, no flow through) and liquid-air (open, p = 0).
//
//   "The input to our mesher is a function that is the minimum of two signed distance
//   functions—one that is positive inside the liquid, and one that is negative inside the
//   obstacle." In this repository's sign convention (negative inside) that is max(f, -o) with o
//   the obstacles' distance, negative inside them; the domain's closed walls are obstacles
//   too (o = distance to the wall, negative beyond it), and its open sides clip the liquid
//   (max with the box's distance) without being walls.
//   "Vertices that are within one eighth of the edge length of the leaf octants from an
//   obstacle are snapped onto the obstacle boundary by orthogonal projection."
//   "We classify a face of the mesh as a liquid-obstacle interface if all of its vertices lie
//   on the obstacle. All other boundary faces are liquid-air interfaces." We also close the
//   faces that bevel a wall's corner with the free surface (see buildLiquidMesh).
import { SNAP_FRACTION, stuffIsosurface } from '../../geometry/tetmesh'
import type { ScalarField3 } from '../../geometry/tetmesh'
import { computeTetGeometry, type TetGeometry } from '../core/tetfv/tetGeometry'
import { buildTetTopology, type TetTopology } from '../core/tetfv/tetTopology'
import type { ContourBox } from './contourGrid'
import type { Solids } from './solids'

export interface LiquidMesh {
  positions: Float64Array
  tets: Int32Array
  topology: TetTopology
  geometry: TetGeometry
  /** Per face: 1 for an open (liquid-air) boundary face. Interior and closed faces 0. */
  openFaces: Uint8Array
  /** Per vertex: 1 on an obstacle or closed wall. */
  onObstacle: Uint8Array
  /**
   * 3 per vertex, on solids only (zeros elsewhere): the solid's unit normal (out of the solid)
   * and its velocity there, kept with the mesh so the slip condition on vertex velocities
   * (meshVelocity.ts) needs no scene.
   */
  solidNormals: Float64Array
  solidVelocities: Float64Array
  /** Tetrahedra that are untouched background shapes (stuffing's tetShape != 0). */
  wholeTets: number
}

export interface LiquidMeshOptions {
  /** Finest lattice spacing. */
  spacing: number
  /** The domain box: the mesher's bounds. */
  box: ContourBox
  mode: 'uniform' | 'graded'
  /** The liquid minus everything solid, negative inside (what is meshed). */
  liquid: ScalarField3
  /** Obstacles and closed walls, or null when there are none. */
  solids: Solids | null
}

/** M_t for the liquid region; an empty mesh when there is no liquid. */
export function buildLiquidMesh(opts: LiquidMeshOptions): LiquidMesh {
  const { spacing, box, mode, liquid, solids } = opts
  // The lattice reaches a little past the box so liquid touching a wall is still enclosed.
  const pad = 0.5 * spacing
  const m = stuffIsosurface(liquid, {
    spacing,
    mode,
    bounds: { min: [box.min[0] - pad, box.min[1] - pad, box.min[2] - pad], max: [box.max[0] + pad, box.max[1] + pad, box.max[2] + pad] },
  })
  const positions = m.positions
  const onObstacle = solids ? solids.snap(positions, SNAP_FRACTION * spacing, 1e-6 * spacing) : new Uint8Array(m.vertexCount)
  const topology = buildTetTopology(positions, m.tets)
  const geometry = computeTetGeometry(topology, positions)
  const openFaces = new Uint8Array(topology.faceCount)
  const { boundaryFaces, faceVertices } = topology
  const { faceCentres, faceNormals } = geometry
  const e = 1e-3 * spacing
  for (let i = 0; i < boundaryFaces.length; i++) {
    const f = boundaryFaces[i]
    let closed = onObstacle[faceVertices[3 * f]] && onObstacle[faceVertices[3 * f + 1]] && onObstacle[faceVertices[3 * f + 2]]
    if (!closed && solids) {
      // Stuffing bevels the right angle where the free surface meets a wall over a lattice
      // spacing, leaving faces that lean into the wall with an air wedge behind them, too far
      // from it for snapping. Open, they hold p = 0 below the level of the free surface, and
      // the hydrostatic pressure behind them pushes liquid out into the wall (a pool at rest
      // lost 5% of its volume in five frames and grew 1 m/s jets there). They are closed like
      // the wall behind them: within a spacing of it and facing it (within 45 degrees of its
      // normal). A free surface facing a wall that closely is a sub-lattice air wedge.
      const x = faceCentres[3 * f], y = faceCentres[3 * f + 1], z = faceCentres[3 * f + 2]
      const d = solids.solid(x, y, z)
      if (d < spacing) {
        const gx = solids.solid(x + e, y, z) - solids.solid(x - e, y, z)
        const gy = solids.solid(x, y + e, z) - solids.solid(x, y - e, z)
        const gz = solids.solid(x, y, z + e) - solids.solid(x, y, z - e)
        const g = Math.hypot(gx, gy, gz)
        // -grad points into the solid; the face's normal points out of the liquid.
        if (g > 0 && -(gx * faceNormals[3 * f] + gy * faceNormals[3 * f + 1] + gz * faceNormals[3 * f + 2]) / g >= Math.SQRT1_2) closed = 1
      }
    }
    if (!closed) openFaces[f] = 1
  }
  let wholeTets = 0
  for (let t = 0; t < m.tetCount; t++) if (m.tetShape[t] !== 0) wholeTets++
  const solidNormals = new Float64Array(3 * m.vertexCount)
  const solidVelocities = new Float64Array(3 * m.vertexCount)
  if (solids) {
    const w = new Float64Array(3)
    for (let v = 0; v < m.vertexCount; v++) {
      if (!onObstacle[v]) continue
      const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2]
      const gx = solids.solid(x + e, y, z) - solids.solid(x - e, y, z)
      const gy = solids.solid(x, y + e, z) - solids.solid(x, y - e, z)
      const gz = solids.solid(x, y, z + e) - solids.solid(x, y, z - e)
      const g = Math.hypot(gx, gy, gz)
      if (!(g > 0)) continue
      solidNormals[3 * v] = gx / g
      solidNormals[3 * v + 1] = gy / g
      solidNormals[3 * v + 2] = gz / g
      solids.velocityAt(x, y, z, w)
      solidVelocities.set(w, 3 * v)
    }
  }
  return { positions, tets: m.tets, topology, geometry, openFaces, onObstacle, solidNormals, solidVelocities, wholeTets }
}

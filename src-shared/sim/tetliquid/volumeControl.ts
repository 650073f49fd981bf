// Volume control for the tetrahedral liquid: semi-Lagrangian contouring re-samples the surface
// every step, and each re-sampling loses a little volume where it is not resolved. Measured at
// resolution 48 (contouring cells 4.2 cm): a ball of 7 cells radius carried by an exactly
// uniform flow lost 0.08% a step at a third of a cell a step; the peer dam break lost 97% of
// its water in 100 frames (about 700 steps), most of it once the water had spread into a
// layer a few cells deep, with thickening on. The paper admits "a small amount of volume loss"
// and counts on thickening; at the resolutions an artist previews with, that is not enough. So the liquid keeps a volume budget, as Kim et al. 2007
// ("Simulation of bubbles in foam with the volume control method") keep one per bubble:
//   target_{t+1} = target_t + inflow (what emitters united in) - outflow (through open sides),
// and the next step moves the surface along its normals by
//   delta = (target - V) / A_free
// (V the volume S holds in the box, A_free the area of S away from walls and obstacles): the
// traced distance is lowered by delta before obstacles are cut in (surfaceTracking.ts), so the
// free surface moves and the contact with solids does not. delta is held to a tenth of a
// contouring cell a step, so a sudden loss (a drop pinching off below the resolution) comes
// back over several steps instead of as a visible jump. A liquid at rest is untouched (its
// volume does not drift).
import type { NodeGrid } from '../../geometry/marchingCubes'
import type { ContourBox } from './contourGrid'
import type { MeshVelocity } from './meshVelocity'

/** The most the surface is moved in one step, in contouring cells. */
export const MAX_SHIFT_CELLS = 0.1

/**
 * Smeared Heaviside of a signed distance over one cell h: the share of a node's cell that is
 * liquid (negative inside), what the inflow bookkeeping sums.
 */
export function liquidShare(d: number, h: number): number {
  const s = 0.5 - d / h
  return s < 0 ? 0 : s > 1 ? 1 : s
}

/** Volume the closed triangle mesh holds inside the box (vertices clamped onto it: S meets the walls just beyond them). */
export function volumeInBox(positions: Float32Array, indices: Uint32Array, box: ContourBox): number {
  const { min, max } = box
  const c = (i: number) => {
    const a = i % 3
    const x = positions[i]
    return x < min[a] ? min[a] : x > max[a] ? max[a] : x
  }
  let v = 0
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], d = 3 * indices[t + 2]
    const ax = c(a), ay = c(a + 1), az = c(a + 2)
    const bx = c(b), by = c(b + 1), bz = c(b + 2)
    const dx = c(d), dy = c(d + 1), dz = c(d + 2)
    v += ax * (by * dz - bz * dy) - ay * (bx * dz - bz * dx) + az * (bx * dy - by * dx)
  }
  return v / 6
}

/**
 * Area of S's triangles whose centroids lie more than half a cell from every wall and
 * obstacle (`room` negative inside the liquid's allowed region): the free surface the
 * correction moves.
 */
export function freeArea(positions: Float32Array, indices: Uint32Array, room: (x: number, y: number, z: number) => number, h: number): number {
  let area = 0
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
    const x = (positions[a] + positions[b] + positions[c]) / 3
    const y = (positions[a + 1] + positions[b + 1] + positions[c + 1]) / 3
    const z = (positions[a + 2] + positions[b + 2] + positions[c + 2]) / 3
    if (room(x, y, z) > -0.5 * h) continue
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2]
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2]
    area += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)
  }
  return area
}

/**
 * Volume that leaves through the open sides of the box in dt (`open` per side, as
 * Solids.open): over the nodes on each open side's plane, the outward velocity times the
 * node's square of the plane times its liquid share (so the nodes along the liquid's edge
 * count about half).
 */
export function outflow(phi: Float32Array, g: NodeGrid, open: readonly boolean[], velocity: MeshVelocity, dt: number): number {
  if (!open.some((o) => o)) return 0
  const { nx, ny, nz, h } = g
  const v = new Float64Array(3)
  // The planes of the box: index 2 and n - 3 on each axis (contourNodeGrid's two layers beyond).
  const wall = [2, nx - 3, 2, ny - 3, 2, nz - 3]
  let out = 0
  // The nodes of the open planes, in grid order (each node's sides in side order): a whole row
  // where the row lies in an open y or z plane, else only its two ends on the x planes.
  const node = (i: number, j: number, k: number): void => {
    const n = i + nx * (j + ny * k)
    for (let s = 0; s < 6; s++) {
      if (!open[s] || (s < 2 ? i : s < 4 ? j : k) !== wall[s]) continue
      const share = liquidShare(phi[n], h)
      if (share === 0) continue
      const x = g.origin[0] + i * h, y = g.origin[1] + j * h, z = g.origin[2] + k * h
      velocity.fast(x, y, z, v, 0)
      const un = s & 1 ? v[s >> 1] : -v[s >> 1]
      if (un > 0) out += share * un * h * h * dt
    }
  }
  for (let k = 2; k <= nz - 3; k++) for (let j = 2; j <= ny - 3; j++) {
    if ((open[2] && j === wall[2]) || (open[3] && j === wall[3]) || (open[4] && k === wall[4]) || (open[5] && k === wall[5])) {
      for (let i = 2; i <= nx - 3; i++) node(i, j, k)
    } else if (open[0] || open[1]) {
      node(2, j, k)
      if (nx - 3 > 2) node(nx - 3, j, k)
    }
  }
  return out
}

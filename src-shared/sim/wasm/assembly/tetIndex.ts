// geometry/tetmesh/tetLocator.ts indexCellAt and outsideBox: the first steps of a search of a
// tetrahedron locator's index, shared by the twins that search it (hybridFullTrace.ts,
// tetLiquidTrace.ts), in the reference's operations.
import { rf64 } from './common'

/** The index cell holding (x, y, z), or -1 outside the grid (a point on its far planes: the last cell). */
@inline export function tetIndexCell(x: f64, y: f64, z: f64, ox: f64, oy: f64, oz: f64, nx: f64, ny: f64, nz: f64, inverseCell: f64): i32 {
  if (!(x >= ox && y >= oy && z >= oz)) return -1
  const i = Math.floor((x - ox) * inverseCell), j = Math.floor((y - oy) * inverseCell), k = Math.floor((z - oz) * inverseCell)
  const ci = i == nx ? nx - 1 : i, cj = j == ny ? ny - 1 : j, ck = k == nz ? nz - 1 : k
  if (ci >= nx || cj >= ny || ck >= nz) return -1
  return <i32>ci + <i32>nx * (<i32>cj + <i32>ny * <i32>ck)
}

/** Whether (x, y, z) lies outside tetrahedron t's box (6 float64 per tetrahedron at `boxes`). */
@inline export function outsideTetBox(boxes: usize, t: i32, x: f64, y: f64, z: f64): bool {
  const o = 6 * t
  return x < rf64(boxes, o) || y < rf64(boxes, o + 1) || z < rf64(boxes, o + 2) || x > rf64(boxes, o + 3) || y > rf64(boxes, o + 4) || z > rf64(boxes, o + 5)
}

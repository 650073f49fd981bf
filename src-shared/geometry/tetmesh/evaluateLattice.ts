// The signed distance at every lattice vertex and its label (inside, on, outside), shared by
// the uniform and graded lattices. A NaN distance is refused by name: it would silently become
// "outside" and punch a hole in the mesh.
//
// A field that can take a hint (SignedDistanceField.distanceFrom: a mesh's MeshSdf) is asked
// with the previous vertex's value and the distance between the two: the vertices come row by
// row (the uniform lattice) or cell by cell (the graded one), so the hint bounds the
// closest-point search to |previous| + step, and on a closed mesh the sign is carried over
// whenever the surface cannot lie between the two, instead of a winding number at every
// vertex. The values are those of distance() (the magnitude to the bit, the sign the true
// side), as grid sampling (sampleSdfGrid) relies on; meshing the Stanford bunny spends most of
// its time here.
import { EddyError } from '../../api/errors'
import type { SignedDistanceField } from '../signedDistance'
import type { ScalarField3 } from './cutPoints'
import type { LatticeVertices } from './latticeVertices'
import { IN, ON, OUT } from './stencils'

/** sdf at every vertex of `lat`; `field`, when given, is the same function with hints (see above). */
export function evaluateLattice(lat: LatticeVertices, sdf: ScalarField3, field: SignedDistanceField | null = null): void {
  const p = lat.pos, f = lat.f, label = lat.label
  const hinted = field !== null && field.distanceFrom !== undefined ? field : null
  let prev = NaN, px = 0, py = 0, pz = 0
  for (let v = 0; v < lat.count; v++) {
    const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2]
    let d: number
    if (hinted !== null && Number.isFinite(prev)) {
      const dx = x - px, dy = y - py, dz = z - pz
      d = hinted.distanceFrom!(x, y, z, Infinity, prev, Math.sqrt(dx * dx + dy * dy + dz * dz))
    } else d = sdf(x, y, z)
    if (Number.isNaN(d)) throw new EddyError('INVALID_PARAM', `isosurface stuffing: sdf is NaN at (${x}, ${y}, ${z})`)
    f[v] = d
    label[v] = d < 0 ? IN : d > 0 ? OUT : ON
    prev = d
    px = x
    py = y
    pz = z
  }
}

// The signed distance at every lattice vertex and its label (inside, on, outside), shared by
// the uniform and graded lattices. A NaN distance is refused by name: it would silently become
// "outside" and punch a hole in the mesh.
import { EddyError } from '../../api/errors'
import type { ScalarField3 } from './cutPoints'
import type { LatticeVertices } from './latticeVertices'
import { IN, ON, OUT } from './stencils'

export function evaluateLattice(lat: LatticeVertices, sdf: ScalarField3): void {
  const p = lat.pos, f = lat.f, label = lat.label
  for (let v = 0; v < lat.count; v++) {
    const d = sdf(p[3 * v], p[3 * v + 1], p[3 * v + 2])
    if (Number.isNaN(d)) throw new EddyError('INVALID_PARAM', `isosurface stuffing: sdf is NaN at (${p[3 * v]}, ${p[3 * v + 1]}, ${p[3 * v + 2]})`)
    f[v] = d
    label[v] = d < 0 ? IN : d > 0 ? OUT : ON
  }
}

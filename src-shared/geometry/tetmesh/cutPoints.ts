// Cut points of isosurface stuffing (Labelle and Shewchuk 2007, section 3): where a lattice
// edge with one inside and one outside end crosses the zero set of the signed distance.
// The paper only needs a point on the edge where f = 0; we find it on the true f (not on
// the linear interpolant of the end values) by the Illinois variant of regula falsi, a
// bracketing method: it keeps the sign change, converges superlinearly on smooth f and still
// converges (like bisection, which it falls back to) on the kinks of a box or mesh distance.
// So the output's boundary vertices lie on the surface to the root tolerance.
//
// Each edge is cut once: cut points are kept in flat arrays and found through a hash of the
// edge's two lattice vertex ids, so the tetrahedra sharing an edge share its cut vertex.
import { KeyMap } from './keyMap'
import type { LatticeVertices } from './latticeVertices'
import { MAX_LATTICE_VERTICES } from './latticeVertices'

/** Edge kinds, from the lattice coordinates: long (black) BCC edge, short (red) BCC edge, other. */
export const EDGE_LONG = 0
export const EDGE_SHORT = 1
export const EDGE_OTHER = 2

export type ScalarField3 = (x: number, y: number, z: number) => number

/** Bracketing steps at most; Illinois needs far fewer, this only bounds pathological f. */
const MAX_STEPS = 100

/**
 * Zero of f on the segment a + t (b - a), t in [0, 1], given fa = f(a) and fb = f(b) of
 * opposite strict signs. Stops when |f| <= tol or the bracket is below 1e-15 of the edge.
 * Writes the point with the smallest |f| seen to out[0..2] and returns its t.
 */
export function edgeRoot(
  f: ScalarField3,
  ax: number, ay: number, az: number, fa: number,
  bx: number, by: number, bz: number, fb: number,
  tol: number, out: Float64Array,
): number {
  const dx = bx - ax, dy = by - ay, dz = bz - az
  let t0 = 0, f0 = fa, t1 = 1, f1 = fb
  let best = Math.abs(fa) <= Math.abs(fb) ? 0 : 1, bestF = Math.min(Math.abs(fa), Math.abs(fb))
  let side = 0
  let width = 1
  for (let step = 0; step < MAX_STEPS; step++) {
    let t = (t0 * f1 - t1 * f0) / (f1 - f0)
    // Every fourth step, bisect if the bracket did not at least halve meanwhile: Illinois is
    // fast on smooth f, bisection guarantees progress on the rest.
    if ((step & 3) === 3) {
      if (t1 - t0 > 0.5 * width) t = 0.5 * (t0 + t1)
      width = t1 - t0
    }
    if (!(t > t0 && t < t1)) t = 0.5 * (t0 + t1)
    const ft = f(ax + t * dx, ay + t * dy, az + t * dz)
    const aft = Math.abs(ft)
    if (aft < bestF) { bestF = aft; best = t }
    if (aft <= tol || ft === 0) break
    if ((ft > 0) === (f1 > 0)) {
      t1 = t; f1 = ft
      if (side === 1) f0 *= 0.5
      side = 1
    } else {
      t0 = t; f0 = ft
      if (side === -1) f1 *= 0.5
      side = -1
    }
    if (t1 - t0 <= 1e-15) break
  }
  out[0] = ax + best * dx; out[1] = ay + best * dy; out[2] = az + best * dz
  return best
}

/** The cut points of one mesh: edge (va, vb) -> cut index, with position and parameter. */
export class CutPoints {
  count = 0
  /** Cut point positions (xyz). */
  pos: Float64Array
  /** Edge ends, va < vb, and the cut's parameter t from va (position = va + t (vb - va) before warping). */
  va: Int32Array
  vb: Int32Array
  t: Float64Array
  /** EDGE_LONG, EDGE_SHORT or EDGE_OTHER. */
  kind: Uint8Array
  private readonly map: KeyMap
  private readonly tmp = new Float64Array(3)

  constructor(expected = 1024) {
    const cap = Math.max(16, expected)
    this.map = new KeyMap(cap)
    this.pos = new Float64Array(3 * cap)
    this.va = new Int32Array(cap)
    this.vb = new Int32Array(cap)
    this.t = new Float64Array(cap)
    this.kind = new Uint8Array(cap)
  }

  /** Cut index of the edge between lattice vertices a and b, or -1. */
  get(a: number, b: number): number {
    return this.map.get(a < b ? a * MAX_LATTICE_VERTICES + b : b * MAX_LATTICE_VERTICES + a)
  }

  /**
   * The cut of edge (a, b), computed on first request. The ends must be strictly inside and
   * strictly outside (labels IN and OUT) with their original lattice positions.
   */
  ensure(lat: LatticeVertices, f: ScalarField3, a: number, b: number, tol: number): number {
    if (a > b) { const s = a; a = b; b = s }
    const key = a * MAX_LATTICE_VERTICES + b
    const found = this.map.get(key)
    if (found >= 0) return found
    const i = this.count
    if (i === this.t.length) this.grow()
    const p = lat.pos, o = 3 * a, q = 3 * b
    const t = edgeRoot(f, p[o], p[o + 1], p[o + 2], lat.f[a], p[q], p[q + 1], p[q + 2], lat.f[b], tol, this.tmp)
    this.pos[3 * i] = this.tmp[0]; this.pos[3 * i + 1] = this.tmp[1]; this.pos[3 * i + 2] = this.tmp[2]
    this.va[i] = a; this.vb[i] = b; this.t[i] = t
    const ic = lat.ic
    const ex = ic[q] - ic[o], ey = ic[q + 1] - ic[o + 1], ez = ic[q + 2] - ic[o + 2]
    const d2 = ex * ex + ey * ey + ez * ez
    // In units of half the finest spacing a finest long edge is (2, 0, 0), a short one (1, 1, 1).
    this.kind[i] = d2 === 4 ? EDGE_LONG : d2 === 3 ? EDGE_SHORT : EDGE_OTHER
    this.map.set(key, i)
    this.count = i + 1
    return i
  }

  private grow(): void {
    const cap = 2 * this.t.length
    const pos = new Float64Array(3 * cap); pos.set(this.pos); this.pos = pos
    const va = new Int32Array(cap); va.set(this.va); this.va = va
    const vb = new Int32Array(cap); vb.set(this.vb); this.vb = vb
    const t = new Float64Array(cap); t.set(this.t); this.t = t
    const kind = new Uint8Array(cap); kind.set(this.kind); this.kind = kind
  }
}

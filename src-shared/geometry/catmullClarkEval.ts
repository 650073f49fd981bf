// Exact evaluation of the Catmull-Clark limit surface and its first derivatives at any
// (patch, u, v) (Stam 1998). Regular patches are bicubic uniform B-spline patches over the
// 16 points of their 1-ring; patches with one extraordinary vertex use the eigenbasis of the
// extended subdivision matrix (catmullClarkEigen.ts) to jump n levels at once:
//   n = floor(min(-log2 u, -log2 v)) + 1,  x(u,v) = sum_i lambda_i^(n-1) (b(s,t) . Phi_k,i) p_i
// with p = Vinv C0 the eigen-coordinates of the 2N+8 control points.
//
// Open boundaries follow the cubic B-spline boundary rules of catmullClark.ts (Stam 2003 uses
// Biermann et al. 2000's, which agree with them at regular boundary vertices): a patch on the
// boundary whose corners are all regular (4 faces inside, 2 on the boundary) is the bicubic
// B-spline patch whose missing control row is reflected, p = 2 b - i (the boundary curve is then
// the cubic B-spline of the boundary vertices, as the rules make it). A sheet corner (a
// boundary vertex with one face) is Biermann's convex corner, interpolated: its patch is
// reflected in both directions (the corner phantom 4v - 2a - 2b + d), which is exactly the
// tensor-product B-spline whose subdivision keeps the corner fixed, the rule catmullClark.ts
// applies there. Boundary vertices with 3 or more faces (concave corners, a rim where fans
// meet) are refused: their exact evaluation needs Biermann's eigenanalysis. Creases are not
// handled.
// The cage is subdivided once or twice with catmullClark.ts (subdivideOnce) until every face
// is a quad with at most one extraordinary vertex; patches are the faces of that base mesh.
import { EddyError } from '../api/errors'
import { subdivideOnce, type PolyMesh } from './catmullClark'
import { gridIndex, valenceEigen } from './catmullClarkEigen'

export type Vec3 = [number, number, number]

export interface LimitSample {
  position: Vec3
  /** d position / du and d position / dv in the patch's own parameters; NaN exactly at an extraordinary vertex. */
  du: Vec3
  dv: Vec3
  /** Unit normal du x dv (outward for counter-clockwise faces); at an extraordinary vertex, the limit normal. */
  normal: Vec3
}

interface RegularPatch { kind: 'regular'; cp: Float64Array /* 16 x 3, index x + 4y */ }
interface IrregularPatch {
  kind: 'extraordinary'
  N: number
  /** Face corner holding the extraordinary vertex (0..3); the patch frame is rotated so it is at (0,0). */
  rot: number
  /** Eigen-coordinates Vinv C0, K x 3. */
  coef: Float64Array
}
export type LimitPatch = RegularPatch | IrregularPatch

export interface LimitSurface {
  /** The base mesh whose faces are the patches: all quads, at most one extraordinary vertex each. */
  positions: Float64Array
  faces: number[][]
  /** How many Catmull-Clark steps were applied to the input to get the base mesh (0, 1 or 2). */
  levelsSubdivided: number
  valence: Uint32Array
  patches: LimitPatch[]
}

function invalid(message: string): never {
  throw new EddyError('INVALID_PARAM', `limit surface: ${message}`)
}

interface Topology { valence: Uint32Array; he: Map<number, number>; nV: number; boundary: Uint8Array }

function topology(nV: number, faces: number[][]): Topology | null {
  const he = new Map<number, number>()
  const valence = new Uint32Array(nV)
  for (let f = 0; f < faces.length; f++) {
    const q = faces[f]
    if (q.length !== 4) return null
    for (let c = 0; c < 4; c++) {
      he.set(q[c] * nV + q[(c + 1) % 4], 4 * f + c)
      valence[q[c]]++
    }
  }
  const boundary = new Uint8Array(nV)
  for (const key of he.keys()) {
    const a = Math.floor(key / nV), b = key % nV
    if (!he.has(b * nV + a)) boundary[a] = boundary[b] = 1
  }
  for (let v = 0; v < nV; v++) {
    if (boundary[v] && valence[v] > 2) {
      invalid(`vertex ${v} on the open boundary has ${valence[v]} faces around it: exact evaluation supports boundary vertices with 2 faces (a smooth rim) or 1 (a sheet corner); give the rim one more row of faces`)
    }
  }
  return { valence, he, nV, boundary }
}

/** A vertex the bicubic patch rules cover: 4 faces inside, 2 on an open boundary, 1 at a sheet corner. */
function regularVertex(topo: Topology, v: number): boolean {
  return topo.boundary[v] ? topo.valence[v] <= 2 : topo.valence[v] === 4
}

/** Builds the patches; subdivides the cage (once or twice) if it is not already a suitable quad mesh. */
export function buildLimitSurface(mesh: PolyMesh): LimitSurface {
  let positions: Float64Array = Float64Array.from(mesh.positions)
  let faces = mesh.faces.map((f) => f.slice())
  let levels = 0
  for (;;) {
    const topo = topology(positions.length / 3, faces)
    let ok = topo !== null
    if (topo) {
      for (const q of faces) {
        let ev = 0, open = false
        for (const v of q) {
          if (!regularVertex(topo, v)) ev++
          if (topo.boundary[v]) open = true
        }
        // At most one extraordinary vertex, and none on a patch that touches the boundary.
        if (ev > 1 || (open && ev > 0)) { ok = false; break }
      }
    }
    if (ok && topo) return { positions, faces, levelsSubdivided: levels, valence: topo.valence, patches: buildPatches(positions, faces, topo) }
    if (levels >= 2) invalid('internal: two subdivision steps did not isolate the extraordinary vertices')
    const s = subdivideOnce({ positions, faces })
    positions = s.positions
    faces = s.faces
    levels++
  }
}

function buildPatches(pos: Float64Array, faces: number[][], topo: Topology): LimitPatch[] {
  const { valence, he, nV } = topo
  const faceOf = (a: number, b: number): [number, number] | null => {
    const h = he.get(a * nV + b)
    return h === undefined ? null : [h >> 2, h & 3]
  }
  const patches: LimitPatch[] = []
  for (let f = 0; f < faces.length; f++) {
    const q = faces[f]
    let rot = 0, regular = true
    for (let c = 0; c < 4; c++) if (!regularVertex(topo, q[c])) { rot = c; regular = false }
    const grid = new Map<number, number>()
    const key = (x: number, y: number) => (x + 1) * 8 + (y + 1)
    const set = (x: number, y: number, v: number) => {
      const k = key(x, y), old = grid.get(k)
      if (old !== undefined && old !== v) invalid(`face ${f}: inconsistent neighbourhood (non-manifold vertex?)`)
      grid.set(k, v)
    }
    const get = (x: number, y: number) => grid.get(key(x, y))!
    set(1, 1, q[rot]); set(2, 1, q[(rot + 1) % 4]); set(2, 2, q[(rot + 2) % 4]); set(1, 2, q[(rot + 3) % 4])
    // Quad across the (counter-clockwise) edge P -> Q: its corners are Q, P, P + perp, Q + perp.
    // Nothing across an open edge (or from a corner that is not known).
    const across = (px: number, py: number, qx: number, qy: number) => {
      const a = grid.get(key(qx, qy)), b = grid.get(key(px, py))
      if (a === undefined || b === undefined) return
      const found = faceOf(a, b)
      if (!found) return
      const [g, j] = found
      const gq = faces[g]
      const dx = qy - py, dy = -(qx - px)
      set(px + dx, py + dy, gq[(j + 2) % 4])
      set(qx + dx, qy + dy, gq[(j + 3) % 4])
    }
    across(2, 1, 2, 2)
    across(2, 2, 1, 2)
    across(2, 1, 3, 1)
    across(3, 2, 2, 2)
    across(1, 3, 1, 2)
    const N = valence[q[rot]]
    if (regular) {
      across(1, 1, 2, 1)
      across(1, 2, 1, 1)
      across(1, 1, 1, 0)
      const cp = new Float64Array(48)
      const known = new Uint8Array(16)
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
        const v = grid.get(key(x, y))
        if (v === undefined) continue
        known[x + 4 * y] = 1
        for (let k = 0; k < 3; k++) cp[3 * (x + 4 * y) + k] = pos[3 * v + k]
      }
      reflectMissing(cp, known, f)
      patches.push({ kind: 'regular', cp })
      continue
    }
    // Ring around the extraordinary vertex, counter-clockwise from face f.
    const K = 2 * N + 8
    const ctrl = new Array<number>(K)
    const ev = q[rot]
    ctrl[0] = ev
    let e = q[(rot + 1) % 4]
    let g = f, j = rot
    for (let i = 0; i < N; i++) {
      const gq = faces[g]
      if (gq[(j + 1) % 4] !== e) invalid(`face ${f}: broken fan around vertex ${ev}`)
      ctrl[1 + 2 * i] = e
      ctrl[2 + 2 * i] = gq[(j + 2) % 4]
      e = gq[(j + 3) % 4]
      const next = faceOf(ev, e)
      if (!next) invalid(`vertex ${ev}: the faces around it do not form one closed fan`)
      ;[g, j] = next
    }
    if (e !== ctrl[1] || g !== f) invalid(`vertex ${ev}: the faces around it do not form one closed fan`)
    for (let x = 0; x <= 3; x++) for (let y = 0; y <= 3; y++) {
      const idx = gridIndex(N, x, y)
      if (idx < 0) continue
      const v = grid.get(key(x, y))
      if (idx >= 2 * N + 1) {
        if (v === undefined) invalid('internal: missing outer control point')
        ctrl[idx] = v
      } else if (v !== undefined && v !== ctrl[idx]) invalid(`face ${f}: inconsistent neighbourhood around vertex ${ev}`)
    }
    const E = valenceEigen(N)
    const coef = new Float64Array(K * 3)
    for (let i = 0; i < K; i++) {
      const row = E.Vinv[i]
      let x = 0, y = 0, z = 0
      for (let t = 0; t < K; t++) {
        const w = row[t], v = 3 * ctrl[t]
        x += w * pos[v]; y += w * pos[v + 1]; z += w * pos[v + 2]
      }
      coef[3 * i] = x; coef[3 * i + 1] = y; coef[3 * i + 2] = z
    }
    patches.push({ kind: 'extraordinary', N, rot, coef })
  }
  return patches
}

/**
 * Fills the control points of a boundary patch that lie beyond the open edge by reflection,
 * p = 2 b - i along the row or column (rows first, then columns, so a point beyond two open
 * edges is reflected twice). Regular corners guarantee one of the two reflections applies.
 */
function reflectMissing(cp: Float64Array, known: Uint8Array, f: number): void {
  const fill = (t: number, b: number, i: number): boolean => {
    if (known[t] || !known[b] || !known[i]) return false
    for (let k = 0; k < 3; k++) cp[3 * t + k] = 2 * cp[3 * b + k] - cp[3 * i + k]
    known[t] = 1
    return true
  }
  for (let pass = 0; pass < 2; pass++) {
    for (let y = 0; y < 4; y++) {
      fill(0 + 4 * y, 1 + 4 * y, 2 + 4 * y)
      fill(3 + 4 * y, 2 + 4 * y, 1 + 4 * y)
    }
    for (let x = 0; x < 4; x++) {
      fill(x, x + 4, x + 8)
      fill(x + 12, x + 8, x + 4)
    }
  }
  if (known.some((k) => !k)) invalid(`face ${f}: its neighbourhood on the open boundary is not a regular grid`)
}

/** Uniform cubic B-spline basis and derivative at t in [0,1]. */
function bspline(t: number, b: number[], d: number[]): void {
  const s = 1 - t
  b[0] = (s * s * s) / 6
  b[1] = (3 * t * t * t - 6 * t * t + 4) / 6
  b[2] = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6
  b[3] = (t * t * t) / 6
  d[0] = -(s * s) / 2
  d[1] = (3 * t * t - 4 * t) / 2
  d[2] = (-3 * t * t + 2 * t + 1) / 2
  d[3] = (t * t) / 2
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
function unit(a: Vec3): Vec3 {
  const l = Math.hypot(a[0], a[1], a[2])
  return [a[0] / l, a[1] / l, a[2] / l]
}

/** Bicubic B-spline patch over 16 control points (index x + 4y). */
export function evalBSplinePatch(cp: ArrayLike<number>, s: number, t: number): { p: Vec3; ds: Vec3; dt: Vec3 } {
  const bs = [0, 0, 0, 0], dbs = [0, 0, 0, 0], bt = [0, 0, 0, 0], dbt = [0, 0, 0, 0]
  bspline(s, bs, dbs)
  bspline(t, bt, dbt)
  const p: Vec3 = [0, 0, 0], ds: Vec3 = [0, 0, 0], dt: Vec3 = [0, 0, 0]
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
    const w = bs[x] * bt[y], wu = dbs[x] * bt[y], wv = bs[x] * dbt[y]
    const o = 3 * (x + 4 * y)
    for (let k = 0; k < 3; k++) { p[k] += w * cp[o + k]; ds[k] += wu * cp[o + k]; dt[k] += wv * cp[o + k] }
  }
  return { p, ds, dt }
}

/** Stam's evaluation in the patch frame (EV at (0,0)); u, v in [0,1], not both 0. */
function evalExtraordinary(P: IrregularPatch, u: number, v: number): { p: Vec3; ds: Vec3; dt: Vec3 } {
  const E = valenceEigen(P.N)
  let n = Math.floor(Math.min(-Math.log2(u), -Math.log2(v))) + 1
  // guard against log2 rounding: 2^(n-1) max(u, v) must lie in [1/2, 1]
  while (n > 1 && Math.max(u, v) * 2 ** (n - 1) > 1) n--
  while (Math.max(u, v) * 2 ** (n - 1) < 0.5) n++
  const scale = 2 ** (n - 1)
  let su = u * scale, sv = v * scale
  let k: number
  if (su >= 0.5 && sv < 0.5) { k = 0; su = 2 * su - 1; sv = 2 * sv }
  else if (su >= 0.5) { k = 1; su = 2 * su - 1; sv = 2 * sv - 1 }
  else { k = 2; su = 2 * su; sv = 2 * sv - 1 }
  const bs = [0, 0, 0, 0], dbs = [0, 0, 0, 0], bt = [0, 0, 0, 0], dbt = [0, 0, 0, 0]
  bspline(su, bs, dbs)
  bspline(sv, bt, dbt)
  const phi = E.phi[k]
  const p: Vec3 = [0, 0, 0], ds: Vec3 = [0, 0, 0], dt: Vec3 = [0, 0, 0]
  const dscale = 2 * scale // d(local)/du = 2^n
  for (let i = 0; i < E.K; i++) {
    const li = E.lambda[i] ** (n - 1)
    if (li === 0) continue
    let w = 0, wu = 0, wv = 0
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
      const ph = phi[x + 4 * y][i]
      w += bs[x] * bt[y] * ph; wu += dbs[x] * bt[y] * ph; wv += bs[x] * dbt[y] * ph
    }
    w *= li; wu *= li * dscale; wv *= li * dscale
    // The eigenvalue-1 eigenvector is constant, so its sub-patches are constant: leave its
    // derivative out exactly (otherwise round-off times 2^n swamps the tangents near the EV).
    if (E.lambda[i] === 1) { wu = 0; wv = 0 }
    for (let c = 0; c < 3; c++) {
      const cf = P.coef[3 * i + c]
      p[c] += w * cf; ds[c] += wu * cf; dt[c] += wv * cf
    }
  }
  return { p, ds, dt }
}

/**
 * Limit position, first derivatives and unit normal of patch `face` at (u, v) in [0,1]^2;
 * u runs from the face's corner 0 to corner 1, v from corner 0 to corner 3.
 */
export function evaluateLimit(surface: LimitSurface, face: number, u: number, v: number): LimitSample {
  const P = surface.patches[face]
  if (!P) invalid(`no patch ${face}`)
  if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) invalid(`parameters (${u}, ${v}) are outside [0,1]^2`)
  if (P.kind === 'regular') {
    const { p, ds, dt } = evalBSplinePatch(P.cp, u, v)
    return { position: p, du: ds, dv: dt, normal: unit(cross(ds, dt)) }
  }
  // Rotate the face parameters into the patch frame (EV at corner `rot` goes to (0,0)).
  let a: number, b: number
  switch (P.rot) {
    case 0: a = u; b = v; break
    case 1: a = v; b = 1 - u; break
    case 2: a = 1 - u; b = 1 - v; break
    default: a = 1 - v; b = u
  }
  if (a === 0 && b === 0) {
    const E = valenceEigen(P.N)
    const pos: Vec3 = [0, 0, 0]
    for (let i = 0; i < E.K; i++) {
      const w = E.lambda[i] === 1 || Math.abs(E.lambda[i] - 1) < 1e-9 ? 1 : 0
      if (w) for (let c = 0; c < 3; c++) pos[c] += E.V[0][i] * P.coef[3 * i + c]
    }
    // The normal converges geometrically towards the vertex: evaluate it very close.
    const eps = 2 ** -40
    const near = evaluateLimit(surface, face, ...faceParams(P.rot, eps, eps))
    const nan: Vec3 = [NaN, NaN, NaN]
    return { position: pos, du: nan, dv: nan, normal: near.normal }
  }
  const { p, ds, dt } = evalExtraordinary(P, a, b)
  let du: Vec3, dv: Vec3
  switch (P.rot) {
    case 0: du = ds; dv = dt; break
    case 1: du = [-dt[0], -dt[1], -dt[2]]; dv = ds; break
    case 2: du = [-ds[0], -ds[1], -ds[2]]; dv = [-dt[0], -dt[1], -dt[2]]; break
    default: du = dt; dv = [-ds[0], -ds[1], -ds[2]]
  }
  return { position: p, du, dv, normal: unit(cross(du, dv)) }
}

/** Face parameters of patch-frame parameters (a, b) for a patch rotated by `rot`. */
function faceParams(rot: number, a: number, b: number): [number, number] {
  switch (rot) {
    case 0: return [a, b]
    case 1: return [1 - b, a]
    case 2: return [1 - a, 1 - b]
    default: return [b, 1 - a]
  }
}

/**
 * The known Catmull-Clark limit-point rule for vertex `v` of a closed all-quad mesh:
 * (n^2 v + 4 sum(edge neighbours) + sum(diagonal neighbours)) / (n (n + 5)).
 */
export function limitPointRule(positions: ArrayLike<number>, faces: number[][], v: number): Vec3 {
  let n = 0
  const s: Vec3 = [0, 0, 0]
  for (const q of faces) {
    const c = q.indexOf(v)
    if (c < 0) continue
    if (q.length !== 4) invalid('limitPointRule needs an all-quad mesh')
    n++
    const e = q[(c + 1) % 4], d = q[(c + 2) % 4]
    for (let k = 0; k < 3; k++) s[k] += 4 * positions[3 * e + k] + positions[3 * d + k]
  }
  const out: Vec3 = [0, 0, 0]
  for (let k = 0; k < 3; k++) out[k] = (n * n * positions[3 * v + k] + s[k]) / (n * (n + 5))
  return out
}

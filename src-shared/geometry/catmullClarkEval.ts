// Exact evaluation of the Catmull-Clark limit surface and its first derivatives at any
// (patch, u, v) (Stam 1998). Regular patches are bicubic uniform B-spline patches over the
// 16 points of their 1-ring; patches with one extraordinary vertex use the eigenbasis of the
// extended subdivision matrix (catmullClarkEigen.ts) to jump n levels at once:
//   n = floor(min(-log2 u, -log2 v)) + 1,  x(u,v) = sum_i lambda_i^(n-1) (b(s,t) . Phi_k,i) p_i
// with p = Vinv C0 the eigen-coordinates of the 2N+8 control points.
//
// Open boundaries follow the rules of catmullClark.ts (Biermann et al. 2000's, which Stam 2003
// uses): a patch on the boundary whose corners are all regular (4 faces inside, 2 on the
// boundary) is the bicubic B-spline patch whose missing control row is reflected, p = 2 b - i
// (the boundary curve is then the cubic B-spline of the boundary vertices, as the rules make
// it). A sheet corner (a boundary vertex with one face) is Biermann's convex corner,
// interpolated: its patch is reflected in both directions (the corner phantom 4v - 2a - 2b + d),
// which is exactly the tensor-product B-spline whose subdivision keeps the corner fixed, the
// rule catmullClark.ts applies there. A boundary vertex with 3 or more faces is an irregular
// boundary vertex, evaluated through its subdivision levels (catmullClarkBoundaryFan.ts).
// Creases are not handled.
// The cage is subdivided once or twice with catmullClark.ts (subdivideOnce) until every face
// is a quad with at most one extraordinary vertex, and no face with an interior extraordinary
// vertex touches the boundary; patches are the faces of that base mesh.
import { subdivideOnce, type PolyMesh } from './catmullClark'
import { BoundaryFan, chain, evalBoundaryFan, incidence, MAX_LEVELS, quadrant } from './catmullClarkBoundaryFan'
import { gridIndex, valenceEigen } from './catmullClarkEigen'
import {
  bspline, controlGrid, evalBSplinePatch, gridKey, invalidLimit as invalid, quadTopology, regularControlPoints, regularVertex,
  type QuadTopology, type Vec3,
} from './catmullClarkPatches'

export type { Vec3 }

/** quadrant()'s output for split patches (evaluation is single-threaded). */
const QUADRANT = new Float64Array(7)
export { evalBSplinePatch }

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
/**
 * A face near a boundary vertex with 3 or more faces (holding one of its inner neighbours but
 * not the vertex): four bicubic children, 48 numbers each (see BoundaryFan.collarControlPoints).
 */
interface SplitPatch { kind: 'split'; cp: Float64Array }
/** A patch at a boundary vertex with 3 or more faces: patch `slot` of that vertex's fan. */
interface BoundaryFanPatch {
  kind: 'boundaryFan'
  rot: number
  fan: BoundaryFan
  slot: number
}
export type LimitPatch = RegularPatch | IrregularPatch | BoundaryFanPatch | SplitPatch

export interface LimitSurface {
  /** The base mesh whose faces are the patches: all quads, at most one extraordinary vertex each. */
  positions: Float64Array
  faces: number[][]
  /** How many Catmull-Clark steps were applied to the input to get the base mesh (0, 1 or 2). */
  levelsSubdivided: number
  valence: Uint32Array
  patches: LimitPatch[]
}

/** Builds the patches; subdivides the cage (once or twice) if it is not already a suitable quad mesh. */
export function buildLimitSurface(mesh: PolyMesh): LimitSurface {
  let positions: Float64Array = Float64Array.from(mesh.positions)
  let faces = mesh.faces.map((f) => f.slice())
  let levels = 0
  for (;;) {
    const topo = quadTopology(positions.length / 3, faces)
    let ok = topo !== null
    if (topo) {
      for (const q of faces) {
        let inner = 0, onRim = 0, open = false
        for (const v of q) {
          if (!regularVertex(topo, v)) { if (topo.boundary[v]) onRim++; else inner++ }
          if (topo.boundary[v]) open = true
        }
        // At most one extraordinary vertex, and no interior one on a patch that touches the
        // boundary (its eigen-basis needs the whole 2N + 8 neighbourhood).
        if (inner + onRim > 1 || (open && inner > 0)) { ok = false; break }
      }
      // Nor next to an irregular boundary vertex, whose modified edge rule its eigen-basis
      // does not know.
      if (ok) {
        const near = nearIrregularRim(topo, faces)
        for (const q of faces) {
          if (q.some((v) => !regularVertex(topo, v) && !topo.boundary[v]) && q.some((v) => near.has(v))) { ok = false; break }
        }
      }
    }
    if (ok && topo) return { positions, faces, levelsSubdivided: levels, valence: topo.valence, patches: buildPatches(positions, faces, topo) }
    if (levels >= 3) invalid('internal: three subdivision steps did not isolate the extraordinary vertices')
    const s = subdivideOnce({ positions, faces })
    positions = s.positions
    faces = s.faces
    levels++
  }
}

function buildPatches(pos: Float64Array, faces: number[][], topo: QuadTopology): LimitPatch[] {
  const { valence, he, nV } = topo
  const faceOf = (a: number, b: number): [number, number] | null => {
    const h = he.get(a * nV + b)
    return h === undefined ? null : [h >> 2, h & 3]
  }
  const fans = new Map<number, { fan: BoundaryFan; slots: Map<number, number> }>()
  const near = nearIrregularRim(topo, faces)
  const incident = near.size > 0 ? incidence(nV, faces) : []
  const fanAt = (ev: number, f: number, rot: number) => {
    let entry = fans.get(ev)
    if (!entry) {
      const { fan, rim } = fanOrder(faces, topo, ev, f, rot)
      entry = { fan: new BoundaryFan(pos, faces, incident, ev, fan, rim), slots: new Map(fan.map((e, i) => [e.face, i])) }
      fans.set(ev, entry)
    }
    return entry
  }
  const patches: LimitPatch[] = []
  for (let f = 0; f < faces.length; f++) {
    const q = faces[f]
    let rot = 0, regular = true
    for (let c = 0; c < 4; c++) if (!regularVertex(topo, q[c])) { rot = c; regular = false }
    if (regular) {
      const by = q.map((v) => near.get(v)).find((e) => e !== undefined)
      if (by === undefined) patches.push({ kind: 'regular', cp: regularControlPoints(pos, faces, topo, f, 0) })
      else patches.push({ kind: 'split', cp: fanAt(by.v, by.face, by.corner).fan.collarControlPoints(f) })
      continue
    }
    const ev = q[rot]
    if (topo.boundary[ev]) {
      const entry = fanAt(ev, f, rot)
      patches.push({ kind: 'boundaryFan', rot, fan: entry.fan, slot: entry.slots.get(f)! })
      continue
    }
    const grid = controlGrid(faces, topo, f, rot, false)
    const N = valence[ev]
    // Ring around the extraordinary vertex, counter-clockwise from face f.
    const K = 2 * N + 8
    const ctrl = new Array<number>(K)
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
      const v = grid.get(gridKey(x, y))
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
 * The inner neighbours of the irregular boundary vertices (boundary vertices with 3 or more
 * faces): the far ends of their edges that are not on the boundary, whose edge points the
 * modified rule moves. Each maps to its boundary vertex and one face (and corner) at it.
 */
function nearIrregularRim(topo: QuadTopology, faces: number[][]): Map<number, { v: number; face: number; corner: number }> {
  const out = new Map<number, { v: number; face: number; corner: number }>()
  const { he, nV } = topo
  faces.forEach((q, f) => q.forEach((v, c) => {
    if (!topo.boundary[v] || regularVertex(topo, v)) return
    const w = q[(c + 1) % 4]
    if (he.has(w * nV + v)) out.set(w, { v, face: f, corner: c })
  }))
  return out
}

/**
 * The faces around boundary vertex v in counter-clockwise order (each next face across the
 * edge entering v), from the one whose edge leaving v is open, found by walking back from face
 * f (v at its corner c); with v's two boundary neighbours.
 */
function fanOrder(faces: number[][], topo: QuadTopology, v: number, f: number, c: number): { fan: { face: number; corner: number }[]; rim: [number, number] } {
  const { he, nV, valence } = topo
  let steps = 0
  for (;;) {
    const w = faces[f][(c + 1) % 4]
    const back = he.get(w * nV + v)
    if (back === undefined) break
    f = back >> 2
    c = ((back & 3) + 1) % 4
    if (++steps > valence[v]) invalid(`vertex ${v}: the faces around it do not form one fan`)
  }
  const first = faces[f][(c + 1) % 4]
  const fan: { face: number; corner: number }[] = []
  for (;;) {
    fan.push({ face: f, corner: c })
    if (fan.length > valence[v]) invalid(`vertex ${v}: the faces around it do not form one fan`)
    const prev = faces[f][(c + 3) % 4]
    const next = he.get(v * nV + prev)
    if (next === undefined) {
      if (fan.length !== valence[v]) invalid(`vertex ${v}: the faces around it do not form one fan`)
      return { fan, rim: [first, prev] }
    }
    f = next >> 2
    c = next & 3
  }
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
function unit(a: Vec3): Vec3 {
  const l = Math.hypot(a[0], a[1], a[2])
  return [a[0] / l, a[1] / l, a[2] / l]
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
  if (P.kind === 'split') {
    const q = QUADRANT
    quadrant(u, v, q)
    const r = evalBSplinePatch(P.cp, q[1], q[2], 48 * q[0])
    const [du, dv] = chain(q, r.ds, r.dt)
    return { position: r.p, du, dv, normal: unit(cross(du, dv)) }
  }
  // Rotate the face parameters into the patch frame (EV at corner `rot` goes to (0,0)).
  let a: number, b: number
  switch (P.rot) {
    case 0: a = u; b = v; break
    case 1: a = v; b = 1 - u; break
    case 2: a = 1 - u; b = 1 - v; break
    default: a = 1 - v; b = u
  }
  if (P.kind === 'boundaryFan' && Math.max(a, b) < 2 ** -MAX_LEVELS) { a = 0; b = 0 }
  if (a === 0 && b === 0 && P.kind === 'boundaryFan') {
    // The tangent plane's normal from the eigenvectors; its sign from the patch nearby.
    const near = evaluateLimit(surface, face, ...faceParams(P.rot, 2 ** -12, 2 ** -12)).normal
    const n = P.fan.limitNormal
    const sg = n[0] * near[0] + n[1] * near[1] + n[2] * near[2] < 0 ? -1 : 1
    const nan: Vec3 = [NaN, NaN, NaN]
    return { position: [...P.fan.limit], du: nan, dv: nan, normal: [sg * n[0], sg * n[1], sg * n[2]] }
  }
  if (a === 0 && b === 0 && P.kind === 'extraordinary') {
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
  const { p, ds, dt } = P.kind === 'boundaryFan' ? evalBoundaryFan(P.fan, P.slot, a, b) : evalExtraordinary(P, a, b)
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

// Stam 1998 ("Exact evaluation of Catmull-Clark subdivision surfaces at arbitrary parameter
// values"): the local subdivision matrices around one extraordinary vertex of valence N and
// the eigen-decomposition of the extended (2N+8)x(2N+8) matrix A, computed numerically
// (Hessenberg + shifted QR for the eigenvalues, null spaces by full-pivot elimination for the
// eigenvectors). Nothing is read from a data file.
//
// Control-point ordering (ours, equivalent to the paper's): the patch is drawn in a 4x4 grid
// with corners (x, y) in 0..3; the patch itself is the cell [1,2]x[1,2], u along x, v along y,
// and the extraordinary vertex (EV) is grid (1,1).
//   0            EV
//   1 + 2i       e_i: the i-th edge neighbour of the EV, i = 0..N-1, counter-clockwise
//   2 + 2i       f_i: the far corner of face i = (EV, e_i, f_i, e_{i+1})
//   2N+1..2N+7   the 7 outer points at grid (3,0) (3,1) (3,2) (3,3) (2,3) (1,3) (0,3)
// so e_0 = (2,1), f_0 = (2,2), e_1 = (1,2), f_1 = (0,2), e_2 = (0,1), e_{N-1} = (1,0),
// f_{N-1} = (2,0). After one subdivision step the new points get the same layout on the fine
// grid (spacing 1/2, EV again at (1,1)), plus 9 more at (4,0) .. (4,4) .. (0,4): M = 2N+17.

export interface ValenceEigen {
  N: number
  /** K = 2N + 8 */
  K: number
  /** (2N+17) x K: one subdivision step, the first K rows are A. */
  Abar: number[][]
  /** K eigenvalues of A; A = V diag(lambda) Vinv. */
  lambda: Float64Array
  V: number[][]
  Vinv: number[][]
  /**
   * phi[k][c][i]: control point c (c = x + 4y, 4x4 grid) of regular sub-patch k (0, 1, 2 =
   * Stam's k = 1, 2, 3) expressed in eigen-coordinate i: (P_k Abar V)[c][i].
   */
  phi: Float64Array[][]
  /** Fine-grid origin (X0, Y0) of the 4x4 control grid of each sub-patch. */
  subOrigin: [number, number][]
  /** Left eigenvector of eigenvalue 1, normalised to sum 1: the limit-point weights. */
  limitWeights: Float64Array
  /** Max |A V - V diag(lambda)| and max |V Vinv - I|, for diagnostics and tests. */
  residual: number
  inverseResidual: number
}

/** Index of grid point (x, y) (old level) or (X, Y) (fine level, also 0..4) for valence N, or -1. */
export function gridIndex(N: number, x: number, y: number): number {
  const K = 2 * N + 8
  if (x === 1 && y === 1) return 0
  if (x === 2 && y === 1) return 1
  if (x === 2 && y === 2) return 2
  if (x === 1 && y === 2) return 3
  if (x === 0 && y === 2) return 4
  if (x === 0 && y === 1) return 5
  if (x === 1 && y === 0) return 2 * N - 1
  if (x === 2 && y === 0) return 2 * N
  if (x === 3 && y >= 0 && y <= 3) return 2 * N + 1 + y
  if (y === 3 && x >= 0 && x <= 2) return 2 * N + 5 + (2 - x)
  if (x === 4 && y >= 0 && y <= 4) return K + y
  if (y === 4 && x >= 0 && x <= 3) return K + 5 + (3 - x)
  return -1
}

/** The (2N+17) x (2N+8) one-step subdivision matrix Abar. */
export function buildAbar(N: number): number[][] {
  if (!Number.isInteger(N) || N < 3) throw new Error(`valence must be an integer >= 3, got ${N}`)
  const K = 2 * N + 8
  const M = K + 9
  const rows: number[][] = []
  for (let r = 0; r < M; r++) rows.push(new Array<number>(K).fill(0))
  const g = (x: number, y: number): number => {
    const i = gridIndex(N, x, y)
    if (i < 0 || i >= K) throw new Error(`internal: no control point at (${x}, ${y}) for valence ${N}`)
    return i
  }
  const add = (row: number[], idx: number, w: number) => {
    row[idx] += w
  }
  const e = (i: number) => 1 + 2 * (((i % N) + N) % N)
  const f = (i: number) => 2 + 2 * (((i % N) + N) % N)
  const faceRing = (row: number[], i: number, w: number) => {
    add(row, 0, w / 4); add(row, e(i), w / 4); add(row, f(i), w / 4); add(row, e(i + 1), w / 4)
  }
  // Ring: EV, edge points, face points.
  {
    const row = rows[0]
    // (N-3)/N v + 2/N * avg((v + e_i)/2) + 1/N * avg(F_i)
    add(row, 0, (N - 3) / N + 1 / N)
    for (let i = 0; i < N; i++) {
      add(row, e(i), 1 / (N * N))
      faceRing(row, i, 1 / (N * N))
    }
  }
  for (let i = 0; i < N; i++) {
    const re = rows[e(i)]
    add(re, 0, 1 / 4); add(re, e(i), 1 / 4)
    faceRing(re, i - 1, 1 / 4); faceRing(re, i, 1 / 4)
    faceRing(rows[f(i)], i, 1)
  }
  // Grid stencils on the old grid for the rest.
  const facePt = (row: number[], cx: number, cy: number, w: number) => {
    add(row, g(cx, cy), w / 4); add(row, g(cx + 1, cy), w / 4); add(row, g(cx + 1, cy + 1), w / 4); add(row, g(cx, cy + 1), w / 4)
  }
  for (let X = 0; X <= 4; X++) {
    for (let Y = 0; Y <= 4; Y++) {
      if (X <= 2 && Y <= 2) continue // ring, done above
      const row = rows[gridIndex(N, X, Y)]
      const xo = X % 2 === 1, yo = Y % 2 === 1
      if (xo && yo) {
        // vertex point of a regular vertex: v/4 + (1/2) avg((v+e)/2) + (1/4) avg(F)
        const x = (X + 1) / 2, y = (Y + 1) / 2
        add(row, g(x, y), 1 / 4 + 1 / 4)
        for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) add(row, g(x + dx, y + dy), 1 / 16)
        for (const [cx, cy] of [[x - 1, y - 1], [x, y - 1], [x, y], [x - 1, y]]) facePt(row, cx, cy, 1 / 16)
      } else if (!xo && yo) {
        // edge between (X/2, y) and (X/2 + 1, y); faces below and above
        const x = X / 2, y = (Y + 1) / 2
        add(row, g(x, y), 1 / 4); add(row, g(x + 1, y), 1 / 4)
        facePt(row, x, y - 1, 1 / 4); facePt(row, x, y, 1 / 4)
      } else if (xo && !yo) {
        const x = (X + 1) / 2, y = Y / 2
        add(row, g(x, y), 1 / 4); add(row, g(x, y + 1), 1 / 4)
        facePt(row, x - 1, y, 1 / 4); facePt(row, x, y, 1 / 4)
      } else {
        facePt(row, X / 2, Y / 2, 1)
      }
    }
  }
  return rows
}

// ---------------------------------------------------------------- dense linear algebra

/** Eigenvalues of a real matrix whose eigenvalues are real (Hessenberg + Wilkinson-shifted QR). */
export function realEigenvalues(A: number[][]): number[] {
  const n = A.length
  const a = A.map((r) => r.slice())
  // Householder reduction to upper Hessenberg form.
  for (let k = 0; k < n - 2; k++) {
    const m = n - k - 1
    const v = new Array<number>(m)
    let norm = 0
    for (let i = 0; i < m; i++) { v[i] = a[k + 1 + i][k]; norm += v[i] * v[i] }
    norm = Math.sqrt(norm)
    if (norm === 0) continue
    const alpha = v[0] > 0 ? -norm : norm
    v[0] -= alpha
    let vn = 0
    for (let i = 0; i < m; i++) vn += v[i] * v[i]
    vn = Math.sqrt(vn)
    if (vn === 0) continue
    for (let i = 0; i < m; i++) v[i] /= vn
    for (let j = 0; j < n; j++) {
      let s = 0
      for (let i = 0; i < m; i++) s += v[i] * a[k + 1 + i][j]
      for (let i = 0; i < m; i++) a[k + 1 + i][j] -= 2 * v[i] * s
    }
    for (let i = 0; i < n; i++) {
      let s = 0
      for (let j = 0; j < m; j++) s += a[i][k + 1 + j] * v[j]
      for (let j = 0; j < m; j++) a[i][k + 1 + j] -= 2 * s * v[j]
    }
  }
  const out: number[] = []
  let hi = n - 1
  let iter = 0
  const eps = 1e-15
  while (hi >= 0) {
    if (hi === 0) { out.push(a[0][0]); hi--; continue }
    if (Math.abs(a[hi][hi - 1]) <= eps * (Math.abs(a[hi][hi]) + Math.abs(a[hi - 1][hi - 1])) + 1e-300) {
      out.push(a[hi][hi]); hi--; iter = 0; continue
    }
    let lo = hi - 1
    while (lo > 0 && Math.abs(a[lo][lo - 1]) > eps * (Math.abs(a[lo][lo]) + Math.abs(a[lo - 1][lo - 1]))) lo--
    const p = a[hi - 1][hi - 1], q = a[hi - 1][hi], r = a[hi][hi - 1], s = a[hi][hi]
    const tr = (p + s) / 2
    const disc = ((p - s) / 2) ** 2 + q * r
    if (iter > 80 || lo === hi - 1) {
      // A 2x2 block that does not split (in exact arithmetic a repeated real eigenvalue can
      // come out as a complex pair with a tiny imaginary part): take its eigenvalues directly.
      if (lo === hi - 1 || iter > 80) {
        if (disc >= 0) {
          const sq = Math.sqrt(disc)
          out.push(tr + sq, tr - sq)
        } else {
          out.push(tr, tr)
        }
        hi -= 2; iter = 0; continue
      }
    }
    // Wilkinson shift: eigenvalue of the trailing 2x2 closer to a[hi][hi].
    let mu: number
    if (disc >= 0) {
      const sq = Math.sqrt(disc)
      mu = Math.abs(tr + sq - s) < Math.abs(tr - sq - s) ? tr + sq : tr - sq
    } else mu = tr
    if (iter % 20 === 19) mu = s + Math.abs(r) // exceptional shift
    iter++
    for (let i = lo; i <= hi; i++) a[i][i] -= mu
    const cs: number[] = [], sn: number[] = []
    for (let k = lo; k < hi; k++) {
      const x = a[k][k], y = a[k + 1][k]
      const rr = Math.hypot(x, y)
      const c = rr === 0 ? 1 : x / rr, sgn = rr === 0 ? 0 : y / rr
      cs.push(c); sn.push(sgn)
      for (let j = lo; j <= hi; j++) {
        const u1 = a[k][j], u2 = a[k + 1][j]
        a[k][j] = c * u1 + sgn * u2
        a[k + 1][j] = -sgn * u1 + c * u2
      }
    }
    for (let k = lo; k < hi; k++) {
      const c = cs[k - lo], sgn = sn[k - lo]
      for (let i = lo; i <= hi; i++) {
        const u1 = a[i][k], u2 = a[i][k + 1]
        a[i][k] = c * u1 + sgn * u2
        a[i][k + 1] = -sgn * u1 + c * u2
      }
    }
    for (let i = lo; i <= hi; i++) a[i][i] += mu
  }
  return out
}

/** A basis (unit vectors) of an m-dimensional null space of B, by full-pivot Gauss-Jordan. */
export function nullSpace(B: number[][], m: number): number[][] {
  const n = B.length
  const a = B.map((r) => r.slice())
  const colPerm = Array.from({ length: n }, (_, i) => i)
  const rank = n - m
  for (let st = 0; st < rank; st++) {
    let bi = st, bj = st, best = -1
    for (let i = st; i < n; i++) for (let j = st; j < n; j++) {
      const v = Math.abs(a[i][colPerm[j]])
      if (v > best) { best = v; bi = i; bj = j }
    }
    ;[a[st], a[bi]] = [a[bi], a[st]]
    ;[colPerm[st], colPerm[bj]] = [colPerm[bj], colPerm[st]]
    const pc = colPerm[st]
    const piv = a[st][pc]
    for (let j = 0; j < n; j++) a[st][j] /= piv
    for (let i = 0; i < n; i++) {
      if (i === st) continue
      const fct = a[i][pc]
      if (fct === 0) continue
      for (let j = 0; j < n; j++) a[i][j] -= fct * a[st][j]
    }
  }
  const basis: number[][] = []
  for (let t = rank; t < n; t++) {
    const fc = colPerm[t]
    const x = new Array<number>(n).fill(0)
    x[fc] = 1
    for (let i = 0; i < rank; i++) x[colPerm[i]] = -a[i][fc]
    let nn = 0
    for (const v of x) nn += v * v
    nn = Math.sqrt(nn)
    basis.push(x.map((v) => v / nn))
  }
  return basis
}

/** Inverse by Gauss-Jordan with partial pivoting. */
export function invert(A: number[][]): number[][] {
  const n = A.length
  const a = A.map((r, i) => [...r, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))])
  for (let c = 0; c < n; c++) {
    let p = c
    for (let i = c + 1; i < n; i++) if (Math.abs(a[i][c]) > Math.abs(a[p][c])) p = i
    if (a[p][c] === 0) throw new Error('singular matrix')
    ;[a[c], a[p]] = [a[p], a[c]]
    const piv = a[c][c]
    for (let j = 0; j < 2 * n; j++) a[c][j] /= piv
    for (let i = 0; i < n; i++) {
      if (i === c) continue
      const fct = a[i][c]
      if (fct === 0) continue
      for (let j = 0; j < 2 * n; j++) a[i][j] -= fct * a[c][j]
    }
  }
  return a.map((r) => r.slice(n))
}

/** Real eigen-decomposition A = V diag(lambda) Vinv of a diagonalisable matrix with real eigenvalues. */
export function eigenDecompose(A: number[][]): { lambda: number[]; V: number[][]; Vinv: number[][] } {
  const n = A.length
  const ev = realEigenvalues(A).sort((x, y) => y - x)
  // Cluster repeated eigenvalues.
  const clusters: { value: number; count: number }[] = []
  for (const l of ev) {
    const last = clusters[clusters.length - 1]
    if (last && Math.abs(last.value - l) <= 1e-7 * Math.max(1, Math.abs(l))) {
      last.value = (last.value * last.count + l) / (last.count + 1)
      last.count++
    } else clusters.push({ value: l, count: 1 })
  }
  // Snap eigenvalues that are 1 up to round-off (the affine-invariance eigenvalue) to exactly 1.
  for (const c of clusters) if (Math.abs(c.value - 1) < 1e-9) c.value = 1
  const lambda: number[] = []
  const cols: number[][] = []
  for (const { value, count } of clusters) {
    const B = A.map((r, i) => r.map((v, j) => (i === j ? v - value : v)))
    for (const x of nullSpace(B, count)) { cols.push(x); lambda.push(value) }
  }
  const V = Array.from({ length: n }, (_, i) => cols.map((c) => c[i]))
  return { lambda, V, Vinv: invert(V) }
}

// ---------------------------------------------------------------- per-valence cache

const SUB_ORIGIN: [number, number][] = [[1, 0], [1, 1], [0, 1]]
const cache = new Map<number, ValenceEigen>()

/** Eigen structure for valence N, computed on first use and cached. */
export function valenceEigen(N: number): ValenceEigen {
  const hit = cache.get(N)
  if (hit) return hit
  const K = 2 * N + 8
  const Abar = buildAbar(N)
  const A = Abar.slice(0, K)
  const { lambda, V, Vinv } = eigenDecompose(A)
  let residual = 0, inverseResidual = 0
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) {
    let av = 0, vvi = 0
    for (let t = 0; t < K; t++) { av += A[i][t] * V[t][j]; vvi += V[i][t] * Vinv[t][j] }
    residual = Math.max(residual, Math.abs(av - V[i][j] * lambda[j]))
    inverseResidual = Math.max(inverseResidual, Math.abs(vvi - (i === j ? 1 : 0)))
  }
  if (!(residual < 1e-8 && inverseResidual < 1e-6)) {
    throw new Error(`eigen-decomposition for valence ${N} failed (residual ${residual}, inverse ${inverseResidual})`)
  }
  // Abar V
  const AV = Abar.map((row) => {
    const out = new Array<number>(K).fill(0)
    for (let t = 0; t < K; t++) if (row[t] !== 0) for (let j = 0; j < K; j++) out[j] += row[t] * V[t][j]
    return out
  })
  const phi: Float64Array[][] = SUB_ORIGIN.map(([X0, Y0]) => {
    const pts: Float64Array[] = []
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) pts.push(Float64Array.from(AV[gridIndex(N, X0 + x, Y0 + y)]))
    return pts
  })
  // Limit weights: row of Vinv for eigenvalue 1 scaled by V's column (V[:,0] is constant).
  const i1 = lambda.findIndex((l) => Math.abs(l - 1) < 1e-9)
  if (i1 < 0) throw new Error(`valence ${N}: no eigenvalue 1`)
  const limitWeights = new Float64Array(K)
  for (let t = 0; t < K; t++) limitWeights[t] = V[0][i1] * Vinv[i1][t]
  const r: ValenceEigen = {
    N, K, Abar, lambda: Float64Array.from(lambda), V, Vinv, phi, subOrigin: SUB_ORIGIN, limitWeights, residual, inverseResidual,
  }
  cache.set(N, r)
  return r
}

// Quality of a tetrahedral mesh: signed volumes and the six dihedral angles of every
// tetrahedron, summarised as the report the benchmark prints (count, extreme dihedral
// angles, a histogram). Dihedral angles are what isosurface stuffing bounds (Labelle and
// Shewchuk 2007) and what finite element / finite volume conditioning depends on: small ones
// (slivers) and large ones (needles, caps) both spoil the discretisation.
//
// The dihedral angle at edge (i, j) is the angle between the two faces through it, i.e.
// pi minus the angle between their outward normals; with the area vectors n_k (face opposite
// vertex k) it is atan2(|n_k x n_l|, -n_k . n_l) for {k, l} the other two vertices, which is
// accurate for angles near 0 and 180 degrees where acos is not.

const RAD = 180 / Math.PI

/** Signed volume det[b - a, c - a, d - a] / 6 of tetrahedron (a, b, c, d) (positions xyz). */
export function tetVolume(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2]
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az
  const wx = p[3 * d] - ax, wy = p[3 * d + 1] - ay, wz = p[3 * d + 2] - az
  return (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)) / 6
}

// Faces opposite each vertex, ordered so their normals point outward for a positive tet.
const FACE = [
  [1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1],
]
// Edges ab, ac, ad, bc, bd, cd (e = 0..5) and the two faces (opposite k, l) that meet at each.
const EK = [2, 1, 1, 0, 0, 0], EL = [3, 3, 2, 3, 2, 1]

const nrm = new Float64Array(12)
const vid = new Int32Array(4)

/**
 * The six dihedral angles (degrees) of tetrahedron (a, b, c, d) into out[0..5], at edges
 * ab, ac, ad, bc, bd, cd. The tetrahedron's orientation does not matter.
 */
export function tetDihedrals(p: ArrayLike<number>, a: number, b: number, c: number, d: number, out: Float64Array): Float64Array {
  vid[0] = a; vid[1] = b; vid[2] = c; vid[3] = d
  const s = tetVolume(p, a, b, c, d) < 0 ? -1 : 1
  for (let k = 0; k < 4; k++) {
    const f = FACE[k]
    const i = 3 * vid[f[0]], j = 3 * vid[f[1]], l = 3 * vid[f[2]]
    const ux = p[j] - p[i], uy = p[j + 1] - p[i + 1], uz = p[j + 2] - p[i + 2]
    const vx = p[l] - p[i], vy = p[l + 1] - p[i + 1], vz = p[l + 2] - p[i + 2]
    nrm[3 * k] = s * (uy * vz - uz * vy)
    nrm[3 * k + 1] = s * (uz * vx - ux * vz)
    nrm[3 * k + 2] = s * (ux * vy - uy * vx)
  }
  for (let e = 0; e < 6; e++) {
    const k = 3 * EK[e], l = 3 * EL[e]
    const x1 = nrm[k], y1 = nrm[k + 1], z1 = nrm[k + 2]
    const x2 = nrm[l], y2 = nrm[l + 1], z2 = nrm[l + 2]
    const cx = y1 * z2 - z1 * y2, cy = z1 * x2 - x1 * z2, cz = x1 * y2 - y1 * x2
    out[e] = Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), -(x1 * x2 + y1 * y2 + z1 * z2)) * RAD
  }
  return out
}

export interface TetQualityReport {
  count: number
  /** Extreme dihedral angles over all tetrahedra, degrees. */
  minDihedral: number
  maxDihedral: number
  /** Tetrahedra attaining them. */
  minDihedralTet: number
  maxDihedralTet: number
  /** Extreme signed volumes (a negative minimum means inverted tetrahedra). */
  minVolume: number
  maxVolume: number
  totalVolume: number
  /** Counts of dihedral angles (six per tetrahedron) per bin of binDegrees, from 0 to 180. */
  histogram: Uint32Array
  binDegrees: number
}

/** Quality report of a mesh (positions xyz, four indices per tetrahedron). */
export function tetMeshQuality(positions: ArrayLike<number>, tets: ArrayLike<number>, binDegrees = 2): TetQualityReport {
  const bins = Math.ceil(180 / binDegrees)
  const hist = new Uint32Array(bins)
  const ang = new Float64Array(6)
  let minD = Infinity, maxD = -Infinity, minT = -1, maxT = -1
  let minV = Infinity, maxV = -Infinity, total = 0
  const n = Math.floor(tets.length / 4)
  for (let t = 0; t < n; t++) {
    const a = tets[4 * t], b = tets[4 * t + 1], c = tets[4 * t + 2], d = tets[4 * t + 3]
    const vol = tetVolume(positions, a, b, c, d)
    total += vol
    if (vol < minV) minV = vol
    if (vol > maxV) maxV = vol
    tetDihedrals(positions, a, b, c, d, ang)
    for (let e = 0; e < 6; e++) {
      const x = ang[e]
      if (x < minD) { minD = x; minT = t }
      if (x > maxD) { maxD = x; maxT = t }
      hist[Math.min(bins - 1, Math.floor(x / binDegrees))]++
    }
  }
  return {
    count: n, minDihedral: minD, maxDihedral: maxD, minDihedralTet: minT, maxDihedralTet: maxT,
    minVolume: minV, maxVolume: maxV, totalVolume: total, histogram: hist, binDegrees,
  }
}

/** The report as a few lines of text (for the benchmark): counts, extremes and a histogram bar chart. */
export function formatTetQuality(r: TetQualityReport, width = 40): string {
  const lines = [
    `${r.count} tetrahedra, dihedral angles ${r.minDihedral.toFixed(2)} to ${r.maxDihedral.toFixed(2)} degrees, volumes ${r.minVolume.toExponential(3)} to ${r.maxVolume.toExponential(3)}`,
  ]
  let peak = 0
  for (const c of r.histogram) peak = Math.max(peak, c)
  for (let i = 0; i < r.histogram.length; i++) {
    const c = r.histogram[i]
    if (c === 0) continue
    const lo = i * r.binDegrees
    lines.push(`${String(lo).padStart(4)}-${String(lo + r.binDegrees).padEnd(4)} ${'#'.repeat(Math.max(1, Math.round((width * c) / peak)))} ${c}`)
  }
  return lines.join('\n')
}

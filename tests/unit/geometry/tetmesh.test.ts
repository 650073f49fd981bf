// Isosurface stuffing (src-shared/geometry/tetmesh): dihedral bounds on every tetrahedron,
// positive volumes, conformity, boundary on the zero set, a closed 2-manifold boundary, the
// sphere's volume converging, on primitives, an analytic torus, thin plates, cubes and the
// Stanford bunny, in uniform and graded mode.
import { describe, expect, it } from 'vitest'
import {
  ALPHA_LONG, ALPHA_LONG_ALT, ALPHA_SHORT, ALPHA_SHORT_ALT, DIHEDRAL_BOUNDS_ALT_DEG, DIHEDRAL_BOUNDS_DEG, formatTetQuality, stuffIsosurface,
  SHAPE_BCC, SHAPE_BISECTED, SHAPE_FINEST_BCC, SHAPE_HALF_PYRAMID, SHAPE_QUADRISECTED,
  tetDihedrals, tetMeshQuality, tetVolume, type StuffedMesh, type StuffingOptions,
} from '../../../src-shared/geometry/tetmesh'
import { addBccVertices, bccGridForBounds, bccVertexCount, type TetVisitor, visitBccTets } from '../../../src-shared/geometry/tetmesh/bccLattice'
import { evaluateLattice } from '../../../src-shared/geometry/tetmesh/evaluateLattice'
import { LatticeVertices } from '../../../src-shared/geometry/tetmesh/latticeVertices'
import { buildGradedLattice, GRADING_PAYS } from '../../../src-shared/geometry/tetmesh/gradedLattice'
import { OUT } from '../../../src-shared/geometry/tetmesh/stencils'
import { stuffLattice } from '../../../src-shared/geometry/tetmesh/stuffing'
import { PrimitiveSdf } from '../../../src-shared/geometry/primitiveSdf'
import { MeshSdf } from '../../../src-shared/geometry/signedDistance'
import { bunnyExampleMesh } from '../../../src-shared/scene/examples/bunnyMesh'

type Sdf = (x: number, y: number, z: number) => number
const log = (...a: unknown[]) => console.log(...a)

// Outward faces of a positive tetrahedron (a, b, c, d): opposite a, b, c, d.
const FACES = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]]

interface MeshCheck {
  minDihedral: number
  maxDihedral: number
  volume: number
  boundaryFaces: number
  euler: number
}

/**
 * Every check of the file comment except the dihedral bounds (returned): positive volumes;
 * each face in one or two tetrahedra; boundary faces' vertices flagged and on the zero set to
 * 1e-6 h; flagged vertices only on boundary faces; boundary edges used once in each
 * direction (closed, oriented) and every boundary vertex's link one cycle (2-manifold).
 */
function checkMesh(m: StuffedMesh, sdf: Sdf, h: number): MeshCheck {
  const { positions: p, tets: T, boundary } = m
  const nv = m.vertexCount, nt = m.tetCount
  expect(nt).toBeGreaterThan(0)
  expect(2 * nv ** 3).toBeLessThan(2 ** 63)
  const q = tetMeshQuality(p, T)
  expect(q.minVolume).toBeGreaterThan(0)
  // Faces by sorted vertex triple K, times 2 plus the parity of the permutation that sorts the
  // outward-oriented face (so a boundary face's orientation can be read back); one native
  // typed-array sort groups each face's uses (64-bit keys: nv^3 exceeds 2^53 on big meshes).
  const nv2 = BigInt(nv) * BigInt(nv)
  const keys = new BigInt64Array(4 * nt)
  for (let t = 0; t < nt; t++) {
    for (let f = 0; f < 4; f++) {
      const a = T[4 * t + FACES[f][0]], b = T[4 * t + FACES[f][1]], c = T[4 * t + FACES[f][2]]
      // Rotate so the smallest comes first; then (lo, x, y) is even iff x < y.
      let lo = a, x = b, y = c
      if (b < lo && b < c) { lo = b; x = c; y = a } else if (c < lo && c < b) { lo = c; x = a; y = b }
      const odd = x < y ? 0 : 1
      keys[4 * t + f] = 2n * (BigInt(lo) * nv2 + BigInt(Math.min(x, y) * nv + Math.max(x, y))) + BigInt(odd)
    }
  }
  keys.sort()
  const onFace = new Uint8Array(nv)
  const link = new Map<number, number>() // directed boundary edge a->b, key a * nv + b -> count
  const bf: number[] = []
  let overused = 0
  for (let i = 0; i < keys.length; ) {
    const K = keys[i] >> 1n
    let j = i + 1
    while (j < keys.length && keys[j] >> 1n === K) j++
    if (j - i > 2) overused++
    if (j - i === 1) {
      const lo = Number(K / nv2), r = Number(K % nv2), mid = Math.floor(r / nv), hi = r - mid * nv
      const odd = Number(keys[i] & 1n)
      const a = lo, b = odd ? hi : mid, c = odd ? mid : hi
      bf.push(a, b, c)
      for (const [u, v] of [[a, b], [b, c], [c, a]]) link.set(u * nv + v, (link.get(u * nv + v) ?? 0) + 1)
      onFace[a] = onFace[b] = onFace[c] = 1
    }
    i = j
  }
  expect(overused).toBe(0) // every face in one or two tetrahedra
  let worstF = 0, flagMismatch = 0
  for (let v = 0; v < nv; v++) {
    if (boundary[v] !== onFace[v]) flagMismatch++ // the flag is exactly "on a boundary face"
    if (onFace[v]) worstF = Math.max(worstF, Math.abs(sdf(p[3 * v], p[3 * v + 1], p[3 * v + 2])))
  }
  expect(flagMismatch).toBe(0)
  expect(worstF).toBeLessThanOrEqual(1e-6 * h)
  // Closed and oriented: every directed edge once, and its reverse once.
  let badEdges = 0
  for (const [key, k] of link) {
    const u = Math.floor(key / nv), v = key - u * nv
    if (k !== 1 || link.get(v * nv + u) !== 1) badEdges++
  }
  expect(badEdges).toBe(0)
  // Vertex links: the faces (v, a, b) around v chain a -> b into a single cycle.
  const next = new Map<number, Map<number, number>>()
  let badLinks = 0
  for (let i = 0; i < bf.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = bf[i + k], a = bf[i + ((k + 1) % 3)], b = bf[i + ((k + 2) % 3)]
      let m2 = next.get(v)
      if (!m2) next.set(v, (m2 = new Map()))
      if (m2.has(a)) badLinks++
      m2.set(a, b)
    }
  }
  for (const m2 of next.values()) {
    const start = m2.keys().next().value as number
    let x = start, steps = 0
    do { x = m2.get(x)!; steps++ } while (x !== start && x !== undefined && steps <= m2.size)
    if (steps !== m2.size) badLinks++
  }
  expect(badLinks).toBe(0) // every boundary vertex's link is one cycle
  const edges = link.size / 2, faces = bf.length / 3
  return { minDihedral: q.minDihedral, maxDihedral: q.maxDihedral, volume: q.totalVolume, boundaryFaces: faces, euler: next.size - edges + faces }
}

function mesh(name: string, sdf: Sdf, opts: StuffingOptions, bounds = DIHEDRAL_BOUNDS_DEG): MeshCheck & { m: StuffedMesh } {
  const t0 = performance.now()
  const m = stuffIsosurface(sdf, opts)
  const ms = performance.now() - t0
  const c = checkMesh(m, sdf, opts.spacing)
  log(`${name}: h ${opts.spacing}, ${m.tetCount} tets, ${m.vertexCount} vertices, dihedral ${c.minDihedral.toFixed(2)}..${c.maxDihedral.toFixed(2)} deg, ` +
    `volume ${c.volume.toPrecision(6)}, euler ${c.euler}, ${ms.toFixed(0)} ms (${(m.tetCount / ms / 1e3).toFixed(2)} M tets/s), warped ${m.stats.warpedVertices}`)
  expect(c.minDihedral).toBeGreaterThanOrEqual(bounds.min)
  expect(c.maxDihedral).toBeLessThanOrEqual(bounds.max)
  return { ...c, m }
}

const box = (half: number) => ({ min: [-half, -half, -half], max: [half, half, half] })

function torusSdf(R: number, r: number): Sdf {
  // Tilted so the lattice sees it in general position.
  const c = Math.cos(0.4), s = Math.sin(0.4)
  return (x, y, z) => {
    const Y = c * y - s * z, Z = s * y + c * z
    const q = Math.sqrt(x * x + Z * Z) - R
    return Math.sqrt(q * q + Y * Y) - r
  }
}

describe('tetQuality', () => {
  it('regular tetrahedron: six dihedral angles of acos(1/3) = 70.5288 deg to 1e-12, volume sign follows orientation', () => {
    const p = Float64Array.from([1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, 1])
    const a = tetDihedrals(p, 0, 1, 2, 3, new Float64Array(6))
    for (const x of a) expect(Math.abs(x - (Math.acos(1 / 3) * 180) / Math.PI)).toBeLessThan(1e-12)
    expect(tetVolume(p, 0, 1, 2, 3)).toBeCloseTo(-8 / 3, 12)
    expect(tetVolume(p, 0, 1, 3, 2)).toBeCloseTo(8 / 3, 12)
  })

  it('BCC tetrahedron: 90 deg at the two long edges, 60 at the four short ones (1e-12); trirectangular corner 90, 90, 90, 54.7356', () => {
    const p = Float64Array.from([0.5, 0.5, 0.5, 1.5, 0.5, 0.5, 1, 0, 0, 1, 1, 0])
    const a = tetDihedrals(p, 0, 1, 2, 3, new Float64Array(6))
    const expected = [90, 60, 60, 60, 60, 90] // ab, ac, ad, bc, bd, cd
    expected.forEach((e, i) => expect(Math.abs(a[i] - e)).toBeLessThan(1e-12))
    const r = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    const b = tetDihedrals(r, 0, 1, 2, 3, new Float64Array(6))
    const corner = (Math.acos(1 / Math.sqrt(3)) * 180) / Math.PI
    ;[90, 90, 90, corner, corner, corner].forEach((e, i) => expect(Math.abs(b[i] - e)).toBeLessThan(1e-12))
    const q = tetMeshQuality(r, Int32Array.from([0, 1, 2, 3]))
    expect(q.count).toBe(1)
    expect(q.histogram.reduce((s, x) => s + x, 0)).toBe(6)
    expect(formatTetQuality(q)).toContain('1 tetrahedra')
  })
})

describe('isosurface stuffing, uniform BCC lattice', () => {
  const B = DIHEDRAL_BOUNDS_DEG

  it(`sphere (PrimitiveSdf, r = 1): dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed genus-0 boundary on the surface to 1e-6 h; volume within 2% of 4/3 pi r^3 at h = r/20 and converging`, () => {
    const sphere = new PrimitiveSdf('sphere', { position: [0.1, -0.2, 0.05], rotation: [0, 0, 0], scale: [2, 2, 2] })
    const sdf: Sdf = (x, y, z) => sphere.distance(x, y, z)
    const exact = (4 / 3) * Math.PI
    const errors: number[] = []
    for (const h of [0.2, 0.1, 0.05]) {
      const c = mesh('sphere', sdf, { spacing: h, bounds: sphere.bounds })
      expect(c.euler).toBe(2)
      errors.push(Math.abs(c.volume / exact - 1))
    }
    log(`sphere volume relative errors at h = 0.2, 0.1, 0.05: ${errors.map((e) => e.toExponential(3)).join(', ')} (observed orders ${Math.log2(errors[0] / errors[1]).toFixed(2)}, ${Math.log2(errors[1] / errors[2]).toFixed(2)})`)
    expect(errors[2]).toBeLessThan(0.02)
    expect(errors[1]).toBeLessThan(errors[0])
    expect(errors[2]).toBeLessThan(errors[1])
  })

  it(`torus (analytic SDF, R = 1, r = 0.35, tilted): dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed genus-1 boundary (Euler characteristic 0)`, () => {
    for (const h of [0.12, 0.06]) {
      const c = mesh('torus', torusSdf(1, 0.35), { spacing: h, bounds: box(1.4) })
      expect(c.euler).toBe(0)
      const exact = 2 * Math.PI * Math.PI * 1 * 0.35 * 0.35
      log(`  torus volume ${c.volume.toFixed(5)} vs ${exact.toFixed(5)} (${((c.volume / exact - 1) * 100).toFixed(2)}%)`)
    }
  })

  it(`thin plates two cells thick, aligned and tilted: dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed genus-0 boundary`, () => {
    const h = 0.05
    for (const rotation of [[0, 0, 0], [30, 20, 10]]) {
      const plate = new PrimitiveSdf('box', { position: [0, 0, 0], rotation, scale: [1.5, 2 * h, 1.2] })
      const c = mesh(`plate ${rotation.join(',')}`, (x, y, z) => plate.distance(x, y, z), { spacing: h, bounds: plate.bounds })
      expect(c.euler).toBe(2)
      expect(Math.abs(c.volume / (1.5 * 2 * h * 1.2) - 1)).toBeLessThan(0.1)
    }
  })

  it(`cubes (sharp edges and corners), on lattice planes and rotated: dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed genus-0 boundary`, () => {
    for (const [rotation, h] of [[[0, 0, 0], 0.1], [[20, 35, 10], 0.1], [[20, 35, 10], 0.05]] as const) {
      const cube = new PrimitiveSdf('box', { position: [0, 0, 0], rotation: [...rotation], scale: [1, 1, 1] })
      const c = mesh(`cube ${rotation.join(',')}`, (x, y, z) => cube.distance(x, y, z), { spacing: h, bounds: cube.bounds })
      expect(c.euler).toBe(2)
      expect(Math.abs(c.volume - 1)).toBeLessThan(0.05)
    }
  })

  it(`Stanford bunny (MeshSdf) at three resolutions: dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed 2-manifold boundary on the surface`, () => {
    const sdfMesh = new MeshSdf(bunnyExampleMesh())
    const sdf: Sdf = (x, y, z) => sdfMesh.distance(x, y, z)
    for (const h of [0.8, 0.5, 0.35]) mesh('bunny', sdf, { spacing: h, bounds: sdfMesh.bounds })
  })

  it(`alternative parameters (alpha 0.21509 / 0.35900): dihedral angles within [${DIHEDRAL_BOUNDS_ALT_DEG.min}, ${DIHEDRAL_BOUNDS_ALT_DEG.max}] deg on the sphere, torus and rotated cube`, () => {
    const alt = { alphaLong: ALPHA_LONG_ALT, alphaShort: ALPHA_SHORT_ALT }
    const cube = new PrimitiveSdf('box', { position: [0, 0, 0], rotation: [20, 35, 10], scale: [1, 1, 1] })
    mesh('sphere alt', (x, y, z) => Math.hypot(x, y, z) - 1, { spacing: 0.1, bounds: box(1), ...alt }, DIHEDRAL_BOUNDS_ALT_DEG)
    mesh('torus alt', torusSdf(1, 0.35), { spacing: 0.08, bounds: box(1.4), ...alt }, DIHEDRAL_BOUNDS_ALT_DEG)
    mesh('cube alt', (x, y, z) => cube.distance(x, y, z), { spacing: 0.08, bounds: cube.bounds, ...alt }, DIHEDRAL_BOUNDS_ALT_DEG)
  })

  it(`noisy level sets (unions of spheres, sums of sines at the lattice scale): dihedral angles within [${B.min}, ${B.max}] deg, conforming (parity rule), positive volumes`, () => {
    let seed = 12345
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296)
    let lo = 180, hi = 0
    for (let trial = 0; trial < 12; trial++) {
      const waves: number[][] = []
      for (let i = 0; i < 5; i++) waves.push([(rand() - 0.5) * 12, (rand() - 0.5) * 12, (rand() - 0.5) * 12, rand() * 6, 0.1 + rand() * 0.3])
      const sdf: Sdf = (x, y, z) => {
        let s = Math.hypot(x, y, z) - 1.2
        for (const [a, b, c, ph, amp] of waves) s += amp * Math.sin(a * x + b * y + c * z + ph)
        return Math.max(s, Math.hypot(x, y, z) - 2)
      }
      const h = 0.15 + 0.2 * rand()
      const m = stuffIsosurface(sdf, { spacing: h, bounds: box(2) })
      // Not a true distance, so no manifold or zero-set check: conformity and quality only.
      const q = tetMeshQuality(m.positions, m.tets)
      expect(q.minVolume).toBeGreaterThan(0)
      const count = new Map<string, number>()
      for (let t = 0; t < m.tetCount; t++) {
        for (const f of FACES) {
          const k = f.map((i) => m.tets[4 * t + i]).sort((a, b) => a - b).join(',')
          count.set(k, (count.get(k) ?? 0) + 1)
        }
      }
      let over = 0
      for (const k of count.values()) if (k > 2) over++
      expect(over).toBe(0)
      lo = Math.min(lo, q.minDihedral)
      hi = Math.max(hi, q.maxDihedral)
    }
    log(`noisy level sets: dihedral ${lo.toFixed(2)}..${hi.toFixed(2)} deg`)
    expect(lo).toBeGreaterThanOrEqual(B.min)
    expect(hi).toBeLessThanOrEqual(B.max)
  })

  it('arbitrary signs and cut points on every lattice edge (an adversarial f): conforming, positive volumes, boundary closed and oriented (dihedral range printed, not asserted)', () => {
    // f is defined on the lattice's edges only: random signs at the vertices (some exactly
    // zero) and, on each edge with a sign change, a zero at a random position, biased towards
    // the warping thresholds. Every stencil, parity variant and warping conflict shows up.
    // The dihedral angles are printed: such f can reach below the shapes' range (see the
    // comment in stuffing.ts), so this test checks the combinatorics, not the bound.
    let seed = 777
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296)
    const h = 1, n = 6, bounds = { min: [0, 0, 0], max: [n, n, n] }
    const g = bccGridForBounds(bounds.min, bounds.max, h)
    let lo = 180, hi = 0, tets = 0
    for (let trial = 0; trial < 24; trial++) {
      const vals = new Map<number, number>(), cuts = new Map<number, number>()
      const pIn = 0.3 + 0.4 * rand(), pOn = trial % 2 === 0 ? 0 : 0.1 * rand()
      const key = (x: number, y: number, z: number) => x + 4096 * (y + 4096 * z)
      const val = (x: number, y: number, z: number): number => {
        const k = key(x, y, z)
        let v = vals.get(k)
        if (v === undefined) {
          const outer = x <= 1 || y <= 1 || z <= 1 || x >= 2 * g.nx - 1 || y >= 2 * g.ny - 1 || z >= 2 * g.nz - 1
          const r = rand()
          v = outer ? 1 : r < pOn ? 0 : r < pOn + pIn ? -1 : 1
          vals.set(k, v)
        }
        return v
      }
      const thresholds = [0.24999, 0.41189, 1 - 0.41189, 1 - 0.24999, 0.5]
      const zeroAt = (ka: number, kb: number): number => {
        const k = Math.min(ka, kb) * 2 ** 26 + Math.max(ka, kb)
        let t = cuts.get(k)
        if (t === undefined) {
          const m = rand()
          t = m < 0.4 ? rand() : thresholds[Math.floor(rand() * 5)] + (rand() - 0.5) * 0.02
          t = Math.min(0.999, Math.max(0.001, t))
          cuts.set(k, t)
        }
        return ka < kb ? t : 1 - t
      }
      const sdf: Sdf = (X, Y, Z) => {
        const u = [(2 * (X - g.ox)) / h, (2 * (Y - g.oy)) / h, (2 * (Z - g.oz)) / h]
        const r = u.map(Math.round), isInt = u.map((x, i) => Math.abs(x - r[i]) < 1e-7)
        const par = r.map((x) => ((x % 2) + 2) % 2)
        const nInt = isInt.filter(Boolean).length
        if (nInt === 3 && par[0] === par[1] && par[1] === par[2]) return val(r[0], r[1], r[2])
        let a: number[], b: number[], sPar: number
        if (nInt >= 2) { // on a long edge along axis k
          let k = isInt.indexOf(false)
          if (k < 0) k = par[0] === par[1] ? 2 : par[0] === par[2] ? 1 : 0
          let low = Math.floor(u[k])
          if (((low % 2) + 2) % 2 !== par[(k + 1) % 3]) low -= 1
          a = [...r]; b = [...r]; a[k] = low; b[k] = low + 2
          sPar = (u[k] - low) / 2
        } else if (nInt === 0) { // on a short edge from a centre (odd coordinates)
          const c = u.map((x) => { let o = Math.floor(x); if (((o % 2) + 2) % 2 === 0) o += 1; if (Math.abs(x - o) > 1) o -= 2; return o })
          const d = u.map((x, i) => x - c[i])
          sPar = Math.abs(d[0])
          if (Math.abs(Math.abs(d[1]) - sPar) > 1e-6 || Math.abs(Math.abs(d[2]) - sPar) > 1e-6) return 1
          a = c; b = c.map((x, i) => x + Math.sign(d[i]))
        } else return 1 // not on the lattice (an all-on-surface centroid): outside
        const fa = val(a[0], a[1], a[2]), fb = val(b[0], b[1], b[2])
        if (fa * fb >= 0) return fa !== 0 ? fa : fb
        return (sPar - zeroAt(key(a[0], a[1], a[2]), key(b[0], b[1], b[2]))) * fb
      }
      const m = stuffIsosurface(sdf, { spacing: h, bounds })
      // Conformity and orientation through the boundary's closedness, without manifoldness:
      // arbitrary f makes pinched surfaces.
      const q = tetMeshQuality(m.positions, m.tets)
      expect(q.minVolume).toBeGreaterThan(0)
      const count = new Map<string, number>()
      const directed = new Map<string, number>()
      for (let t = 0; t < m.tetCount; t++) {
        for (const f of FACES) {
          const v = f.map((i) => m.tets[4 * t + i])
          const k = [...v].sort((x, y) => x - y).join(',')
          count.set(k, (count.get(k) ?? 0) + 1)
        }
      }
      let over = 0
      for (const c of count.values()) if (c > 2) over++
      expect(over).toBe(0)
      for (let t = 0; t < m.tetCount; t++) {
        for (const f of FACES) {
          const v = f.map((i) => m.tets[4 * t + i])
          if (count.get([...v].sort((x, y) => x - y).join(',')) !== 1) continue
          for (let e = 0; e < 3; e++) {
            const dk = `${v[e]},${v[(e + 1) % 3]}`
            directed.set(dk, (directed.get(dk) ?? 0) + 1)
          }
        }
      }
      let unmatched = 0
      for (const [dk, c] of directed) {
        const [x, y] = dk.split(',')
        if (c !== directed.get(`${y},${x}`)) unmatched++
      }
      expect(unmatched).toBe(0)
      lo = Math.min(lo, q.minDihedral)
      hi = Math.max(hi, q.maxDihedral)
      tets += m.tetCount
    }
    log(`adversarial f: ${tets} tets, dihedral ${lo.toFixed(2)}..${hi.toFixed(2)} deg`)
  })

  it('refuses a shape that reaches beyond its bounds, bad spacing and bad alphas (INVALID_PARAM)', () => {
    const sdf: Sdf = (x, y, z) => Math.hypot(x, y, z) - 1
    expect(() => stuffIsosurface(sdf, { spacing: 0.1, bounds: box(0.5) })).toThrow(/beyond the given bounds/)
    expect(() => stuffIsosurface(sdf, { spacing: 0, bounds: box(1) })).toThrow(/spacing/)
    expect(() => stuffIsosurface(sdf, { spacing: 0.1, bounds: box(1), alphaLong: 0.6 })).toThrow(/alpha/)
  })

  it('speed: a sphere meshed into about a million tetrahedra (prints tetrahedra per second; no time asserted)', () => {
    const sdf: Sdf = (x, y, z) => Math.hypot(x, y, z) - 1
    stuffIsosurface(sdf, { spacing: 0.1, bounds: box(1) }) // warm up
    const t0 = performance.now()
    const m = stuffIsosurface(sdf, { spacing: 0.035, bounds: box(1) })
    const ms = performance.now() - t0
    log(`speed: ${m.tetCount} tetrahedra in ${ms.toFixed(0)} ms = ${(m.tetCount / ms / 1e3).toFixed(2)} M tets/s (${m.stats.latticeVertices} lattice vertices, ${m.stats.backgroundTets} background tets)`)
    expect(m.tetCount).toBeGreaterThan(1e6)
    const q = tetMeshQuality(m.positions, m.tets)
    log(formatTetQuality(q))
    expect(q.minDihedral).toBeGreaterThanOrEqual(B.min)
    expect(q.maxDihedral).toBeLessThanOrEqual(B.max)
    expect(q.minVolume).toBeGreaterThan(0)
  })
})

describe('isosurface stuffing, graded octree lattice', () => {
  const B = DIHEDRAL_BOUNDS_DEG // graded: 10.7 to 164.8 degrees

  it(`sphere: dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed genus-0 boundary on the surface; the same surface as uniform mode with far fewer tetrahedra; volume within 2% and converging`, () => {
    const sdf: Sdf = (x, y, z) => Math.hypot(x, y, z) - 1
    const exact = (4 / 3) * Math.PI
    const errors: number[] = []
    for (const h of [0.1, 0.05, 0.025]) {
      const g = mesh('sphere graded', sdf, { spacing: h, bounds: box(1), mode: 'graded' })
      expect(g.euler).toBe(2)
      errors.push(Math.abs(g.volume / exact - 1))
      log(`  leaves per level ${g.m.stats.leavesPerLevel!.join(', ')}`)
      if (h === 0.05) {
        const u = stuffIsosurface(sdf, { spacing: h, bounds: box(1) })
        log(`  uniform: ${u.tetCount} tets, graded: ${g.m.tetCount}`)
        expect(g.m.tetCount).toBeLessThan(0.7 * u.tetCount)
        // The band near the surface is the uniform lattice: same boundary, same volume.
        expect(Math.abs(g.volume - tetMeshQuality(u.positions, u.tets).totalVolume)).toBeLessThan(1e-9)
      }
    }
    log(`graded sphere volume relative errors at h = 0.1, 0.05, 0.025: ${errors.map((e) => e.toExponential(3)).join(', ')}`)
    expect(errors[2]).toBeLessThan(0.02)
    expect(errors[1]).toBeLessThan(errors[0])
    expect(errors[2]).toBeLessThan(errors[1])
  })

  it('graded background shapes: untouched interior tetrahedra are finest and coarser BCC, bisected and quadrisected BCC and half-pyramids, each with the dihedral angles of its standard shape (45..120 deg) and positive volume', () => {
    const sdf: Sdf = (x, y, z) => Math.hypot(x, y, z) - 1
    const m = stuffIsosurface(sdf, { spacing: 0.04, bounds: box(1), mode: 'graded' })
    const seen = new Map<number, [number, number]>()
    const ang = new Float64Array(6)
    for (let t = 0; t < m.tetCount; t++) {
      const sh = m.tetShape[t]
      if (sh === 0) continue
      tetDihedrals(m.positions, m.tets[4 * t], m.tets[4 * t + 1], m.tets[4 * t + 2], m.tets[4 * t + 3], ang)
      const r = seen.get(sh) ?? [180, 0]
      for (const x of ang) { r[0] = Math.min(r[0], x); r[1] = Math.max(r[1], x) }
      seen.set(sh, r)
    }
    log(`graded shapes (code: min..max dihedral): ${[...seen].map(([k, [a, b]]) => `${k}: ${a.toFixed(2)}..${b.toFixed(2)}`).join(', ')}`)
    for (const sh of [SHAPE_FINEST_BCC, SHAPE_BCC, SHAPE_BISECTED, SHAPE_QUADRISECTED, SHAPE_HALF_PYRAMID]) {
      const r = seen.get(sh)!
      expect(r).toBeDefined()
      expect(r[0]).toBeGreaterThan(45 - 1e-9)
      expect(r[1]).toBeLessThan(120 + 1e-9)
    }
    // BCC tetrahedra: 60 and 90 degrees only.
    expect(Math.abs(seen.get(SHAPE_BCC)![0] - 60)).toBeLessThan(1e-9)
    expect(Math.abs(seen.get(SHAPE_BCC)![1] - 90)).toBeLessThan(1e-9)
  })

  // A block of water in a corner of a 2 m box (the dam break's first frame), at its mesh spacing.
  const waterBlock = new PrimitiveSdf('box', { position: [-0.7, 0.6, 0], rotation: [0, 0, 0], scale: [0.6, 1.2, 1.0] })
  const waterSdf: Sdf = (x, y, z) => waterBlock.distance(x, y, z)
  const waterH = 2 / 48
  const waterBox: [[number, number, number], [number, number, number]] = [[-1.02, -0.02, -1.02], [1.02, 2.02, 1.02]]
  const stuffOptions = (h: number) => ({ alphaLong: ALPHA_LONG, alphaShort: ALPHA_SHORT, tolerance: 1e-9 * h, keepAllOnSurface: false })

  it('graded lattice without its all-outside tetrahedra: the full list with exactly those taken out (most of a liquid in a box), and the same stuffed mesh', () => {
    // The water block and a ball off centre.
    const shapes: [string, Sdf, number, [number, number, number], [number, number, number]][] = [
      ['water block', waterSdf, waterH, ...waterBox],
      ['ball', (x, y, z) => Math.hypot(x - 0.31, y + 0.2, z) - 0.5, 0.03, [-1, -1, -1], [1, 1, 1]],
    ]
    for (const [name, sdf, h, min, max] of shapes) {
      const full = buildGradedLattice(sdf, min, max, h, 5, null, false)
      const kept = buildGradedLattice(sdf, min, max, h, 5, null, true)
      if ('finestOnly' in full || 'finestOnly' in kept) throw new Error(`${name}: expected coarse leaves`)
      const L = full.lattice.label
      const expected: number[] = []
      for (let t = 0; t < full.tetCount; t++) {
        const v = full.tets.subarray(4 * t, 4 * t + 4)
        if (v.every((i) => L[i] === OUT)) continue
        expected.push(...v, full.shape[t])
      }
      const got: number[] = []
      for (let t = 0; t < kept.tetCount; t++) got.push(...kept.tets.subarray(4 * t, 4 * t + 4), kept.shape[t])
      log(`${name}: ${full.tetCount} background tetrahedra, ${kept.tetCount} not wholly outside`)
      expect(kept.tetCount).toBeLessThan(0.6 * full.tetCount)
      expect(got).toEqual(expected)
      const a = stuffLattice(sdf, full.lattice, full.visitTets, stuffOptions(h))
      const b = stuffLattice(sdf, kept.lattice, kept.visitTets, stuffOptions(h))
      expect(b.tetCount).toBe(a.tetCount)
      expect(b.tets).toEqual(a.tets)
      expect(b.positions).toEqual(a.positions)
    }
  })

  it('graded lattice: its cell and corner tables as flat arrays and hashed give the same lattice (vertices, labels, tetrahedra, shapes)', () => {
    const shapes: [string, Sdf, number, [number, number, number], [number, number, number], boolean][] = [
      ['water block', waterSdf, waterH, ...waterBox, true],
      ['ball', (x, y, z) => Math.hypot(x - 0.31, y + 0.2, z) - 0.5, 0.03, [-1, -1, -1], [1, 1, 1], false],
    ]
    for (const [name, sdf, h, min, max, drop] of shapes) {
      const flat = buildGradedLattice(sdf, min, max, h, 5, null, drop)
      // A limit of 0 entries makes both tables hash (octreeTables.ts).
      const hashed = buildGradedLattice(sdf, min, max, h, 5, null, drop, 0)
      if ('finestOnly' in flat || 'finestOnly' in hashed) throw new Error(`${name}: expected coarse leaves`)
      log(`${name}: ${flat.tetCount} tetrahedra, ${flat.lattice.count} vertices, leaves per level ${flat.leavesPerLevel.join('/')}`)
      expect(flat.leavesPerLevel.slice(1).some((c) => c > 0)).toBe(true)
      expect(hashed.leavesPerLevel).toEqual(flat.leavesPerLevel)
      expect(hashed.lattice.count).toBe(flat.lattice.count)
      const n = flat.lattice.count
      expect(hashed.lattice.ic.subarray(0, 3 * n)).toEqual(flat.lattice.ic.subarray(0, 3 * n))
      expect(hashed.lattice.label.subarray(0, n)).toEqual(flat.lattice.label.subarray(0, n))
      expect(hashed.tetCount).toBe(flat.tetCount)
      expect(hashed.tets.subarray(0, 4 * flat.tetCount)).toEqual(flat.tets.subarray(0, 4 * flat.tetCount))
      expect(hashed.shape.subarray(0, flat.tetCount)).toEqual(flat.shape.subarray(0, flat.tetCount))
    }
  })

  it('uniform lattice: the visits pass over faces whose six vertices are all outside, and stuffing makes the same mesh as from every tetrahedron', () => {
    const sdf = waterSdf, h = waterH
    const stuff = (skip: boolean) => {
      const grid = bccGridForBounds(...waterBox, h)
      const lat = new LatticeVertices(bccVertexCount(grid))
      addBccVertices(grid, lat)
      evaluateLattice(lat, sdf, null)
      let visited = 0
      const visitAll = (v: TetVisitor) => visitBccTets(grid, { visit: (a, b, c, d, sh) => { visited++; v.visit(a, b, c, d, sh) } }, skip ? lat.label : null)
      const m = stuffLattice(sdf, lat, visitAll, stuffOptions(h))
      return { m, visited }
    }
    const all = stuff(false), some = stuff(true)
    log(`uniform water block: ${all.visited} visits of every tetrahedron, ${some.visited} passing over the outside`)
    expect(some.visited).toBeLessThan(0.5 * all.visited)
    expect(some.m.tetCount).toBe(all.m.tetCount)
    expect(some.m.tets).toEqual(all.m.tets)
    expect(some.m.positions).toEqual(all.m.positions)
  })

  it(`torus, thin plate, rotated cube: dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed boundary of the right genus`, () => {
    expect(mesh('torus graded', torusSdf(1, 0.35), { spacing: 0.04, bounds: box(1.4), mode: 'graded' }).euler).toBe(0)
    const h = 0.04
    const plate = new PrimitiveSdf('box', { position: [0, 0, 0], rotation: [30, 20, 10], scale: [1.5, 2 * h, 1.2] })
    expect(mesh('plate graded', (x, y, z) => plate.distance(x, y, z), { spacing: h, bounds: plate.bounds, mode: 'graded' }).euler).toBe(2)
    const cube = new PrimitiveSdf('box', { position: [0, 0, 0], rotation: [20, 35, 10], scale: [1, 1, 1] })
    expect(mesh('cube graded', (x, y, z) => cube.distance(x, y, z), { spacing: 0.04, bounds: cube.bounds, mode: 'graded' }).euler).toBe(2)
  })

  it(`Stanford bunny (MeshSdf) at two resolutions: dihedral angles within [${B.min}, ${B.max}] deg, conforming, closed 2-manifold boundary on the surface`, () => {
    const sdfMesh = new MeshSdf(bunnyExampleMesh())
    const sdf: Sdf = (x, y, z) => sdfMesh.distance(x, y, z)
    for (const h of [0.35, 0.2]) mesh('bunny graded', sdf, { spacing: h, bounds: sdfMesh.bounds, mode: 'graded', maxCoarsening: 3 })
  })

  it('speed: a graded sphere of about a million tetrahedra (prints tetrahedra per second; no time asserted)', () => {
    const sdf: Sdf = (x, y, z) => Math.hypot(x, y, z) - 1
    stuffIsosurface(sdf, { spacing: 0.1, bounds: box(1), mode: 'graded' })
    const t0 = performance.now()
    const m = stuffIsosurface(sdf, { spacing: 0.025, bounds: box(1), mode: 'graded' })
    const ms = performance.now() - t0
    log(`graded speed: ${m.tetCount} tetrahedra in ${ms.toFixed(0)} ms = ${(m.tetCount / ms / 1e3).toFixed(2)} M tets/s (leaves per level ${m.stats.leavesPerLevel!.join(', ')})`)
    const q = tetMeshQuality(m.positions, m.tets)
    log(formatTetQuality(q, 20))
    expect(q.minDihedral).toBeGreaterThanOrEqual(B.min)
    expect(q.maxDihedral).toBeLessThanOrEqual(B.max)
    expect(q.minVolume).toBeGreaterThan(0)
  })

  it('refuses an sdf that overstates the distance (the surface reaches a coarse tetrahedron)', () => {
    // 3x a sphere's distance: 3-Lipschitz, so cells near the surface look far from it.
    const sdf: Sdf = (x, y, z) => 3 * (Math.hypot(x, y, z) - 1)
    expect(() => stuffIsosurface(sdf, { spacing: 0.05, bounds: box(1), mode: 'graded' })).toThrow(/coarse tetrahedron/)
  })

  it('with no room for a coarse leaf inside the shape (a thin plate), graded mode gives the uniform mode\'s mesh, the octree\'s leaves reported', () => {
    const plate: Sdf = (x, y, z) => Math.max(Math.abs(x) - 0.8, Math.abs(y) - 0.12, Math.abs(z) - 0.8)
    const opts = { spacing: 0.05, bounds: box(1) }
    const graded = stuffIsosurface(plate, { ...opts, mode: 'graded' }), uniform = stuffIsosurface(plate, { ...opts, mode: 'uniform' })
    expect(graded.tetCount).toBe(uniform.tetCount)
    expect(graded.tets).toEqual(uniform.tets)
    expect(graded.positions).toEqual(uniform.positions)
    expect(graded.stats.leavesPerLevel![0]).toBeGreaterThan(0)
    expect(graded.stats.leavesPerLevel!.slice(1).every((c) => c === 0)).toBe(true)
  })

  it(`with too little room inside to pay for the octree (a thin plate with a ball on it: fewer than 1/${GRADING_PAYS} of its leaves' worth of finest cubes in coarse leaves inside), graded mode gives the uniform mode's mesh; a big ball alone stays graded`, () => {
    const h = 0.05, min: [number, number, number] = [-1, -1, -1], max: [number, number, number] = [1, 1, 1]
    // The ball's core has room for a few coarse leaves; the plate around it none.
    const ball: Sdf = (x, y, z) => Math.hypot(x, y, z) - 0.4
    const plateWithBall: Sdf = (x, y, z) => Math.min(Math.max(Math.abs(x) - 0.9, Math.abs(y) - 0.12, Math.abs(z) - 0.9), ball(x, y, z))
    const lattice = buildGradedLattice(plateWithBall, min, max, h, 5, null, true)
    if (!('finestOnly' in lattice)) throw new Error('expected the uniform lattice')
    log(`plate with a ball: ${lattice.leaves} octree leaves, ${lattice.insideCubes} finest cubes in coarse leaves inside`)
    expect(lattice.insideCubes).toBeGreaterThan(0)
    expect(GRADING_PAYS * lattice.insideCubes).toBeLessThan(lattice.leaves)
    const opts = { spacing: h, bounds: { min, max } }
    const graded = stuffIsosurface(plateWithBall, { ...opts, mode: 'graded' }), uniform = stuffIsosurface(plateWithBall, { ...opts, mode: 'uniform' })
    expect(graded.tets).toEqual(uniform.tets)
    expect(graded.positions).toEqual(uniform.positions)
    // A ball twice the size alone: its coarse inside leaves cover more than 1/GRADING_PAYS of
    // the leaves (the small one's core does not pay for its own octree either).
    const alone = buildGradedLattice((x, y, z) => Math.hypot(x, y, z) - 0.8, min, max, h, 5, null, true)
    if ('finestOnly' in alone) throw new Error('expected the graded lattice')
    expect(alone.leavesPerLevel.slice(1).some((c) => c > 0)).toBe(true)
  })
})

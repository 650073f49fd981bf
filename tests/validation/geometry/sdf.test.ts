// Mesh signed distance fields against analytic answers, brute force, and imperfect meshes.
import { describe, expect, it } from 'vitest'
import { MeshSdf, sampleSdfGrid, sdfGridSampleCount } from '../../../src-shared/geometry/signedDistance'
import { TriangleBvh, HIT_DISTANCE, HIT_SIZE } from '../../../src-shared/geometry/bvh'
import { FastWindingNumber, windingNumberExact } from '../../../src-shared/geometry/windingNumber'
import { closestPointOnTriangle } from '../../../src-shared/geometry/closestPoint'
import { computeBounds, type TriMesh } from '../../../src-shared/geometry/triMesh'
import { EddyError } from '../../../src-shared/api/errors'
import { bunnyMesh } from '../../fixtures/makeBunnyObj'
import { cube, flipped, icosphere, rng, withoutTriangles } from '../../unit/geometry/meshes'

function bruteDistance(mesh: TriMesh, x: number, y: number, z: number): number {
  const p = mesh.positions, idx = mesh.indices, s = new Float64Array(6)
  let best = Infinity
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2]
    closestPointOnTriangle(x, y, z, p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2], s)
    best = Math.min(best, (s[0] - x) ** 2 + (s[1] - y) ** 2 + (s[2] - z) ** 2)
  }
  return Math.sqrt(best)
}

/** n random points in the mesh's bounds grown by `pad` times its extent on each side. */
function randomPoints(mesh: TriMesh, n: number, pad: number, seed: number): [number, number, number][] {
  const rand = rng(seed)
  const { min, max } = computeBounds(mesh.positions)
  const pts: [number, number, number][] = []
  for (let i = 0; i < n; i++) {
    const q = [0, 1, 2].map((k) => min[k] - pad * (max[k] - min[k]) + rand() * (1 + 2 * pad) * (max[k] - min[k]))
    pts.push([q[0], q[1], q[2]])
  }
  return pts
}

/** Centre of mass of the solid bounded by a closed outward mesh (signed tetrahedra). */
function solidCentroid(mesh: TriMesh): [number, number, number] {
  const p = mesh.positions, idx = mesh.indices
  let v = 0, cx = 0, cy = 0, cz = 0
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2]
    const vol = (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6
    v += vol
    cx += (vol * (p[a] + p[b] + p[c])) / 4
    cy += (vol * (p[a + 1] + p[b + 1] + p[c + 1])) / 4
    cz += (vol * (p[a + 2] + p[b + 2] + p[c + 2])) / 4
  }
  return [cx / v, cy / v, cz / v]
}

describe('MeshSdf on an icosphere', () => {
  const mesh = icosphere(4) // 5120 triangles
  // Chord error: a flat triangle with vertices on the unit sphere and circumradius rho lies
  // on a plane at distance sqrt(1 - rho^2) from the centre, so the mesh surface is within
  // eps = max(1 - sqrt(1 - rho^2)) of the sphere (Hausdorff distance), and so is its SDF
  // of |x| - 1. Float32 vertices add ~1e-7.
  let eps = 0
  {
    const p = mesh.positions, idx = mesh.indices
    for (let t = 0; t < idx.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => [0, 1, 2].map((j) => p[3 * idx[t + k] + j]))
      const ab = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])
      const bc = Math.hypot(b[0] - c[0], b[1] - c[1], b[2] - c[2])
      const ca = Math.hypot(c[0] - a[0], c[1] - a[1], c[2] - a[2])
      const s = (ab + bc + ca) / 2
      const area = Math.sqrt(s * (s - ab) * (s - bc) * (s - ca))
      const rho = (ab * bc * ca) / (4 * area)
      eps = Math.max(eps, 1 - Math.sqrt(1 - rho * rho))
    }
  }
  const tol = eps + 1e-6

  it(`is |x| - 1 to within the chord error (${'max 1 - sqrt(1 - rho^2)'})`, () => {
    expect(eps).toBeGreaterThan(1e-3) // level 4: ~1.6e-3, so the test is not vacuous
    expect(eps).toBeLessThan(3e-3)
    const sdf = new MeshSdf(mesh)
    const rand = rng(11)
    let worst = 0
    for (let i = 0; i < 3000; i++) {
      // Radii from 0 to 2.5, directions uniform: inside, near the surface and outside.
      const r = i < 1000 ? 0.9 + 0.2 * rand() : 2.5 * rand()
      const u = 2 * rand() - 1, phi = 2 * Math.PI * rand(), s = Math.sqrt(1 - u * u)
      const x = r * s * Math.cos(phi), y = r * s * Math.sin(phi), z = r * u
      const err = Math.abs(sdf.distance(x, y, z) - (r - 1))
      worst = Math.max(worst, err)
    }
    console.log(`icosphere(4): chord error ${eps.toExponential(3)}, worst |sdf - (|x| - 1)| ${worst.toExponential(3)}`)
    expect(worst).toBeLessThanOrEqual(tol)
    // The bound is attained (points just inside a face centre are off by ~eps), so a
    // tolerance much tighter than eps would be wrong, and one much looser would hide bugs.
    expect(worst).toBeGreaterThan(0.5 * eps)
    expect(sdf.distance(0, 0, 0)).toBeCloseTo(-1, 2)
    expect(sdf.distance(0, 0, 0)).toBeGreaterThanOrEqual(-1)
  })
})

describe('MeshSdf on a cube', () => {
  const sdf = new MeshSdf(cube(0.5))
  it('gives the known answers inside, outside, at edges and corners', () => {
    const cases: [number, number, number, number][] = [
      [0, 0, 0, -0.5],
      [0.2, 0.1, 0, -0.3],
      [0.45, -0.4, 0.3, -0.05],
      [1, 0, 0, 0.5],
      [0, -2, 0, 1.5],
      [1, 1, 0, Math.SQRT1_2], // edge region
      [1, 1, 1, Math.sqrt(3) / 2], // corner region
      [-0.7, 0.6, -0.8, Math.sqrt(0.04 + 0.01 + 0.09)],
      [0.5, 0.5, 0.5, 0], // on the corner
      [0.5, 0.1, -0.2, 0], // on a face
    ]
    for (const [x, y, z, d] of cases) expect(Math.abs(sdf.distance(x, y, z) - d)).toBeLessThan(1e-7)
    expect(sdf.windingNumber(0.1, 0.2, 0.3)).toBeCloseTo(1, 10)
    expect(sdf.windingNumber(2, 0.2, 0.3)).toBeCloseTo(0, 10)
  })
})

describe('MeshSdf on the Stanford bunny', () => {
  const mesh = bunnyMesh()
  const sdf = new MeshSdf(mesh)
  const { min, max } = computeBounds(mesh.positions)
  const size = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2])

  it('is positive far outside and negative at the centre of mass', () => {
    const c = solidCentroid(mesh)
    expect(windingNumberExact(mesh, ...c)).toBeCloseTo(1, 10)
    expect(sdf.distance(...c)).toBeLessThan(-0.5)
    for (const [x, y, z] of [[30, 0, 0], [0, -20, 0], [0, 5, 25], [-15, 20, -15]] as const) {
      expect(sdf.distance(x, y, z)).toBeGreaterThan(5)
    }
  })

  it('has |sdf| equal to the brute-force distance and the sign of the exact winding number', () => {
    let signChecked = 0
    for (const [x, y, z] of randomPoints(mesh, 400, 0.3, 21)) {
      const d = sdf.distance(x, y, z)
      expect(Math.abs(d)).toBe(bruteDistance(mesh, x, y, z))
      const w = windingNumberExact(mesh, x, y, z)
      // A closed mesh: w is 0 or 1 up to rounding.
      expect(Math.min(Math.abs(w), Math.abs(w - 1))).toBeLessThan(1e-9)
      expect(d < 0).toBe(w > 0.5)
      signChecked++
    }
    expect(signChecked).toBe(400)
  })

  it('fast winding number agrees with the exact one within 1e-2 away from the surface', () => {
    const fast = new FastWindingNumber(new TriangleBvh(mesh), 2)
    const exactTree = new FastWindingNumber(new TriangleBvh(mesh), Infinity)
    let worst = 0, worstNear = 0, n = 0
    for (const [x, y, z] of randomPoints(mesh, 1500, 0.3, 5)) {
      const w = windingNumberExact(mesh, x, y, z)
      expect(Math.abs(exactTree.evaluate(x, y, z) - w)).toBeLessThan(1e-10)
      const err = Math.abs(fast.evaluate(x, y, z) - w)
      const d = sdf.unsignedDistance(x, y, z)
      if (d > 0.01 * size) {
        worst = Math.max(worst, err)
        n++
      } else worstNear = Math.max(worstNear, err)
    }
    console.log(`fast winding number (beta 2) vs exact, bunny: max error ${worst.toExponential(2)} over ${n} points farther than 1% of the size; ${worstNear.toExponential(2)} nearer`)
    expect(n).toBeGreaterThan(1000)
    expect(worst).toBeLessThan(1e-2)
  })

  it('pseudo-normal signs agree with winding-number signs on this closed mesh', () => {
    const pn = new MeshSdf(mesh, { sign: 'pseudonormal' })
    for (const [x, y, z] of randomPoints(mesh, 2000, 0.2, 8)) expect(pn.distance(x, y, z)).toBe(sdf.distance(x, y, z))
  })

  it('samples a 64^3 grid (timed), and the narrow band is the clamped full field', () => {
    const n = 64
    const dx = (1.1 * size) / n
    const centre = [0, 1, 2].map((k) => (min[k] + max[k]) / 2)
    const spec = { nx: n, ny: n, nz: n, dx, origin: centre.map((c) => c - (n / 2) * dx) }
    const full = new Float32Array(sdfGridSampleCount(spec))
    sampleSdfGrid(sdf, { ...spec, nx: 8, ny: 8, nz: 8 }, new Float32Array(512)) // warm up the JIT
    let t0 = performance.now()
    sampleSdfGrid(sdf, spec, full)
    const tFull = performance.now() - t0
    const band = 3 * dx
    const banded = new Float32Array(full.length)
    t0 = performance.now()
    sampleSdfGrid(sdf, spec, banded, { band })
    const tBand = performance.now() - t0
    const pn = new MeshSdf(mesh, { sign: 'pseudonormal' })
    const pnOut = new Float32Array(full.length)
    t0 = performance.now()
    sampleSdfGrid(pn, spec, pnOut)
    const tPn = performance.now() - t0
    console.log(
      `bunny (${mesh.indices.length / 3} triangles) SDF on 64^3 cell centres: ${tFull.toFixed(0)} ms exact everywhere, ` +
        `${tBand.toFixed(0)} ms with a 3-cell narrow band, ${tPn.toFixed(0)} ms with pseudo-normal signs`,
    )
    let inside = 0, bandMismatch = 0, pnMismatch = 0
    for (let i = 0; i < full.length; i++) {
      const clamped = Math.max(-band, Math.min(band, full[i]))
      if (banded[i] !== Math.fround(clamped)) bandMismatch++
      if (pnOut[i] !== full[i]) pnMismatch++
      if (full[i] < 0) inside++
    }
    expect(bandMismatch).toBe(0)
    expect(pnMismatch).toBe(0)
    // Volume check: inside cells x dx^3 vs the mesh's volume (194.29 units^3), to a few cells' worth.
    const vol = inside * dx ** 3
    expect(Math.abs(vol - 194.288) / 194.288).toBeLessThan(0.03)
    // The grid (sampled with Lipschitz hints and sign propagation on this closed mesh) equals
    // direct per-point evaluation, checked on 5000 random cells (index i + nx (j + ny k),
    // cell centres).
    const rand = rng(99)
    let direct = 0
    for (let s = 0; s < 5000; s++) {
      const [i, j, k] = [0, 1, 2].map(() => Math.floor(rand() * n))
      const ref = sdf.distance(spec.origin[0] + (i + 0.5) * dx, spec.origin[1] + (j + 0.5) * dx, spec.origin[2] + (k + 0.5) * dx)
      if (full[i + n * (j + n * k)] !== Math.fround(ref)) direct++
    }
    expect(direct).toBe(0)
    expect(sdf.closed).toBe(true)
  })
})

describe('MeshSdf on imperfect meshes', () => {
  it('open cube (one face missing): right signs away from the hole, w = 5/6 at the centre', () => {
    const full = cube(0.5)
    // Triangles 6 and 7 are the y = +0.5 face.
    const open = withoutTriangles(full, (t) => t === 6 || t === 7)
    const sdf = new MeshSdf(open)
    // The missing face subtends 4 pi / 6 at the centre.
    expect(windingNumberExact(open, 0, 0, 0)).toBeCloseTo(5 / 6, 12)
    expect(sdf.windingNumber(0, 0, 0)).toBeCloseTo(5 / 6, 3)
    const rand = rng(4)
    let nIn = 0, nOut = 0, wInMin = Infinity, wOutMax = -Infinity
    for (let i = 0; i < 3000; i++) {
      const x = -1 + 2 * rand(), y = -1 + 2 * rand(), z = -1 + 2 * rand()
      const hole = Math.hypot(Math.max(0, Math.abs(x) - 0.5), y - 0.5, Math.max(0, Math.abs(z) - 0.5))
      if (hole <= 0.1) continue // within 0.1 x size of the hole
      const inside = Math.abs(x) < 0.5 && Math.abs(y) < 0.5 && Math.abs(z) < 0.5
      const d = sdf.distance(x, y, z)
      const w = windingNumberExact(open, x, y, z)
      if (inside) {
        expect(d).toBeLessThan(0)
        wInMin = Math.min(wInMin, w)
        nIn++
      } else {
        expect(d).toBeGreaterThan(0)
        wOutMax = Math.max(wOutMax, w)
        nOut++
      }
    }
    console.log(`open cube, points > 0.1 from the hole: w >= ${wInMin.toFixed(3)} inside (${nIn}), w <= ${wOutMax.toFixed(3)} outside (${nOut})`)
    expect(nIn).toBeGreaterThan(200)
    expect(nOut).toBeGreaterThan(1000)
    // 0.1 below the centre of a 1 x 1 hole the hole subtends 0.411 x 4 pi: w >= 0.589.
    expect(wInMin).toBeGreaterThan(0.55)
    expect(wOutMax).toBeLessThan(0.45)
  })

  it('bunny with 2% of its triangles deleted: right signs and w ~ 1 / 0 away from the holes', () => {
    const mesh = bunnyMesh()
    const rand = rng(2024)
    const dropped = new Set<number>()
    const nTri = mesh.indices.length / 3
    while (dropped.size < Math.round(0.02 * nTri)) dropped.add(Math.floor(rand() * nTri))
    const holey = withoutTriangles(mesh, (t) => dropped.has(t))
    const holes = withoutTriangles(mesh, (t) => !dropped.has(t))
    const holeBvh = new TriangleBvh(holes)
    const hit = new Float64Array(HIT_SIZE)
    const whole = new MeshSdf(mesh)
    const sdf = new MeshSdf(holey)
    const { min, max } = computeBounds(mesh.positions)
    const size = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2])
    let nIn = 0, nOut = 0, wInMin = Infinity, wOutMax = -Infinity
    for (const [x, y, z] of randomPoints(mesh, 3000, 0.2, 77)) {
      holeBvh.closestPoint(x, y, z, hit)
      if (hit[HIT_DISTANCE] <= 0.1 * size) continue
      const ref = whole.distance(x, y, z)
      const d = sdf.distance(x, y, z)
      expect(Math.sign(d)).toBe(Math.sign(ref))
      const w = sdf.windingNumber(x, y, z)
      if (ref < 0) {
        wInMin = Math.min(wInMin, w)
        nIn++
      } else {
        wOutMax = Math.max(wOutMax, w)
        nOut++
      }
    }
    console.log(`bunny minus ${dropped.size} triangles, points > 0.1 size from a hole: w >= ${wInMin.toFixed(3)} inside (${nIn}), w <= ${wOutMax.toFixed(3)} outside (${nOut})`)
    expect(nIn).toBeGreaterThan(50)
    expect(nOut).toBeGreaterThan(500)
    expect(wInMin).toBeGreaterThan(0.9)
    expect(wOutMax).toBeLessThan(0.1)
  })

  it('inverted meshes: w ~ -1 inside, and |w| > 0.5 keeps the SDF the same', () => {
    for (const mesh of [cube(0.5), bunnyMesh()]) {
      const inv = flipped(mesh)
      const a = new MeshSdf(mesh), b = new MeshSdf(inv)
      const c = solidCentroid(mesh)
      expect(Math.abs(b.windingNumber(...c) + 1)).toBeLessThan(1e-2) // hierarchical: within 1e-2
      expect(windingNumberExact(inv, ...c)).toBeCloseTo(-1, 10)
      // Same magnitude (up to the rounding of b-c swapped corners), same sign.
      for (const [x, y, z] of randomPoints(mesh, 500, 0.3, 3)) {
        const da = a.distance(x, y, z), db = b.distance(x, y, z)
        expect(Math.abs(db - da)).toBeLessThan(1e-12 * (1 + Math.abs(da)))
        expect(Math.sign(db)).toBe(Math.sign(da))
      }
    }
  })

  it('rejects degenerate input with INVALID_PARAM naming the mesh', () => {
    const bad = { positions: Float32Array.from([0, 0, 0, 1, 0, 0, 2, 0, 0]), indices: Uint32Array.from([0, 1, 2]) }
    expect(() => new MeshSdf(bad, { name: 'pipe.stl' })).toThrow(EddyError)
    expect(() => new MeshSdf(bad, { name: 'pipe.stl' })).toThrow(/pipe\.stl: all triangles are degenerate/)
    expect(() => new MeshSdf({ positions: new Float32Array(0), indices: new Uint32Array(0) })).toThrow(/no triangles/)
    const spec = { nx: 2, ny: 2, nz: 2, dx: 0.1, origin: [0, 0, 0] }
    const sdf = new MeshSdf(cube())
    expect(() => sampleSdfGrid(sdf, spec, new Float32Array(7))).toThrow(/needs 8/)
    expect(() => sampleSdfGrid(sdf, { ...spec, dx: 0 }, new Float32Array(8))).toThrow(/dx/)
    expect(() => sampleSdfGrid(sdf, { ...spec, nx: 1.5 }, new Float32Array(8))).toThrow(/nx/)
    expect(() => sampleSdfGrid(sdf, spec, new Float32Array(27), { at: 'corner', band: -1 })).toThrow(/band/)
  })
})

import { describe, expect, it } from 'vitest'
import { isClosedSurface } from '../../../src-shared/geometry/closedSurface'
import { MeshSdf, sampleSdfGrid } from '../../../src-shared/geometry/signedDistance'
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import { bunnyMesh } from '../../fixtures/makeBunnyObj'
import { cube, flipped, icosphere, rng, withoutTriangles } from './meshes'

/** Every triangle gets its own three vertices (as an unwelded glTF or STL soup would). */
function unwelded(mesh: TriMesh): TriMesh {
  const n = mesh.indices.length
  const pos = new Float32Array(3 * n)
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) pos[3 * i + k] = mesh.positions[3 * mesh.indices[i] + k]
  return { positions: pos, indices: Uint32Array.from({ length: n }, (_, i) => i) }
}

function concat(a: TriMesh, b: TriMesh): TriMesh {
  const pos = new Float32Array(a.positions.length + b.positions.length)
  pos.set(a.positions)
  pos.set(b.positions, a.positions.length)
  const nv = a.positions.length / 3
  const idx = new Uint32Array(a.indices.length + b.indices.length)
  idx.set(a.indices)
  for (let i = 0; i < b.indices.length; i++) idx[a.indices.length + i] = b.indices[i] + nv
  return { positions: pos, indices: idx }
}

describe('isClosedSurface', () => {
  it('accepts closed meshes, welded or not, either orientation, manifold or not', () => {
    expect(isClosedSurface(cube())).toBe(true)
    expect(isClosedSurface(flipped(cube()))).toBe(true)
    expect(isClosedSurface(icosphere(2))).toBe(true)
    expect(isClosedSurface(bunnyMesh())).toBe(true)
    expect(isClosedSurface(unwelded(cube()))).toBe(true)
    // Two unit cubes touching along an edge: a non-manifold edge used 4 times, still closed.
    const shifted = cube()
    const b = { positions: shifted.positions.map((v, i) => (i % 3 === 2 ? v : v + 1)), indices: shifted.indices }
    expect(isClosedSurface(concat(cube(), b))).toBe(true)
  })

  it('rejects holes and inconsistently oriented faces', () => {
    expect(isClosedSurface(withoutTriangles(cube(), (t) => t === 6))).toBe(false)
    const oneFlipped = cube()
    const idx = Uint32Array.from(oneFlipped.indices)
    ;[idx[1], idx[2]] = [idx[2], idx[1]]
    expect(isClosedSurface({ positions: oneFlipped.positions, indices: idx })).toBe(false)
  })
})

describe('sampleSdfGrid hints', () => {
  it('gives the same grid as point-by-point evaluation, closed or open', () => {
    for (const mesh of [icosphere(2), withoutTriangles(icosphere(2), (t) => t % 17 === 3)]) {
      const sdf = new MeshSdf(mesh)
      const spec = { nx: 13, ny: 11, nz: 9, dx: 0.23, origin: [-1.4, -1.3, -1.1] }
      for (const at of ['centre', 'corner'] as const) {
        const e = at === 'corner' ? 1 : 0
        const sx = spec.nx + e, sy = spec.ny + e, sz = spec.nz + e
        const shift = at === 'corner' ? 0 : 0.5
        for (const band of [Infinity, 0.3]) {
          const out = sampleSdfGrid(sdf, spec, new Float32Array(sx * sy * sz), { at, band })
          let mismatches = 0
          for (let k = 0; k < sz; k++) for (let j = 0; j < sy; j++) for (let i = 0; i < sx; i++) {
            const x = spec.origin[0] + (i + shift) * spec.dx, y = spec.origin[1] + (j + shift) * spec.dx, z = spec.origin[2] + (k + shift) * spec.dx
            const ref = Math.max(-band, Math.min(band, sdf.distance(x, y, z)))
            if (out[i + sx * (j + sy * k)] !== Math.fround(ref)) mismatches++
          }
          expect(mismatches).toBe(0)
        }
      }
    }
  })

  it('on a closed mesh evaluates the winding number only where no earlier neighbour or the sample itself is a step from the surface', () => {
    const sdf = new MeshSdf(icosphere(3))
    const spec = { nx: 30, ny: 28, nz: 26, dx: 0.09, origin: [-1.35, -1.26, -1.17] }
    const sx = 31, sy = 29, sz = 27
    let calls = 0
    const winding = sdf.winding
    const evaluate = winding.evaluate.bind(winding)
    winding.evaluate = (x: number, y: number, z: number) => (calls++, evaluate(x, y, z))
    const band = 4 * spec.dx
    const out = sampleSdfGrid(sdf, spec, new Float32Array(sx * sy * sz), { at: 'corner', band })
    // Where the sign cannot be carried: |value| within a step at the sample and at each of its
    // neighbours at i - 1, j - 1 and k - 1 (those sampled before it).
    const near = (c: number) => Math.abs(out[c]) <= spec.dx * (1 + 1e-6)
    let needed = 0, withinStep = 0
    for (let k = 0; k < sz; k++) for (let j = 0; j < sy; j++) for (let i = 0; i < sx; i++) {
      const c = i + sx * (j + sy * k)
      if (!near(c)) continue
      withinStep++
      if ((i === 0 || near(c - 1)) && (j === 0 || near(c - sx)) && (k === 0 || near(c - sx * sy))) needed++
    }
    expect(withinStep).toBeGreaterThan(1000)
    expect(calls).toBeGreaterThan(0)
    expect(calls).toBeLessThanOrEqual(needed + 1)
    expect(needed).toBeLessThan(0.7 * withinStep)
  })

  it('samples slabs independently (kBegin..kEnd) with the same result', () => {
    const sdf = new MeshSdf(bunnyMesh())
    const spec = { nx: 10, ny: 12, nz: 14, dx: 1.1, origin: [-6, -1, -5] }
    const whole = sampleSdfGrid(sdf, spec, new Float32Array(10 * 12 * 14))
    const parts = new Float32Array(whole.length)
    const rand = rng(1)
    let k = 0
    while (k < 14) {
      const k1 = Math.min(14, k + 1 + Math.floor(rand() * 5))
      sampleSdfGrid(sdf, spec, parts, { kBegin: k, kEnd: k1 })
      k = k1
    }
    expect(Array.from(parts)).toEqual(Array.from(whole))
  })
})

describe('pseudo-normal signs at sharp features', () => {
  it('are right next to the edges and corners of a cube', () => {
    const pn = new MeshSdf(cube(0.5), { sign: 'pseudonormal' })
    const w = new MeshSdf(cube(0.5))
    const rand = rng(6)
    for (let n = 0; n < 3000; n++) {
      // Points concentrated around the cube's edges and corners.
      const p = [0, 1, 2].map(() => (rand() < 0.5 ? -1 : 1) * (0.5 + (rand() - 0.5) * 0.1))
      const inside = p.every((v) => Math.abs(v) < 0.5)
      expect(pn.distance(p[0], p[1], p[2]) < 0).toBe(inside)
      expect(w.distance(p[0], p[1], p[2]) < 0).toBe(inside)
    }
  })
})

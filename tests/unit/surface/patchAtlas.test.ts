// The atlas's transition maps (Stam 2003 eqs. 2-8) checked against the limit surface itself:
// a point on a shared edge is the same limit point seen from either patch, and the tangents
// there agree once carried by the transition's Jacobian (y_p(x) = y_q(T x) gives
// dy_p/dx = dy_q/dx' M). On cages with extraordinary vertices of valence 3, 5 and 6.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface, evaluateLimit } from '../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas, crossEdge, locate, newAtlasPoint, transitionIndex } from '../../../src-shared/geometry/patchAtlas'
import { doubleTorusCage, sphereLikeCage, torusCage, voxelCage } from '../../../src-shared/geometry/voxelCages'
import type { PolyMesh } from '../../../src-shared/geometry/catmullClark'

function eulerCharacteristic(m: PolyMesh): number {
  const edges = new Set<string>()
  for (const f of m.faces) for (let c = 0; c < f.length; c++) { const a = f[c], b = f[(c + 1) % f.length]; edges.add(a < b ? `${a},${b}` : `${b},${a}`) }
  return m.positions.length / 3 - edges.size + m.faces.length
}

describe('surface patch atlas', () => {
  it('the voxel cages are closed surfaces of genus 0, 1 and 2 (Euler characteristic 2, 0, -2), every edge shared by two patches', () => {
    for (const [cage, chi] of [[sphereLikeCage(), 2], [torusCage(), 0], [doubleTorusCage(), -2]] as const) {
      expect(eulerCharacteristic(cage)).toBe(chi)
      const atlas = buildPatchAtlas(cage.faces)
      expect(Array.from(atlas.neighbour).every((q) => q >= 0)).toBe(true)
    }
  })

  for (const [name, cage] of [['sphere-like', sphereLikeCage()], ['torus', torusCage()], ['double torus', doubleTorusCage()]] as const) {
    it(`${name}: both sides of every shared edge give the same limit point (1e-12) and tangents related by the transition's Jacobian (1e-9)`, () => {
      const S = buildLimitSurface(cage)
      const atlas = buildPatchAtlas(S.faces)
      const valences = new Set(S.valence)
      let checked = 0
      const pt = newAtlasPoint()
      for (let p = 0; p < atlas.patchCount; p++) for (let e = 0; e < 4; e++) for (const t of [0.2, 0.5, 0.85]) {
        const x1 = e === 0 ? t : e === 1 ? 1 : e === 2 ? 1 - t : 0
        const x2 = e === 0 ? 0 : e === 1 ? t : e === 2 ? 1 : 1 - t
        pt.patch = p; pt.x1 = x1; pt.x2 = x2; pt.m.set([1, 0, 0, 1])
        expect(crossEdge(atlas, pt, e)).toBe(true)
        const a = evaluateLimit(S, p, x1, x2), b = evaluateLimit(S, pt.patch, pt.x1, pt.x2)
        for (let c = 0; c < 3; c++) expect(Math.abs(a.position[c] - b.position[c])).toBeLessThan(1e-12)
        // dy_p/dx_1 = M00 dy_q/dx'_1 + M10 dy_q/dx'_2, dy_p/dx_2 = M01 dy_q/dx'_1 + M11 dy_q/dx'_2.
        const m = pt.m
        for (let c = 0; c < 3; c++) {
          expect(Math.abs(a.du[c] - (m[0] * b.du[c] + m[2] * b.dv[c]))).toBeLessThan(1e-9)
          expect(Math.abs(a.dv[c] - (m[1] * b.du[c] + m[3] * b.dv[c]))).toBeLessThan(1e-9)
        }
        checked++
      }
      expect(checked).toBe(12 * atlas.patchCount)
      // The cages reach extraordinary vertices of several valences.
      expect([...valences].filter((v) => v !== 4).length).toBeGreaterThan(0)
    })
  }

  it("crossing an edge and back is the identity, and eq. 2's index is the number of quarter turns", () => {
    const S = buildLimitSurface(torusCage())
    const atlas = buildPatchAtlas(S.faces)
    const pt = newAtlasPoint()
    for (let p = 0; p < atlas.patchCount; p++) for (let e = 0; e < 4; e++) {
      pt.patch = p; pt.m.set([1, 0, 0, 1])
      pt.x1 = e === 1 ? 1.1 : e === 3 ? -0.1 : 0.3
      pt.x2 = e === 2 ? 1.1 : e === 0 ? -0.1 : 0.3
      crossEdge(atlas, pt, e)
      const f = atlas.neighbourEdge[4 * p + e]
      // The Jacobian is a rotation by transitionIndex quarter turns (eqs. 7-8).
      const turns = transitionIndex(e, f)
      const cos = [1, 0, -1, 0][turns], sin = [0, 1, 0, -1][turns]
      expect(Array.from(pt.m, (x) => x + 0)).toEqual([cos, -sin, sin, cos].map((x) => x + 0))
      crossEdge(atlas, pt, f)
      expect(pt.patch).toBe(p)
      expect(pt.x1).toBeCloseTo(e === 1 ? 1.1 : e === 3 ? -0.1 : 0.3, 12)
      expect(pt.x2).toBeCloseTo(e === 2 ? 1.1 : e === 0 ? -0.1 : 0.3, 12)
      expect(Array.from(pt.m, (x) => x + 0)).toEqual([1, 0, 0, 1])
    }
  })

  it('locate walks a point two patches away into the right patch (sec. 4.3 clip)', () => {
    const cells: [number, number, number][] = []
    for (let i = 0; i < 4; i++) for (let k = 0; k < 4; k++) cells.push([i, 0, k])
    const S = buildLimitSurface(voxelCage(cells))
    const atlas = buildPatchAtlas(S.faces)
    const pt = newAtlasPoint()
    // From the middle of a patch, 1.5 patch widths along u: the limit point found by walking
    // equals the one reached by crossing twice by hand.
    const p = 0
    pt.patch = p; pt.x1 = 2; pt.x2 = 0.5; pt.m.set([1, 0, 0, 1])
    locate(atlas, pt)
    const by = newAtlasPoint()
    by.patch = p; by.x1 = 2; by.x2 = 0.5
    crossEdge(atlas, by, 1)
    if (by.x1 > 1 || by.x1 < 0 || by.x2 > 1 || by.x2 < 0) {
      const e = by.x1 > 1 ? 1 : by.x1 < 0 ? 3 : by.x2 > 1 ? 2 : 0
      crossEdge(atlas, by, e)
    }
    expect(pt.patch).toBe(by.patch)
    expect(pt.x1).toBeCloseTo(by.x1, 12)
    expect(pt.x2).toBeCloseTo(by.x2, 12)
  })

  it('refuses an inconsistently oriented cage by naming the edge', () => {
    expect(() => buildPatchAtlas([[0, 1, 2, 3], [0, 1, 5, 4]])).toThrow(/edge 0-1 is used twice/)
    expect(() => buildPatchAtlas([[0, 1, 2]])).toThrow(/3 corners/)
  })
})

import { describe, expect, it } from 'vitest'
import { extrapolateLayers } from '../../../src-shared/sim/core/extrapolate'
import { SolidBorder } from '../../../src-shared/sim/core/solidBorder'
import { Prng } from '../../../src-shared/sim/core/prng'

const nx = 12, ny = 10, nz = 8
const at = (i: number, j: number, k: number) => i + nx * (j + ny * k)

/** A box of obstacle cells x 3..8, y 2..7, z 1..6 (mirror symmetric in x), cells 0.6 solid on its x faces. */
function boxSolid(): Float32Array {
  const s = new Float32Array(nx * ny * nz)
  for (let k = 1; k <= 6; k++) for (let j = 2; j <= 7; j++) for (let i = 3; i <= 8; i++) s[at(i, j, k)] = i === 3 || i === 8 ? 0.6 : 1
  return s
}

describe('SolidBorder: fluid values carried into the first two layers of obstacle cells', () => {
  it('fills layer one with the mean of its fluid neighbours and layer two with the mean of layer one, leaves the rest', () => {
    const solid = boxSolid()
    const f = new Float32Array(nx * ny * nz)
    for (let c = 0; c < f.length; c++) f[c] = solid[c] >= 0.5 ? -99 : c % 7
    const b = new SolidBorder()
    b.update(solid, nx, ny, nz, 1)
    b.extend(f)
    // (3, 2, 1) is a corner of the box: fluid neighbours (2,2,1), (3,1,1), (3,2,0).
    expect(f[at(3, 2, 1)]).toBeCloseTo(((at(2, 2, 1) % 7) + (at(3, 1, 1) % 7) + (at(3, 2, 0) % 7)) / 3, 5)
    // (4, 3, 2) touches only layer-one cells (3,3,2), (4,2,2), (4,3,1).
    expect(f[at(4, 3, 2)]).toBeCloseTo((f[at(3, 3, 2)] + f[at(4, 2, 2)] + f[at(4, 3, 1)]) / 3, 5)
    // (5, 4, 3) is three cells deep: untouched.
    expect(f[at(5, 4, 3)]).toBe(-99)
  })

  it('keeps a constant field constant and a mirror-symmetric field mirror symmetric to the bit', () => {
    const solid = boxSolid()
    const b = new SolidBorder()
    b.update(solid, nx, ny, nz, 1)
    const c = new Float32Array(nx * ny * nz).fill(0)
    for (let q = 0; q < c.length; q++) if (solid[q] < 0.5) c[q] = 293.15
    b.extend(c)
    for (let q = 0; q < c.length; q++) if (c[q] !== 0) expect(c[q]).toBe(Math.fround(293.15))
    const rng = new Prng(7)
    const f = new Float32Array(nx * ny * nz)
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx / 2; i++) {
      const v = solid[at(i, j, k)] >= 0.5 ? 0 : Math.fround(rng.next() * Math.pow(10, -6 * rng.next()))
      f[at(i, j, k)] = v
      f[at(nx - 1 - i, j, k)] = v
    }
    b.extend(f)
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) expect(f[at(i, j, k)]).toBe(f[at(nx - 1 - i, j, k)])
  })

  it('rebuilds only when the obstacles version changes', () => {
    const solid = boxSolid()
    const b = new SolidBorder()
    b.update(solid, nx, ny, nz, 1)
    solid.fill(0)
    b.update(solid, nx, ny, nz, 1) // same version: the old lists stay
    const f = new Float32Array(nx * ny * nz).fill(2)
    f[at(3, 2, 1)] = 0
    b.extend(f)
    expect(f[at(3, 2, 1)]).toBe(2)
    b.update(solid, nx, ny, nz, 2) // no obstacle cells any more
    f[at(3, 2, 1)] = 0
    b.extend(f)
    expect(f[at(3, 2, 1)]).toBe(0)
  })

  it('fills the same bits as the breadth-first extension itself, on random values, before and after the obstacles move', () => {
    const rng = new Prng(11)
    const b = new SolidBorder()
    for (const [version, shift] of [[1, 0], [2, 1], [3, 3]] as const) {
      // The box, moved `shift` cells along x, plus a cell of a second obstacle in a corner.
      const solid = new Float32Array(nx * ny * nz)
      for (let k = 1; k <= 6; k++) for (let j = 2; j <= 7; j++) for (let i = 3 - shift + 2; i <= 8 - shift + 2 && i < nx; i++) solid[at(i, j, k)] = 1
      solid[at(0, 0, 0)] = 0.7
      b.update(solid, nx, ny, nz, version)
      const f = new Float32Array(nx * ny * nz)
      for (let c = 0; c < f.length; c++) f[c] = solid[c] >= 0.5 ? -1 : Math.fround(rng.next() * 100 - 50)
      const expected = f.slice()
      const mark = new Uint8Array(f.length)
      for (let c = 0; c < f.length; c++) mark[c] = solid[c] >= 0.5 ? 0 : 1
      extrapolateLayers(expected, mark, nx, ny, nz, 2)
      b.extend(f)
      expect(f).toEqual(expected)
      // Three layers deep is left alone.
      expect(f.some((v) => v === -1)).toBe(true)
    }
  })
})

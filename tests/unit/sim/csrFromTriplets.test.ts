// csrFromTriplets against a plain reference (sort each row's triplets by column, then by
// triplet index; sum duplicates in that order): the same structure and the same value bits on
// random triplets with many duplicates, empty rows, short rows and rows longer than a
// per-row insertion sort would take.
import { describe, expect, it } from 'vitest'
import { CsrScratch, csrFromTriplets } from '../../../src-shared/sim/core/sparse/csr'
import { Prng } from '../../../src-shared/sim/core/prng'

function reference(n: number, rows: number[], cols: number[], vals: number[]) {
  const rowPtr = [0], col: number[] = [], val: number[] = []
  for (let i = 0; i < n; i++) {
    const ts = rows.map((r, t) => [r, t]).filter(([r]) => r === i).map(([, t]) => t).sort((a, b) => cols[a] - cols[b] || a - b)
    for (const t of ts) {
      if (col.length > rowPtr[i] && col[col.length - 1] === cols[t]) val[val.length - 1] += vals[t]
      else col.push(cols[t]), val.push(vals[t])
    }
    rowPtr.push(col.length)
  }
  return { rowPtr, col, val }
}

describe('csrFromTriplets', () => {
  it('sorts columns and sums duplicates in triplet order, as a plain sort does', () => {
    const prng = new Prng(5)
    const n = 40, rows: number[] = [], cols: number[] = [], vals: number[] = []
    for (let t = 0; t < 1500; t++) {
      // Row 7 gets about 300 triplets (beyond the insertion sort's rows), row 3 none.
      const r = prng.next() < 0.2 ? 7 : Math.floor(prng.range(0, n))
      if (r === 3) continue
      rows.push(r)
      cols.push(Math.floor(prng.range(0, 12)))
      vals.push(prng.range(-1, 1) * 10 ** Math.floor(prng.range(-8, 8)))
    }
    const got = csrFromTriplets(n, 12, rows, cols, vals)
    const want = reference(n, rows, cols, vals)
    expect(got.rowPtr[8] - got.rowPtr[7]).toBe(12)
    expect(got.rowPtr[4] - got.rowPtr[3]).toBe(0)
    expect(Array.from(got.rowPtr)).toEqual(want.rowPtr)
    expect(Array.from(got.col)).toEqual(want.col)
    expect(Array.from(got.val)).toEqual(want.val)
  })

  it('built in a reused scratch, larger then smaller then larger, the same as built fresh', () => {
    const prng = new Prng(11)
    const scratch = new CsrScratch()
    for (const [n, m] of [[60, 900], [20, 150], [90, 2000], [35, 400]]) {
      const rows: number[] = [], cols: number[] = [], vals: number[] = []
      for (let t = 0; t < m; t++) {
        rows.push(Math.floor(prng.range(0, n)))
        cols.push(Math.floor(prng.range(0, n)))
        vals.push(prng.range(-1, 1))
      }
      const want = reference(n, rows, cols, vals)
      const got = csrFromTriplets(n, n, rows, cols, vals, scratch)
      expect(got.rowPtr.length).toBe(n + 1)
      expect(Array.from(got.rowPtr)).toEqual(want.rowPtr)
      expect(Array.from(got.col)).toEqual(want.col)
      expect(Array.from(got.val)).toEqual(want.val)
    }
  })
})

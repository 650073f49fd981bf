import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import { errorOf } from '../../fixtures/errorOf'
import { type GridSpec, MacGrid, ScalarField, validateGridSpec } from '../../../src-shared/sim/core/grid'

const good: GridSpec = { nx: 8, ny: 4, nz: 2, dx: 0.5, origin: [1, 2, 3] }


describe('validateGridSpec', () => {
  it('accepts a sane grid', () => {
    expect(() => validateGridSpec(good)).not.toThrow()
  })

  it.each([
    ['nx', { nx: 0 }],
    ['ny', { ny: 2.5 }],
    ['nz', { nz: 1025 }],
    ['nx', { nx: Number.NaN }],
    ['dx', { dx: 0 }],
    ['dx', { dx: -1 }],
    ['dx', { dx: Number.POSITIVE_INFINITY }],
    ['origin', { origin: [0, Number.NaN, 0] }],
    ['origin', { origin: [0, 0] }],
  ])('names %s in an INVALID_PARAM error', (field, patch) => {
    const e = errorOf(() => validateGridSpec({ ...good, ...patch } as GridSpec))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details?.field).toBe(field)
    expect(e.message).toContain(field)
  })

  it('refuses a grid whose memory estimate exceeds the limit', () => {
    const big: GridSpec = { nx: 1024, ny: 1024, nz: 512, dx: 0.01, origin: [0, 0, 0] }
    const e = errorOf(() => validateGridSpec(big, 1024 ** 3, 64))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.message).toMatch(/MiB/)
    expect(() => validateGridSpec(good, 8 * 4 * 2 * 12)).not.toThrow()
    expect(() => validateGridSpec(good, 8 * 4 * 2 * 12 - 1)).toThrow(EddyError)
  })
})

describe('MacGrid and ScalarField', () => {
  it('sizes the staggered components and indexes them x fastest', () => {
    const g = new MacGrid(good)
    expect(g.u.length).toBe(9 * 4 * 2)
    expect(g.v.length).toBe(8 * 5 * 2)
    expect(g.w.length).toBe(8 * 4 * 3)
    expect(g.uIndex(8, 3, 1)).toBe(g.u.length - 1)
    expect(g.vIndex(7, 4, 1)).toBe(g.v.length - 1)
    expect(g.wIndex(7, 3, 2)).toBe(g.w.length - 1)
    const p = [0, 0, 0]
    g.facePosition(0, 0, 0, 0, p)
    expect(p).toEqual([1, 2.25, 3.25])
    g.facePosition(2, 1, 1, 2, p)
    expect(p).toEqual([1.75, 2.75, 4])
    const s = new ScalarField(good)
    s.position(0, 0, 0, p)
    expect(p).toEqual([1.25, 2.25, 3.25])
    expect(s.index(1, 2, 1)).toBe(1 + 8 * (2 + 4 * 1))
  })

  it('can live on shared memory', () => {
    const g = new MacGrid(good, { shared: true })
    expect(g.u.buffer).toBeInstanceOf(SharedArrayBuffer)
    const s = new ScalarField(good, { shared: true })
    expect(s.data.buffer).toBeInstanceOf(SharedArrayBuffer)
  })
})

// The key light's transmittance through baked smoke against Beer-Lambert: in a uniform medium a
// cell k slices below the lit face sees exp(-sigma (k + 1/2) h |l| / |l_d|), straight or
// oblique; a dense blob shades the cells behind it and not those beside it.
import { describe, expect, it } from 'vitest'
import { LIGHT_DENSITY_SCALE, lightDirection, lightTransmittance, lightVolume } from '../../../src-shared/formats/lightVolume'

const N = 16
const H = 0.05
const idx = (i: number, j: number, k: number) => i + N * (j + N * k)

/** RG8 texels of a uniform density (R = 255 sqrt(d / dmax) with d = dmax). */
function uniform(): Uint8Array {
  const t = new Uint8Array(2 * N ** 3)
  for (let c = 0; c < N ** 3; c++) t[2 * c] = 255
  return t
}

describe('light transmittance volume', () => {
  const dmax = 2
  const sigma = dmax * LIGHT_DENSITY_SCALE

  it('follows Beer-Lambert straight down from a light overhead', () => {
    const T = lightTransmittance(uniform(), [N, N, N], dmax, H, [0, 1, 0])
    for (const k of [0, 1, 5, 15]) {
      const want = Math.exp(-sigma * (k + 0.5) * H)
      expect(Math.abs(T[idx(7, N - 1 - k, 3)] / 255 - want)).toBeLessThanOrEqual(0.5 / 255 + 1e-9)
    }
  })

  it('follows Beer-Lambert along an oblique light (the longer path through each slice)', () => {
    const l = lightDirection(0, 45) // toward +X and up, 45 degrees
    expect(l[0]).toBeCloseTo(Math.SQRT1_2, 12)
    expect(l[1]).toBeCloseTo(Math.SQRT1_2, 12)
    const T = lightTransmittance(uniform(), [N, N, N], dmax, H, l)
    // Dominant axis is X here (ties go to X): slices across x, entered from +X.
    for (const k of [0, 3, 9]) {
      const want = Math.exp(-sigma * (k + 0.5) * H * Math.SQRT2)
      expect(Math.abs(T[idx(N - 1 - k, 8, 8)] / 255 - want)).toBeLessThanOrEqual(0.5 / 255 + 1e-9)
    }
  })

  it('lets the light through clear air, and a blob shadows what lies behind it only', () => {
    const t = new Uint8Array(2 * N ** 3)
    for (let k = 6; k < 10; k++) for (let j = 10; j < 14; j++) for (let i = 6; i < 10; i++) t[2 * idx(i, j, k)] = 255
    const T = lightTransmittance(t, [N, N, N], dmax, H, [0, 1, 0])
    expect(T[idx(2, 2, 2)]).toBe(255)
    // Below the blob: the light crossed 4 cells of it.
    expect(T[idx(7, 4, 7)] / 255).toBeCloseTo(Math.exp(-sigma * 4 * H), 2)
    // Beside it at the same height: clear.
    expect(T[idx(2, 4, 7)]).toBe(255)
    // No smoke: everything lit.
    expect(lightTransmittance(new Uint8Array(2 * N ** 3), [N, N, N], 0, H, [0, 1, 0]).every((x) => x === 255)).toBe(true)
  })
})

describe('light volume of big grids', () => {
  it('is computed at half resolution beyond 64 cells, and agrees with the full one where the smoke is smooth', () => {
    const n = 80
    const t = new Uint8Array(2 * n ** 3)
    for (let c = 0; c < n ** 3; c++) t[2 * c] = 180
    const { data, dims } = lightVolume(t, [n, n, n], 1, 0.02, [0, 1, 0])
    expect(dims).toEqual([40, 40, 40])
    const full = lightTransmittance(t, [n, n, n], 1, 0.02, [0, 1, 0])
    // Coarse cell (i, j, k) covers fine cells 2i..2i+1: compare at the fine cells' mean depth.
    for (const j of [39, 30, 10]) {
      const coarse = data[20 + 40 * (j + 40 * 20)]
      const fine = (full[40 + n * (2 * j + n * 40)] + full[40 + n * (2 * j + 1 + n * 40)]) / 2
      expect(Math.abs(coarse - fine)).toBeLessThanOrEqual(2)
    }
    expect(lightVolume(t.subarray(0, 2 * 16 ** 3), [16, 16, 16], 1, 0.02, [0, 1, 0]).dims).toEqual([16, 16, 16])
  })

  it('shades a long grid by the mean extinction of each 2x2x2 block, odd edges included', () => {
    // Odd lengths (a last block one cell thick) and rows that start on either byte alignment.
    const dims: [number, number, number] = [131, 70, 99]
    const [nx, ny, nz] = dims
    const t = new Uint8Array(2 * nx * ny * nz)
    let seed = 12345
    for (let c = 0; c < t.length; c += 2) {
      seed = (seed * 1103515245 + 12345) >>> 0
      // Mostly empty, as smoke is, with dense patches.
      t[c] = seed >>> 28 < 5 ? seed >>> 24 : 0
    }
    // The block means written out the slow way: r = sqrt(mean of r^2) over the covered cells.
    const half: [number, number, number] = [66, 35, 50]
    const coarse = new Uint8Array(2 * half[0] * half[1] * half[2])
    for (let k = 0; k < half[2]; k++)
      for (let j = 0; j < half[1]; j++)
        for (let i = 0; i < half[0]; i++) {
          let sum = 0
          let count = 0
          for (let c = 2 * k; c < Math.min(nz, 2 * k + 2); c++)
            for (let b = 2 * j; b < Math.min(ny, 2 * j + 2); b++)
              for (let a = 2 * i; a < Math.min(nx, 2 * i + 2); a++) {
                sum += t[2 * (a + nx * (b + ny * c))] ** 2
                count++
              }
          coarse[2 * (i + half[0] * (j + half[1] * k))] = Math.round(Math.sqrt(sum / count))
        }
    const toLight = lightDirection(-56, 54)
    const got = lightVolume(t, dims, 3, 0.01, toLight)
    expect(got.dims).toEqual(half)
    expect(got.data).toEqual(lightTransmittance(coarse, half, 3, 0.02, toLight))
    // A view at an odd byte offset (no u32 reads) gives the same.
    const shifted = new Uint8Array(t.length + 1)
    shifted.set(t, 1)
    expect(lightVolume(shifted.subarray(1), dims, 3, 0.01, toLight).data).toEqual(got.data)
  })
})

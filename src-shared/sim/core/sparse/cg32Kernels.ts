// Vector steps of a Jacobi-preconditioned CG in float32 (the inner solve of a float64 iterative
// refinement: surface/refinedDiffusion.ts). The vectors are float32 and so is every update, as
// the twins' f32x4 instructions compute it (Math.fround after each operation: the correctly
// rounded float32 result, so the references and wasm/assembly/cg32.ts agree bit for bit); the
// sums CG divides by are float64, over each block's entries in four running sums by position
// mod 4 (the twin's four lanes), (s0 + s1) + (s2 + s3), and a block's last n mod 4 entries
// added after them one by one.
import { defineKernel, f32, f64, float, int, type KernelArgs } from '../kernelTable'

const fr = Math.fround
const num = (a: KernelArgs, i: number) => a[i] as number

/** partial[k] = a . b over block k, blocks [k0, k1). */
export function dot32Blocks(a: Float32Array, b: Float32Array, n: number, block: number, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const end = Math.min(n, c + block)
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0
    for (; c + 4 <= end; c += 4) {
      s0 += fr(a[c] * b[c])
      s1 += fr(a[c + 1] * b[c + 1])
      s2 += fr(a[c + 2] * b[c + 2])
      s3 += fr(a[c + 3] * b[c + 3])
    }
    let s = s0 + s1 + (s2 + s3)
    for (; c < end; c++) s += fr(a[c] * b[c])
    partial[k] = s
  }
}

/**
 * x += alpha s; r -= alpha q (alpha rounded to float32) over blocks [k0, k1), with
 * partial[k] = |r|^2 and rz[k] = r . (invDiag r) over block k.
 */
export function update32Blocks(
  x: Float32Array, r: Float32Array, s: Float32Array, q: Float32Array, invDiag: Float32Array, alpha: number, n: number, block: number, partial: Float64Array, rz: Float64Array, k0: number, k1: number,
): void {
  const a = fr(alpha)
  // Entry c's update; returns its r.
  const step = (c: number): number => {
    x[c] = fr(x[c] + fr(a * s[c]))
    const v = fr(r[c] - fr(a * q[c]))
    r[c] = v
    return v
  }
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const end = Math.min(n, c + block)
    const rr = [0, 0, 0, 0], zz = [0, 0, 0, 0]
    for (; c + 4 <= end; c += 4) {
      for (let l = 0; l < 4; l++) {
        const v = step(c + l)
        rr[l] += fr(v * v)
        zz[l] += fr(v * fr(v * invDiag[c + l]))
      }
    }
    let sr = rr[0] + rr[1] + (rr[2] + rr[3]), sz = zz[0] + zz[1] + (zz[2] + zz[3])
    for (; c < end; c++) {
      const v = step(c)
      sr += fr(v * v)
      sz += fr(v * fr(v * invDiag[c]))
    }
    partial[k] = sr
    rz[k] = sz
  }
}

/** s = invDiag r + beta s (beta rounded to float32) over blocks [k0, k1). */
export function search32Blocks(s: Float32Array, r: Float32Array, invDiag: Float32Array, beta: number, n: number, block: number, k0: number, k1: number): void {
  const b = fr(beta)
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) s[c] = fr(fr(r[c] * invDiag[c]) + fr(b * s[c]))
}

/** x += e (float32 widened: the sum in float64) over blocks [k0, k1). */
export function addWideBlocks(x: Float64Array, e: Float32Array, n: number, block: number, k0: number, k1: number): void {
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) x[c] += e[c]
}

const blocksOf = (at: number) => (a: KernelArgs) => Math.ceil(num(a, at) / num(a, at + 1))

export const DOT32 = defineKernel({
  name: 'dot32Blocks',
  args: [f32('a'), f32('b'), int('n'), int('block'), f64('partial')],
  split: 'blocks',
  range: blocksOf(2),
  work: (a) => num(a, 2),
  partials: 'partial',
  ref: dot32Blocks,
})

/** Returns |r|^2; rz's blocks take r . (invDiag r). */
export const UPDATE32 = defineKernel({
  name: 'update32Blocks',
  args: [f32('x'), f32('r'), f32('s'), f32('q'), f32('invDiag'), float('alpha'), int('n'), int('block'), f64('partial'), f64('rz')],
  split: 'blocks',
  range: blocksOf(6),
  work: (a) => 3 * num(a, 6),
  partials: 'partial',
  ref: update32Blocks,
})

export const SEARCH32 = defineKernel({
  name: 'search32Blocks',
  args: [f32('s'), f32('r'), f32('invDiag'), float('beta'), int('n'), int('block')],
  split: 'blocks',
  range: blocksOf(4),
  work: (a) => num(a, 4),
  ref: search32Blocks,
})

export const ADD_WIDE = defineKernel({
  name: 'addWideBlocks',
  args: [f64('x'), f32('e'), int('n'), int('block')],
  split: 'blocks',
  range: blocksOf(2),
  work: (a) => num(a, 2),
  ref: addWideBlocks,
})

// MacCormack's fused pass (advectKernels.ts maccormackFusedSlab, MACCORMACK_FUSED; its twin in
// wasm/assembly/advect.ts): the correction, and with the excess scratch the conservative
// limiter's excess and room, computed with the backward value looked up where it is read, give
// the bits of the three passes it replaces (advectAt, maccormackCorrect, maccormackExcess) on
// every lattice, with and without solids (a mask and fractions), for each limiter, on
// TypeScript and on 1, 2 and 3 WebAssembly threads; every backend gives the same bits.
import { describe, expect, it } from 'vitest'
import { LIMIT_CLAMP, LIMIT_NONE, LIMIT_REVERT } from '../../../src-shared/sim/core/advect'
import { MACCORMACK_EXCESS, MACCORMACK_FUSED } from '../../../src-shared/sim/core/kernelRows'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { everyBackendOfFile, rng } from './everyBackend'

const nx = 9, ny = 7, nz = 6
const backends = everyBackendOfFile()

function fill<T extends Float32Array | Uint8Array>(a: T, seed: number, f: (r: number) => number): T {
  const r = rng(seed)
  for (let i = 0; i < a.length; i++) a[i] = f(r())
  return a
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))

type SolidKind = 'none' | 'mask' | 'fraction'

/** The three passes and the fused one on backend b; returns both results' bits. */
function run(b: KernelBackend, axis: -1 | 0 | 1 | 2, solidKind: SolidKind, limiter: number, excess: boolean): { passes: number[][]; fused: number[][]; clipped: boolean } {
  const sx = axis === 0 ? nx + 1 : nx, sy = axis === 1 ? ny + 1 : ny, sz = axis === 2 ? nz + 1 : nz
  const n = sx * sy * sz
  const c = 2.7 // cells per (m/s): traces several cells long, errorSamples away from the sample
  const u = fill(b.f32((nx + 1) * ny * nz), 1, (r) => r - 0.5)
  const v = fill(b.f32(nx * (ny + 1) * nz), 2, (r) => r - 0.5)
  const w = fill(b.f32(nx * ny * (nz + 1)), 3, (r) => r - 0.5)
  // A sharp field (0/1 blocks with some noise) so the limiter clips and neighbours have room.
  const src = fill(b.f32(n), 4, (r) => (r < 0.45 ? 0 : 1 + 0.01 * r))
  const solid = solidKind === 'mask' ? fill(b.u8(nx * ny * nz), 6, (r) => (r < 0.15 ? 1 : 0)) : solidKind === 'fraction' ? fill(b.f32(nx * ny * nz), 7, (r) => (r < 0.3 ? r * 3 : 0)) : null
  const fwd = b.f32(n), base = b.i32(n), rev = b.f64(3 * n)
  b.advect(fwd, src, axis, u, v, w, nx, ny, nz, c, false, solid, null, null, base, rev)
  // The three passes.
  const bwd = b.f32(n), dst = b.f32(n)
  b.advectAt(bwd, fwd, axis, nx, ny, nz, false, solid, rev)
  b.maccormackCorrect(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, c, solid, limiter, base)
  const [ex, up, dn] = [b.f32(n), b.f32(n), b.f32(n)]
  if (excess) b.run(MACCORMACK_EXCESS, ex, up, dn, dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, c, solid, base)
  // The fused one, into scratch that holds other numbers first (it must write every sample).
  const dstF = fill(b.f32(n), 8, (r) => r)
  const [exF, upF, dnF] = [fill(b.f32(n), 9, (r) => r), fill(b.f32(n), 10, (r) => r), fill(b.f32(n), 11, (r) => r)]
  b.run(MACCORMACK_FUSED, dstF, src, fwd, rev, excess ? exF : null, excess ? upF : null, excess ? dnF : null, axis, u, v, w, nx, ny, nz, c, solid, limiter, base)
  const passes = excess ? [bits(dst), bits(ex), bits(up), bits(dn)] : [bits(dst)]
  const fused = excess ? [bits(dstF), bits(exF), bits(upF), bits(dnF)] : [bits(dstF)]
  return { passes, fused, clipped: ex.some((e) => e !== 0) }
}

describe('MacCormack in one pass after the forward step', () => {
  const cases: [string, -1 | 0 | 1 | 2, SolidKind, boolean][] = []
  for (const axis of [-1, 0, 1, 2] as const) {
    for (const solid of ['none', 'mask', 'fraction'] as const) cases.push([`lattice ${axis}, solid ${solid}, ${axis === -1 ? 'with' : 'without'} the excess`, axis, solid, axis === -1])
  }
  cases.push(['lattice 0, solid mask, with the excess', 0, 'mask', true])
  it.each(cases)('%s: the bits of advectAt, maccormackCorrect and maccormackExcess, on every backend', (_name, axis, solid, excess) => {
    for (const limiter of [LIMIT_REVERT, LIMIT_CLAMP, LIMIT_NONE]) {
      let want: number[][] | null = null
      for (const [name, b] of backends) {
        const { passes, fused, clipped } = run(b, axis, solid, limiter, excess)
        expect(fused, `${name}, limiter ${limiter}`).toEqual(passes)
        // The case exercises the limiter's excess (the clipped samples are what it is about).
        if (excess && limiter !== LIMIT_NONE) expect(clipped, `${name}: something was clipped`).toBe(true)
        if (want === null) want = fused
        else expect(fused, `${name}: the first backend's bits`).toEqual(want)
      }
    }
  })
})

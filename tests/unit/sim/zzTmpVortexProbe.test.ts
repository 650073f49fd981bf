import { it } from 'vitest'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import { createWasmBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

function rng(seed: number) { let s = seed >>> 0; return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296 } }
it('probe', async () => {
  const N = 64, dx = 1 / N, count = Number(process.env.NP ?? 2000)
  const r = rng(1)
  const mk = () => new Float64Array(count)
  const P = { px: mk(), py: mk(), pz: mk(), wx: mk(), wy: mk(), wz: mk(), pr: mk() }
  for (let p = 0; p < count; p++) { P.px[p] = r(); P.py[p] = r(); P.pz[p] = r(); P.wx[p] = r() - 0.5; P.wy[p] = r() - 0.5; P.wz[p] = r() - 0.5; P.pr[p] = 4 * dx }
  const bes: [string, any][] = [['ts', TS_KERNELS], ['wasm1', createWasmBackend({})], ['wasm2', createKernelBackend('wasm', { threads: 2 })]]
  const outs: Float32Array[][] = []
  for (const [name, b] of bes) {
    const u = b.f32((N + 1) * N * N), v = b.f32(N * (N + 1) * N), w = b.f32(N * N * (N + 1)), eps = b.f32(N * N * N)
    let best = 1e9, bestS = 1e9
    for (let rep = 0; rep < 30; rep++) {
      u.fill(0); v.fill(0); w.fill(0); eps.fill(0)
      let t = performance.now()
      b.particleForce(u, v, w, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.pr, count, 3, 0.04, N, N, N, dx, 0, 0, 0)
      best = Math.min(best, performance.now() - t)
      t = performance.now()
      b.particleStrength(eps, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.pr, count, 0.02, N, N, N, dx, 0, 0, 0)
      bestS = Math.min(bestS, performance.now() - t)
    }
    outs.push([u, v, w, eps].map((a) => Float32Array.from(a)))
    console.log(name, 'force ms', best.toFixed(2), 'strength ms', bestS.toFixed(2))
  }
  for (let k = 1; k < outs.length; k++) {
    let e = 0, maxAbs = 0, bitDiff = 0
    for (let a = 0; a < 4; a++) { const x = outs[k][a], y = outs[0][a]; for (let i = 0; i < x.length; i++) { maxAbs = Math.max(maxAbs, Math.abs(y[i])); if (x[i] !== y[i]) { bitDiff++; e = Math.max(e, Math.abs(x[i] - y[i]) / Math.abs(y[i])) } } }
    console.log(bes[k][0], 'max pointwise rel err', e, 'differing values', bitDiff, 'maxAbs', maxAbs)
  }
  for (const [, b] of bes) await b.dispose()
}, 120000)

import { it } from 'vitest'
import { advectSlab, maccormackCorrectSlab } from '../../../src-shared/sim/core/advect'
import { MacGrid, ScalarField, type GridSpec } from '../../../src-shared/sim/core/grid'

it('rot', () => {
  const NX = 64, NZ = 1
  const spec: GridSpec = { nx: NX, ny: NX, nz: NZ, dx: 1 / NX, origin: [0, 0, 0] }
  const vel = new MacGrid(spec)
  const p = [0, 0, 0]
  for (let k = 0; k < NZ; k++) for (let j = 0; j < NX; j++) for (let i = 0; i <= NX; i++) {
    vel.facePosition(0, i, j, k, p); vel.u[vel.uIndex(i, j, k)] = -2 * Math.PI * (p[1] - 0.5)
    vel.facePosition(1, j, i, k, p); vel.v[vel.vIndex(j, i, k)] = 2 * Math.PI * (p[0] - 0.5)
  }
  for (const edge of [1]) for (const steps of [120]) for (const cubic of [false, true]) for (const lim of [0, 1, 2]) {
    const f = new ScalarField(spec)
    for (let j = 0; j < NX; j++) for (let i = 0; i < NX; i++) { f.position(i, j, 0, p); const d = Math.hypot(p[0] - 0.75, p[1] - 0.5) - 0.12; f.data[f.index(i, j, 0)] = Math.min(1, Math.max(0, 0.5 - d / spec.dx / edge)) }
    let a = f.data, b = new Float32Array(a.length)
    const fw = new Float32Array(a.length), bw = new Float32Array(a.length)
    const m0 = a.reduce((s, q) => s + q, 0)
    const c = NX / steps
    for (let s = 0; s < steps; s++) {
      advectSlab(fw, a, -1, vel.u, vel.v, vel.w, NX, NX, NZ, c, cubic, null, 0, NZ)
      advectSlab(bw, fw, -1, vel.u, vel.v, vel.w, NX, NX, NZ, -c, cubic, null, 0, NZ)
      maccormackCorrectSlab(b, a, fw, bw, -1, vel.u, vel.v, vel.w, NX, NX, NZ, c, null, lim, 0, NZ);
      [a, b] = [b, a]
    }
    let m = 0, cy = 0, mn = 0, mx = 0; for (let q = 0; q < a.length; q++) { m += a[q]; cy += a[q] * (Math.floor(q / NX) + 0.5) / NX; mn = Math.min(mn, a[q]); mx = Math.max(mx, a[q]) }
    console.log('edge', edge, 'steps', steps, cubic ? 'cubic' : 'linear', 'lim', lim, 'mass', ((m / m0 - 1) * 100).toFixed(2) + '%', 'cy', (cy / m).toFixed(4), 'range', mn.toFixed(3), mx.toFixed(3))
  }
}, 200000)

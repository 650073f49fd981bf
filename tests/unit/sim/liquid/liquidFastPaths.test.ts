// The fast paths of the liquid solver must give the same bits as the straightforward code
// they replaced (kept here as references): so a speed-up never changes a bake.
// - ActivePcg (PCG + MIC(0) over the unknowns only) vs core PcgSolver + Stencil7Mic0;
// - extrapolateLayers (worklists) vs a full scan of the lattice per layer;
// - Redistancer (sweeps limited to the band's box) vs sweeps over the whole grid, and runPair's
//   two fields side by side vs one at a time;
// - lerpLattice / macVelocity / MacStencil vs core lerp3 / velocityAtGridCoord;
// - particleLevelSet without redistancing + Redistancer.run vs particleLevelSet with it;
// - the fused grid -> particle transfer and advection vs toParticles then advect.
import { fillBlobSystem } from '../../../fixtures/ghostFluidBlob'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { lerp3, velocityAtGridCoord } from '../../../../src-shared/sim/core/interpolate'
import { MacGrid } from '../../../../src-shared/sim/core/grid'
import { PcgSolver } from '../../../../src-shared/sim/core/pcg'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { ActivePcg } from '../../../../src-shared/sim/liquid/activePcg'
import { extrapolateLayers } from '../../../../src-shared/sim/core/extrapolate'
import { LEVEL_SET_SCRATCH_CELLS, LevelSetScratch, particleLevelSet } from '../../../../src-shared/sim/liquid/levelSet'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { ParticleMover } from '../../../../src-shared/sim/liquid/particleMotion'
import { Redistancer } from '../../../../src-shared/sim/liquid/redistance'
import { godunovUpdate } from '../../../../src-shared/sim/core/eikonalSweeps'
import { lerpLattice, MacStencil, macVelocity } from '../../../../src-shared/sim/liquid/sample'
import { Stencil7Matrix, Stencil7Mic0 } from '../../../../src-shared/sim/liquid/stencil7'
import { ParticleTransfer, splatSumsLength } from '../../../../src-shared/sim/liquid/transfer'

const bits = (a: Float32Array | Float64Array) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)))

describe('ActivePcg', () => {
  it('gives the same iterates, counts and residual as PcgSolver with Stencil7Mic0', () => {
    const nx = 11, ny = 9, nz = 8, n = nx * ny * nz
    const prng = new Prng(5)
    const m = new Stencil7Matrix(nx, ny, nz)
    // Unknowns: a blob of cells (about a third), like the liquid of a frame; rows elsewhere 0.
    const on = fillBlobSystem(m, prng, [4.2, 3.1, 3.5], [4, 3.5, 3])
    const b = new Float64Array(n)
    const x0 = new Float64Array(n)
    for (let c = 0; c < n; c++) if (on[c]) (b[c] = prng.range(-1, 1)), (x0[c] = prng.range(-0.1, 0.1))
    for (const [tol, maxIt] of [[1e-6, 1000], [1e-12, 1000], [1e-6, 3]]) {
      const mic = new Stencil7Mic0(nx, ny, nz)
      mic.factor(m)
      const xa = Float64Array.from(x0)
      const sa = new PcgSolver(nx, ny, nz).solve(m, mic, Float64Array.from(b), xa, { tolerance: tol, maxIterations: maxIt })
      const xb = Float64Array.from(x0)
      const sb = new ActivePcg(nx, ny, nz).solve(m, Float64Array.from(b), xb, tol, maxIt)
      expect(sa.iterations).toBeGreaterThan(0)
      expect(sb).toEqual(sa)
      expect(bits(xb)).toEqual(bits(xa))
    }
  })
})

describe('extrapolateLayers', () => {
  it('matches a full scan per layer, bit for bit', () => {
    const prng = new Prng(7)
    for (const [sx, sy, sz, layers] of [[13, 11, 9, 4], [9, 10, 8, 3], [6, 1, 1, 2]]) {
      const n = sx * sy * sz
      const f = new Float32Array(n)
      const mark = new Uint8Array(n)
      for (let c = 0; c < n; c++) {
        // Two blobs of known samples (and a few lone ones), random values.
        const i = c % sx, j = Math.floor(c / sx) % sy, k = Math.floor(c / (sx * sy))
        const inBlob = (i - 3) ** 2 + (j - 3) ** 2 + (k - 2) ** 2 < 6 || (i - sx + 3) ** 2 + (j - sy + 2) ** 2 < 3
        if (inBlob || prng.next() < 0.01) (mark[c] = 1), (f[c] = prng.range(-2, 2))
      }
      const fa = f.slice(), ma = mark.slice()
      const fb = f.slice(), mb = mark.slice()
      const set = referenceExtrapolate(fa, ma, sx, sy, sz, layers)
      expect(set).toBeGreaterThan(0)
      expect(extrapolateLayers(fb, mb, sx, sy, sz, layers)).toBe(set)
      expect(bits(fb)).toEqual(bits(fa))
      expect(Array.from(mb)).toEqual(Array.from(ma))
      // A second call on the marks of the first (marks above 1 on entry) matches too.
      expect(extrapolateLayers(fb, mb, sx, sy, sz, layers + 1)).toBe(referenceExtrapolate(fa, ma, sx, sy, sz, layers + 1))
      expect(bits(fb)).toEqual(bits(fa))
      expect(Array.from(mb)).toEqual(Array.from(ma))
    }
  })
})

describe('Redistancer', () => {
  it('sweeps only the band around the surface, with the same result as the whole grid', () => {
    for (const [nx, ny, nz, shape] of [[20, 17, 15, 'ball'], [20, 17, 15, 'slab'], [20, 17, 15, 'none'], [46, 38, 41, 'ball'], [46, 38, 41, 'slab']] as const) {
    const dx = 0.1, band = 3 * dx
    const prng = new Prng(3)
    {
      const phi = new Float32Array(nx * ny * nz)
      for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
        const r = Math.hypot(i - 6.3, j - 5.2, k - 4.9) * dx - 0.35
        const v = shape === 'ball' ? r + prng.range(-0.02, 0.02) : shape === 'slab' ? (j - 8.4) * dx * 0.7 : 1
        phi[i + nx * (j + ny * k)] = Math.max(-band, Math.min(band, v))
      }
      const a = phi.slice()
      referenceRedistance(a, nx, ny, nz, dx, band)
      const b = phi.slice()
      new Redistancer(nx * ny * nz).run(b, nx, ny, nz, dx, band)
      expect(bits(b), `${shape} on ${nx} x ${ny} x ${nz}`).toEqual(bits(a))
    }
    }
  })

  it('on the WebAssembly kernels gives the TypeScript pass\'s bits', async () => {
    const dx = 0.1, band = 3 * dx
    const prng = new Prng(4)
    const w = createKernelBackend('wasm', { threads: 2, strict: true, initialBytes: 1 << 20 })
    try {
      for (const [nx, ny, nz, shape] of [[20, 17, 15, 'ball'], [20, 17, 15, 'slab'], [20, 17, 15, 'none'], [20, 17, 15, 'corner'], [46, 38, 41, 'ball'], [46, 38, 41, 'corner']] as const) {
        const phi = w.f32(nx * ny * nz)
        for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
          const r = Math.hypot(i - 6.3, j - 5.2, k - 4.9) * dx - 0.35
          const v = shape === 'ball' ? r + prng.range(-0.02, 0.02) : shape === 'slab' ? (j - 8.4) * dx * 0.7 : shape === 'corner' ? Math.max(i - 0.5, j - 0.5, k - 0.5) * dx : 1
          phi[i + nx * (j + ny * k)] = Math.max(-band, Math.min(band, v))
        }
        const input = phi.slice()
        const ref = phi.slice()
        new Redistancer(nx * ny * nz).run(ref, nx, ny, nz, dx, band)
        new Redistancer(nx * ny * nz, w).run(phi, nx, ny, nz, dx, band)
        expect(bits(phi), shape).toEqual(bits(ref))
        // runPair: two fields side by side on the two threads (and on TypeScript), each with
        // the single pass's bits; the second field is the first one mirrored in x.
        const mirror = (a: Float32Array) => {
          const m = a.slice()
          for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) m[i + nx * (j + ny * k)] = a[nx - 1 - i + nx * (j + ny * k)]
          return m
        }
        const refB = mirror(input)
        new Redistancer(nx * ny * nz).run(refB, nx, ny, nz, dx, band)
        for (const kernels of [w, TS_KERNELS]) {
          const a = kernels.f32(nx * ny * nz), b = kernels.f32(nx * ny * nz)
          a.set(input)
          b.set(mirror(input))
          new Redistancer(nx * ny * nz, kernels).runPair(a, b, nx, ny, nz, dx, band)
          expect(bits(a), `${shape}, pair, first`).toEqual(bits(ref))
          expect(bits(b), `${shape}, pair, second`).toEqual(bits(refB))
        }
        // The pass did something wherever there is a surface.
        if (shape !== 'none') expect(input.some((v, c) => v !== ref[c])).toBe(true)
      }
      expect((w as WasmKernelBackend).fallbacks).toBe(0)
    } finally {
      await w.dispose()
    }
  })
})

describe('lerpLattice and MacStencil', () => {
  it('equal lerp3 bit for bit, clamping and NaN included', () => {
    const prng = new Prng(9)
    const sx = 7, sy = 5, sz = 4
    const f = new Float32Array(sx * sy * sz)
    for (let c = 0; c < f.length; c++) f[c] = prng.range(-3, 3)
    for (let t = 0; t < 2000; t++) {
      const g = [prng.range(-1.5, sx + 0.5), prng.range(-1.5, sy + 0.5), prng.range(-1.5, sz + 0.5)]
      if (t % 97 === 0) g[t % 3] = Number.NaN
      if (t % 31 === 0) g[(t + 1) % 3] = Math.round(g[(t + 1) % 3])
      expect(Object.is(lerpLattice(f, sx, sy, sz, g[0], g[1], g[2]), lerp3(f, sx, sy, sz, g[0], g[1], g[2]))).toBe(true)
    }
    const spec = { nx: 6, ny: 4, nz: 5, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
    const vel = new MacGrid(spec)
    for (const a of [vel.u, vel.v, vel.w]) for (let c = 0; c < a.length; c++) a[c] = prng.range(-1, 1)
    const o1 = new Float64Array(3), o2 = new Float64Array(3)
    const st = new MacStencil(6, 4, 5)
    const cells = new Float32Array(6 * 4 * 5)
    for (let c = 0; c < cells.length; c++) cells[c] = prng.range(250, 350)
    for (let t = 0; t < 500; t++) {
      const X = prng.range(-1, 7), Y = prng.range(-1, 5), Z = prng.range(-1, 6)
      macVelocity(vel.u, vel.v, vel.w, 6, 4, 5, X, Y, Z, o1)
      velocityAtGridCoord(vel.u, vel.v, vel.w, 6, 4, 5, X, Y, Z, o2)
      expect(bits(o1)).toEqual(bits(o2))
      st.at(X, Y, Z)
      expect(bits(Float64Array.of(st.u(vel.u), st.v(vel.v), st.w(vel.w)))).toEqual(bits(o2))
      expect(Object.is(st.cell(cells), lerp3(cells, 6, 4, 5, X - 0.5, Y - 0.5, Z - 0.5))).toBe(true)
    }
  })
})

/** Markers in a 10x8x9 box of 0.1 m cells: a jittered block, some spray, some near walls. */
function scene(): { spec: { nx: number; ny: number; nz: number; dx: number; origin: [number, number, number] }; p: MarkerParticles; vel: MacGrid; velOld: MacGrid; temp: Float32Array; tempOld: Float32Array; reach: Uint8Array } {
  const spec = { nx: 10, ny: 8, nz: 9, dx: 0.1, origin: [-0.5, 0, -0.4] as [number, number, number] }
  const prng = new Prng(13)
  const p = new MarkerParticles(10000)
  for (let q = 0; q < 1500; q++) {
    const spray = q % 10 === 0
    p.add(prng.range(-0.5, spray ? 0.5 : 0.1), prng.range(0, spray ? 0.8 : 0.4), prng.range(-0.4, 0.5), prng.range(-1, 1), prng.range(-1, 1), prng.range(-1, 1), prng.range(280, 300))
  }
  const vel = new MacGrid(spec), velOld = new MacGrid(spec)
  for (const g of [vel, velOld]) for (const a of [g.u, g.v, g.w]) for (let c = 0; c < a.length; c++) a[c] = prng.range(-2, 2)
  const n = spec.nx * spec.ny * spec.nz
  const temp = new Float32Array(n), tempOld = new Float32Array(n), reach = new Uint8Array(n)
  for (let c = 0; c < n; c++) (temp[c] = prng.range(280, 300)), (tempOld[c] = prng.range(280, 300)), (reach[c] = prng.next() < 0.8 ? 1 : 0)
  return { spec, p, vel, velOld, temp, tempOld, reach }
}

function copyParticles(p: MarkerParticles): MarkerParticles {
  const c = new MarkerParticles(p.maxCount)
  for (let q = 0; q < p.count; q++) c.add(p.px[q], p.py[q], p.pz[q], p.vx[q], p.vy[q], p.vz[q], p.temp[q])
  return c
}

describe('particleLevelSet', () => {
  it('without redistancing, then Redistancer.run, equals the one-call form', () => {
    const { spec, p } = scene()
    const n = spec.nx * spec.ny * spec.nz
    const closed = new Uint8Array([1, 1, 1, 0, 1, 1])
    const out = [0, 1].map(() => ({ count: new Int32Array(n), kind: new Uint8Array(n), phi: new Float32Array(n), dist: new Float32Array(n), scratch: new LevelSetScratch(n) }))
    for (const o of out) for (let q = 0; q < p.count; q++) {
      const i = Math.floor((p.px[q] - spec.origin[0]) / spec.dx), j = Math.floor((p.py[q] - spec.origin[1]) / spec.dx), k = Math.floor((p.pz[q] - spec.origin[2]) / spec.dx)
      o.count[i + spec.nx * (j + spec.ny * k)]++
    }
    particleLevelSet(p, spec, out[0].count, out[0].kind, out[0].phi, out[0].dist, 3 * spec.dx, out[0].scratch, closed)
    particleLevelSet(p, spec, out[1].count, out[1].kind, out[1].phi, out[1].dist, 3 * spec.dx, out[1].scratch, closed, false)
    out[1].scratch.redistancer.run(out[1].dist, spec.nx, spec.ny, spec.nz, spec.dx, 3 * spec.dx)
    expect(bits(out[1].phi)).toEqual(bits(out[0].phi))
    expect(bits(out[1].dist)).toEqual(bits(out[0].dist))
    expect(Array.from(out[1].kind)).toEqual(Array.from(out[0].kind))
  })

  it('on a borrowed block another pass left NaN in, gives its own scratch\'s bits (the liquid lends it the pressure\'s)', () => {
    const { spec, p } = scene()
    const n = spec.nx * spec.ny * spec.nz
    const closed = new Uint8Array([1, 1, 1, 0, 1, 1])
    const shared = new Float64Array(LEVEL_SET_SCRATCH_CELLS * n)
    const out = [null, shared].map((block) => ({ count: new Int32Array(n), kind: new Uint8Array(n), phi: new Float32Array(n), dist: new Float32Array(n), scratch: new LevelSetScratch(n, undefined, block) }))
    expect(out[1].scratch.sums.buffer).toBe(shared.buffer)
    for (const o of out) for (let q = 0; q < p.count; q++) {
      const i = Math.floor((p.px[q] - spec.origin[0]) / spec.dx), j = Math.floor((p.py[q] - spec.origin[1]) / spec.dx), k = Math.floor((p.pz[q] - spec.origin[2]) / spec.dx)
      o.count[i + spec.nx * (j + spec.ny * k)]++
    }
    for (const o of out) {
      shared.fill(Number.NaN)
      particleLevelSet(p, spec, o.count, o.kind, o.phi, o.dist, 3 * spec.dx, o.scratch, closed)
    }
    expect(out[0].phi.some((v) => v < 0)).toBe(true)
    expect(bits(out[1].phi)).toEqual(bits(out[0].phi))
    expect(bits(out[1].dist)).toEqual(bits(out[0].dist))
    expect(Array.from(out[1].kind)).toEqual(Array.from(out[0].kind))
  })
})

describe('ParticleTransfer on lent sums', () => {
  it('splats to the same grid, marks and temperature residual when another pass left NaN in the lent block', () => {
    const { spec, p, tempOld, reach } = scene()
    const n = spec.nx * spec.ny * spec.nz
    const lent = new Float64Array(splatSumsLength(spec.nx, spec.ny, spec.nz))
    const run = (t: ParticleTransfer) => {
      const vel = new MacGrid(spec)
      const temp = new Float32Array(n)
      const marks = [new Uint8Array(vel.u.length), new Uint8Array(vel.v.length), new Uint8Array(vel.w.length), new Uint8Array(n)]
      lent.fill(Number.NaN)
      t.toGrid(p, vel, temp, marks[0], marks[1], marks[2], marks[3])
      lent.fill(Number.NaN)
      t.temperatureResidual(p, tempOld, reach, 1e-3, 0.05)
      return [bits(vel.u), bits(vel.v), bits(vel.w), bits(temp), bits(t.tempResid), ...marks.map((m) => Array.from(m, String))]
    }
    const own = run(new ParticleTransfer(spec)), borrowing = run(new ParticleTransfer(spec, undefined, lent))
    expect(own[4].some((v) => v !== '0')).toBe(true) // the residual pass ran
    expect(borrowing).toEqual(own)
  })
})

describe('fused grid -> particles and advection', () => {
  it.each([0, 0.95])('equals toParticles then advect (flip %s)', (flip) => {
    const { spec, p, vel, velOld, temp, tempOld, reach } = scene()
    const open = new Uint8Array([0, 0, 0, 1, 0, 0])
    const obstaclePhi = new Float32Array((spec.nx + 1) * (spec.ny + 1) * (spec.nz + 1))
    for (let k = 0; k <= spec.nz; k++) for (let j = 0; j <= spec.ny; j++) for (let i = 0; i <= spec.nx; i++) {
      obstaclePhi[i + (spec.nx + 1) * (j + (spec.ny + 1) * k)] = Math.hypot(i - 5, j - 1, k - 4) * spec.dx - 0.15
    }
    const h = 0.08, g = [0, -9.81, 0]
    const a = copyParticles(p), b = copyParticles(p)
    const transfer = new ParticleTransfer(spec)
    transfer.toParticles(a, vel, velOld, temp, tempOld, flip, reach, g[0], g[1], g[2], h)
    const removedA = new ParticleMover(spec).advect(a, vel, h, obstaclePhi, open, reach)
    const removedB = new ParticleMover(spec).advect(b, vel, h, obstaclePhi, open, reach, { transfer, velOld, temp, tempOld, flip, gx: g[0], gy: g[1], gz: g[2] })
    expect(removedA).toBeGreaterThan(0) // the open top and the obstacle both take some
    expect(removedB).toBe(removedA)
    expect(b.count).toBe(a.count)
    for (const key of ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'temp'] as const) expect(bits(b[key].subarray(0, b.count))).toEqual(bits(a[key].subarray(0, a.count)))
    expect(Array.from(b.id.subarray(0, b.count))).toEqual(Array.from(a.id.subarray(0, a.count)))
  })
})

// References: the code the fast paths replaced.

function referenceExtrapolate(f: Float32Array, mark: Uint8Array, sx: number, sy: number, sz: number, layers: number): number {
  const sxy = sx * sy
  let set = 0
  for (let layer = 1; layer <= layers; layer++) {
    const lim = layer + 1 // neighbours with 0 < mark < lim are known from earlier layers
    let added = 0
    for (let k = 0; k < sz; k++) {
      for (let j = 0; j < sy; j++) {
        let c = sx * (j + sy * k)
        for (let i = 0; i < sx; i++, c++) {
          if (mark[c] !== 0) continue
          let s = 0
          let n = 0
          let m: number
          if (i > 0 && (m = mark[c - 1]) !== 0 && m < lim) (s += f[c - 1]), n++
          if (i < sx - 1 && (m = mark[c + 1]) !== 0 && m < lim) (s += f[c + 1]), n++
          if (j > 0 && (m = mark[c - sx]) !== 0 && m < lim) (s += f[c - sx]), n++
          if (j < sy - 1 && (m = mark[c + sx]) !== 0 && m < lim) (s += f[c + sx]), n++
          if (k > 0 && (m = mark[c - sxy]) !== 0 && m < lim) (s += f[c - sxy]), n++
          if (k < sz - 1 && (m = mark[c + sxy]) !== 0 && m < lim) (s += f[c + sxy]), n++
          if (n > 0) {
            f[c] = s / n
            mark[c] = lim
            added++
          }
        }
      }
    }
    set += added
  }
  return set
}

function referenceRedistance(phi: Float32Array, nx: number, ny: number, nz: number, dx: number, band: number): void {
    const d = new Float64Array(nx * ny * nz)
    const plane = nx * ny
    const n = plane * nz
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const c = i + nx * (j + ny * k)
          const p = phi[c]
          const xm = i > 0 ? phi[c - 1] : p, xp = i < nx - 1 ? phi[c + 1] : p
          const ym = j > 0 ? phi[c - nx] : p, yp = j < ny - 1 ? phi[c + nx] : p
          const zm = k > 0 ? phi[c - plane] : p, zp = k < nz - 1 ? phi[c + plane] : p
          const crossing = p < 0 !== xm < 0 || p < 0 !== xp < 0 || p < 0 !== ym < 0 || p < 0 !== yp < 0 || p < 0 !== zm < 0 || p < 0 !== zp < 0
          if (!crossing) {
            d[c] = band
            continue
          }
          // |phi| / |grad phi| (central differences, one-sided at the walls): exact for a
          // linear phi of any slope, and first order near a curved surface.
          const gx = (xp - xm) / ((i > 0 ? 1 : 0) + (i < nx - 1 ? 1 : 0) || 1)
          const gy = (yp - ym) / ((j > 0 ? 1 : 0) + (j < ny - 1 ? 1 : 0) || 1)
          const gz = (zp - zm) / ((k > 0 ? 1 : 0) + (k < nz - 1 ? 1 : 0) || 1)
          const g = Math.sqrt(gx * gx + gy * gy + gz * gz) / dx
          let inv2 = 0
          inv2 += referenceAxisTerm(p, xm, xp, dx)
          inv2 += referenceAxisTerm(p, ym, yp, dx)
          inv2 += referenceAxisTerm(p, zm, zp, dx)
          // The axis-crossing estimate is never below the true distance; take the smaller.
          const byCrossing = 1 / Math.sqrt(inv2)
          const byGradient = g > 0 ? Math.abs(p) / g : byCrossing
          d[c] = byGradient < byCrossing ? byGradient : byCrossing
        }
      }
    }
    // The eight sweeps over the whole grid, every node updated (the solver's limit them to the
    // band's rows and skip nodes with no lower neighbour).
    plainSweeps(d, nx, ny, nz, dx, band)
    for (let c = 0; c < n; c++) {
      const v = d[c] < band ? d[c] : band
      phi[c] = phi[c] < 0 ? -v : v
    }
  }

/** core/eikonalSweeps.ts's update at every node of the grid, in the same eight orders. */
function plainSweeps(d: Float64Array, nx: number, ny: number, nz: number, dx: number, far: number): void {
  const plane = nx * ny
  for (let s = 0; s < 8; s++) {
    for (let kk = 0; kk < nz; kk++) for (let jj = 0; jj < ny; jj++) for (let ii = 0; ii < nx; ii++) {
      const i = s & 1 ? nx - 1 - ii : ii, j = s & 2 ? ny - 1 - jj : jj, k = s & 4 ? nz - 1 - kk : kk
      const c = i + nx * (j + ny * k)
      const m = [
        Math.min(i > 0 ? d[c - 1] : far, i < nx - 1 ? d[c + 1] : far),
        Math.min(j > 0 ? d[c - nx] : far, j < ny - 1 ? d[c + nx] : far),
        Math.min(k > 0 ? d[c - plane] : far, k < nz - 1 ? d[c + plane] : far),
      ]
      const x = godunovUpdate(m[0], m[1], m[2], dx)
      if (x < d[c]) d[c] = x
    }
  }
}

/** 1 / t^2 for the nearer zero crossing towards neighbours a and b along one axis (0 if none). */
function referenceAxisTerm(p: number, a: number, b: number, dx: number): number {
  let t = Infinity
  if (p < 0 !== a < 0) t = Math.min(t, (p / (p - a)) * dx)
  if (p < 0 !== b < 0) t = Math.min(t, (p / (p - b)) * dx)
  if (t === Infinity) return 0
  // A crossing exactly at the centre: treat as a tiny distance rather than dividing by 0.
  const tt = t > 1e-6 * dx ? t : 1e-6 * dx
  return 1 / (tt * tt)
}

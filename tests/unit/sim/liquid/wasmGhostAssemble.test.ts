// The ghost-fluid pressure system's assembly and velocity update on the kernel layer
// (ghostFluidKernels.ts, twins wasm/assembly/ghostFluid.ts): WebAssembly against the TypeScript
// reference bit for bit on 1, 2 and 3 threads, on a grid where every branch occurs (liquid, air
// and solid cells, surfaces hugging cell centres, open and closed sides, moving obstacle faces);
// and the references checked against eq. 36's stencil and eq. 29's update worked out here.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { MacGrid } from '../../../../src-shared/sim/core/grid'
import { GhostFluidPressure, MIN_THETA } from '../../../../src-shared/sim/liquid/ghostFluid'
import { GHOST_SUBTRACT } from '../../../../src-shared/sim/liquid/ghostFluidKernels'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const nx = 11, ny = 9, nz = 10
const spec = { nx, ny, nz, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }

/** A random scene's arrays on backend b (the same values for every backend). */
function scene(b: KernelBackend, seed: number) {
  const r = rng(seed)
  const vel = new MacGrid(spec, { kernels: b }), fractions = new MacGrid(spec, { kernels: b }), obstacle = new MacGrid(spec, { kernels: b })
  for (const g of [vel, obstacle]) for (const a of [g.u, g.v, g.w]) for (let i = 0; i < a.length; i++) a[i] = 2 * r() - 1
  for (const a of [fractions.u, fractions.v, fractions.w]) for (let i = 0; i < a.length; i++) a[i] = r() < 0.15 ? 0 : r() < 0.7 ? 1 : r()
  const kind = b.u8(nx * ny * nz), phi = b.f32(nx * ny * nz)
  for (let c = 0; c < kind.length; c++) {
    const x = r()
    kind[c] = x < 0.6 ? 1 : x < 0.9 ? 0 : 2
    phi[c] = kind[c] === 1 ? -r() * 0.1 : r() < 0.1 ? 1e-5 : r() * 0.1
  }
  return { vel, fractions, obstacle, kind, phi }
}

function assembled(b: KernelBackend, seed: number, moving: boolean, open: number[]) {
  const s = scene(b, seed)
  const p = new GhostFluidPressure(nx, ny, nz, b)
  p.assemble(s.vel, s.fractions, moving ? s.obstacle : null, s.kind, s.phi, Uint8Array.from(open))
  const { diag, ax, ay, az } = p.matrix
  return { p, s, out: [diag, ax, ay, az, (p as unknown as { b: Float64Array }).b].map((a) => Float64Array.from(a)) }
}

function sameBits(a: Float64Array[], b: Float64Array[]): boolean {
  return a.every((x, k) => {
    const y = b[k]
    if (x.length !== y.length) return false
    const u = new Uint32Array(x.buffer), v = new Uint32Array(y.buffer)
    return u.every((w, i) => w === v[i])
  })
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await (b as { dispose?: () => Promise<void> }).dispose?.()
})

describe('ghost-fluid assembly on the kernels', () => {
  const cases: [boolean, number[]][] = [
    [true, [1, 0, 0, 1, 1, 0]],
    [false, [0, 1, 1, 0, 0, 1]],
  ]

  it('the reference rows follow eq. 36 with ghost values: diagonal and couplings of liquid cells, zero rows elsewhere', () => {
    const { s, out } = assembled(TS_KERNELS, 9, false, [1, 1, 1, 1, 1, 1])
    const [diag, ax, , , rhs] = out
    let checked = 0, ghosts = 0
    for (let k = 1; k < nz - 1; k++) for (let j = 1; j < ny - 1; j++) for (let i = 1; i < nx - 1; i++) {
      const c = i + nx * (j + ny * k)
      if (s.kind[c] !== 1) {
        expect(diag[c] + ax[c] + rhs[c]).toBe(0)
        continue
      }
      // Sum over the six faces: liquid neighbour w, air neighbour w / theta, solid nothing.
      let d = 0
      const faces: [number, number][] = [
        [s.fractions.u[i + (nx + 1) * (j + ny * k)], c - 1],
        [s.fractions.u[i + 1 + (nx + 1) * (j + ny * k)], c + 1],
        [s.fractions.v[i + nx * (j + (ny + 1) * k)], c - nx],
        [s.fractions.v[i + nx * (j + 1 + (ny + 1) * k)], c + nx],
        [s.fractions.w[c], c - nx * ny],
        [s.fractions.w[c + nx * ny], c + nx * ny],
      ]
      for (const [w, n] of faces) {
        if (!(w > 0)) continue
        if (s.kind[n] === 1) d += w
        else {
          const t = s.phi[c] - s.phi[n] < 0 ? s.phi[c] / (s.phi[c] - s.phi[n]) : 1
          d += w / Math.min(1, Math.max(MIN_THETA, t))
          ghosts++
        }
      }
      expect(diag[c]).toBeCloseTo(d, 12)
      expect(ax[c]).toBe(s.kind[c + 1] === 1 && faces[1][0] > 0 ? -faces[1][0] : 0)
      checked++
    }
    expect(checked).toBeGreaterThan(200)
    expect(ghosts).toBeGreaterThan(100)
  })

  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    for (const [moving, open] of cases) {
      const ref = assembled(TS_KERNELS, 17, moving, open).out
      for (const threads of [1, 2, 3]) {
        const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
        backends.push(b)
        expect(sameBits(assembled(b, 17, moving, open).out, ref), `${threads} threads, moving ${moving}`).toBe(true)
      }
    }
  })

  /** u, v, w after vel -= grad x with a random x, on backend b. */
  function subtracted(b: KernelBackend, seed: number): { before: MacGrid; after: Float32Array[]; s: ReturnType<typeof scene>; x: Float64Array } {
    const s = scene(b, seed)
    const r = rng(seed + 1)
    const x = b.f64(nx * ny * nz)
    for (let c = 0; c < x.length; c++) x[c] = s.kind[c] === 1 ? 2 * r() - 1 : 0
    const before = new MacGrid(spec)
    before.copyFrom(s.vel)
    b.run(GHOST_SUBTRACT, x, s.vel, s.fractions, s.kind, s.phi, nx, ny, nz)
    return { before, after: [s.vel.u, s.vel.v, s.vel.w].map((a) => Float32Array.from(a)), s, x }
  }

  it('the velocity update: liquid-liquid faces take x_b - x_a, surface faces the ghost value, air-air and closed faces nothing', () => {
    const { before, after, s, x } = subtracted(TS_KERNELS, 31)
    let inner = 0, ghost = 0, kept = 0
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 1; i < nx; i++) {
      const f = i + (nx + 1) * (j + ny * k), a = i - 1 + nx * (j + ny * k), c = a + 1
      const la = s.kind[a] === 1, lb = s.kind[c] === 1
      let d = 0
      if (!(s.fractions.u[f] > 0) || (!la && !lb)) {
        expect(after[0][f]).toBe(before.u[f])
        kept++
        continue
      }
      if (la && lb) d = x[c] - x[a], inner++
      else {
        const [l, o] = la ? [a, c] : [c, a]
        const t = s.phi[l] - s.phi[o] < 0 ? s.phi[l] / (s.phi[l] - s.phi[o]) : 1
        d = (la ? -x[l] : x[l]) / Math.min(1, Math.max(MIN_THETA, t))
        ghost++
      }
      expect(after[0][f]).toBeCloseTo(before.u[f] - d, 5)
    }
    expect(Math.min(inner, ghost, kept)).toBeGreaterThan(40)
  })

  it('the velocity update: WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    const ref = subtracted(TS_KERNELS, 37).after
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = subtracted(b, 37).after
      for (let a = 0; a < 3; a++) expect(sameBits([new Float64Array(got[a])], [new Float64Array(ref[a])]), `${threads} threads, component ${a}`).toBe(true)
    }
  })
})

describe("the density drift's solve (GhostFluidPressure.solveDrift)", () => {
  it.each(['multigrid', 'mic'] as const)('starts from the last drift where the cell is still liquid: the same target again takes no iteration, cells that left the liquid restart from 0 (%s)', (pre) => {
    const s = scene(TS_KERNELS, 5)
    const p = new GhostFluidPressure(nx, ny, nz, TS_KERNELS, null, pre)
    const open = Uint8Array.from([1, 1, 1, 1, 1, 1])
    p.assemble(s.vel, s.fractions, null, s.kind, s.phi, open)
    const r = rng(11)
    const target = new Float32Array(nx * ny * nz).map(() => 0.2 * (r() - 0.5))
    const drift = new MacGrid(spec)
    const first = p.solveDrift(target, drift, s.fractions, s.kind, s.phi, 1e-6, 500)
    expect(first.converged).toBe(true)
    // (Multigrid solves this small system in a few iterations, MIC(0) in more.)
    expect(first.iterations).toBeGreaterThan(pre === 'mic' ? 5 : 1)
    const solved = Float64Array.from(p.qDrift)
    expect(solved.some((v) => v !== 0)).toBe(true)
    // The same system again: the kept potential already solves it.
    const again = p.solveDrift(target, drift, s.fractions, s.kind, s.phi, 1e-6, 500)
    expect(again.iterations).toBe(0)
    expect(Array.from(p.qDrift)).toEqual(Array.from(solved))
    // A third of the liquid turns to air (and a stale value becomes NaN): those cells are no
    // longer unknowns and hold 0; the solve still converges from what is left.
    const kind = Uint8Array.from(s.kind)
    let left = 0
    for (let c = 0; c < kind.length; c++) if (kind[c] === 1 && c % 3 === 0) { kind[c] = 0; left++ }
    const stale = kind.findIndex((k, c) => k === 1 && c % 3 === 1)
    p.qDrift[stale] = Number.NaN
    p.assemble(s.vel, s.fractions, null, kind, s.phi, open)
    const third = p.solveDrift(target, drift, s.fractions, kind, s.phi, 1e-6, 500)
    expect(left).toBeGreaterThan(50)
    expect(third.converged).toBe(true)
    for (let c = 0; c < kind.length; c++) if (p.matrix.diag[c] === 0) expect(p.qDrift[c]).toBe(0)
    expect(Number.isFinite(p.qDrift[stale])).toBe(true)
  })
})

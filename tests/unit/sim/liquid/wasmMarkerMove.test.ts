// The liquid's marker move on the WebAssembly kernels (src-shared/sim/wasm/assembly/markers.ts)
// against its TypeScript reference (markerKernels.ts moveMarkersSlab, run by ParticleMover on
// the TypeScript backend): positions, velocities, temperatures, C_p, ids and which markers
// were removed, bit for bit, for every option of the move (fused PIC/FLIP/APIC transfer, the
// temperature relaxation, the density drift, obstacles, open sides, spray), and the same bits
// on 1, 2 and 3 threads.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { type GridSpec, MacGrid } from '../../../../src-shared/sim/core/grid'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { type GridToParticles, ParticleMover } from '../../../../src-shared/sim/liquid/particleMotion'
import { ParticleTransfer } from '../../../../src-shared/sim/liquid/transfer'
import type { SlabPool } from '../../../../src-shared/sim/parallel/slabPool'
import { createWasmBackend, type WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const SPEC: GridSpec = { nx: 13, ny: 11, nz: 9, dx: 0.1, origin: [-0.4, 0.2, 0.1] }

interface Options {
  fused: boolean
  apic: boolean
  flip: number
  relax: number
  drift: boolean
  obstacle: boolean
  /** No temperature field (an isothermal substep): markers keep their temperatures. */
  isothermal?: boolean
}

/** Everything one move reads, allocated by backend b, filled from the same seed. */
function scene(b: KernelBackend, o: Options, count: number, seed: number) {
  const { nx, ny, nz, dx, origin } = SPEC
  const r = rng(seed)
  const n = nx * ny * nz
  const vel = new MacGrid(SPEC, { kernels: b })
  const velOld = new MacGrid(SPEC, { kernels: b })
  const drift = new MacGrid(SPEC, { kernels: b })
  for (const f of [vel.u, vel.v, vel.w, velOld.u, velOld.v, velOld.w]) for (let i = 0; i < f.length; i++) f[i] = (r() - 0.5) * 4
  for (const f of [drift.u, drift.v, drift.w]) for (let i = 0; i < f.length; i++) f[i] = (r() - 0.5) * 0.3
  const temp = b.f32(n), tempOld = b.f32(n), reach = b.u8(n)
  for (let c = 0; c < n; c++) {
    temp[c] = 280 + 20 * r()
    tempOld[c] = 280 + 20 * r()
    reach[c] = r() < 0.8 ? 1 : 0
  }
  // A ball obstacle in the middle, its distance at the cell corners; its inner core flat (no
  // gradient: markers there are removed).
  const phi = b.f32((nx + 1) * (ny + 1) * (nz + 1))
  const cx = origin[0] + 0.5 * nx * dx, cy = origin[1] + 0.5 * ny * dx, cz = origin[2] + 0.5 * nz * dx
  for (let k = 0; k <= nz; k++)
    for (let j = 0; j <= ny; j++)
      for (let i = 0; i <= nx; i++) {
        const d = Math.hypot(origin[0] + i * dx - cx, origin[1] + j * dx - cy, origin[2] + k * dx - cz) - 0.25
        phi[i + (nx + 1) * (j + (ny + 1) * k)] = Math.max(d, -0.12)
      }
  const transfer = new ParticleTransfer(SPEC, b)
  transfer.apic = o.apic
  transfer.tempRelax = o.relax
  for (let c = 0; c < n; c++) transfer.tempResid[c] = (r() - 0.5) * 5
  const p = new MarkerParticles(4 * count, 16, o.apic, b)
  for (let q = 0; q < count; q++) {
    // Over the domain and a margin around it; a few on cell faces, a few NaN or infinite.
    const at = (m: number, lo: number) => lo + (r() * (m + 2) - 1) * dx
    let x = at(nx, origin[0]), y = at(ny, origin[1]), z = at(nz, origin[2])
    if (q % 17 === 3) x = origin[0] + Math.round((x - origin[0]) / dx) * dx
    if (q === 5) x = NaN
    if (q === 6) y = Infinity
    p.add(x, y, z, (r() - 0.5) * 2, (r() - 0.5) * 2, (r() - 0.5) * 2, 270 + 40 * r())
    if (o.apic) for (let e = 0; e < 9; e++) p.c[9 * q + e] = (r() - 0.5) * 3
  }
  const open = new Uint8Array([0, 1, 0, 1, 0, 0])
  const g2p: GridToParticles | null = o.fused ? { transfer, velOld, temp: o.isothermal ? null : temp, tempOld, flip: o.flip, gx: 0.3, gy: -9.81, gz: 0.1 } : null
  return { vel, drift: o.drift ? drift : null, phi: o.obstacle ? phi : null, reach, open, g2p, p }
}

function move(b: KernelBackend, o: Options, count: number, seed: number) {
  const s = scene(b, o, count, seed)
  const before = Float32Array.from(s.p.px.subarray(0, s.p.count))
  const tempBefore = new Map(Array.from(s.p.id.subarray(0, s.p.count), (id, q) => [id, s.p.temp[q]]))
  const removed = new ParticleMover(SPEC, b).advect(s.p, s.vel, 0.07, s.phi, s.open, s.reach, s.g2p, s.drift)
  const p = s.p
  const take = (a: ArrayLike<number>, m = 1) => Array.from(a).slice(0, m * p.count)
  return {
    removed,
    count: p.count,
    arrays: [take(p.px), take(p.py), take(p.pz), take(p.vx), take(p.vy), take(p.vz), take(p.temp), take(p.id), o.apic ? take(p.c, 9) : []],
    before,
    tempBefore,
  }
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

const OPTIONS: Options[] = [
  { fused: true, apic: true, flip: 0, relax: 0, drift: false, obstacle: false },
  { fused: true, apic: true, flip: 0, relax: 0, drift: true, obstacle: true, isothermal: true },
  // The isothermal fused APIC move with flip 0 takes markers two at a time (wasm/assembly/markers.ts).
  { fused: true, apic: true, flip: 0, relax: 0, drift: false, obstacle: false, isothermal: true },
  { fused: true, apic: true, flip: 0, relax: 0.3, drift: true, obstacle: true },
  { fused: true, apic: false, flip: 0.95, relax: 0, drift: true, obstacle: true },
  { fused: true, apic: false, flip: 0, relax: 0.1, drift: false, obstacle: true },
  { fused: false, apic: false, flip: 0, relax: 0, drift: false, obstacle: true },
  { fused: false, apic: false, flip: 0, relax: 0, drift: true, obstacle: false },
]

describe('the marker move on the WebAssembly kernels', () => {
  it.each(OPTIONS.map((o, i) => [i, o] as const))('matches the TypeScript reference bit for bit (options %i)', (i, o) => {
    const b = createWasmBackend({ strict: true, initialBytes: 1 << 20 })
    backends.push(b)
    const ref = move(TS_KERNELS, o, 600, 10 + i)
    const got = move(b, o, 600, 10 + i)
    expect(b.fallbacks).toBe(0)
    // The move did something: markers moved, some left through the open sides (or the ball's core).
    expect(ref.removed).toBeGreaterThan(5)
    expect(ref.arrays[0].some((x, q) => x !== ref.before[q])).toBe(true)
    expect(got.removed).toBe(ref.removed)
    expect(got.count).toBe(ref.count)
    // Isothermal: every surviving marker keeps its temperature to the bit.
    if (o.isothermal) for (let q = 0; q < ref.count; q++) expect(ref.arrays[6][q]).toBe(ref.tempBefore.get(ref.arrays[7][q]))
    for (let a = 0; a < ref.arrays.length; a++) expect(sameBits(got.arrays[a], ref.arrays[a]), `array ${a}`).toBe(true)
  })

  it('1, 2 and 3 threads give identical bits, the reference included', () => {
    const o = OPTIONS[1]
    const ref = move(TS_KERNELS, o, 5000, 77)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = move(b, o, 5000, 77)
      if (threads > 1) expect(((b as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(1)
      expect(got.removed).toBe(ref.removed)
      for (let a = 0; a < ref.arrays.length; a++) expect(sameBits(got.arrays[a], ref.arrays[a]), `array ${a}, ${threads} threads`).toBe(true)
    }
  })
})

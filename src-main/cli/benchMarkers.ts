// `eddy bench markers`: the liquid's per-marker kernels alone, on one WebAssembly thread, over a
// synthetic pool: the lower half of an n x (17/16 n) x n grid filled with 8 jittered markers a
// cell (in cell order, as the liquid seeds them), APIC on, a smooth velocity field. Each kernel
// runs `reps` times after the same setup:
//   move      the markers' grid -> particle transfer and RK2 move (particleMotion.ts),
//   splat     particles -> grid on the three face lattices and the cells (transfer.ts toGrid),
//   levelset  the particle level set's kernel splat and labels (levelSet.ts),
//   surface   the surface mesher's splat at refinement 2 (particleLevelSet.ts computePlanes).
// It prints ms per call and ns per marker. Wall-clock figures on a shared machine swing by up
// to 1.6x within minutes, so scripts/bench-instructions.mjs runs this command under valgrind's
// callgrind with --reps 0 and --reps N and prints the instructions per marker each kernel
// executes (the setup is the same whatever the kernel, so the difference is the kernel's).
import { type GridSpec, MacGrid } from '../../src-shared/sim/core/grid'
import { MarkerParticles } from '../../src-shared/sim/liquid/markers'
import { type GridToParticles, ParticleMover } from '../../src-shared/sim/liquid/particleMotion'
import { ParticleTransfer } from '../../src-shared/sim/liquid/transfer'
import { LevelSetScratch, particleLevelSet } from '../../src-shared/sim/liquid/levelSet'
import { ParticleLevelSet } from '../../src-shared/sim/liquid/surface/particleLevelSet'
import { Prng } from '../../src-shared/sim/core/prng'
import { createWasmBackend } from '../../src-shared/sim/wasm/wasmBackend'

export const MARKER_KERNELS = ['move', 'splat', 'levelset', 'surface'] as const
export type MarkerKernel = (typeof MARKER_KERNELS)[number]

export interface MarkerBenchOptions {
  /** Cells along x and z (y is 17/16 of it, as the gears-and-bunnies grid). */
  res: number
  reps: number
  kernels: readonly MarkerKernel[]
}

/** Markers per cell, as the liquid seeds them (liquidSeeding.ts, the app's default). */
const PER_CELL = 8
/** Surface windows of this many node planes, as the bake's mesher sweeps them. */
const WINDOW = 16

export function benchMarkers(o: MarkerBenchOptions, log: (line: string) => void): Record<string, unknown> {
  const nx = o.res, ny = Math.round((o.res * 17) / 16), nz = o.res
  const dx = 1 / o.res
  const spec: GridSpec = { nx, ny, nz, dx, origin: [0, 0, 0] }
  const b = createWasmBackend({ strict: true })
  const prng = new Prng(3)
  const vel = new MacGrid(spec, { kernels: b }), velOld = new MacGrid(spec, { kernels: b })
  // A smooth field of about 0.5 m/s: markers stay near their cells over the repetitions.
  const fill = (f: Float32Array, sx: number, sy: number, phase: number) => {
    for (let c = 0; c < f.length; c++) {
      const x = c % sx, y = Math.floor(c / sx) % sy, z = Math.floor(c / (sx * sy))
      f[c] = 0.5 * Math.sin(0.2 * x + phase) * Math.cos(0.15 * y) + 0.3 * Math.sin(0.1 * z + 2 * phase)
    }
  }
  fill(vel.u, nx + 1, ny, 0)
  fill(vel.v, nx, ny + 1, 1)
  fill(vel.w, nx, ny, 2)
  velOld.copyFrom(vel)
  const n = nx * ny * nz
  const temp = b.f32(n), tempOld = b.f32(n), reach = b.u8(n)
  reach.fill(1)
  const transfer = new ParticleTransfer(spec, b)
  transfer.apic = true
  const count = nx * Math.floor(ny / 2) * nz * PER_CELL
  const p = new MarkerParticles(count, count, true, b)
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < Math.floor(ny / 2); j++)
      for (let i = 0; i < nx; i++)
        for (let s = 0; s < PER_CELL; s++) p.add((i + prng.next()) * dx, (j + prng.next()) * dx, (k + prng.next()) * dx, 0.1, 0, 0, 293.15)
  for (let e = 0; e < 9 * p.count; e++) p.c[e] = (prng.next() - 0.5) * 0.1
  const g2p: GridToParticles = { transfer, velOld, temp: null, tempOld, flip: 0, gx: 0, gy: -9.81, gz: 0 }
  const mover = new ParticleMover(spec, b)
  const mu = b.u8((nx + 1) * ny * nz), mv = b.u8(nx * (ny + 1) * nz), mw = b.u8(nx * ny * (nz + 1)), mt = b.u8(n)
  const cellCount = b.i32(n), kind = b.u8(n), phi = b.f32(n), distance = b.f32(n)
  const scratch = new LevelSetScratch(n, b)
  const closed = new Uint8Array([1, 1, 1, 0, 1, 1])
  // The move's open domain sides: none.
  const open = new Uint8Array(6)
  const positions = new Float32Array(3 * p.count)
  for (let q = 0; q < p.count; q++) {
    positions[3 * q] = p.px[q]
    positions[3 * q + 1] = p.py[q]
    positions[3 * q + 2] = p.pz[q]
  }
  // The surface's particle radius and kernel as the liquid family sets them (family.ts).
  const levelSet = new ParticleLevelSet(b)
  levelSet.prepare({ positions, count: p.count, particleRadius: (0.5 * dx) / Math.cbrt(PER_CELL), kernelScale: 3, origin: [0, 0, 0], dx, cells: [nx, ny, nz], refinement: 2, smoothing: 0 }, WINDOW)
  const run: Record<MarkerKernel, () => void> = {
    move: () => mover.advect(p, vel, 1e-3, null, open, reach, g2p, null),
    splat: () => transfer.toGrid(p, vel, temp, mu, mv, mw, mt),
    levelset: () => particleLevelSet(p, spec, cellCount, kind, phi, distance, 3 * dx, scratch, closed, false),
    surface: () => {
      const planes = levelSet.grid.nz
      for (let k0 = 0; k0 < planes; k0 += WINDOW) levelSet.computePlanes(k0, Math.min(planes, k0 + WINDOW))
    },
  }
  log(`eddy bench markers: ${p.count} markers in ${nx}x${ny}x${nz} cells (the lower half, ${PER_CELL} a cell, APIC), 1 WebAssembly thread, ${o.reps} calls each`)
  const result: Record<string, number> = {}
  for (const k of o.kernels) {
    let best = Infinity
    for (let r = 0; r < o.reps; r++) {
      const t0 = performance.now()
      run[k]()
      best = Math.min(best, performance.now() - t0)
    }
    if (o.reps > 0) {
      log(`${k}: best of ${o.reps} ${best.toFixed(1)} ms a call, ${((1e6 * best) / p.count).toFixed(1)} ns a marker`)
      result[`${k}MsPerCall`] = best
    }
  }
  return { scene: 'markers', markers: p.count, res: o.res, reps: o.reps, kernels: o.kernels, ...result }
}

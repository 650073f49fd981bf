// The vortex particle method of Selle, Rasmussen, Fedkiw 2005: the per-particle confinement
// force adds the circulation its law says (amounts, not directions), stretching turns omega
// without changing its length, the forces add energy, and seeding/deletion follow the paper.
// Drift, continuity, resolution independence and saturation: vortexParticleForce.test.ts.
import { describe, expect, it } from 'vitest'
import { compileSmokeInput as compileInput, compileSmokeScene as compileScene } from '../../../src-shared/sim/smoke/compileSmoke'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'
import { meanKernelInBall } from '../../../src-shared/sim/core/vortexSeeding'
import { PARTICLE_KERNEL_MASS, particleKernel, SELLE_KERNEL_MASS, selleKernel, stretchParticles } from '../../../src-shared/sim/smoke/vortexKernels'
import { boxScene, FPS, kineticEnergy, obj, runFrames } from './scenes'
import { coreCirculation, expectedCoreCirculation } from './vortexAmounts'

describe('Selle 2005 kernel', () => {
  it('is the clamped Gaussian of sec. 6 and its mass is P(chi_3 <= 1)', () => {
    const r = 0.2
    expect(selleKernel(0, r)).toBeCloseTo(1 / (r ** 3 * (2 * Math.PI) ** 1.5), 12)
    expect(selleKernel(r * r, r)).toBeCloseTo(Math.exp(-0.5) / (r ** 3 * (2 * Math.PI) ** 1.5), 12)
    expect(selleKernel(r * r * 1.0001, r)).toBe(0)
    // Midpoint quadrature of 4 pi s^2 xi(s) over [0, r].
    let m = 0
    const n = 20000
    for (let q = 0; q < n; q++) {
      const s = ((q + 0.5) * r) / n
      m += 4 * Math.PI * s * s * selleKernel(s * s, r) * (r / n)
    }
    expect(m).toBeCloseTo(SELLE_KERNEL_MASS, 8)
  })

  it('the particle kernel is smooth, compact, has the Gaussian\'s peak and mass 64 pi / (315 (2 pi)^1.5)', () => {
    const r = 0.2
    expect(particleKernel(0, r)).toBe(selleKernel(0, r))
    expect(particleKernel((r / 2) ** 2, r)).toBeCloseTo(selleKernel(0, r) * 0.75 ** 3, 9)
    expect(particleKernel(r * r, r)).toBe(0)
    let m = 0
    const n = 20000
    for (let q = 0; q < n; q++) {
      const s = ((q + 0.5) * r) / n
      m += 4 * Math.PI * s * s * particleKernel(s * s, r) * (r / n)
    }
    expect(m).toBeCloseTo(PARTICLE_KERNEL_MASS, 8)
    // A ball much larger than the kernel: the mean kernel value is its mass over the ball volume.
    const R = 50 * r
    expect(meanKernelInBall(R, r) * (4 / 3) * Math.PI * R ** 3).toBeCloseTo(PARTICLE_KERNEL_MASS, 4)
  })
})

describe('vortex particle forcing', () => {
  // Amount: in still air the first step adds h * (8 pi / 27) * confinement * |omega~_p| * r^2 of
  // circulation around the particle's core (the loop where the added vorticity changes sign;
  // derivation in vortexAmounts.ts), in the plane through the particle normal to omega_p. The
  // projection cannot change a circulation (it removes a gradient), so the grid must hold
  // exactly that, up to sampling the force on 4-8 cells: 5 %.
  it.each([
    ['defaults: 64^3, radius 4 cells, confinement 4, peak 10/s', 64, 4, 4, 10, 'z'],
    ['32^3, radius 6 cells, confinement 1, peak 3/s, spin -z', 32, 6, 1, 3, '-z'],
    ['32^3, radius 4 cells, confinement 4, peak 10/s, spin along x', 32, 4, 4, 10, 'x'],
  ] as const)('one particle in still air adds its law\'s core circulation within 5%% in one step (%s)', (_name, res, radiusCells, confinement, peak, axis) => {
    const doc = boxScene(res, { vortexConfinement: confinement })
    const setup = compileScene(doc, 'domain')
    const solver = new SmokeSolver(setup)
    const { dx } = setup.grid
    const r = radiusCells * dx
    const mag = peak / selleKernel(0, r)
    // Off the lattice in-plane; on a cell-centre plane along the axis (where the loop lies).
    const a = axis === 'x' ? 0 : 2
    const pos = [0.0123, 0.5137, -0.0171]
    pos[a] = setup.grid.origin[a] + (Math.floor(res / 2) + 0.5) * dx
    const w = [0, 0, 0]
    w[a] = axis === '-z' ? -mag : mag
    solver.addVortexParticle(pos[0], pos[1], pos[2], w[0], w[1], w[2], r)
    const input = compileInput(doc, 'domain', 0, FPS)
    const stats = solver.step(input.frameDt, input)
    expect(stats.substeps).toBe(1)
    const want = expectedCoreCirculation(input.frameDt, confinement, peak, r)
    const got = coreCirculation(solver, a, pos[a], axis === '-z' ? -1 : 1)
    expect(Math.abs(got / want - 1), `core circulation ${got} m^2/s, law ${want}`).toBeLessThan(0.05)
  })

  it('particle confinement raises the kinetic energy over the same scene without it', () => {
    const seed = obj('seed', 'vortexSeed', { position: [0, 0.5, 0], radius: 0.15, direction: [0, 0, 1], strength: 8, particleCount: 40 })
    const on = runFrames(boxScene(20, { vorticity: 0, vortexConfinement: 4 }, [seed]), 4)
    const off = runFrames(boxScene(20, { vorticity: 0, vortexConfinement: 0 }, [seed]), 4)
    expect(on.solver.particles.count).toBe(40)
    expect(kineticEnergy(off.solver)).toBe(0)
    expect(kineticEnergy(on.solver)).toBeGreaterThan(1e-6)
    // The simpler mode (particle |omega| sets the confinement strength) also adds energy to
    // an existing flow: a plume with and without particles in 'strength' mode.
    const plume = (weight: number) =>
      runFrames(
        boxScene(20, { vorticity: 0.05, vortexMode: 'strength', vortexStrengthWeight: weight }, [
          obj('src', 'emitter', { shape: 'sphere', position: [0, 0.2, 0], scale: [0.2, 0.2, 0.2], velocity: [0, 0.5, 0], rate: 20 }),
          obj('seed', 'vortexSeed', { position: [0, 0.4, 0], radius: 0.2, direction: [1, 0, 0], strength: 20, particleCount: 30 }),
        ]),
        6,
      )
    expect(kineticEnergy(plume(0.02).solver)).toBeGreaterThan(kineticEnergy(plume(0).solver))
  })

  it('grid vorticity confinement raises the kinetic energy of a plume', () => {
    const scene = (vorticity: number) =>
      boxScene(20, { vorticity }, [obj('src', 'emitter', { shape: 'sphere', position: [0, 0.2, 0], scale: [0.25, 0.25, 0.25], velocity: [0, 0, 0], rate: 20 })])
    const on = runFrames(scene(1), 8)
    const off = runFrames(scene(0), 8)
    expect(kineticEnergy(on.solver)).toBeGreaterThan(kineticEnergy(off.solver))
  })
})

describe('vortex stretching', () => {
  it('turns omega by dt (omega . grad) u and keeps |omega| to rounding, in a shear flow', () => {
    // u = (gamma y, 0, 0) on a MAC grid: du/dy = gamma, every other derivative 0.
    const spec: GridSpec = { nx: 12, ny: 12, nz: 12, dx: 0.1, origin: [0, 0, 0] }
    const vel = new MacGrid(spec)
    const gamma = 3
    for (let k = 0; k < 12; k++) for (let j = 0; j < 12; j++) for (let i = 0; i <= 12; i++) vel.u[vel.uIndex(i, j, k)] = gamma * (j + 0.5) * spec.dx
    const n = 5
    const px = Float64Array.of(0.61, 0.43, 0.55, 0.7, 0.3)
    const py = Float64Array.of(0.52, 0.61, 0.37, 0.66, 0.45)
    const pz = Float64Array.of(0.48, 0.5, 0.71, 0.33, 0.6)
    const wx = Float64Array.of(0, 0.3, -2, 1, 0.1)
    const wy = Float64Array.of(1, 0.7, 0.5, -4, 2)
    const wz = Float64Array.of(0, -0.2, 1, 0.5, -3)
    const before = [...Array(n).keys()].map((p) => [wx[p], wy[p], wz[p]])
    const dt = 0.05
    const scratch = new Float64Array(96)
    stretchParticles(px, py, pz, wx, wy, wz, vel.u, vel.v, vel.w, 12, 12, 12, spec.dx, 0, 0, 0, dt, scratch, 0, n)
    for (let p = 0; p < n; p++) {
      const [a, b, c] = before[p]
      const len = Math.hypot(a, b, c)
      expect(Math.abs(Math.hypot(wx[p], wy[p], wz[p]) - len)).toBeLessThanOrEqual(4 * Number.EPSILON * len)
      // (omega . grad) u = (omega_y gamma, 0, 0); the new vector is omega + dt that, rescaled.
      const e = [a + dt * b * gamma, b, c]
      const s = len / Math.hypot(e[0], e[1], e[2])
      // The velocity is float32, so its differences carry ~1e-7 relative rounding.
      expect(wx[p]).toBeCloseTo(e[0] * s, 6)
      expect(wy[p]).toBeCloseTo(e[1] * s, 6)
      expect(wz[p]).toBeCloseTo(e[2] * s, 6)
      if (b !== 0) expect(Math.abs(wx[p] - a)).toBeGreaterThan(1e-3) // it did turn
    }
  })

  it('keeps every particle magnitude through a full simulation', () => {
    const run = runFrames(
      boxScene(16, { vorticity: 0.2 }, [
        obj('src', 'emitter', { shape: 'sphere', position: [0, 0.2, 0], scale: [0.25, 0.25, 0.25], rate: 20, vortexRate: 100, vortexStrength: 10 }),
      ]),
      4,
    )
    const P = run.solver.particles
    const r = P.r[0]
    expect(P.count).toBeGreaterThan(0)
    for (let p = 0; p < P.count; p++) {
      const mag = Math.hypot(P.wx[p], P.wy[p], P.wz[p]) * selleKernel(0, r)
      expect(mag).toBeCloseTo(10, 9)
    }
  })
})

describe('seeding and deletion', () => {
  it('emitters seed rate * t particles tangent to the upright cylinder around the source (Selle 2005, fig. 2)', () => {
    const doc = boxScene(16, { vorticity: 0, vortexConfinement: 0 }, [
      obj('src', 'emitter', { shape: 'cylinder', position: [0, 0.25, 0], scale: [0.3, 0.1, 0.3], velocity: [0, 0, 0], rate: 0, vortexRate: 240, vortexStrength: 10, vortexRadius: 2 }),
    ])
    const setup = compileScene(doc, 'domain')
    const solver = new SmokeSolver(setup)
    const input = compileInput(doc, 'domain', 0, FPS)
    solver.step(input.frameDt, input)
    const P = solver.particles
    // No flow at all (rate 0, no heat): particles stay where they were seeded.
    expect(P.count).toBe(10) // floor(240 / 24)
    for (let p = 0; p < P.count; p++) {
      const rx = P.px[p], rz = P.pz[p]
      const w = [P.wx[p], P.wy[p], P.wz[p]]
      expect(Math.abs(w[1])).toBeLessThan(1e-12 * Math.hypot(...w)) // perpendicular to the axis (y)
      expect(Math.abs(rx * w[0] + rz * w[2])).toBeLessThan(1e-9 * Math.hypot(...w)) // perpendicular to the radius
      expect(Math.hypot(rx, rz)).toBeLessThanOrEqual(0.15 + 1e-9) // inside the cylinder
      expect(Math.abs(P.py[p] - 0.25)).toBeLessThanOrEqual(0.05 + 1e-9)
    }
  })

  it('deletes particles inside obstacles and outside the domain, and seeds a vortex object once', () => {
    const doc = boxScene(16, { vorticity: 0 }, [
      obj('wall', 'obstacle', { shape: 'box', position: [0.25, 0.5, 0], scale: [0.4, 0.9, 0.9] }),
      obj('seed', 'vortexSeed', { position: [0.1, 0.5, 0], radius: 0.3, direction: [0, 1, 0], strength: 1, particleCount: 200 }),
    ])
    const run = runFrames(doc, 2)
    const P = run.solver.particles
    expect(P.count).toBeGreaterThan(40)
    expect(P.count).toBeLessThan(200)
    for (let p = 0; p < P.count; p++) {
      const inBox = Math.abs(P.px[p] - 0.25) < 0.19 && Math.abs(P.py[p] - 0.5) < 0.44 && Math.abs(P.pz[p]) < 0.44
      expect(inBox).toBe(false)
      expect(Math.abs(P.px[p])).toBeLessThanOrEqual(0.5)
    }
    // The ids keep counting from the seeding: no reseeding on the second frame.
    expect(P.nextId).toBe(200)
  })
})

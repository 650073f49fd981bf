// `eddy bench smoke`: the scene of ../shared/peers/blender_smoke.py (2 m domain, 0.3 m
// source cube, 0.4 m obstacle cube, vorticity 0.1), baked for N frames at 24 fps; prints
// ms/frame split by stage and the pressure iterations. Figures only, never a verdict. Also the
// spin a 0.5 rev/s vortex keeps per second (measureSpinKept) at the defaults (advection-
// reflection) and with plain advect-then-project splitting, at one substep a frame and with the
// 2-degree 'Max rotation per substep' limit that was its default.
import { availableParallelism, cpus } from 'node:os'
import { blenderSmokeScene } from '../../src-shared/sim/smoke/benchScene'
import { defaultParams } from '../../src-shared/scene/defaults'
import type { ParamValue, SceneDocument } from '../../src-shared/scene/types'
import { MAX_ROTATION_DEFAULT } from '../../src-shared/sim/smoke/params'
import { compileSmokeInput, compileSmokeScene } from '../../src-shared/sim/smoke/compileSmoke'
import { SMOKE_PHASES, SmokeSolver } from '../../src-shared/sim/smoke/smokeSolver'
import type { KernelKind } from '../../src-shared/sim/core/kernelBackend'
import type { CompileOptions } from '../../src-shared/sim/compile'
import { createKernelBackend } from '../sim/workerPool'

export interface SmokeBenchOptions {
  res: number
  frames: number
  threads: number
  pressure: 'mic' | 'mg'
  kernels: KernelKind
}

const STAGES = SMOKE_PHASES
/** The rotation limit plain splitting had as its default before advection-reflection. */
const PLAIN_LIMIT_DEGREES = 2

export interface SpinResult {
  /** Core rotation rate after `seconds` over the initial one, per second (geometric mean). */
  keptPerSecond: number
  /** Initial core rotation rate, rad/s. */
  rate: number
  substeps: number
}

/**
 * A vortex in still air, 2-D (uniform along z) in a closed 1 x 1 x 1/8 m box of `res` cells
 * across: solid-body rotation at `revPerSecond` for s < 0.2 m, the speed falling linearly to 0
 * at 0.35 m (an axisymmetric swirl: a steady solution of the Euler equations, so everything it
 * loses is numerical). The velocity is the discrete curl of a stream function on the corners,
 * divergence free to rounding. Runs `seconds` at 24 fps with the domain's defaults (vorticity
 * confinement off, so it cannot put spin back) and `domainParams` on top, and reports the core's
 * rotation rate (least squares over the faces with s < 0.2 m) kept per second. With plain
 * advect-then-project splitting each substep of size h keeps cos(Omega h) of it (advection
 * carries the velocity, the projection turns it); advection-reflection keeps nearly all.
 */
export function measureSpinKept(res: number, domainParams: Record<string, ParamValue>, seconds = 1, revPerSecond = 0.5, opts: CompileOptions = {}): SpinResult {
  const fps = 24
  const doc: SceneDocument = {
    meta: { name: 'spin', fps, frameStart: 1, frameEnd: 1 + Math.round(seconds * fps) },
    objects: [{ id: 'domain', kind: 'domain', name: 'Domain', params: { ...defaultParams('domain'), position: [0, 0.5, 0], size: [1, 1, 0.125], resolution: res, solver: 'smoke', vorticity: 0, ...domainParams } }],
    tracks: [],
    meshes: [],
  }
  const setup = compileSmokeScene(doc, 'domain', opts)
  const solver = new SmokeSolver(setup)
  const { nx, ny, nz, dx, origin } = setup.grid
  const cy = 0.5
  const omega = 2 * Math.PI * revPerSecond
  const R0 = 0.2
  const R1 = 0.35
  // psi(s) = -integral_0^s u_phi, in closed form for the piecewise-linear u_phi.
  const psi = (q: number): number => {
    const a = Math.min(q, R0)
    let v = (omega * a * a) / 2
    if (q > R0) {
      const b = Math.min(q, R1)
      const k = (omega * R0) / (R1 - R0)
      v += k * (R1 * (b - R0) - (b * b - R0 * R0) / 2)
    }
    return -v
  }
  const P = new Float64Array((nx + 1) * (ny + 1))
  for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) P[i + (nx + 1) * j] = psi(Math.hypot(origin[0] + i * dx, origin[1] + j * dx - cy))
  const { u, v } = solver.velocity
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) for (let i = 0; i <= nx; i++) u[i + (nx + 1) * (j + ny * k)] = (P[i + (nx + 1) * (j + 1)] - P[i + (nx + 1) * j]) / dx
    for (let j = 0; j <= ny; j++) for (let i = 0; i < nx; i++) v[i + nx * (j + (ny + 1) * k)] = -(P[i + 1 + (nx + 1) * j] - P[i + (nx + 1) * j]) / dx
  }
  const coreRate = (): number => {
    let l = 0
    let inertia = 0
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i <= nx; i++) {
          const x = origin[0] + i * dx, y = origin[1] + (j + 0.5) * dx - cy
          if (x * x + y * y < R0 * R0) {
            l -= y * u[i + (nx + 1) * (j + ny * k)]
            inertia += y * y
          }
        }
      }
      for (let j = 0; j <= ny; j++) {
        for (let i = 0; i < nx; i++) {
          const x = origin[0] + (i + 0.5) * dx, y = origin[1] + j * dx - cy
          if (x * x + y * y < R0 * R0) {
            l += x * v[i + nx * (j + (ny + 1) * k)]
            inertia += x * x
          }
        }
      }
    }
    return l / inertia
  }
  const rate = coreRate()
  let substeps = 0
  const frames = Math.round(seconds * fps)
  for (let f = 0; f < frames; f++) {
    const input = compileSmokeInput(doc, 'domain', f / fps, fps, { meshes: setup.meshes })
    substeps += solver.step(1 / fps, input).substeps
  }
  return { keptPerSecond: Math.pow(coreRate() / rate, 1 / seconds), rate, substeps }
}

export async function benchSmoke(o: SmokeBenchOptions, log: (line: string) => void): Promise<Record<string, unknown>> {
  const doc = blenderSmokeScene(o.res)
  const domain = doc.objects.find((x) => x.kind === 'domain')!
  domain.params.pressureSolver = o.pressure === 'mic' ? 'mic0' : 'multigrid'
  const kernels = createKernelBackend(o.kernels, { threads: o.threads })
  try {
    const setup = compileSmokeScene(doc, domain.id, { kernels, shared: o.kernels === 'wasm' })
    const solver = new SmokeSolver(setup)
    const fps = doc.meta.fps
    const g = setup.grid
    log(`eddy bench smoke: grid ${g.nx}x${g.ny}x${g.nz} (dx ${g.dx.toFixed(4)} m), ${o.frames} frames at ${fps} fps, kernels ${o.kernels}, threads ${kernels.threads}, pressure ${o.pressure === 'mic' ? 'MIC(0)-PCG' : 'MGPCG'}`)
    log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`)
    const totals: Record<string, number> = Object.fromEntries(STAGES.map((s) => [s, 0]))
    let iterations = 0
    let substeps = 0
    let maxResidual = 0
    const started = performance.now()
    for (let f = 0; f < o.frames; f++) {
      const input = compileSmokeInput(doc, domain.id, f / fps, fps, { meshes: setup.meshes })
      const stats = solver.step(1 / fps, input)
      for (const s of STAGES) totals[s] += stats.ms[s]
      iterations += stats.pressureIterations
      substeps += stats.substeps
      maxResidual = Math.max(maxResidual, stats.pressureResidual)
    }
    const wall = performance.now() - started
    const msPerFrame = wall / o.frames
    log(`\n| stage | ms/frame | share |\n|---|---|---|`)
    for (const s of STAGES) log(`| ${s} | ${(totals[s] / o.frames).toFixed(1)} | ${((100 * totals[s]) / wall).toFixed(0)}% |`)
    log(`| total (wall) | ${msPerFrame.toFixed(1)} | 100% |`)
    log(`\nsubsteps/frame ${(substeps / o.frames).toFixed(2)}, pressure iterations/substep ${(iterations / Math.max(1, substeps)).toFixed(1)}, worst final residual ${maxResidual.toExponential(2)}, vortex particles at end ${solver.frame().particles[0]?.count ?? 0}`)
    // Splitting loss: a 0.5 rev/s vortex (64 x 64 x 8, 1 s) at the defaults and with plain splitting.
    const spinOpts = { kernels, shared: o.kernels === 'wasm' }
    const spinDefaults = measureSpinKept(64, {}, 1, 0.5, spinOpts)
    const spinPlain = measureSpinKept(64, { reflection: false, maxRotation: 0 }, 1, 0.5, spinOpts)
    const spinPlainLimited = measureSpinKept(64, { reflection: false, maxRotation: PLAIN_LIMIT_DEGREES }, 1, 0.5, spinOpts)
    const perFrame = (r: SpinResult) => `${(100 * r.keptPerSecond).toFixed(1)}% (${r.substeps / 24} substeps/frame)`
    log(
      `spin kept per second, 0.5 rev/s vortex (64x64x8, 1 s, 24 fps): ${perFrame(spinDefaults)} at the defaults (advection-reflection, max rotation ${MAX_ROTATION_DEFAULT}°); ` +
        `plain splitting ${perFrame(spinPlain)}, ${perFrame(spinPlainLimited)} with max rotation ${PLAIN_LIMIT_DEGREES}°/substep`,
    )
    const result = {
      scene: 'smoke',
      res: o.res,
      grid: [g.nx, g.ny, g.nz],
      frames: o.frames,
      kernels: o.kernels,
      threads: kernels.threads,
      pressure: o.pressure,
      msPerFrame,
      stageMsPerFrame: Object.fromEntries(STAGES.map((s) => [s, totals[s] / o.frames])),
      pressureIterationsPerSubstep: iterations / Math.max(1, substeps),
      substepsPerFrame: substeps / o.frames,
      spinKeptPerSecond: { defaults: spinDefaults.keptPerSecond, plain: spinPlain.keptPerSecond, plainLimited: spinPlainLimited.keptPerSecond, plainLimitDegrees: PLAIN_LIMIT_DEGREES },
    }
    return result
  } finally {
    await (kernels as { dispose?: () => Promise<void> }).dispose?.()
  }
}

// Liquid (Carlson 2004 PIC/FLIP markers) dam break, the scene of ../shared/peers/blender_liquid.py:
// 2 m cube domain, a 0.6 x 1.2 x 1.0 m column against the -x wall, a 0.3 m cube obstacle on the
// floor at Blender (0.3, 0, 0.15). Blender is Z up, Eddy Y up: (x, y, z)_blender -> (x, z, -y).
// Bakes EDDY_BENCH_FRAMES frames at 24 fps for each resolution of EDDY_BENCH_RES (default 32,48)
// and prints ms/frame split by phase (LiquidStepStats) plus a few result figures, so a speed
// change can be checked for not changing the answer. Like the peer (use_mesh = True) each frame
// is also meshed the way a bake does (bakeSolvers.ts: frame() + LiquidSurfacer at the scene
// defaults, refinement 2, smoothing 1); EDDY_BENCH_MESH=0 leaves that out. Never asserts on time.
//   npx vitest run --config tests/bench/vitest.config.ts liquidSolver
import { it } from 'vitest'
import { CLOSED_BOX } from '../../src-shared/sim/core/boundaries'
import { defaultLiquidSetup, type LiquidSimInput } from '../../src-shared/sim/liquid/liquidInput'
import { LiquidSolver, type LiquidStepStats } from '../../src-shared/sim/liquid/liquidSolver'
import { LiquidSurfacer } from '../../src-shared/sim/liquid/surface/liquidSurface'
import type { ObstacleInput } from '../../src-shared/sim/solver'

const RESES = (process.env.EDDY_BENCH_RES ?? '32,48').split(',').map(Number)
const FRAMES = Number(process.env.EDDY_BENCH_FRAMES ?? 10)
const FPS = 24
const MESH = process.env.EDDY_BENCH_MESH !== '0'

const obstacle: ObstacleInput = {
  id: 'obs',
  name: 'obs',
  shape: 'box',
  position: [0.3, 0.15, 0],
  rotation: [0, 0, 0],
  scale: [0.3, 0.3, 0.3],
  positionRate: [0, 0, 0],
  rotationRate: [0, 0, 0],
  scaleRate: [0, 0, 0],
  linearVelocity: [0, 0, 0],
  angularVelocity: [0, 0, 0],
  mesh: null,
  meshId: null,
}

function input(f: number): LiquidSimInput {
  return {
    time: f / FPS,
    frame: f + 1,
    fps: FPS,
    timeScale: 1,
    frameDt: 1 / FPS,
    cfl: 1,
    minSubsteps: 1,
    maxSubsteps: 40,
    obstacles: [obstacle],
    emitters: [],
    family: { heatSources: [] },
  }
}

for (const res of RESES) {
  it(`liquid dam break ${res}^3, ${FRAMES} frames`, () => {
    const grid = { nx: res, ny: res, nz: res, dx: 2 / res, origin: [-1, 0, -1] as [number, number, number] }
    const column = {
      id: 'water',
      name: 'water',
      shape: 'box' as const,
      position: [-0.7, 0.6, 0] as [number, number, number],
      rotation: [0, 0, 0] as [number, number, number],
      scale: [0.6, 1.2, 1.0] as [number, number, number],
      mesh: null,
      temperature: 293.15,
      velocity: [0, 0, 0] as [number, number, number],
    }
    const solver = new LiquidSolver(defaultLiquidSetup(grid, CLOSED_BOX, { volumes: [column] }))
    const sum = { substeps: 0, iterations: 0 }
    const phases: Record<string, number> = {}
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const surfacer = new LiquidSurfacer()
    let meshMs = 0
    let triangles = 0
    for (let f = 0; f < FRAMES; f++) {
      const s: LiquidStepStats = solver.step(1 / FPS, input(f))
      if (MESH) {
        const tm = performance.now()
        const fd = solver.frame()
        const ps = fd.particles[0]
        const mesh = surfacer.surface({
          positions: ps.positions,
          count: ps.count,
          particleRadius: (0.5 * grid.dx) / Math.cbrt(8),
          grid: { origin: [grid.origin[0], grid.origin[1], grid.origin[2]], dx: grid.dx, nx: res, ny: res, nz: res },
          refinement: 2,
          smoothing: 1,
          minDropVolume: 0,
        })
        triangles = mesh.indices.length / 3
        meshMs += performance.now() - tm
      }
      sum.substeps += s.substeps
      sum.iterations += s.pressureIterations
      for (const [k, v] of Object.entries(s.ms)) phases[k] = (phases[k] ?? 0) + v
    }
    const ms = (performance.now() - t0) / FRAMES
    // CPU time of this process too: the machine is shared, and wall time swings with its load.
    const cpu = process.cpuUsage(cpu0)
    const cpuMs = (cpu.user + cpu.system) / 1000 / FRAMES
    const p = solver.particles
    let mx = 0, my = 0, mz = 0, ke = 0
    for (let q = 0; q < p.count; q++) {
      mx += p.px[q]
      my += p.py[q]
      mz += p.pz[q]
      ke += p.vx[q] * p.vx[q] + p.vy[q] * p.vy[q] + p.vz[q] * p.vz[q]
    }
    const n = Math.max(1, p.count)
    const per = (v: number) => (v / FRAMES).toFixed(1)
    console.log(
      `liquid dam break ${res}^3: ${ms.toFixed(1)} ms/frame (CPU ${cpuMs.toFixed(1)}) over ${FRAMES} frames, ${p.count} markers, ` +
        `${(sum.substeps / FRAMES).toFixed(1)} substeps/frame, ${(sum.iterations / Math.max(1, sum.substeps)).toFixed(1)} PCG it/substep\n` +
        `${MESH ? `  frame() + surface mesh ${per(meshMs)} ms/frame (${triangles} triangles)\n` : ''}` +
        `  phases ms/frame: ${Object.entries(phases).map(([k, v]) => `${k} ${per(v)}`).join(', ')}\n` +
        `  result: mean x ${(mx / n).toFixed(5)} y ${(my / n).toFixed(5)} z ${(mz / n).toFixed(5)}, mean |v|^2 ${(ke / n).toFixed(5)}, ` +
        `level-set volume ${solver.levelSetVolume().toFixed(5)} m^3, liquid cells ${solver.frame().stats.liquidCells}`,
    )
  })
}

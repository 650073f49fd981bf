// The `eddy` command line: `eddy bake`, `eddy export`, `eddy example` and `eddy bench`. `eddy bench smoke [--res 64] [--frames 48] [--threads N]
// [--pressure mic|mg] [--kernels wasm|ts]` times the smoke solver on the Blender peer scene;
// `eddy bench liquid|viscous|bunny` the liquid solver on the liquid peer scenes and the thesis's bunny;
// `eddy bench rigidfluid` the rigid bodies coupled with the liquid (the thesis's gears and bunnies);
// `eddy bench surface` the flow on Catmull-Clark surfaces (Stam 2003);
// `eddy bench tetliquid` the liquid on tetrahedral meshes (Chentanez 2007);
// `eddy bench hybrid` the gas on hybrid tetrahedral/hexahedral meshes (Feldman 2005, Table 1);
// `eddy bench markers` the liquid's per-marker kernels alone (scripts/bench-instructions.mjs counts their instructions).
// The solver families register their parameters with the spec table before anything reads it.
import '../../src-shared/sim/registry'
import { isEddyError } from '../../src-shared/api/errors'
import { parseOptions, UsageError } from './args'
import { renderCommand } from './renderCommand'
import { printBenchResult } from './benchResult'
import { benchSmoke } from './benchSmoke'
import { benchLiquid } from './benchLiquid'
import { benchRigidFluid, DEFAULT_BENCH_FRAMES } from './benchRigidFluid'
import { benchTetmesh } from './benchTetmesh'
import { benchSurface } from './benchSurface'
import { benchTetLiquid } from './benchTetLiquid'
import { benchHybrid } from './benchHybrid'
import type { HybridMeshMode } from '../../src-shared/sim/hybrid/hybridMesh'
import { benchMarkers, MARKER_KERNELS, type MarkerKernel } from './benchMarkers'
import { bakeCommand } from './bakeCommand'
import { exampleCommand } from './exampleCommand'
import { exportCommand } from './exportCommand'
import { farmCommand } from './farmCommand'
import { GEARS_THESIS_RESOLUTION } from '../../src-shared/scene/examples/gearsAndBunnies'
import { type PressurePreconditioner, VISCOUS_PRECONDITIONERS, type ViscousPreconditioner } from '../../src-shared/sim/liquid/liquidInput'
import type { KernelBackend, KernelKind } from '../../src-shared/sim/core/kernelTypes'
import { createKernelBackend } from '../sim/workerPool'
import { defaultKernelThreads } from '../sim/kernelCores'

const USAGE = `usage:
  eddy bake PROJECT.eddy --sim NAME [--wedge NAME [--variant K]] [--cache-file FILE]
            [--frames 1-120 [--extend]] [--mode bake|resume|range] [--from N]
            [--threads N] [--precision float16|float32|uint8] [--checkpoint-every N]
    Bakes a simulation into the project's cache (Ctrl-C cancels; --mode resume continues).
    --frames must lie inside the scene's frames; --extend bakes beyond them on purpose.
    --wedge bakes each variant of a wedge (or variant K); --cache-file writes a cache file of its own.
  eddy export PROJECT.eddy --sim NAME --format vdb|obj|ply|gltf|glb|png --out DIR
              [--wedge NAME --variant K] [--cache-file FILE] [--frames A-B | --chunk K --chunk-size N]
              [--padding 4] [--up y|z]
    Writes cached frames as files plus NAME_FORMAT_manifest.json (png: a surface flow's per-patch
    textures as PNG atlases).
  eddy farm submit PROJECT.eddy --sim NAME [--wedge NAME] --engine slurm [--partition P]
                   [--export FORMAT [--out DIR] [--chunk N]] [--cpus N] [--resume] [--probe-timeout S]
    An array job with one bake task per variant (each into its own cache file), then per variant
    export tasks of N frames after its bake; --resume resubmits the variants that did not finish.
  eddy farm status|cancel PROJECT.eddy [--job ID] [--variant K] [--logs]
  eddy farm merge PROJECT.eddy
    Copies the bakes the farm finished into the project (the studio does this when it opens it).
  eddy example NAME OUT.eddy
    Writes a new project from an example scene (an unknown NAME lists them).
  eddy render PROJECT.eddy --out DIR [--frames A-B] [--sim NAME] [--name NAME] [--size 1280x720] [--overlays]
    The viewport flipbook: each frame drawn (with the simulation's cache shown) as NAME_0001.png ...
    and NAME.mp4 where ffmpeg is installed; needs Chromium (EDDY_CHROMIUM, else /usr/bin/chromium).
  eddy bench smoke [--res 64] [--frames 48] [--threads N] [--pressure mic|mg] [--kernels wasm|ts]
    Bakes the scene of shared/peers/blender_smoke.py and prints ms/frame by stage.
  eddy bench liquid [--res 64] [--frames 48] [--pressure auto|mg|mic] [--threads N] [--kernels wasm|ts]
  eddy bench viscous [--res 64] [--frames 48] [--viscosity 0.2] [--viscous-preconditioner auto|multigrid|jacobi|ic] [--pressure auto|mg|mic] [--threads N] [--kernels wasm|ts]
    Bakes the dam break of shared/peers/blender_liquid.py (viscous: blender_viscous.py), surface
    mesh on, and prints ms/frame by phase (--pressure: the pressure solve's preconditioner,
    auto as the app bakes, multigrid or MIC(0)).
  eddy bench bunny [--res 38] [--frames 48] [--viscous-preconditioner auto|multigrid|jacobi|ic] [--pressure auto|mg|mic] [--threads N] [--kernels wasm|ts]
    Bakes the melting-bunny example (resolution 38 is Carlson 2004's 35x28x38 grid).
  eddy bench rigidfluid [--resolution 68] [--frames ${DEFAULT_BENCH_FRAMES}] [--pressure auto|mg|mic] [--threads N] [--kernels wasm|ts]
    Bakes the gears-and-bunnies example at 60 fps (resolution 68 is Carlson 2004's 64x68x64
    grid) and prints s/frame split into fluid, coupling and surface, next to the thesis's 28 s.
  eddy bench tetmesh [--max 1000000] [--mode uniform|graded] [--threads N] [--hypre DRIVER]
    Meshes five shapes by isosurface stuffing (tets/s, dihedral angles) and solves the pressure
    of a tetrahedral ball at 100k, 300k and 1M unknowns by AMG-CG and ICCG (iterations, seconds).
  eddy bench surface [--n 32] [--steps 3] [--threads N] [--kernels wasm|ts]
    Steps the surface flow on a 450-patch cage at n^2 cells a patch (the size of Stam 2003's
    head model) and on a cube cage, and prints steps per second next to the paper's 5 s/step.
  eddy bench tetliquid [--res 48] [--frames 24] [--thickening on|off] [--threads N] [--kernels wasm|ts]
    Bakes the dam break on the tetrahedral liquid (Chentanez 2007) and prints the paper's Table 1
    (s/frame for Sim, Mesh and SLC, tetrahedra and triangles), then the grid liquid at equal
    surface detail beside it.
  eddy bench hybrid [--frames 4] [--warmup 12] [--fraction 1] [--mesh tetrahedra|hybrid|hexahedra] [--threads N] [--kernels wasm|ts]
    Bakes the ramp jet (Feldman 2005 Fig. 4) on all-tetrahedral, hybrid and all-hexahedral
    meshes at the paper's Table 1 cell counts and prints s/frame beside its figures
    (--mesh: that mesh alone, without the comparisons, e.g. to profile it).
  eddy bench markers [--kernel move|splat|levelset|surface|all] [--reps 10] [--res 64]
    Runs the liquid's per-marker kernels alone on one WebAssembly thread over a pool of 8
    markers a cell and prints ms a call (npm run bench:instructions counts their instructions).`

/** The liquid benches' --pressure (auto, mg as the smoke bench names multigrid, or mic) as a preconditioner. */
function pressureOption(v: string | undefined): PressurePreconditioner {
  return v === 'mic' ? 'mic' : v === 'mg' ? 'multigrid' : 'auto'
}

/**
 * Runs a bench on the kernels it was asked for (default as the app bakes: WebAssembly
 * on every core) and stops their threads afterwards.
 */
async function withBenchKernels<T>(o: { threads?: number; kernels?: string }, bench: (kernels: KernelBackend) => T): Promise<T> {
  const kernels = createKernelBackend((o.kernels as KernelKind | undefined) ?? 'wasm', { threads: o.threads ?? defaultKernelThreads() })
  try {
    return bench(kernels)
  } finally {
    await kernels.dispose()
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, what, ...rest] = argv
  if (command === 'bake') return bakeCommand(argv.slice(1), process.stdout)
  if (command === 'export') return exportCommand(argv.slice(1), process.stdout)
  if (command === 'render') return renderCommand(argv.slice(1), process.stdout)
  if (command === 'farm') return farmCommand(argv.slice(1), (line) => console.log(line))
  if (command === 'example') return exampleCommand(argv.slice(1), (line) => console.log(line), (line) => console.error(line))
  if (command === 'bench' && (what === 'liquid' || what === 'viscous' || what === 'bunny')) {
    const o = parseOptions(rest, {
      res: { type: 'int', min: 8, max: 1024 },
      frames: { type: 'int', min: 1, max: 100000 },
      ...(what === 'viscous' ? { viscosity: { type: 'string' as const } } : {}),
      'viscous-preconditioner': { type: 'string' as const, choices: [...VISCOUS_PRECONDITIONERS] },
      pressure: { type: 'string' as const, choices: ['auto', 'mg', 'mic'] },
      threads: { type: 'int', min: 1, max: 256 },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
    })
    const viscosity = o.viscosity === undefined ? 0.2 : Number(o.viscosity)
    if (!(viscosity >= 0 && viscosity <= 1e5)) throw new UsageError(`--viscosity must be a number of m²/s from 0 to 100000 (got "${o.viscosity}")`)
    const pre = o['viscous-preconditioner'] ?? 'auto'
    const result = await withBenchKernels(o, (kernels) =>
      benchLiquid({ scene: what, res: o.res ?? (what === 'bunny' ? 38 : 64), frames: o.frames ?? 48, viscosity, viscousPreconditioner: pre as ViscousPreconditioner, pressurePreconditioner: pressureOption(o.pressure), kernels }, (line) => console.log(line)),
    )
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'rigidfluid') {
    const o = parseOptions(rest, {
      resolution: { type: 'int', min: 8, max: 1024 },
      res: { type: 'int', min: 8, max: 1024 },
      frames: { type: 'int', min: 1, max: 100000 },
      pressure: { type: 'string', choices: ['auto', 'mg', 'mic'] },
      threads: { type: 'int', min: 1, max: 256 },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
    })
    if (o.resolution !== undefined && o.res !== undefined) throw new UsageError('Give --resolution or --res, not both')
    const result = await withBenchKernels(o, (kernels) => benchRigidFluid({ res: o.resolution ?? o.res ?? GEARS_THESIS_RESOLUTION, frames: o.frames ?? DEFAULT_BENCH_FRAMES, pressurePreconditioner: pressureOption(o.pressure), kernels }, (line) => console.log(line)))
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'surface') {
    const o = parseOptions(rest, {
      n: { type: 'int', min: 4, max: 128 },
      steps: { type: 'int', min: 1, max: 100000 },
      threads: { type: 'int', min: 1, max: 256 },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
    })
    const result = await withBenchKernels(o, (kernels) => benchSurface({ N: o.n ?? 32, steps: o.steps ?? 3, kernels }, (line) => console.log(line)))
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'hybrid') {
    const o = parseOptions(rest, {
      frames: { type: 'int', min: 1, max: 100000 },
      warmup: { type: 'int', min: 0, max: 100000 },
      fraction: { type: 'number', min: 0.001, max: 100 },
      mesh: { type: 'string', choices: ['tetrahedra', 'hybrid', 'hexahedra'] },
      threads: { type: 'int', min: 1, max: 256 },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
    })
    const result = await withBenchKernels(o, (kernels) => benchHybrid({ frames: o.frames ?? 4, warmup: o.warmup ?? 12, fraction: o.fraction ?? 1, only: o.mesh as HybridMeshMode | undefined, kernels }, (line) => console.log(line)))
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'markers') {
    const o = parseOptions(rest, {
      kernel: { type: 'string', choices: [...MARKER_KERNELS, 'all'] },
      reps: { type: 'int', min: 0, max: 100000 },
      res: { type: 'int', min: 8, max: 256 },
    })
    const kernels: MarkerKernel[] = o.kernel === undefined || o.kernel === 'all' ? [...MARKER_KERNELS] : [o.kernel as MarkerKernel]
    printBenchResult(benchMarkers({ res: o.res ?? 64, reps: o.reps ?? 10, kernels }, (line) => console.log(line)), (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'tetliquid') {
    const o = parseOptions(rest, {
      res: { type: 'int', min: 8, max: 1024 },
      frames: { type: 'int', min: 1, max: 100000 },
      threads: { type: 'int', min: 1, max: 256 },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
      thickening: { type: 'string', choices: ['on', 'off'] },
    })
    const result = await withBenchKernels(o, (kernels) => benchTetLiquid({ res: o.res ?? 48, frames: o.frames ?? 24, thickening: o.thickening !== 'off', kernels }, (line) => console.log(line)))
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'tetmesh') {
    const o = parseOptions(rest, {
      max: { type: 'int', min: 1000, max: 100_000_000 },
      mode: { type: 'string', choices: ['uniform', 'graded'] },
      threads: { type: 'int', min: 1, max: 256 },
      hypre: { type: 'string' },
    })
    const result = await benchTetmesh(
      { maxUnknowns: o.max ?? 1_000_000, mode: (o.mode as 'uniform' | 'graded' | undefined) ?? 'uniform', threads: o.threads ?? defaultKernelThreads(), ...(o.hypre ? { hypre: o.hypre } : {}) },
      (line) => console.log(line),
    )
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  if (command === 'bench' && what === 'smoke') {
    const o = parseOptions(rest, {
      res: { type: 'int', min: 8, max: 1024 },
      frames: { type: 'int', min: 1, max: 100000 },
      threads: { type: 'int', min: 1, max: 256 },
      pressure: { type: 'string', choices: ['mic', 'mg'] },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
    })
    const result = await benchSmoke(
      {
        res: o.res ?? 64,
        frames: o.frames ?? 48,
        threads: o.threads ?? defaultKernelThreads(),
        pressure: (o.pressure as 'mic' | 'mg' | undefined) ?? 'mg',
        kernels: (o.kernels as 'wasm' | 'ts' | undefined) ?? 'wasm',
      },
      (line) => console.log(line),
    )
    printBenchResult(result, (line) => console.log(line))
    return 0
  }
  console.error(USAGE)
  return 2
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) console.error(`eddy: ${e.message}\n${USAGE}`)
    else if (isEddyError(e)) console.error(`eddy: ${e.message}`)
    else console.error(e)
    process.exit(e instanceof UsageError ? 2 : 1)
  },
)

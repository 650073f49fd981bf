// Core's rows of the kernel table (kernelTable.ts): the grid kernels of the pressure solve,
// multigrid, advection, vorticity confinement and buoyancy. Each row names its AssemblyScript
// twin (wasm/assembly/*.ts, same name), lists the arguments in the twin's order and points at
// the reference slab function (adapted where the reference orders its arguments otherwise).
// The KernelBackend methods of kernelBackend.ts are thin faces over these rows.
import { advectAtSlab, advectSlab, maccormackCorrectSlab, maccormackExcessSlab, maccormackFusedSlab, maccormackRedistributeSlab } from './advectKernels'
import { addBuoyancySlab, addUniformAccelerationSlab } from './forceKernels'
import type { SolidField } from './kernelTypes'
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, ptr, scratch, size, struct, u8 } from './kernelTable'
import { gaussSeidelColorSlab, jacobiSlab, prolongAddSlab, relaxRuns, restrictScratchLength, restrictSlab } from './multigridKernels'
import { gaussSeidelColorSlab32, prolongAddSlab32, relaxRuns32, residualSlab32, restrictSlab32, startCycle32Slab, widenSlab } from './multigrid32Kernels'
import { applyPoissonSlab, netOutfluxSlab, residualSlab, subtractGradientSlab } from './poisson'
import { dotPlanesSlab, updateIterateSlab, updateSearchSlab } from './vectorOps'
import { addCellForceToFacesSlab, confinementForceSlab, vorticitySlab } from './vorticityKernels'

const num = (a: KernelArgs, i: number) => a[i] as number
/** nx * ny * nz from three argument positions. */
const cells = (a: KernelArgs, x: number, y: number, z: number) => num(a, x) * num(a, y) * num(a, z)
const grid5 = [f32('fu'), f32('fv'), f32('fw'), int('nx'), int('ny'), int('nz')] as const

/** applyPoissonSlab: out = A x (poisson.ts). */
export const APPLY_POISSON = defineKernel({
  name: 'applyPoisson',
  args: [f64('out'), f64('x'), ...grid5],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => cells(a, 5, 6, 7),
  ref: applyPoissonSlab,
})

/** residualSlab: r = b - A x. */
export const RESIDUAL = defineKernel({
  name: 'residual',
  args: [f64('r'), f64('b'), f64('x'), ...grid5],
  split: 'planes',
  range: (a) => num(a, 8),
  work: (a) => cells(a, 6, 7, 8),
  ref: residualSlab,
})

/** netOutfluxSlab; out is float32 or float64 (the twin gets its type tag). */
export const NET_OUTFLUX = defineKernel({
  name: 'netOutflux',
  args: [
    ptr('out', ['f32', 'f64'], { tagged: true }),
    f32('u'),
    f32('v'),
    f32('w'),
    f32('fu'),
    f32('fv'),
    f32('fw'),
    f32('su', true),
    f32('sv', true),
    f32('sw', true),
    int('nx'),
    int('ny'),
    size('nz'),
  ],
  split: 'planes',
  range: (a) => num(a, 12),
  work: (a) => cells(a, 10, 11, 12),
  ref: netOutfluxSlab,
})

/** subtractGradientSlab. */
export const SUBTRACT_GRADIENT = defineKernel({
  name: 'subtractGradient',
  args: [f32('u'), f32('v'), f32('w'), f64('phi'), ...grid5],
  split: 'planes',
  range: (a) => num(a, 9),
  work: (a) => cells(a, 7, 8, 9),
  ref: subtractGradientSlab,
})

const dotArgs = [f64('a'), f64('b'), int('plane'), f64('partial'), size('nz')] as const
/** dotPlanesSlab, twin in two SIMD lanes per plane (a few ulps from the reference order). */
export const DOT_PLANES = defineKernel({
  name: 'dotPlanes',
  args: dotArgs,
  split: 'planes',
  range: (a) => num(a, 4),
  work: (a) => num(a, 2) * num(a, 4),
  partials: 'partial',
  ref: dotPlanesSlab,
})
/** dotPlanesSlab, twin in the reference's order (bit-identical). */
export const DOT_PLANES_EXACT = defineKernel({ ...DOT_PLANES, name: 'dotPlanesExact' })

const iterateArgs = [f64('x'), f64('r'), f64('s'), f64('q'), float('alpha'), int('plane'), f64('partial'), size('nz')] as const
/** updateIterateSlab (two-lane twin): x += alpha s; r -= alpha q; returns |r|^2. */
export const UPDATE_ITERATE = defineKernel({
  name: 'updateIterate',
  args: iterateArgs,
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => num(a, 5) * num(a, 7),
  partials: 'partial',
  ref: updateIterateSlab,
})
/** updateIterateSlab, twin in the reference's order (bit-identical). */
export const UPDATE_ITERATE_EXACT = defineKernel({ ...UPDATE_ITERATE, name: 'updateIterateExact' })

/** updateSearchSlab: s = z + beta s. */
export const UPDATE_SEARCH = defineKernel({
  name: 'updateSearch',
  args: [f64('s'), f64('z'), float('beta'), int('plane'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 4),
  work: (a) => num(a, 3) * num(a, 4),
  ref: updateSearchSlab,
})

/** gaussSeidelColorSlab: one red-black half sweep. */
export const GS_COLOR = defineKernel({
  name: 'gaussSeidelColor',
  args: [f64('x'), f64('b'), ...grid5, int('color')],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => cells(a, 5, 6, 7),
  ref: gaussSeidelColorSlab,
})

/**
 * A fused red-black sweep (colour `first`, then the other) in two phases over the same slabs
 * (see assembly/multigrid.ts): phase 0 the slab interiors, phase 1 the slab borders. The
 * reference is only ever run over the whole range, where phase 0 is the whole sweep and
 * phase 1 has nothing left to do.
 */
export const GS_SWEEP = defineKernel({
  name: 'gaussSeidelSweep',
  args: [f64('x'), f64('b'), ...grid5, int('first'), int('phase')],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => cells(a, 5, 6, 7),
  ref: (x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, first: number, phase: number, k0: number, k1: number) => {
    if (phase !== 0) return
    gaussSeidelColorSlab(x, b, fu, fv, fw, nx, ny, nz, first, k0, k1)
    gaussSeidelColorSlab(x, b, fu, fv, fw, nx, ny, nz, 1 - first, k0, k1)
  },
})

/** jacobiSlab. */
export const JACOBI = defineKernel({
  name: 'jacobi',
  args: [f64('out'), f64('x'), f64('b'), ...grid5, float('omega')],
  split: 'planes',
  range: (a) => num(a, 8),
  work: (a) => cells(a, 6, 7, 8),
  ref: jacobiSlab,
})

/** relaxRuns over a list of runs of one colour (run positions are the range). */
export const RELAX_RUNS = defineKernel({
  name: 'relaxRuns',
  args: [f64('x'), f64('b'), ...grid5, i32('runs'), size('cells')],
  split: 'rows',
  range: (a) => (a[8] as Int32Array).length / 2,
  // A band cell costs about what a plane sweep's does (a run's start is decoded once, then
  // its cells go two at a time), more for the short runs at the rows' ends: with the old
  // list's 4 a cell for single cells, the 64^3 band (23,000 cells a colour) stays on the
  // threads.
  work: (a, n) => num(a, 9) + 3 * n,
  ref: relaxRuns,
})

/** The restriction's arguments with float64 or float32 vectors, tables and per-thread scratch. */
function restrictArgs(type: 'f64' | 'f32') {
  const vec = type === 'f64' ? f64 : f32
  const bytes = type === 'f64' ? 8 : 4
  return [
    vec('bc'),
    vec('rf'),
    int('nx'),
    int('ny'),
    int('nz'),
    int('cx'),
    int('cy'),
    struct('tx', { rw: type }),
    struct('ty', { rw: type }),
    struct('tz', { rw: type }),
    scratch('scratch', (a) => bytes * restrictScratchLength(num(a, 3), num(a, 5), num(a, 6))),
    size('cz'),
  ]
}

/** The prolongation's arguments with float64 or float32 vectors and weights. */
function prolongArgs(type: 'f64' | 'f32') {
  const vec = type === 'f64' ? f64 : f32
  const transfer = { pa: 'i32', pb: 'i32', wa: type, wb: type } as const
  return [vec('xf'), vec('xc'), u8('active'), int('nx'), int('ny'), int('cx'), int('cy'), struct('tx', transfer), struct('ty', transfer), struct('tz', transfer), size('nz')]
}

/** restrictSlab over coarse planes [0, cz); per-thread scratch of restrictScratchLength doubles. */
export const RESTRICT = defineKernel({
  name: 'restrict',
  args: restrictArgs('f64'),
  split: 'planes',
  range: (a) => num(a, 11),
  work: (a) => cells(a, 2, 3, 4),
  ref: restrictSlab,
})

/** prolongAddSlab over fine planes [0, nz). */
export const PROLONG_ADD = defineKernel({
  name: 'prolongAdd',
  args: prolongArgs('f64'),
  split: 'planes',
  range: (a) => num(a, 10),
  work: (a) => 2 * cells(a, 3, 4, 10),
  ref: prolongAddSlab,
})

const advectArgs = [
  f32('dst'),
  f32('src'),
  int('axis'),
  f32('u'),
  f32('v'),
  f32('w'),
  int('nx'),
  int('ny'),
  int('nz'),
  float('dtOverDx'),
  ptr('solid', ['u8', 'f32'], { tagged: true }),
  f32('dst2', true),
  f32('src2', true),
  i32('base', true),
  f64('rev', true),
] as const
const latticePlanes = (a: KernelArgs) => (num(a, 2) === 2 ? num(a, 8) + 1 : num(a, 8))
const pairOf = (a: KernelArgs) => a[11] !== null && a[12] !== null
function advectRef(cubic: boolean) {
  return (
    dst: Float32Array,
    src: Float32Array,
    axis: -1 | 0 | 1 | 2,
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    nx: number,
    ny: number,
    nz: number,
    dtOverDx: number,
    solid: SolidField | null,
    dst2: Float32Array | null,
    src2: Float32Array | null,
    base: Int32Array | null,
    rev: Float64Array | null,
    k0: number,
    k1: number,
  ) => advectSlab(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, cubic, solid, k0, k1, dst2, src2, base, rev)
}
/** advectSlab, trilinear, over every plane of lattice `axis`. */
export const ADVECT = defineKernel({
  name: 'advect',
  args: advectArgs,
  split: 'planes',
  range: latticePlanes,
  // About 20x the work of a stencil cell per sample (two RK2 velocity lookups).
  work: (a, n) => (pairOf(a) ? 22 : 20) * num(a, 6) * num(a, 7) * n,
  ref: advectRef(false),
})
/** advectSlab with monotone tricubic sampling. */
export const ADVECT_CUBIC = defineKernel({
  name: 'advectCubic',
  args: advectArgs,
  split: 'planes',
  range: latticePlanes,
  // A tricubic lookup (64 loads, 21 segments) is about 40x more per field (measured 3x).
  work: (a, n) => (pairOf(a) ? 100 : 60) * num(a, 6) * num(a, 7) * n,
  ref: advectRef(true),
})

const advectAtArgs = [
  f32('dst'),
  f32('src'),
  int('axis'),
  int('nx'),
  int('ny'),
  int('nz'),
  ptr('solid', ['u8', 'f32'], { tagged: true }),
  f64('rev'),
  f32('dst2', true),
  f32('src2', true),
] as const
function advectAtRef(cubic: boolean) {
  return (
    dst: Float32Array,
    src: Float32Array,
    axis: -1 | 0 | 1 | 2,
    nx: number,
    ny: number,
    nz: number,
    solid: SolidField | null,
    rev: Float64Array,
    dst2: Float32Array | null,
    src2: Float32Array | null,
    k0: number,
    k1: number,
  ) => advectAtSlab(dst, src, axis, nx, ny, nz, cubic, solid, rev, dst2, src2, k0, k1)
}
const atPlanes = (a: KernelArgs) => (num(a, 2) === 2 ? num(a, 5) + 1 : num(a, 5))
/** advectAtSlab, trilinear: MacCormack's backward step at the departure points advect recorded. */
export const ADVECT_AT = defineKernel({
  name: 'advectAt',
  args: advectAtArgs,
  split: 'planes',
  range: atPlanes,
  // One field lookup a sample (two for a pair), no trace.
  work: (a, n) => (a[8] !== null ? 8 : 4) * num(a, 3) * num(a, 4) * n,
  ref: advectAtRef(false),
})
/** advectAtSlab with monotone tricubic sampling. */
export const ADVECT_AT_CUBIC = defineKernel({
  name: 'advectAtCubic',
  args: advectAtArgs,
  split: 'planes',
  range: atPlanes,
  work: (a, n) => (a[8] !== null ? 80 : 40) * num(a, 3) * num(a, 4) * n,
  ref: advectAtRef(true),
})

/** maccormackCorrectSlab over every plane of lattice `axis`. */
export const MACCORMACK = defineKernel({
  name: 'maccormackCorrect',
  args: [
    f32('dst'),
    f32('src'),
    f32('fwd'),
    f32('bwd'),
    int('axis'),
    f32('u'),
    f32('v'),
    f32('w'),
    int('nx'),
    int('ny'),
    int('nz'),
    float('dtOverDx'),
    ptr('solid', ['u8', 'f32'], { tagged: true }),
    int('limiter'),
    i32('base', true),
  ],
  split: 'planes',
  range: (a) => (num(a, 4) === 2 ? num(a, 10) + 1 : num(a, 10)),
  // With recorded corners a sample is a few loads and compares, not a back-trace.
  work: (a, n) => (a[14] !== null ? 3 : 20) * num(a, 8) * num(a, 9) * n,
  ref: (
    dst: Float32Array,
    src: Float32Array,
    fwd: Float32Array,
    bwd: Float32Array,
    axis: -1 | 0 | 1 | 2,
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    nx: number,
    ny: number,
    nz: number,
    dtOverDx: number,
    solid: SolidField | null,
    limiter: number,
    base: Int32Array | null,
    k0: number,
    k1: number,
  ) => maccormackCorrectSlab(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, limiter, k0, k1, base),
})

/** maccormackExcessSlab: what the limiter clipped and the room left, per sample. */
export const MACCORMACK_EXCESS = defineKernel({
  name: 'maccormackExcess',
  args: [
    f32('ex'),
    f32('up'),
    f32('dn'),
    f32('dst'),
    f32('src'),
    f32('fwd'),
    f32('bwd'),
    int('axis'),
    f32('u'),
    f32('v'),
    f32('w'),
    int('nx'),
    int('ny'),
    int('nz'),
    float('dtOverDx'),
    ptr('solid', ['u8', 'f32'], { tagged: true }),
    i32('base'),
  ],
  split: 'planes',
  range: (a) => (num(a, 7) === 2 ? num(a, 13) + 1 : num(a, 13)),
  // A back-trace per sample whose stencil is not flat.
  work: (a, n) => 20 * num(a, 11) * num(a, 12) * n,
  ref: maccormackExcessSlab,
})

/**
 * maccormackFusedSlab: MacCormack's correction (and, with ex, up and dn, the clipped excess and
 * room) in one pass, the backward step worked out where it is read.
 */
export const MACCORMACK_FUSED = defineKernel({
  name: 'maccormackFused',
  args: [
    f32('dst'),
    f32('src'),
    f32('fwd'),
    f64('rev'),
    f32('ex', true),
    f32('up', true),
    f32('dn', true),
    int('axis'),
    f32('u'),
    f32('v'),
    f32('w'),
    int('nx'),
    int('ny'),
    int('nz'),
    float('dtOverDx'),
    ptr('solid', ['u8', 'f32'], { tagged: true }),
    int('limiter'),
    i32('base'),
  ],
  split: 'planes',
  range: (a) => (num(a, 7) === 2 ? num(a, 13) + 1 : num(a, 13)),
  // A trilinear look-up of fwd per sample, and with the excess a back-trace where the stencil is not flat.
  work: (a, n) => (a[4] !== null ? 24 : 8) * num(a, 11) * num(a, 12) * n,
  ref: maccormackFusedSlab,
})

/** maccormackRedistributeSlab: each sample gathers its share of its neighbours' clipped excess. */
export const MACCORMACK_REDISTRIBUTE = defineKernel({
  name: 'maccormackRedistribute',
  args: [f32('dst'), f32('ex'), f32('up'), f32('dn'), f32('src'), int('axis'), int('nx'), int('ny'), int('nz'), i32('base')],
  split: 'planes',
  range: (a) => (num(a, 5) === 2 ? num(a, 8) + 1 : num(a, 8)),
  work: (a, n) => 2 * num(a, 6) * num(a, 7) * n,
  ref: maccormackRedistributeSlab,
})

/** vorticitySlab. */
export const VORTICITY = defineKernel({
  name: 'vorticity',
  args: [f32('ox'), f32('oy'), f32('oz'), f32('mag'), f32('u'), f32('v'), f32('w'), int('nx'), int('ny'), int('nz'), float('dx')],
  split: 'planes',
  range: (a) => num(a, 9),
  work: (a) => 4 * cells(a, 7, 8, 9),
  ref: vorticitySlab,
})

/** confinementForceSlab. */
export const CONFINEMENT_FORCE = defineKernel({
  name: 'confinementForce',
  args: [f32('fx'), f32('fy'), f32('fz'), f32('ox'), f32('oy'), f32('oz'), f32('mag'), float('epsilon'), int('nx'), int('ny'), int('nz'), float('dx')],
  split: 'planes',
  range: (a) => num(a, 10),
  work: (a) => 2 * cells(a, 8, 9, 10),
  ref: confinementForceSlab,
})

/** addCellForceToFacesSlab. */
export const ADD_CELL_FORCE = defineKernel({
  name: 'addCellForceToFaces',
  args: [f32('u'), f32('v'), f32('w'), f32('fx'), f32('fy'), f32('fz'), float('dt'), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 9),
  work: (a) => cells(a, 7, 8, 9),
  ref: addCellForceToFacesSlab,
})

/** addBuoyancySlab. */
export const ADD_BUOYANCY = defineKernel({
  name: 'addBuoyancy',
  args: [f32('v'), f32('density', true), f32('temperature', true), float('alpha'), float('beta'), float('ambientTemperature'), float('dt'), int('nx'), int('ny'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 9),
  work: (a) => cells(a, 7, 8, 9),
  ref: addBuoyancySlab,
})

/** addUniformAccelerationSlab. */
export const ADD_UNIFORM_ACCELERATION = defineKernel({
  name: 'addUniformAcceleration',
  args: [f32('u'), f32('v'), f32('w'), float('ax'), float('ay'), float('az'), float('dt'), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 9),
  work: (a) => cells(a, 7, 8, 9),
  ref: addUniformAccelerationSlab,
})

// The float32 multigrid cycle's rows (multigrid32Kernels.ts; twins in wasm/assembly/multigrid32.ts).

/** gaussSeidelSweep in float32, the same two phases over the same slabs as GS_SWEEP. */
export const GS_SWEEP32 = defineKernel({
  name: 'gaussSeidelSweep32',
  args: [f32('x'), f32('b'), ...grid5, int('first'), int('phase')],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => cells(a, 5, 6, 7),
  ref: (x: Float32Array, b: Float32Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, first: number, phase: number, k0: number, k1: number) => {
    if (phase !== 0) return
    gaussSeidelColorSlab32(x, b, fu, fv, fw, nx, ny, nz, first, k0, k1)
    gaussSeidelColorSlab32(x, b, fu, fv, fw, nx, ny, nz, 1 - first, k0, k1)
  },
})

/** relaxRuns32 over a list of runs of one colour. */
export const RELAX_RUNS32 = defineKernel({ ...RELAX_RUNS, name: 'relaxRuns32', args: [f32('x'), f32('b'), ...grid5, i32('runs'), size('cells')], ref: relaxRuns32 })

/** residualSlab32: r = b - A x in float32. */
export const RESIDUAL32 = defineKernel({ ...RESIDUAL, name: 'residual32', args: [f32('r'), f32('b'), f32('x'), ...grid5], ref: residualSlab32 })

/** restrictSlab32 over coarse planes [0, cz); per-thread scratch of restrictScratchLength float32. */
export const RESTRICT32 = defineKernel({ ...RESTRICT, name: 'restrictGrid32', args: restrictArgs('f32'), ref: restrictSlab32 })

/** prolongAddSlab32 over fine planes [0, nz). */
export const PROLONG_ADD32 = defineKernel({ ...PROLONG_ADD, name: 'prolongAddGrid32', args: prolongArgs('f32'), work: (a) => cells(a, 3, 4, 10), ref: prolongAddSlab32 })

/** startCycle32Slab: the finest level's b = r in float32 and x = 0. */
export const START_CYCLE32 = defineKernel({
  name: 'startCycle32',
  args: [f32('b'), f32('x'), f64('r'), int('plane'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 4),
  work: (a) => num(a, 3) * num(a, 4),
  ref: startCycle32Slab,
})

/** widenSlab: z = x in float64. */
export const FINISH_CYCLE32 = defineKernel({
  name: 'finishCycle32',
  args: [f64('z'), f32('x'), int('plane'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 3),
  work: (a) => num(a, 2) * num(a, 3),
  ref: widenSlab,
})

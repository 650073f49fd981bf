// What a solver family declares to plug into Eddy (src-shared/sim/registry.ts lists them):
// the objects that host it, its parameters, how it turns the scene into a setup and per-frame
// inputs, how it is built and stepped, what a bake of it costs, how the viewport shows it and
// the names of its timing phases. The bake runner, the estimate, the inspector, the domain's
// Solver menu, the viewport's display controls and the About box are all generated from
// these declarations, so a new method is a folder under src-shared/sim plus one line in
// registry.ts (README, "Adding a solver family").
import type { FramePrecision } from '../formats/frameRecord'
import type { FamilySpecs } from '../scene/specs'
import type { ObjectKind, SceneDocument } from '../scene/types'
import type { CompileOptions, MeshResolver } from './compile'
import type { FrameData } from './frame'
import type { FrameOptions, SimInput, Solver, StepControl, StepStats } from './solver'

export type KernelPreference = 'wasm' | 'ts'

/** The display controls the viewport offers while a family's cache is shown. */
export type DisplayControl = 'volumeDensity' | 'volumeQuality' | 'particleColor' | 'meshCutaway'

export interface FamilyDisplay {
  controls: readonly DisplayControl[]
  /** The volume the raymarcher draws as density (extinction), if the family has one. */
  densityVolume?: string
  /** The volume drawn as emission (temperature in kelvin above ambient). */
  emissionVolume?: string
  /** Particle attributes offered in the "Points" colour menu, with their labels. */
  particleColors: readonly { attribute: string; label: string }[]
  /**
   * With the 'meshCutaway' control: the display-only frame mesh (frame.ts, DISPLAY_ONLY_MESH)
   * a checkbox shows instead of the other meshes, and its label.
   */
  cutaway?: { mesh: string; label: string }
}

/**
 * What a bake will cost before it starts. `lower` says what to lower when it does not fit:
 * memory grows as value^exponent, so the largest value that fits is value * (fit)^(1/exponent).
 */
export interface BakeEstimate {
  /** The simulation's size in words, for the panel and the log ("64x64x64 grid"). */
  layout: string
  /** Degrees of freedom (cells, nodes, patches x samples). */
  cells: number
  frames: number
  particles: number
  /** Peak memory of the bake worker, bytes. */
  memoryBytes: number
  /** Part of memoryBytes that scales with `lower` (grid fields), bytes. */
  scalingBytes: number
  /** Cache size for the frames, typical and upper bound (every tile full), bytes. */
  cacheBytes: number
  cacheBytesMax: number
  checkpointBytes: number
  lower: { key: string; label: string; value: number; exponent: number; min: number }
}

export interface EstimateRequest {
  doc: SceneDocument
  hostId: string
  frames: number
  precision: FramePrecision
  checkpointEvery: number
}

/** One bake's solver, behind the shape the bake loop steps. */
export interface BakeSolver {
  family: string
  /** The simulation's size in words for the log ("64x64x64 grid"). */
  layout: string
  /** Steps one frame's dt under the scene evaluated at animation frame `frame`. */
  stepFrame(frame: number, control?: StepControl): StepStats
  /** The current state as cache data (Solver.frame). */
  frame(opts?: FrameOptions): FrameData
  checkpoint(): Uint8Array
  restore(bytes: Uint8Array): void
}

export interface PreviewContext {
  doc: SceneDocument
  hostId: string
  /** The bake's first frame (where fixed settings are read). */
  frameStart: number
}

/** A small scene the conformance suite bakes for every family (tests/unit/sim/conformance.test.ts). */
export interface ConformanceScene {
  doc: SceneDocument
  hostId: string
  meshes: { id: string; positions: Float32Array; indices: Uint32Array }[]
  /** A numeric parameter of the host and a value outside its range, for the typed-error check. */
  badParam: { key: string; value: number }
}

export interface SolverFamily<Setup = unknown, Input extends SimInput = SimInput> extends FamilySpecs {
  /** One line for the About box: the method and its paper. */
  about: string
  /**
   * The kinds of objects, besides its host, that its compileSetup and compileInput read. A
   * bake's signature covers its host and these only (src-main/bake/signature.ts), so adding an
   * object it never reads leaves its cache valid. tests/unit/sim/familyReads.test.ts bakes
   * every family with an object of each other kind added and checks the frames do not change.
   */
  reads: readonly ObjectKind[]
  /** Wall-clock phases of a step, in the order a substep runs them (StepStats.ms keys). */
  phases: readonly string[]
  /** Where its grid kernels run best: WebAssembly over worker threads, or TypeScript on the bake thread. */
  kernels: KernelPreference
  display: FamilyDisplay
  /** What is fixed for a bake, read at the bake's first frame; validates the whole scene once. */
  compileSetup(doc: SceneDocument, hostId: string, opts: CompileOptions): Setup
  /** Everything time dependent, at animation frame `frame` (frame 1 is t = 0). */
  compileInput(doc: SceneDocument, hostId: string, setup: Setup, frame: number): Input
  /** A solver for the setup; `frame()` of the result is what the cache stores. */
  create(setup: Setup): Solver<Input>
  /** The simulation's size in words ("64x64x64 grid"). */
  layout(setup: Setup): string
  estimate(req: EstimateRequest): BakeEstimate
  /** The viewport's bake-time preview of a frame (RG8 texels), or null. */
  preview?(frame: FrameData, ctx: PreviewContext): Uint8Array | null
  conformanceScene(): ConformanceScene
}

export type { CompileOptions, MeshResolver }

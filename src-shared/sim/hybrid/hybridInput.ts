// What the hybrid-mesh smoke reads: its setup (fixed for a bake, at the first frame) and per
// step beyond the common SimInput: buoyancy, dissipation, vorticity confinement, vortex
// particles (Selle 2005) and each emitter's vortex and tracker particle seeding.
import type { GridSpec } from '../core/grid'
import type { KernelBackend } from '../core/kernelTypes'
import type { DomainSides } from '../core/boundaries'
import type { MeshSdfCache } from '../compile'
import type { EmitterVortexInput, VortexSeedInput } from '../core/vortexSeeding'
import type { EmitterInput, SimInput } from '../solver'
import type { HybridMesh, HybridMeshMode } from './hybridMesh'
import type { HybridObstacles } from './hybridObstacles'

export interface HybridSetup {
  domainId: string
  domainName: string
  grid: GridSpec
  sides: DomainSides
  mode: HybridMeshMode
  bandCells: number
  seed: number
  maxParticles: number
  meshes: MeshSdfCache
  /**
   * Where the fields' kernel rows run (the traces and fits, the vorticity and forces, the AMG
   * V-cycles and PCG vectors; default the TypeScript reference). A mesh rebuilt for moved
   * obstacles runs there too: the solver gives the replaced mesh's memory back first
   * (KernelBackend.mark / release).
   */
  kernels?: KernelBackend
  /**
   * Whether an obstacle's placement is keyframed: the band is then rebuilt every substep it
   * moves, so every mesh of the bake takes the multigrid cheapest to set up (smoothed
   * aggregation; HybridProjection). A property of the scene, so a bake resumed from a
   * checkpoint makes the same choice as the run it continues.
   */
  keyframedObstacles: boolean
  /**
   * The mesh of the bake's first frame, built when the setup is compiled so the bake's log can
   * say what it is (cells and dihedral angles) before the first step; the solver starts from it
   * when the obstacles are where it was built for.
   */
  initial: { mesh: HybridMesh; obstacles: HybridObstacles }
}

export interface HybridEmitterInput extends EmitterInput {
  /** Vortex particles seeded inside it (Selle 2005 sec. 6), as the grid smoke's emitters. */
  vortex: EmitterVortexInput
  /** Tracker particles seeded per second (Feldman 2005 section 3: massless, for rendering). */
  trackerRate: number
}

export interface HybridPayload {
  /** Vorticity confinement epsilon (Fedkiw, Stam, Jensen 2001). */
  vorticity: number
  buoyancy: { alpha: number; beta: number; ambientTemperature: number }
  dissipation: { density: number; temperature: number }
  /** Vortex particles' confinement (1/s) and the radius of seeded particles (cells). */
  vortex: { confinement: number; radiusCells: number }
  vortexSeeds: VortexSeedInput[]
  tolerance: number
}

export type HybridSimInput = SimInput<HybridPayload, HybridEmitterInput>

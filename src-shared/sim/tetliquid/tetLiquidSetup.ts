// What a tetrahedral-liquid bake is given: the fixed setup (read at the bake's first frame)
// and the per-frame input (compileTetLiquid.ts builds both from the scene).
import type { SignedDistanceField } from '../../geometry/signedDistance'
import type { Vec3 } from '../../scene/types'
import type { DomainSides } from '../core/boundaries'
import type { KernelBackend } from '../core/kernelTypes'
import type { SimInput } from '../solver'
import type { ContourBox } from './contourGrid'

/** Liquid present at the start: a shape (negative inside) and its velocity. */
export interface TetLiquidVolume {
  name: string
  field: SignedDistanceField
  velocity: Vec3
}

export interface TetLiquidSetup {
  domainId: string
  domainName: string
  /** The domain box. */
  box: ContourBox
  /** Contouring grid spacing (the surface's resolution), m. */
  contourSpacing: number
  /** Finest tetrahedral lattice spacing: twice the contouring spacing (seed 003 section 3.2), m. */
  spacing: number
  /** 'graded' (the paper): fine at the surface, coarser inside; 'uniform': one size. */
  mesh: 'uniform' | 'graded'
  sides: DomainSides
  volumes: TetLiquidVolume[]
  /** Relative residual the pressure solve stops at. */
  tolerance: number
  maxIterations: number
  /** Thickening of thin sheets and drops (section 3.4). */
  thickening: boolean
  /** Volume control (volumeControl.ts): the surface makes up the volume contouring loses. */
  volumeCorrection: boolean
  kernels?: KernelBackend
}

export interface TetLiquidTime {
  gravity: Vec3
  /** The thinness threshold gamma in cells (the paper's 1.2). */
  thinness: number
  /** r_redis in cells of the contouring grid (the paper: 0 to 3). */
  breakUp: number
  /** beta / gamma (the paper: 0.5). */
  thinSplit: number
  /** r_ib and r_is in contouring cells (the paper: 0.25 and 0.15). */
  growThick: number
  growThin: number
  /** gamma_mesh and the offset kernel's radius h in finest tetrahedron edges (the paper: 0.6 and 4). */
  meshThickness: number
  meshThickeningRadius: number
}

export type TetLiquidInput = SimInput<TetLiquidTime>

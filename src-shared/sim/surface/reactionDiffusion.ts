// Reaction-diffusion on a Catmull-Clark surface, the second mode of the surface solver (Stam
// 2003 sec. 5, Figure 16, after Witkin and Kass 1991): the Gray-Scott model (Pearson 1993)
//   du/dt = Du lap u - u v^2 + F (1 - u)
//   dv/dt = Dv lap v + u v^2 - (F + k) v
// with lap the surface's own Laplacian (eq. 18 through surfaceFluid.ts diffuse). Split in
// Strang order each step: half the reaction, the two implicit diffusions, half the reaction;
// the reaction of each cell integrated exactly enough by two RK4 substeps (it is a 2-variable
// ODE, stiff only for rates far beyond the patterns' range). u and v are densities 0 and 1 of
// the fluid they run on; the flow itself is not stepped (a pattern on a still surface).
import type { SurfaceFluid } from './surfaceFluid'

export interface GrayScottParams {
  /** Diffusion rates of u and v, m^2/s. */
  Du: number
  Dv: number
  /** Feed and kill rates, 1/s. */
  F: number
  k: number
}

/** du/dt, dv/dt of the reaction terms alone. */
function rates(u: number, v: number, F: number, k: number, out: Float64Array): void {
  const uvv = u * v * v
  out[0] = -uvv + F * (1 - u)
  out[1] = uvv - (F + k) * v
}

export class GrayScott {
  private readonly k1 = new Float64Array(2)
  private readonly k2 = new Float64Array(2)
  private readonly k3 = new Float64Array(2)
  private readonly k4 = new Float64Array(2)

  constructor(readonly fluid: SurfaceFluid, public params: GrayScottParams) {
    if (fluid.density.length < 2) throw new Error('GrayScott: the surface fluid needs two densities (u and v)')
  }

  /** Reaction of every cell over dt (two RK4 steps). */
  react(dt: number): void {
    const { grid } = this.fluid
    const { N, P } = grid
    const U = this.fluid.density[0], V = this.fluid.density[1]
    const { F, k } = this.params
    const h = dt / 2
    const { k1, k2, k3, k4 } = this
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
      const c = grid.cell(p, i, j)
      let u = U[c], v = V[c]
      for (let s = 0; s < 2; s++) {
        rates(u, v, F, k, k1)
        rates(u + 0.5 * h * k1[0], v + 0.5 * h * k1[1], F, k, k2)
        rates(u + 0.5 * h * k2[0], v + 0.5 * h * k2[1], F, k, k3)
        rates(u + h * k3[0], v + h * k3[1], F, k, k4)
        u += (h / 6) * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        v += (h / 6) * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
      }
      U[c] = u
      V[c] = v
    }
    grid.fillScalar(U)
    grid.fillScalar(V)
  }

  step(dt: number): void {
    this.react(dt / 2)
    this.fluid.diffuse(0, this.params.Du, dt)
    this.fluid.diffuse(1, this.params.Dv, dt)
    this.react(dt / 2)
  }
}

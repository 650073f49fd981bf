// Particle <-> grid transfers of the marker-and-cell liquid (Carlson 2004 sec. 3.2.3.3: the
// markers set the velocity of cells the liquid enters), done every substep for every face as
// in PIC/FLIP (Zhu & Bridson 2005): particles splat velocity (and temperature) to the grid
// with trilinear weights, the grid is solved, and particles read back either the new grid
// velocity (PIC, the thesis's behaviour: flip = 0) or their own velocity plus the grid's
// change (FLIP), blended by `flip`. Temperature always takes the grid's change only (the
// heat step's increment), so the round trip adds no diffusion to eq. 50 (toParticle).
//
// With `apic` the velocity goes by the affine particle-in-cell method instead (APIC: Jiang,
// Schroeder, Selle, Teran, Stomakhin 2015, "The affine particle-in-cell method", in the
// per-component form for staggered grids, sec. 5.3): each marker also carries its velocity
// gradient C_p (markers.ts `c`), splats m w_i (v_p + C_p (x_i - x_p)) onto each face i of a
// component (toGrid), and reads back v_p = u(x_p) and C_p = grad u(x_p) of the same
// trilinear interpolant (toParticle, affine.ts). A rigid motion (and any affine field) then
// survives the round trip exactly, and the transfers conserve angular momentum, where PIC
// averages a rotation over each face's stencil every substep. FLIP's share (`flip`) may
// still be blended in, as with PIC (the solver passes 0 for pure APIC: liquidSolver.ts).
//
// Sums are Float64 and run in particle order, so the result is a deterministic function of
// the particle arrays.
import type { MacGrid } from '../core/grid'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelAllocator, KernelBackend } from '../core/kernelTypes'
import * as affine from './affine'
import type { MarkerParticles } from './markers'
import * as sample from './sample'
import { MarkerPlaneCodes, SPLAT_MARKERS, type SplatMarks, type SplatSums, TEMP_RESIDUAL } from './splatKernels'

// Imported values used in per-marker loops are copied into module constants (see
// particleMotion.ts).
const gradU = affine.gradU
const gradV = affine.gradV
const gradW = affine.gradW
const cellOf = sample.cellOf
/** A share of the unresolved temperature below this is not relaxed (temperatureResidual). */
export const NEGLIGIBLE_RELAX = 1e-6

/**
 * Accumulators for one sample lattice: sum of w * value at 2c and sum of w at 2c + 1, side by
 * side so a splat touches one cache line per sample rather than two.
 */
class Splat {
  readonly sw: Float64Array
  /** The sums in `lent` (2 n values) when given, else their own. */
  constructor(n: number, alloc: KernelAllocator, lent: Float64Array | null) {
    this.sw = lent ?? alloc.f64(2 * n)
  }
}

/** Float64 values of toGrid's sums (a value and a weight per face of each lattice and per cell). */
export function splatSumsLength(nx: number, ny: number, nz: number): number {
  return 2 * ((nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1) + nx * ny * nz)
}

export class ParticleTransfer {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly dx: number
  readonly origin: readonly [number, number, number]
  private readonly faces: [Splat, Splat, Splat]
  private readonly cells: Splat
  private readonly uvw = new Float64Array(3)
  /** toGrid's kernel arguments (reused: no allocation per call). */
  private readonly sums: SplatSums
  private readonly marks: SplatMarks
  /**
   * Cumulative markers per cell plane (length nz + 2), for splitting the splats' planes among
   * threads by work; null: equal numbers of planes. The solver keeps it current.
   */
  balance: Float64Array | null = null
  private readonly stencil: sample.MacStencil
  /**
   * Unresolved temperature: per cell, the splat of the markers' residuals T_p - t_old(x_p)
   * (temperatureResidual); with `tempRelax`, what toParticle relaxes (0: nothing).
   */
  readonly tempResid: Float32Array
  private readonly residMark: Uint8Array
  /** Share of a marker's unresolved temperature removed this substep, 1 - exp(-k h pi^2 / dx^2). */
  tempRelax = 0
  /**
   * Affine (APIC) velocity transfer: toGrid splats v_p + C_p (x_i - x_p) and toParticle sets
   * C_p; the markers must carry C (MarkerParticles affine). Off: PIC/FLIP only.
   */
  apic = false

  /** Where toGrid's splat runs (splatKernels.ts); the marker move reads tempResid (markerKernels.ts). */
  private readonly kernels: KernelBackend
  /** toGrid's plane code per marker (splatKernels.ts MarkerPlaneCodes). */
  private readonly planeCodes: MarkerPlaneCodes

  /**
   * kernels: where the splat runs and the arrays it and the marker move touch live. lent:
   * splatSumsLength values of the kernels' memory for the splats' sums, which each splat zeroes
   * before adding and nothing reads after its pass but faceSplat (so a caller that does not
   * read that may lend memory other passes use in between), or null for their own.
   */
  constructor(spec: { nx: number; ny: number; nz: number; dx: number; origin: [number, number, number] }, kernels: KernelBackend = TS_KERNELS, lent: Float64Array | null = null) {
    const alloc = kernels
    this.kernels = kernels
    const { nx, ny, nz } = spec
    this.planeCodes = new MarkerPlaneCodes(kernels)
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.dx = spec.dx
    this.origin = spec.origin
    const sizes = [(nx + 1) * ny * nz, nx * (ny + 1) * nz, nx * ny * (nz + 1), nx * ny * nz]
    let at = 0
    const part = (m: number): Float64Array | null => (lent ? lent.subarray(at, (at += 2 * m)) : null)
    this.faces = [new Splat(sizes[0], alloc, part(sizes[0])), new Splat(sizes[1], alloc, part(sizes[1])), new Splat(sizes[2], alloc, part(sizes[2]))]
    this.cells = new Splat(sizes[3], alloc, part(sizes[3]))
    this.sums = { su: this.faces[0].sw, sv: this.faces[1].sw, sw: this.faces[2].sw, sc: this.cells.sw }
    const none = new Uint8Array(0)
    this.marks = { mu: none, mv: none, mw: none, mt: none }
    this.stencil = new sample.MacStencil(nx, ny, nz)
    this.tempResid = alloc.f32(nx * ny * nz)
    this.residMark = alloc.u8(nx * ny * nz)
  }

  /**
   * Prepares toParticle's relaxation of the unresolved temperature for a substep h with
   * conductivity k (m^2/s). Carrying temperature by increments (toParticle) keeps whatever
   * the grid cannot see: two markers of one cell at 300 K and 400 K stay 100 K apart for
   * ever, although eq. 50 diffuses a difference over dx within ~dx^2 / (pi^2 k) seconds.
   * Each marker's residual r_p = T_p - t_old(x_p) holds that unresolved part, and also, for
   * a smooth field, the splat-and-interpolate bias ~ -(dx^2 / 3) lap t, which is resolved
   * content (relaxing it would be the PIC smearing again, scaled down). The bias is smooth,
   * so splatting r and interpolating it back, (S r)(x_p), reproduces it: r_p - (S r)(x_p) is
   * the unresolved part alone, and it decays at the rate of the slowest mode the grid cannot
   * hold, k (pi / dx)^2 per axis. With k = 0 nothing is relaxed (tempRelax = 0).
   */
  temperatureResidual(p: MarkerParticles, tempOld: Float32Array, reach: Uint8Array, k: number, h: number): void {
    const { nx, ny, nz, dx, origin, cells } = this
    let relax = k > 0 && h > 0 ? 1 - Math.exp((-k * h * Math.PI * Math.PI) / (dx * dx)) : 0
    // Water's conductivity (1.4e-7 m^2/s) at a few cm and ms relaxes about 1e-8 a substep: a
    // million substeps to matter. Below NEGLIGIBLE_RELAX the pass over every marker is skipped.
    if (relax < NEGLIGIBLE_RELAX) relax = 0
    this.tempRelax = relax
    if (relax === 0) return
    // A splat by z-planes like toGrid's (splatKernels.ts).
    this.kernels.run(TEMP_RESIDUAL, p, cells.sw, tempOld, reach, this.tempResid, this.residMark, p.count, nx, ny, nz, dx, origin[0], origin[1], origin[2], this.balance)
  }

  /**
   * Particle velocities onto the faces of vel (weighted means) and temperatures onto the cell
   * centres of temp. Samples no particle reaches get mark 0 (else 1) and value 0.
   */
  toGrid(p: MarkerParticles, vel: MacGrid, temp: Float32Array, markU: Uint8Array, markV: Uint8Array, markW: Uint8Array, markT: Uint8Array): void {
    this.splat(false, p, vel, temp, markU, markV, markW, markT)
  }

  /**
   * toGrid, started on the kernels' other threads (KernelBackend.begin) so that the caller can
   * do work of its own that touches none of the markers, vel, temp, the marks or the splat's
   * sums meanwhile; finishToGrid() ends it. On one thread it runs at once.
   */
  beginToGrid(p: MarkerParticles, vel: MacGrid, temp: Float32Array, markU: Uint8Array, markV: Uint8Array, markW: Uint8Array, markT: Uint8Array): void {
    this.splat(true, p, vel, temp, markU, markV, markW, markT)
  }

  finishToGrid(): void {
    this.kernels.finish()
  }

  private splat(overlapped: boolean, p: MarkerParticles, vel: MacGrid, temp: Float32Array, markU: Uint8Array, markV: Uint8Array, markW: Uint8Array, markT: Uint8Array): void {
    const { nx, ny, nz, dx, origin, faces, cells } = this
    // One kernel for the four lattices, split by planes (splatKernels.ts).
    const sums = this.sums
    sums.su = faces[0].sw
    sums.sv = faces[1].sw
    sums.sw = faces[2].sw
    sums.sc = cells.sw
    const marks = this.marks
    marks.mu = markU
    marks.mv = markV
    marks.mw = markW
    marks.mt = markT
    // Each marker's plane as a byte, so each piece of the splat passes over the markers that
    // reach none of its planes sixteen at a time (splatKernels.ts markerPlanesSlab).
    const codes = this.planeCodes.update(p, nz, dx, origin[2])
    const args = [p, sums, vel, temp, marks, p.count, this.apic ? 1 : 0, nx, ny, nz, dx, origin[0], origin[1], origin[2], codes, this.planeCodes.shift, this.balance] as const
    if (overlapped) this.kernels.begin(SPLAT_MARKERS, ...args)
    else this.kernels.run(SPLAT_MARKERS, ...args)
  }

  /**
   * The last toGrid's splat sums on the faces of axis a: sum of w v at 2f, sum of w at 2f + 1.
   * A marker's trilinear weights add up to 1, so sum w times a marker's mass is the mass the
   * next toParticles moves with face f's velocity (rigidCoupling.ts reads it for Newton's
   * third law between markers and bodies).
   */
  faceSplat(a: 0 | 1 | 2): Float64Array {
    return this.faces[a].sw
  }

  /**
   * Grid back to particles: v_p = (1 - flip) u(x_p) + flip (v_p + u(x_p) - u_old(x_p)) (PIC/FLIP
   * blend, Zhu & Bridson 2005). Temperature always takes the grid's increment only,
   * T_p += t(x_p) - t_old(x_p), whatever `flip` is (see toParticle). Markers in cells with
   * reach 0 (not within the extension band of the liquid) only gain h g.
   */
  toParticles(p: MarkerParticles, vel: MacGrid, velOld: MacGrid, temp: Float32Array, tempOld: Float32Array, flip: number, reach: Uint8Array, gx: number, gy: number, gz: number, h: number): void {
    const { nx, ny, nz, dx, origin } = this
    const inv = 1 / dx
    const uvw = this.uvw
    for (let q = 0; q < p.count; q++) {
      const X = (p.px[q] - origin[0]) * inv
      const Y = (p.py[q] - origin[1]) * inv
      const Z = (p.pz[q] - origin[2]) * inv
      if (reach[cellOf(X, Y, Z, nx, ny, nz)] === 0) {
        // A marker beyond the band the grid velocity was extended into (spray) has no grid
        // velocity: it flies ballistically under gravity until it lands near liquid again.
        p.vx[q] += h * gx
        p.vy[q] += h * gy
        p.vz[q] += h * gz
        continue
      }
      this.toParticle(p, q, X, Y, Z, vel, velOld, temp, tempOld, flip, uvw)
    }
  }

  /**
   * toParticles for one marker within reach, at grid coordinates (X, Y, Z) = (x - origin) / dx;
   * also writes the new grid velocity there, u(x_p), into out[0..2].
   *
   * Temperature is carried FLIP-style at any velocity blend: the marker keeps its own value
   * and adds what the grid's heat step did at its position (sources, cooling, the LOD
   * diffusion of eq. 50-55). Carlson 2004 keeps temperature on the grid between steps (sec.
   * 4.2) and uses the markers only to carry it into newly filled cells; reading the splatted
   * grid value back (PIC) instead filters the temperature through the trilinear splat and
   * interpolation every substep, a numerical diffusion of ~4e-3 m^2/s at dx = 1/32 and 24
   * substeps/s, far above the conductivities of melting materials (issue 12, item 8). The
   * increment is zero wherever the heat step changed nothing, so with k = 0 and no sources a
   * marker's temperature is exactly what it was seeded with, and the convection term of eq.
   * 50 is the markers' own motion (no upwind smearing either).
   */
  toParticle(p: MarkerParticles, q: number, X: number, Y: number, Z: number, vel: MacGrid, velOld: MacGrid, temp: Float32Array, tempOld: Float32Array, flip: number, out: Float64Array): void {
    // One stencil set-up for the four lattices (and the old grids): sample.ts MacStencil.
    const st = this.stencil
    st.at(X, Y, Z)
    let u: number, v: number, w: number
    if (this.apic) {
      // APIC: C_p from the same interpolant (Jiang 2015 eq. 10 per component, affine.ts), read
      // with the velocity in one pass over each component's eight samples.
      const C = p.c, o = 9 * q, inv = 1 / this.dx
      u = gradU(st, vel.u, inv, C, o)
      v = gradV(st, vel.v, inv, C, o + 3)
      w = gradW(st, vel.w, inv, C, o + 6)
    } else {
      u = st.u(vel.u)
      v = st.v(vel.v)
      w = st.w(vel.w)
    }
    const t = st.cell(temp)
    out[0] = u
    out[1] = v
    out[2] = w
    const told = st.cell(tempOld)
    const dt = t - told
    const relax = this.tempRelax
    // Increment, less the decay of the unresolved part (temperatureResidual).
    if (relax !== 0) p.temp[q] += dt - relax * (p.temp[q] - told - st.cell(this.tempResid))
    else if (dt !== 0) p.temp[q] += dt
    if (flip === 0) {
      p.vx[q] = u
      p.vy[q] = v
      p.vz[q] = w
      return
    }
    const pic = 1 - flip
    const du = u - st.u(velOld.u)
    const dv = v - st.v(velOld.v)
    const dw = w - st.w(velOld.w)
    p.vx[q] = pic * u + flip * (p.vx[q] + du)
    p.vy[q] = pic * v + flip * (p.vy[q] + dv)
    p.vz[q] = pic * w + flip * (p.vz[q] + dw)
  }
}

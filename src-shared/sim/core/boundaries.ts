// Solid boundaries on the MAC grid.
//
// Obstacles are given as a cell solid fraction (0 = fluid .. 1 = solid). From it every face
// gets an *open fraction* w in [0, 1], the share of the face through which fluid may flow;
// the pressure solve uses these as weights (Batty, Bertails, Bridson 2007; Bridson 2015,
// ch. 5 "irregular solid boundaries") and closed faces (w = 0) carry the obstacle's normal
// velocity (Carlson 2004, section 3.2.3.4: faces between a solid and a fluid cell hold the
// solid's velocity, zero for a static wall). Interior faces: w = 1 - max(s_a, s_b), so a face
// next to a fully solid cell is always closed. Domain sides are open (w = 1 - s of the
// inside cell; the pressure solve puts p = 0 beyond them, Carlson 2004, section 3.3.2.2) or
// closed (w = 0, a static wall; Neumann, section 3.3.2.1), one flag per side.
import type { GridSpec, MacGrid } from './grid'
import { defineKernel, f32, int, type KernelArgs, struct } from './kernelTable'
import type { KernelBackend, SolidField } from './kernelTypes'

export type SideKind = 'open' | 'closed'

export interface DomainSides {
  xMin: SideKind
  xMax: SideKind
  yMin: SideKind
  yMax: SideKind
  zMin: SideKind
  zMax: SideKind
}

export const CLOSED_BOX: Readonly<DomainSides> = Object.freeze({
  xMin: 'closed',
  xMax: 'closed',
  yMin: 'closed',
  yMax: 'closed',
  zMin: 'closed',
  zMax: 'closed',
})

/** The six flags as 0/1 numbers in the order xMin, xMax, yMin, yMax, zMin, zMax (1 = open). */
export function openFlags(sides: DomainSides): Uint8Array {
  const f = new Uint8Array(6)
  f[0] = sides.xMin === 'open' ? 1 : 0
  f[1] = sides.xMax === 'open' ? 1 : 0
  f[2] = sides.yMin === 'open' ? 1 : 0
  f[3] = sides.yMax === 'open' ? 1 : 0
  f[4] = sides.zMin === 'open' ? 1 : 0
  f[5] = sides.zMax === 'open' ? 1 : 0
  return f
}

/**
 * Cell solid fraction from a signed distance sampled at cell centres (negative inside),
 * for cell planes [k0, k1) of plane size nx*ny: 0 beyond sqrt(3)/2 dx outside, 1 beyond it
 * inside, linear between (Carlson 2004, section 5.5: "if phi = 0 then the volume is 0.5 dx^3").
 */
export function solidFractionFromSdfSlab(out: Float32Array, phi: Float32Array, dx: number, plane: number, k0: number, k1: number): void {
  const inv = 1 / (Math.sqrt(3) * dx)
  const end = k1 * plane
  for (let c = k0 * plane; c < end; c++) {
    const s = 0.5 - phi[c] * inv
    out[c] = s > 0 ? (s < 1 ? s : 1) : 0
  }
}

/** solidFractionFromSdfSlab over the whole array (treated as one plane). */
export function solidFractionFromSdf(phi: Float32Array, dx: number, out: Float32Array): void {
  solidFractionFromSdfSlab(out, phi, dx, out.length, 0, 1)
}

function frac(solid: SolidField | null, c: number): number {
  if (solid === null) return 0
  const s = solid[c]
  return s > 0 ? (s < 1 ? s : 1) : 0 // a Uint8 mask of 0/1 (or 0/255) reads as 0/1
}

/**
 * Face open fractions for cell planes [k0, k1): u and v faces of those planes and w faces
 * k0..k1-1 (plus plane nz when k1 = nz). `open` = openFlags(sides). solid may be null (no
 * obstacles).
 */
export function faceFractionsSlab(
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  solid: SolidField | null,
  open: Uint8Array,
  nx: number,
  ny: number,
  nz: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      let f = (nx + 1) * (j + ny * k)
      fu[f] = open[0] ? 1 - frac(solid, row) : 0
      for (let i = 1; i < nx; i++) fu[f + i] = 1 - Math.max(frac(solid, row + i - 1), frac(solid, row + i))
      fu[f + nx] = open[1] ? 1 - frac(solid, row + nx - 1) : 0
      f = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++) {
        const c = row + i
        fv[f + i] = j === 0 ? (open[2] ? 1 - frac(solid, c) : 0) : 1 - Math.max(frac(solid, c - nx), frac(solid, c))
      }
      for (let i = 0; i < nx; i++) {
        const c = row + i
        fw[c] = k === 0 ? (open[4] ? 1 - frac(solid, c) : 0) : 1 - Math.max(frac(solid, c - plane), frac(solid, c))
      }
    }
    // The top v face of each column.
    const f = nx * (ny + (ny + 1) * k)
    const row = nx * (ny - 1 + ny * k)
    for (let i = 0; i < nx; i++) fv[f + i] = open[3] ? 1 - frac(solid, row + i) : 0
  }
  if (k1 === nz) {
    const top = plane * nz
    for (let c = 0; c < plane; c++) fw[top + c] = open[5] ? 1 - frac(solid, top - plane + c) : 0
  }
}

/** Face open fractions of the whole grid into out (same layout as a velocity). */
export function computeFaceFractions(solid: SolidField | null, sides: DomainSides, out: MacGrid): void {
  faceFractionsSlab(out.u, out.v, out.w, solid, openFlags(sides), out.nx, out.ny, out.nz, 0, out.nz)
}

/**
 * Closed faces (open fraction 0) take the obstacle's normal velocity (0 when obs is null):
 * no fluid crosses a wall except as fast as the wall itself moves. Cell planes [k0, k1),
 * w plane nz included when k1 = nz.
 */
export function enforceSolidVelocitySlab(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  su: Float32Array | null,
  sv: Float32Array | null,
  sw: Float32Array | null,
  nx: number,
  ny: number,
  nz: number,
  k0: number,
  k1: number,
): void {
  const uEnd = (nx + 1) * ny * k1
  for (let f = (nx + 1) * ny * k0; f < uEnd; f++) if (fu[f] <= 0) u[f] = su === null ? 0 : su[f]
  const vEnd = nx * (ny + 1) * k1
  for (let f = nx * (ny + 1) * k0; f < vEnd; f++) if (fv[f] <= 0) v[f] = sv === null ? 0 : sv[f]
  const wEnd = nx * ny * (k1 === nz ? nz + 1 : k1)
  for (let f = nx * ny * k0; f < wEnd; f++) if (fw[f] <= 0) w[f] = sw === null ? 0 : sw[f]
}

/**
 * enforceSolidVelocitySlab as a kernel-table row (twin: wasm/assembly/boundaries.ts), split
 * by cell planes: every face is a copy, so any split gives the same bits.
 */
export const ENFORCE_SOLID_VELOCITY = defineKernel({
  name: 'enforceSolidVelocity',
  args: [struct('vel', { u: 'f32', v: 'f32', w: 'f32' }), struct('fractions', { u: 'f32', v: 'f32', w: 'f32' }), f32('su', true), f32('sv', true), f32('sw', true), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a: KernelArgs) => a[7] as number,
  work: (a: KernelArgs) => 3 * (a[5] as number) * (a[6] as number) * (a[7] as number),
  ref: (vel: MacGrid, fr: MacGrid, su: Float32Array | null, sv: Float32Array | null, sw: Float32Array | null, nx: number, ny: number, nz: number, k0: number, k1: number) =>
    enforceSolidVelocitySlab(vel.u, vel.v, vel.w, fr.u, fr.v, fr.w, su, sv, sw, nx, ny, nz, k0, k1),
})

/**
 * enforceSolidVelocitySlab over the whole grid; with a kernel backend, as its row (split
 * across the backend's threads: three passes over every face, three times a liquid substep).
 */
export function enforceSolidVelocity(vel: MacGrid, fractions: MacGrid, obstacle: MacGrid | null = null, kernels: KernelBackend | null = null): void {
  const { nx, ny, nz } = vel
  if (kernels !== null) {
    kernels.run(ENFORCE_SOLID_VELOCITY, vel, fractions, obstacle?.u ?? null, obstacle?.v ?? null, obstacle?.w ?? null, nx, ny, nz)
    return
  }
  enforceSolidVelocitySlab(vel.u, vel.v, vel.w, fractions.u, fractions.v, fractions.w, obstacle?.u ?? null, obstacle?.v ?? null, obstacle?.w ?? null, nx, ny, nz, 0, nz)
}

/**
 * Normal component of a rigid motion (linear + angular x (x - centre)) on every face that
 * touches a cell with solid > 0; other faces are left as they are, so several obstacles can
 * be written in turn into one field (zero it first). Carlson 2004, ch. 5: a rigid body's
 * velocity field is v + omega x r.
 */
export function writeRigidObstacleVelocity(
  out: MacGrid,
  solid: SolidField,
  centre: readonly [number, number, number],
  linear: readonly [number, number, number],
  angular: readonly [number, number, number],
): void {
  const { nx, ny, nz } = out
  const spec: GridSpec = out.spec
  const { dx, origin } = spec
  const plane = nx * ny
  const [cx, cy, cz] = centre
  const [vx, vy, vz] = linear
  const [ax, ay, az] = angular
  for (let k = 0; k < nz; k++) {
    const z = origin[2] + (k + 0.5) * dx - cz
    for (let j = 0; j < ny; j++) {
      const y = origin[1] + (j + 0.5) * dx - cy
      for (let i = 0; i <= nx; i++) {
        const c = i + nx * (j + ny * k)
        if ((i < nx && solid[c] > 0) || (i > 0 && solid[c - 1] > 0)) {
          out.u[i + (nx + 1) * (j + ny * k)] = vx + ay * z - az * y
        }
      }
    }
  }
  for (let k = 0; k < nz; k++) {
    const z = origin[2] + (k + 0.5) * dx - cz
    for (let j = 0; j <= ny; j++) {
      for (let i = 0; i < nx; i++) {
        const x = origin[0] + (i + 0.5) * dx - cx
        const c = i + nx * (j + ny * k)
        if ((j < ny && solid[c] > 0) || (j > 0 && solid[c - nx] > 0)) {
          out.v[i + nx * (j + (ny + 1) * k)] = vy + az * x - ax * z
        }
      }
    }
  }
  for (let k = 0; k <= nz; k++) {
    for (let j = 0; j < ny; j++) {
      const y = origin[1] + (j + 0.5) * dx - cy
      for (let i = 0; i < nx; i++) {
        const x = origin[0] + (i + 0.5) * dx - cx
        const c = i + nx * (j + ny * k)
        if ((k < nz && solid[c] > 0) || (k > 0 && solid[c - plane] > 0)) {
          out.w[c] = vz + ax * y - ay * x
        }
      }
    }
  }
}

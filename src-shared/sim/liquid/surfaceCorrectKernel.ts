// The tracked surface's correction by the markers (surfaceTracker.ts correct; Carlson 2004
// sec. 6.2.4 after Enright et al. 2002) as three kernel-table rows run in turn, so it runs as
// these TypeScript references on the TypeScript backend and as their AssemblyScript twins
// (wasm/assembly/surfaceCorrect.ts) on the WebAssembly backend:
//   LIFT_UNREACHED:  cells no marker reaches rise to dx - rp (cell by cell: split by planes);
//   ESCAPE_CANDIDATES: each marker's escape test against phi before the markers' pass, by
//                    blocks of markers (split over the threads): a flag per marker and a
//                    count per block;
//   CORRECT_SURFACE: the flagged markers, in order: a marker's escape test reads phi as the
//                    markers before it left it, so this is one ordered loop (range 1, run on
//                    the calling thread), not split. The pass only lowers phi, and the test is
//                    a trilinear mean of phi with weights >= 0, so a marker that has not
//                    escaped before the pass cannot have escaped when its turn comes: the
//                    ordered loop retests the candidates alone. (Two ways phi can rise in the
//                    pass, a cell below -band clamped up to it and rounding in the last place
//                    of the mean, could in principle let a non-candidate escape mid-pass;
//                    such a marker now waits for the next substep's pass. The rule is the
//                    same on every thread count.) On Carlson's gears and bunnies (a million
//                    markers) the ordered loop was 110 ms a frame on the calling thread alone;
//   SOLID_MEAN:      solid cells take the mean of their non-solid neighbours (each writes a
//                    solid cell from non-solid ones, which no index writes: split by planes).
// The same bits on any split.
import { defineKernel, f32, f64, float, GRID_PLACEMENT, int, type KernelArgs, planeRow, size, struct, u8 } from '../core/kernelTable'
import { SPEED_BLOCK } from './speedKernel'
import type { MarkerParticles } from './markers'
import { lerpLattice } from './sample'
import * as kinds from './viscosity'

const SOLID = kinds.SOLID

export type CorrectMarkers = Pick<MarkerParticles, 'px' | 'py' | 'pz'>

/**
 * Cell planes [k0, k1) of LIFT_UNREACHED: cells no marker reaches within R (sums[4c] = 0) and
 * not solid are lifted to at least far = dx - rp.
 */
export function liftUnreachedSlab(phi: Float32Array, sums: Float64Array, kind: Uint8Array, far: number, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) if (sums[4 * c] === 0 && phi[c] < far && kind[c] !== SOLID) phi[c] = far
}

/**
 * Blocks [b0, b1) of SPEED_BLOCK markers: flags[q] = 1 where marker q's phi exceeds its radius
 * rp (escaped), else 0; partial[b] = the block's flags set.
 */
export function escapeCandidatesSlab(P: CorrectMarkers, phi: Float32Array, markers: number, nx: number, ny: number, nz: number, dx: number, ox: number, oy: number, oz: number, rp: number, flags: Uint8Array, partial: Float64Array, b0: number, b1: number): void {
  const inv = 1 / dx
  const { px, py, pz } = P
  for (let b = b0; b < b1; b++) {
    const end = Math.min(markers, (b + 1) * SPEED_BLOCK)
    let n = 0
    for (let q = b * SPEED_BLOCK; q < end; q++) {
      const gx = (px[q] - ox) * inv - 0.5, gy = (py[q] - oy) * inv - 0.5, gz = (pz[q] - oz) * inv - 0.5
      const escaped = lerpLattice(phi, nx, ny, nz, gx, gy, gz) > rp
      flags[q] = escaped ? 1 : 0
      if (escaped) n++
    }
    partial[b] = n
  }
}

/**
 * The markers' pass (k0 = 0 < k1: the row's one index): every candidate (flags, and partial
 * per block of SPEED_BLOCK markers, from escapeCandidatesSlab) whose phi still exceeds its
 * radius rp (escaped) lowers the centres within rp + dx to its sphere's distance (clamped at
 * -band), in marker order.
 */
export function correctSurfaceSlab(P: CorrectMarkers, phi: Float32Array, markers: number, nx: number, ny: number, nz: number, dx: number, ox: number, oy: number, oz: number, rp: number, band: number, flags: Uint8Array, partial: Float64Array, k0: number, k1: number): void {
  if (!(k0 < k1)) return
  const { px, py, pz } = P
  for (let b = 0, blocks = Math.ceil(markers / SPEED_BLOCK); b < blocks; b++) {
    if (partial[b] === 0) continue
    const end = Math.min(markers, (b + 1) * SPEED_BLOCK)
    for (let q = b * SPEED_BLOCK; q < end; q++) if (flags[q] !== 0) correctBy(px[q], py[q], pz[q], phi, nx, ny, nz, dx, ox, oy, oz, rp, band)
  }
}

/** One candidate marker at (x, y, z): if its phi still exceeds rp, the centres within rp + dx take its sphere. */
function correctBy(x: number, y: number, z: number, phi: Float32Array, nx: number, ny: number, nz: number, dx: number, ox: number, oy: number, oz: number, rp: number, band: number): void {
  const inv = 1 / dx
  const gx = (x - ox) * inv - 0.5, gy = (y - oy) * inv - 0.5, gz = (z - oz) * inv - 0.5
  const at = lerpLattice(phi, nx, ny, nz, gx, gy, gz)
  if (!(at > rp)) return
  const reach = rp + dx
  let i0 = Math.ceil(gx - reach * inv), i1 = Math.floor(gx + reach * inv)
  let j0 = Math.ceil(gy - reach * inv), j1 = Math.floor(gy + reach * inv)
  let kk0 = Math.ceil(gz - reach * inv), kk1 = Math.floor(gz + reach * inv)
  i0 = i0 > 0 ? i0 : 0
  j0 = j0 > 0 ? j0 : 0
  kk0 = kk0 > 0 ? kk0 : 0
  if (i1 > nx - 1) i1 = nx - 1
  if (j1 > ny - 1) j1 = ny - 1
  if (kk1 > nz - 1) kk1 = nz - 1
  for (let k = kk0; k <= kk1; k++) {
    const dz = oz + (k + 0.5) * dx - z
    for (let j = j0; j <= j1; j++) {
      const dy = oy + (j + 0.5) * dx - y
      let c = i0 + nx * (j + ny * k)
      for (let i = i0; i <= i1; i++, c++) {
        const dxx = ox + (i + 0.5) * dx - x
        const s = Math.sqrt(dxx * dxx + dy * dy + dz * dz) - rp
        if (s < phi[c]) phi[c] = s > -band ? s : -band
      }
    }
  }
}

/**
 * Cell planes [k0, k1) of SOLID_MEAN: solid cells take the mean of their non-solid neighbours
 * (the advection's interpolation reads them next to obstacles, and an 'air' value there would
 * eat into the liquid).
 */
export function solidMeanSlab(phi: Float32Array, kind: Uint8Array, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const plane = nx * ny
  let c = k0 * plane
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        if (kind[c] !== SOLID) continue
        let sum = 0, m = 0
        if (i > 0 && kind[c - 1] !== SOLID) (sum += phi[c - 1]), m++
        if (i < nx - 1 && kind[c + 1] !== SOLID) (sum += phi[c + 1]), m++
        if (j > 0 && kind[c - nx] !== SOLID) (sum += phi[c - nx]), m++
        if (j < ny - 1 && kind[c + nx] !== SOLID) (sum += phi[c + nx]), m++
        if (k > 0 && kind[c - plane] !== SOLID) (sum += phi[c - plane]), m++
        if (k < nz - 1 && kind[c + plane] !== SOLID) (sum += phi[c + plane]), m++
        if (m > 0) phi[c] = sum / m
      }
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** The arguments both markers' rows open with: the markers, phi, their count, the grid, the markers' radius. */
const MARKERS_IN_PHI = [struct('P', { px: 'f32', py: 'f32', pz: 'f32' }), f32('phi'), int('markers'), ...GRID_PLACEMENT, float('rp')]

/** correctSurfaceSlab as one ordered pass. */
export const CORRECT_SURFACE = defineKernel({
  name: 'correctSurface',
  args: [...MARKERS_IN_PHI, float('band'), u8('flags'), f64('partial')],
  split: 'blocks',
  // One index: the markers' order matters (see the file comment).
  range: () => 1,
  work: () => 0,
  ref: correctSurfaceSlab,
})

/** escapeCandidatesSlab over blocks [0, ceil(markers / SPEED_BLOCK)); run() returns the candidates. */
export const ESCAPE_CANDIDATES = defineKernel({
  name: 'escapeCandidates',
  args: [...MARKERS_IN_PHI, u8('flags'), f64('partial')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 2) / SPEED_BLOCK),
  work: (a) => 8 * num(a, 2),
  partials: 'partial',
  ref: escapeCandidatesSlab,
})

export const LIFT_UNREACHED = planeRow('liftUnreached', [f32('phi'), f64('sums'), u8('kind'), float('far'), int('plane'), size('nz')], 1, liftUnreachedSlab)

export const SOLID_MEAN = defineKernel({
  name: 'solidMean',
  args: [f32('phi'), u8('kind'), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 4),
  work: (a) => num(a, 2) * num(a, 3) * num(a, 4),
  ref: solidMeanSlab,
})

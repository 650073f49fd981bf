// Which cells hold liquid, and where inside them the surface is.
//
// Cells: Carlson 2004 sec. 3.2.3.3: a cell containing a marker particle is liquid, else air;
// cells fully inside an obstacle are solid (classifyCells). Once the level set exists,
// particleLevelSet relabels: liquid where phi < 0 or where at least MIN_COUNT markers are
// (sec. 6.1: a level set separates liquid from air in chapter 5). A lone marker that strayed
// just above a flat surface thus no longer makes a one-marker liquid cell whose pressure
// jolts its whole column; it flies as spray (transfer.ts) until it lands.
//
// Surface: the ghost fluid pressure needs a level set phi (negative in the liquid, Carlson
// sec. 6.2.1) to place p = 0 between cell centres. A cheap one from the markers themselves
// (Zhu & Bridson 2005, "Animating sand as a fluid", sec. 3.2): phi(x) = |x - xbar(x)| - r,
// xbar the kernel-weighted mean position of the markers within R = dx of x, r = R / 2
// (RADIUS_FRACTION), made consistent with the cell kinds (liquid cells negative, air cells
// positive), which is what theta needs. Averaging positions smooths out the jitter of single
// markers (a plain min over marker spheres leaves per-column bumps of order r that the
// pressure keeps trying to flatten, so a still pool never settles). A second estimate with
// its zero on the outermost markers (MARKER_BOUNDARY), redistanced to a true signed distance
// (redistance.ts, sec. 6.2.2), is what the frame's 'liquid' volume and volume measurements
// use. The particle level set of the surface module (liquid/surface/) meshes the surface.
import type { GridSpec, MacGrid } from '../core/grid'
import type { MarkerParticles } from './markers'
import { Redistancer } from './redistance'
import * as kinds from './viscosity'

// Imported values used in per-cell / per-marker loops are copied into module constants: an
// imported binding can cost a property load (or a getter call, under vitest's module runner)
// on every use in a hot loop.
const AIR = kinds.AIR
const LIQUID = kinds.LIQUID
const SOLID = kinds.SOLID

/**
 * Solid fraction at or above which a cell is solid (no liquid there, no unknowns, its faces
 * closed). Half, not ~1: a cell that is mostly obstacle but holds no marker would otherwise be
 * air, a p = 0 sink the liquid next to it drains into. (Obstacle faces lying exactly on grid
 * nodes make this common: corners with phi = 0 count as outside, so a cell fully inside a box
 * standing on the floor can read 0.54.)
 */
export const SOLID_CELL = 0.5

/** out = fractions with every face of a cell whose solid fraction is >= SOLID_CELL closed. */
export function closeSolidFaces(fractions: MacGrid, solid: Float32Array, out: MacGrid): void {
  out.copyFrom(fractions)
  const { nx, ny, nz } = out
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        if (solid[c] < SOLID_CELL) continue
        out.u[out.uIndex(i, j, k)] = 0
        out.u[out.uIndex(i + 1, j, k)] = 0
        out.v[out.vIndex(i, j, k)] = 0
        out.v[out.vIndex(i, j + 1, k)] = 0
        out.w[out.wIndex(i, j, k)] = 0
        out.w[out.wIndex(i, j, k + 1)] = 0
      }
    }
  }
}

/** Counts particles per cell and labels cells AIR / LIQUID / SOLID. Returns the liquid cell count. */
export function classifyCells(p: MarkerParticles, spec: GridSpec, solid: Float32Array, count: Int32Array, kind: Uint8Array): number {
  const { nx, ny, nz, dx, origin } = spec
  count.fill(0)
  const inv = 1 / dx
  for (let q = 0; q < p.count; q++) {
    const i = Math.floor((p.px[q] - origin[0]) * inv)
    const j = Math.floor((p.py[q] - origin[1]) * inv)
    const k = Math.floor((p.pz[q] - origin[2]) * inv)
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) continue
    count[i + nx * (j + ny * k)]++
  }
  let liquid = 0
  for (let c = 0; c < kind.length; c++) {
    if (solid[c] >= SOLID_CELL) kind[c] = SOLID
    else if (count[c] > 0) {
      kind[c] = LIQUID
      liquid++
    } else kind[c] = AIR
  }
  return liquid
}

/** Radius R of the averaging kernel, cells. */
export const KERNEL_RADIUS = 1
/**
 * A cell with at least this many markers is liquid whatever phi says (Carlson's rule for all
 * but lone markers). Labelling by phi < 0 alone leaves markers in cells the pressure does not
 * act on, where they pile up: in the 16^3 dam break of tests/validation/liquid the liquid lost
 * about 6% of its volume over 100 frames that way.
 */
export const MIN_COUNT = 2
/**
 * r / R for the pressure's phi. For markers filling a half-space the kernel mean of a point on
 * their boundary lies 0.246 R inside (the centroid of the (1 - s^2)^3-weighted half ball), so
 * r = 0.246 R (MARKER_BOUNDARY) puts the zero crossing on the outermost markers. The pressure
 * uses r = R / 2 (the marker spacing at 8 per cell), which puts a flat surface about 0.2 dx
 * further out, about half a marker spacing: with 0.246 R thin, sparse parts read as air, lose
 * their pressure support and compact (the dam break above lost ~19% with phi-only labels).
 */
export const RADIUS_FRACTION = 0.5
/** r / R that puts a flat layer's zero crossing on its outermost markers (volume, frame output). */
export const MARKER_BOUNDARY = 0.246

/**
 * Scratch sums for particleLevelSet: per cell the kernel weight and the weighted x, y, z at
 * 4c .. 4c + 3, side by side so a marker's splat touches one cache line per cell, not four.
 */
export class LevelSetScratch {
  readonly sums: Float64Array
  readonly redistancer: Redistancer
  constructor(n: number) {
    this.redistancer = new Redistancer(n)
    this.sums = new Float64Array(4 * n)
  }
}

/** One cell's share of a marker at squared kernel distance s2 (s^2 / R^2) at sums[a .. a + 3]. */
function addKernel(sums: Float64Array, a: number, s2: number, x: number, y: number, z: number): void {
  if (s2 >= 1) return
  // Zhu & Bridson 2005 kernel k(s) = max(0, (1 - s^2)^3).
  const t = 1 - s2
  const wq = t * t * t
  sums[a] += wq
  sums[a + 1] += wq * x
  sums[a + 2] += wq * y
  sums[a + 3] += wq * z
}

/**
 * Adds a marker at (x, y, z) to the kernel sums of the cell centres within R. Called for every
 * marker (and its wall mirrors) every substep, so the grid constants come in as arguments
 * rather than being read from the spec per call.
 */
function splatKernel(
  nx: number, ny: number, nz: number, dx: number, o0: number, o1: number, o2: number,
  x: number, y: number, z: number, R: number, invR2: number, scratch: LevelSetScratch,
): void {
  const sums = scratch.sums
  // Cell centres (i + 1/2) dx within R of the marker.
  let i0 = Math.ceil((x - R - o0) / dx - 0.5), i1 = Math.floor((x + R - o0) / dx - 0.5)
  let j0 = Math.ceil((y - R - o1) / dx - 0.5), j1 = Math.floor((y + R - o1) / dx - 0.5)
  let k0 = Math.ceil((z - R - o2) / dx - 0.5), k1 = Math.floor((z + R - o2) / dx - 0.5)
  // (x > 0 ? x : 0 also turns a -0 from Math.ceil into 0, like Math.max(0, x).)
  i0 = i0 > 0 ? i0 : 0
  j0 = j0 > 0 ? j0 : 0
  k0 = k0 > 0 ? k0 : 0
  if (i1 > nx - 1) i1 = nx - 1
  if (j1 > ny - 1) j1 = ny - 1
  if (k1 > nz - 1) k1 = nz - 1
  if (i1 === i0 + 1 && j1 === j0 + 1 && k1 === k0 + 1) {
    // Two centres per axis (R = dx: nearly every marker): the eight cells unrolled, each
    // offset and square computed once; same expressions as the loop below, so same bits.
    const ax0 = o0 + (i0 + 0.5) * dx - x, ax1 = o0 + (i1 + 0.5) * dx - x
    const ay0 = o1 + (j0 + 0.5) * dx - y, ay1 = o1 + (j1 + 0.5) * dx - y
    const az0 = o2 + (k0 + 0.5) * dx - z, az1 = o2 + (k1 + 0.5) * dx - z
    const xx0 = ax0 * ax0, xx1 = ax1 * ax1, yy0 = ay0 * ay0, yy1 = ay1 * ay1, zz0 = az0 * az0, zz1 = az1 * az1
    const c = i0 + nx * (j0 + ny * k0)
    const plane = nx * ny
    addKernel(sums, 4 * c, (xx0 + yy0 + zz0) * invR2, x, y, z)
    addKernel(sums, 4 * (c + 1), (xx1 + yy0 + zz0) * invR2, x, y, z)
    addKernel(sums, 4 * (c + nx), (xx0 + yy1 + zz0) * invR2, x, y, z)
    addKernel(sums, 4 * (c + nx + 1), (xx1 + yy1 + zz0) * invR2, x, y, z)
    addKernel(sums, 4 * (c + plane), (xx0 + yy0 + zz1) * invR2, x, y, z)
    addKernel(sums, 4 * (c + plane + 1), (xx1 + yy0 + zz1) * invR2, x, y, z)
    addKernel(sums, 4 * (c + plane + nx), (xx0 + yy1 + zz1) * invR2, x, y, z)
    addKernel(sums, 4 * (c + plane + nx + 1), (xx1 + yy1 + zz1) * invR2, x, y, z)
    return
  }
  for (let k = k0; k <= k1; k++) {
    const dz = o2 + (k + 0.5) * dx - z
    const dz2 = dz * dz
    for (let j = j0; j <= j1; j++) {
      const dy = o1 + (j + 0.5) * dx - y
      const dy2 = dy * dy
      let c = i0 + nx * (j + ny * k)
      for (let i = i0; i <= i1; i++, c++) {
        const dxx = o0 + (i + 0.5) * dx - x
        const s2 = (dxx * dxx + dy2 + dz2) * invR2
        if (s2 >= 1) continue
        // Zhu & Bridson 2005 kernel k(s) = max(0, (1 - s^2)^3).
        const t = 1 - s2
        const wq = t * t * t
        const a = 4 * c
        sums[a] += wq
        sums[a + 1] += wq * x
        sums[a + 2] += wq * y
        sums[a + 3] += wq * z
      }
    }
  }
}

/**
 * phi per cell centre from the particles (see the file comment), and `distance`, the signed
 * distance to the markers' boundary (r = MARKER_BOUNDARY R, redistanced); |values| are clamped
 * to `band` metres. Relabels the non-solid cells: LIQUID where phi < 0, else AIR; liquid cells end up
 * with phi <= -eps, the others >= +eps (eps = 1e-3 dx). closed: 1 per
 * closed domain side (xMin, xMax, yMin, yMax, zMin, zMax). redistance = false leaves
 * `distance` as the raw kernel estimate for the caller to redistance later (scratch.redistancer):
 * nothing inside a substep reads it, so the solver does that once per step, not per substep.
 */
export function particleLevelSet(
  p: MarkerParticles,
  spec: GridSpec,
  count: Int32Array,
  kind: Uint8Array,
  phi: Float32Array,
  distance: Float32Array,
  band: number,
  scratch: LevelSetScratch,
  closed: Uint8Array,
  redistance = true,
): void {
  const { nx, ny, nz, dx, origin } = spec
  const R = KERNEL_RADIUS * dx
  const r = RADIUS_FRACTION * R
  const sums = scratch.sums
  sums.fill(0)
  const lo0 = origin[0], lo1 = origin[1], lo2 = origin[2]
  const invR2 = 1 / (R * R)
  const hi0 = lo0 + nx * dx, hi1 = lo1 + ny * dx, hi2 = lo2 + nz * dx
  for (let q = 0; q < p.count; q++) {
    const x = p.px[q], y = p.py[q], z = p.pz[q]
    // Markers within R of a closed side are mirrored across it, so the mean position near a
    // wall is not pulled away from the wall (that would read as a dip of the surface at every
    // wall, which the pressure would chase forever).
    const mx = closed[0] && x - lo0 < R ? 2 * lo0 - x : closed[1] && hi0 - x < R ? 2 * hi0 - x : NaN
    const my = closed[2] && y - lo1 < R ? 2 * lo1 - y : closed[3] && hi1 - y < R ? 2 * hi1 - y : NaN
    const mz = closed[4] && z - lo2 < R ? 2 * lo2 - z : closed[5] && hi2 - z < R ? 2 * hi2 - z : NaN
    if (mx !== mx && my !== my && mz !== mz) {
      // No wall within R (most markers): just the marker itself.
      if (x === x && y === y && z === z) splatKernel(nx, ny, nz, dx, lo0, lo1, lo2, x, y, z, R, invR2, scratch)
      continue
    }
    for (let m = 0; m < 8; m++) {
      const X = m & 1 ? mx : x, Y = m & 2 ? my : y, Z = m & 4 ? mz : z
      if (X !== X || Y !== Y || Z !== Z) continue
      splatKernel(nx, ny, nz, dx, lo0, lo1, lo2, X, Y, Z, R, invR2, scratch)
    }
  }
  const eps = 1e-3 * dx
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        let v = band
        let vm = band
        const wc = sums[4 * c]
        if (wc > 0) {
          // phi = |x - xbar| - r, xbar the kernel-weighted mean of the nearby markers.
          const ax = origin[0] + (i + 0.5) * dx - sums[4 * c + 1] / wc
          const ay = origin[1] + (j + 0.5) * dx - sums[4 * c + 2] / wc
          const az = origin[2] + (k + 0.5) * dx - sums[4 * c + 3] / wc
          const dist = Math.sqrt(ax * ax + ay * ay + az * az)
          v = Math.min(dist - r, band)
          vm = Math.min(dist - MARKER_BOUNDARY * R, band)
        }
        distance[c] = vm
        // Liquid where phi < 0 (the level set separates liquid from air, Carlson sec. 6.1);
        // a lone marker that strayed just above a flat surface reads phi > 0 and does not
        // make a one-marker liquid cell whose pressure would jolt the whole column.
        if (kind[c] !== SOLID) kind[c] = v < 0 || count[c] >= MIN_COUNT ? LIQUID : AIR
        phi[c] = kind[c] === LIQUID ? (v < 0 ? v : -eps) : v < eps ? eps : v
      }
    }
  }
  // The pressure reads the crossings of phi (theta). `distance` is for everything that wants
  // the liquid's extent: the same kernel estimate with its zero on the markers' boundary
  // (MARKER_BOUNDARY), redistanced.
  if (redistance) scratch.redistancer.run(distance, nx, ny, nz, dx, band)
}

/**
 * Liquid volume, m^3. A liquid cell with no air neighbour (across a face) is full: its open
 * share 1 - solid. Any other cell holds clamp(1/2 - phi/dx, 0, 1) (exact for a grid-aligned
 * plane), capped by its open share. Only cells at the free surface read phi, so the estimate's
 * bias next to walls and obstacles (the kernel mean is pushed away from them) does not count.
 */
export function levelSetVolume(phi: Float32Array, kind: Uint8Array, solid: Float32Array, nx: number, ny: number, nz: number, dx: number): number {
  const plane = nx * ny
  let s = 0
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        const open = 1 - solid[c]
        if (kind[c] === LIQUID) {
          const airNext =
            (i > 0 && kind[c - 1] === AIR) ||
            (i < nx - 1 && kind[c + 1] === AIR) ||
            (j > 0 && kind[c - nx] === AIR) ||
            (j < ny - 1 && kind[c + nx] === AIR) ||
            (k > 0 && kind[c - plane] === AIR) ||
            (k < nz - 1 && kind[c + plane] === AIR)
          if (!airNext) {
            s += open
            continue
          }
        }
        let f = 0.5 - phi[c] / dx
        f = f > 0 ? (f < 1 ? f : 1) : 0
        s += f < open ? f : open
      }
    }
  }
  return s * dx * dx * dx
}

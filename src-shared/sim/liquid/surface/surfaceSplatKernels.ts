// The surface mesher's particle splat and phi (particleLevelSet.ts ParticleLevelSet.compute,
// Zhu & Bridson 2005) as a kernel-table row, so it runs as this TypeScript reference on the
// TypeScript backend and as its AssemblyScript twin (wasm/assembly/surfaceSplat.ts) split over
// z-planes of nodes on the WebAssembly backend's threads.
//
// The node arrays hold a window of the node grid's z-planes (from plane kBase), so the mesher
// can sweep the grid a window at a time (particleLevelSet.ts). A call covers window planes
// [k0, k1): it zeroes their sums, adds the bucket-sorted particles [first, last) and their wall
// mirrors to the interior nodes of its planes in particle order (so each node's float32 sums
// are the same bits whatever the split or the window), then turns the sums into phi there.
import { defineKernel, f32, float, int, type KernelArgs, size, struct } from '../../core/kernelTable'

/** Per node: sum k (phi's array until the end of the call) and sum k (x_i - x) per axis. */
export interface SurfaceSums {
  ws: Float32Array
  sx: Float32Array
  sy: Float32Array
  sz: Float32Array
}

/**
 * Adds a particle at (px, py, pz) to the kernel sums of the interior nodes within R, grid
 * planes [ka, kb), stored from plane kBase.
 */
function splat(S: SurfaceSums, nx: number, ny: number, nz: number, kBase: number, ox: number, oy: number, oz: number, h: number, R: number, px: number, py: number, pz: number, ka: number, kb: number): void {
  const { ws, sx, sy, sz } = S
  const R2 = R * R, invR2 = 1 / R2, invH = 1 / h, plane = nx * ny
  // Interior nodes only: padding nodes (index 0 and n - 1) must stay outside.
  const i0 = Math.max(1, Math.ceil((px - R - ox) * invH)), i1 = Math.min(nx - 2, Math.floor((px + R - ox) * invH))
  const j0 = Math.max(1, Math.ceil((py - R - oy) * invH)), j1 = Math.min(ny - 2, Math.floor((py + R - oy) * invH))
  const k0 = Math.max(1, ka, Math.ceil((pz - R - oz) * invH)), k1 = Math.min(nz - 2, kb - 1, Math.floor((pz + R - oz) * invH))
  for (let k = k0; k <= k1; k++) {
    const ez = pz - (oz + k * h)
    for (let j = j0; j <= j1; j++) {
      const ey = py - (oy + j * h)
      const dyz = ey * ey + ez * ez
      if (dyz >= R2) continue
      const row = nx * j + plane * (k - kBase)
      for (let i = i0; i <= i1; i++) {
        const ex = px - (ox + i * h)
        const d2 = ex * ex + dyz
        if (d2 >= R2) continue
        const q = 1 - d2 * invR2
        const w = q * q * q // k(s) = (1 - s^2)^3, s = d / R
        const m = row + i
        ws[m] += w
        sx[m] += w * ex
        sy[m] += w * ey
        sz[m] += w * ez
      }
    }
  }
}

/**
 * Node planes kBase + [k0, k1) of the particle level set (array planes [k0, k1)): particles
 * [first, last) of `sorted` (x, y, z per particle, bucket order; every particle within R of
 * those planes) and their mirror images across the domain walls lo, hi within R (ghost
 * particles: at a wall the kernel mean sees liquid on both sides, so the surface meets the
 * wall flush), then phi = |sum k (x_i - x)| / sum k - rad, or `far` where no particle is
 * within R. Nodes: nx * ny * nz from (ox, oy, oz), spacing h.
 */
export function surfaceSplatSlab(
  S: SurfaceSums,
  sorted: Float32Array,
  first: number,
  last: number,
  nx: number,
  ny: number,
  nz: number,
  kBase: number,
  ox: number,
  oy: number,
  oz: number,
  h: number,
  R: number,
  lo0: number,
  lo1: number,
  lo2: number,
  hi0: number,
  hi1: number,
  hi2: number,
  rad: number,
  far: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  const m0 = k0 * plane, m1 = k1 * plane
  const { ws, sx, sy, sz } = S
  ws.fill(0, m0, m1)
  sx.fill(0, m0, m1)
  sy.fill(0, m0, m1)
  sz.fill(0, m0, m1)
  const ka = kBase + k0, kb = kBase + k1
  for (let s = first; s < last; s++) {
    const x = sorted[3 * s], y = sorted[3 * s + 1], z = sorted[3 * s + 2]
    // The images of each coordinate: itself, and its mirror across each wall within R.
    const zm = z - lo2 < R ? 2 * lo2 - z : NaN, zp = hi2 - z < R ? 2 * hi2 - z : NaN
    const ym = y - lo1 < R ? 2 * lo1 - y : NaN, yp = hi1 - y < R ? 2 * hi1 - y : NaN
    const xm = x - lo0 < R ? 2 * lo0 - x : NaN, xp = hi0 - x < R ? 2 * hi0 - x : NaN
    for (let c = 0; c < 3; c++) {
      const Z = c === 0 ? z : c === 1 ? zm : zp
      if (c > 0 && Z !== Z) continue
      for (let b = 0; b < 3; b++) {
        const Y = b === 0 ? y : b === 1 ? ym : yp
        if (b > 0 && Y !== Y) continue
        for (let a = 0; a < 3; a++) {
          const X = a === 0 ? x : a === 1 ? xm : xp
          if (a > 0 && X !== X) continue
          splat(S, nx, ny, nz, kBase, ox, oy, oz, h, R, X, Y, Z, ka, kb)
        }
      }
    }
  }
  // |x - xbar| - r with xbar - x = sum k (x_i - x) / sum k; far where no particle is within R.
  for (let m = m0; m < m1; m++) {
    const w = ws[m]
    ws[m] = w > 0 ? Math.sqrt(sx[m] * sx[m] + sy[m] * sy[m] + sz[m] * sz[m]) / w - rad : far
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** surfaceSplatSlab over the window's planes [0, planes). */
export const SURFACE_SPLAT = defineKernel({
  name: 'surfaceSplat',
  args: [
    struct('S', { ws: 'f32', sx: 'f32', sy: 'f32', sz: 'f32' }),
    f32('sorted'),
    int('first'),
    int('last'),
    int('nx'),
    int('ny'),
    int('nz'),
    int('kBase'),
    size('planes'),
    float('ox'),
    float('oy'),
    float('oz'),
    float('h'),
    float('R'),
    float('lo0'),
    float('lo1'),
    float('lo2'),
    float('hi0'),
    float('hi1'),
    float('hi2'),
    float('rad'),
    float('far'),
    size('balance'),
  ],
  split: 'planes',
  range: (a) => num(a, 8),
  // Each thread reads the window's every particle; (2R / h)^3 nodes a particle, about 30 at refinement 2.
  work: (a) => 30 * (num(a, 3) - num(a, 2)) + num(a, 4) * num(a, 5) * num(a, 8),
  // The planes' splats by the particles near each (particleLevelSet.ts planeBalance): a pool's
  // liquid fills some planes of the window and not others.
  balance: (a) => a[22] as Float64Array | null,
  ref: surfaceSplatSlab,
})

// The viscosity system's product (viscosity.ts, ViscositySystem.applyUnknownRows) as a
// kernel-table row: A x = (M + K) x on the unknown faces, K = sum_s w_s g_s g_s^T over the
// sites with a weight, each site scattering its stress difference into its faces in the
// order of the site lists. The scatters into shared faces make it serial: one index, on the
// calling thread (on WebAssembly: about twice TypeScript's speed on the melting bunny, where
// the solve takes ~100 iterations a substep). Twin: wasm/assembly/viscous.ts, the same
// operations in the same order, so the same bits.
import { defineKernel, f64, float, i32, int, size, u8 } from '../core/kernelTable'
import { colourPairAt, colourPairs } from './colourPairs'

/** The sites of a set-up system (viscosity.ts listSites), as accumulate reads them. */
export interface ViscousSiteLists {
  cellSites: Int32Array
  cellCount: number
  wCell: Float64Array
  edgeFaces: Int32Array
  edgeW: Float64Array
  edgeG: Uint8Array
  edgeCount: number
}

/**
 * out += K src (faces beyond the domain, index -1, read as 0). Cell sites: each component's
 * difference along its own axis; edge site t: the pair (a0 -> a1) of one component and
 * (b0 -> b1) of the other, edgeFaces[4t .. 4t+3], weight edgeW[t]; edgeG[t] bit 0 / bit 1:
 * that pair spans a wall and its difference is doubled (the reflected ghost). full = 1: one
 * shear strain nu (du/dy + dv/dx) shared by both pairs (Batty & Bridson 2008); 0: each pair on
 * its own (Carlson 2004 eq. 57).
 */
export function viscousAccumulate(
  src: Float64Array,
  out: Float64Array,
  cellSites: Int32Array,
  cellCount: number,
  wCell: Float64Array,
  edgeFaces: Int32Array,
  edgeW: Float64Array,
  edgeG: Uint8Array,
  edgeCount: number,
  nx: number,
  ny: number,
  nu: number,
  nv: number,
  full: number,
): void {
  const ov = nu, ow = nu + nv
  const plane = nx * ny
  for (let t = 0; t < cellCount; t++) {
    const c = cellSites[t]
    const w = wCell[c]
    const row = (c / nx) | 0 // j + ny k
    const k = (row / ny) | 0
    const u0 = c + row // i + (nx + 1)(j + ny k)
    let d = w * (src[u0 + 1] - src[u0])
    out[u0 + 1] += d
    out[u0] -= d
    const v0 = ov + c + nx * k // i + nx (j + (ny + 1) k)
    d = w * (src[v0 + nx] - src[v0])
    out[v0 + nx] += d
    out[v0] -= d
    const w0 = ow + c
    d = w * (src[w0 + plane] - src[w0])
    out[w0 + plane] += d
    out[w0] -= d
  }
  for (let t = 0; t < edgeCount; t++) {
    const w = edgeW[t], flags = edgeG[t]
    const a0 = edgeFaces[4 * t], a1 = edgeFaces[4 * t + 1], b0 = edgeFaces[4 * t + 2], b1 = edgeFaces[4 * t + 3]
    const ca = flags & 1 ? 2 : 1, cb = flags & 2 ? 2 : 1
    const da = ca * ((a1 >= 0 ? src[a1] : 0) - (a0 >= 0 ? src[a0] : 0))
    const db = cb * ((b1 >= 0 ? src[b1] : 0) - (b0 >= 0 ? src[b0] : 0))
    let ta: number, tb: number
    if (full !== 0) {
      const s = w * (da + db)
      ta = ca * s
      tb = cb * s
    } else {
      ta = w * ca * da
      tb = w * cb * db
    }
    if (a1 >= 0) out[a1] += ta
    if (a0 >= 0) out[a0] -= ta
    if (b1 >= 0) out[b1] += tb
    if (b0 >= 0) out[b0] -= tb
  }
}

/**
 * out = A x on the unknown faces (faces[0 .. faceCount)), or r = b - A x there when b is
 * given; tmp holds x on the unknowns (+0 elsewhere), the wall faces the sites reach get x back,
 * other rows of out are not written. One index: [k0, k1) = [0, 1).
 */
export function viscousApplySlab(
  x: Float64Array,
  out: Float64Array,
  b: Float64Array | null,
  tmp: Float64Array,
  mass: Float64Array,
  faces: Int32Array,
  faceCount: number,
  wallFaces: Int32Array,
  wallCount: number,
  cellSites: Int32Array,
  cellCount: number,
  wCell: Float64Array,
  edgeFaces: Int32Array,
  edgeW: Float64Array,
  edgeG: Uint8Array,
  edgeCount: number,
  nx: number,
  ny: number,
  nu: number,
  nv: number,
  full: number,
  k0: number,
  k1: number,
): void {
  if (k0 >= k1) return
  for (let t = 0; t < faceCount; t++) {
    const f = faces[t]
    tmp[f] = x[f]
    out[f] = 0
  }
  viscousAccumulate(tmp, out, cellSites, cellCount, wCell, edgeFaces, edgeW, edgeG, edgeCount, nx, ny, nu, nv, full)
  for (let t = 0; t < wallCount; t++) out[wallFaces[t]] = x[wallFaces[t]]
  if (b === null) {
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      out[f] = mass[f] * tmp[f] + out[f]
    }
  } else {
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      out[f] = b[f] - (mass[f] * tmp[f] + out[f])
    }
  }
}

/** viscousApplySlab; args as its signature before (k0, k1). */
export const VISCOUS_APPLY = defineKernel({
  name: 'viscousApply',
  args: [
    f64('x'),
    f64('out'),
    f64('b', true),
    f64('tmp'),
    f64('mass'),
    i32('faces'),
    int('faceCount'),
    i32('wallFaces'),
    int('wallCount'),
    i32('cellSites'),
    int('cellCount'),
    f64('wCell'),
    i32('edgeFaces'),
    f64('edgeW'),
    u8('edgeG'),
    int('edgeCount'),
    int('nx'),
    int('ny'),
    int('nu'),
    int('nv'),
    int('full'),
  ],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  ref: viscousApplySlab,
})

// The viscosity multigrid's smoother and residual (viscousMultigrid.ts Level.sweep / residual)
// over a list of active nodes of one level: padded indices into 7-point operator arrays (diag,
// links to the +x / +y / +z neighbour), row stride sx, plane stride plane. A half sweep visits
// the nodes of one colour, none of which reads another's value, and the residual writes each
// node's own entry, so any split of the list over threads gives the same bits.

/** x_f = (b_f + sum of links x neighbour) / d_f for the listed nodes order[q], q in [q0, q1) (offset by begin). */
export function vmgSweepSlab(diag: Float64Array, lx: Float64Array, ly: Float64Array, lz: Float64Array, x: Float64Array, b: Float64Array, order: Int32Array, begin: number, sx: number, plane: number, q0: number, q1: number): void {
  for (let q = begin + q0; q < begin + q1; q++) {
    const f = order[q]
    x[f] = (b[f] + lx[f] * x[f + 1] + lx[f - 1] * x[f - 1] + ly[f] * x[f + sx] + ly[f - sx] * x[f - sx] + lz[f] * x[f + plane] + lz[f - plane] * x[f - plane]) / diag[f]
  }
}

/**
 * r_f = b_f - d_f x_f + sum of links x neighbour for the listed nodes of colour pairs [q0, q1)
 * (colourPairs.ts; red: the level's red count).
 */
export function vmgResidualSlab(diag: Float64Array, lx: Float64Array, ly: Float64Array, lz: Float64Array, x: Float64Array, b: Float64Array, r: Float64Array, order: Int32Array, red: number, count: number, sx: number, plane: number, q0: number, q1: number): void {
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const f = order[q]
      r[f] = b[f] - diag[f] * x[f] + lx[f] * x[f + 1] + lx[f - 1] * x[f - 1] + ly[f] * x[f + sx] + ly[f - sx] * x[f - sx] + lz[f] * x[f + plane] + lz[f - plane] * x[f - plane]
    }
  }
}

/** vmgSweepSlab over count listed nodes from begin. Args: diag, lx, ly, lz, x, b, order, begin, sx, plane, count. */
export const VMG_SWEEP = defineKernel({
  name: 'vmgSweep',
  args: [f64('diag'), f64('lx'), f64('ly'), f64('lz'), f64('x'), f64('b'), i32('order'), int('begin'), int('sx'), int('plane'), size('count')],
  split: 'rows',
  range: (a) => a[10] as number,
  // Seven products a node; the pool runs small levels on the calling thread.
  work: (a) => 7 * (a[10] as number),
  ref: vmgSweepSlab,
})

/** vmgResidualSlab over count listed nodes, red of them red. Args: diag, lx, ly, lz, x, b, r, order, red, count, sx, plane. */
export const VMG_RESIDUAL = defineKernel({
  name: 'vmgResidual',
  args: [f64('diag'), f64('lx'), f64('ly'), f64('lz'), f64('x'), f64('b'), f64('r'), i32('order'), int('red'), int('count'), int('sx'), int('plane')],
  split: 'rows',
  range: (a) => colourPairs(a[8] as number, a[9] as number),
  work: (a) => 7 * (a[9] as number),
  ref: vmgResidualSlab,
})

// The viscosity PCG's vector kernels over the unknown faces (viscosity.ts UnknownFaceOps): each
// a serial pass in the list's order, so a reduction adds in that order on any backend (one
// partial, range 1).

/** partial[0] = sum over the list of a[f] b[f]. */
export function viscousDotSlab(a: Float64Array, b: Float64Array, faces: Int32Array, count: number, partial: Float64Array, k0: number, k1: number): void {
  if (k0 >= k1) return
  let s = 0
  for (let t = 0; t < count; t++) {
    const f = faces[t]
    s += a[f] * b[f]
  }
  partial[0] = s
}

/** x += alpha s, r -= alpha q on the list; partial[0] = |r|^2 over it. */
export function viscousUpdateIterateSlab(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number, faces: Int32Array, count: number, partial: Float64Array, k0: number, k1: number): void {
  if (k0 >= k1) return
  let rr = 0
  for (let t = 0; t < count; t++) {
    const f = faces[t]
    x[f] += alpha * s[f]
    const rf = r[f] - alpha * q[f]
    r[f] = rf
    rr += rf * rf
  }
  partial[0] = rr
}

/** s = z + beta s on the list. */
export function viscousUpdateSearchSlab(s: Float64Array, z: Float64Array, beta: number, faces: Int32Array, count: number, k0: number, k1: number): void {
  if (k0 >= k1) return
  for (let t = 0; t < count; t++) {
    const f = faces[t]
    s[f] = z[f] + beta * s[f]
  }
}

export const VISCOUS_DOT = defineKernel({
  name: 'viscousDot',
  args: [f64('a'), f64('b'), i32('faces'), int('count'), f64('partial')],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  partials: 'partial',
  ref: viscousDotSlab,
})

export const VISCOUS_UPDATE_ITERATE = defineKernel({
  name: 'viscousUpdateIterate',
  args: [f64('x'), f64('r'), f64('s'), f64('q'), float('alpha'), i32('faces'), int('count'), f64('partial')],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  partials: 'partial',
  ref: viscousUpdateIterateSlab,
})

export const VISCOUS_UPDATE_SEARCH = defineKernel({
  name: 'viscousUpdateSearch',
  args: [f64('s'), f64('z'), float('beta'), i32('faces'), int('count')],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  ref: viscousUpdateSearchSlab,
})

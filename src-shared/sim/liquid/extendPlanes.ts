// The breadth-first extension of core/extrapolate.ts (extrapolateLayers: each unknown sample takes
// the mean of its neighbours known before its layer, Carlson 2004 sec. 6.3.2) run one layer at
// a time over z-planes, so every thread shares every layer. The three face lattices of a
// velocity used to run side by side, one a thread: on two threads one thread did two of them
// while the other waited (about a third of the extension's time).
//
// Why a layer can be split by planes with no locks and the same bits: a sample set in layer L
// reads only neighbours whose mark is below L + 1 (known on entry or set in an earlier layer,
// so written by an earlier call of the row), and the only marks another thread writes during
// the layer are QUEUED and L + 1, which the test excludes whichever it sees. Which samples
// join layer L is decided in the sample's own plane, from marks that cannot change during the
// layer: mark 1 (entry) for layer 1, and for later layers the lists of the samples that layer
// L - 1 set in the plane and its two neighbours. So each sample gets the value and the mark
// the sequential pass gives it, on any thread count and split (tests/unit/sim/liquid/
// extendPlanes.test.ts).
//
// Lists: per plane, the samples a layer set there, as i + (j << 16) (the plane is the list's),
// in two buffers that alternate by layer (layer L writes buffer L & 1 and reads L - 1's). A
// plane's list has room for the whole plane. counts[b P + p] is plane p's count in buffer b;
// counts[2 P + p] is 1 when plane p held a mark above 1 on entry (a second extension over the
// same marks): as in extrapolateLayers, later layers then scan every unknown sample of the
// plane instead (later entry marks join later layers without neighbouring the last one).
// Twin: wasm/assembly/extendPlanes.ts.
import type { KernelBackend } from '../core/kernelBackend'
import { defineKernel, f32, i32, int, type KernelArgs, u8 } from '../core/kernelTable'
import { average as averageOf } from '../core/extrapolate'

// Used per sample: a module constant, not an imported binding (see particleMotion.ts).
const average = averageOf

/** Mark of a sample queued for the current layer (core/extrapolate.ts: never below a limit). */
const QUEUED = 255

/** Planes of the row's range: the three face lattices interleaved (3 nz + 1), or nz cell planes. */
export function extensionPlanes(nz: number, cells: number): number {
  return cells ? nz : 3 * nz + 1
}

/** Samples of every lattice the row covers. */
function latticeSamples(nx: number, ny: number, nz: number, cells: number): number {
  return cells ? nx * ny * nz : (nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1)
}

/** Int32 entries of the row's lists: two buffers with room for every sample. */
export function extensionListInts(nx: number, ny: number, nz: number, cells: number): number {
  return 2 * latticeSamples(nx, ny, nz, cells)
}

/** Int32 entries of the row's counts and entry flags. */
export function extensionCountInts(nz: number, cells: number): number {
  return 3 * extensionPlanes(nz, cells)
}

/** Queues sample (i, j) of the plane (index c) at list[at + n]; returns n + 1. */
function push(mark: Uint8Array, list: Int32Array, at: number, n: number, c: number, i: number, j: number): number {
  mark[c] = QUEUED
  list[at + n] = i | (j << 16)
  return n + 1
}

/** Queues the unknown in-plane neighbours of sample c = (i, j); returns the new length. */
function queueInPlane(mark: Uint8Array, list: Int32Array, at: number, n: number, c: number, i: number, j: number, sx: number, sy: number): number {
  if (i > 0 && mark[c - 1] === 0) n = push(mark, list, at, n, c - 1, i - 1, j)
  if (i < sx - 1 && mark[c + 1] === 0) n = push(mark, list, at, n, c + 1, i + 1, j)
  if (j > 0 && mark[c - sx] === 0) n = push(mark, list, at, n, c - sx, i, j - 1)
  if (j < sy - 1 && mark[c + sx] === 0) n = push(mark, list, at, n, c + sx, i, j + 1)
  return n
}

/**
 * One layer of the extension over the row's planes [p0, p1): plane p is plane k = floor(p / 3)
 * of face lattice p % 3 (u, v, w; the last index is w's plane nz), or cell plane p when `cells`
 * (one lattice nx x ny x nz in fu / mu; fv, fw, mv, mw unused). Samples the layers do not
 * reach keep their values. `full`: layers >= 2 scan every unknown sample (marks above 1 on
 * entry somewhere).
 */
export function extendLayerSlab(fu: Float32Array, fv: Float32Array, fw: Float32Array, mu: Uint8Array, mv: Uint8Array, mw: Uint8Array, nx: number, ny: number, nz: number, cells: number, layer: number, full: number, lists: Int32Array, counts: Int32Array, p0: number, p1: number): void {
  const P = extensionPlanes(nz, cells)
  const half = latticeSamples(nx, ny, nz, cells)
  const lim = layer + 1
  const nextBuf = (layer & 1) * half, prevBuf = half - nextBuf
  for (let p = p0; p < p1; p++) {
    let a = 0, k = p
    if (!cells) {
      k = Math.floor(p / 3)
      a = k === nz ? 2 : p - 3 * k
    }
    const f = a === 0 ? fu : a === 1 ? fv : fw
    const mark = a === 0 ? mu : a === 1 ? mv : mw
    const sx = !cells && a === 0 ? nx + 1 : nx, sy = !cells && a === 1 ? ny + 1 : ny, sz = !cells && a === 2 ? nz + 1 : nz
    const sxy = sx * sy, base = k * sxy
    // This lattice's lists start after the lattices before it; plane k's after k planes.
    const lattice0 = cells || a === 0 ? 0 : a === 1 ? (nx + 1) * ny * nz : (nx + 1) * ny * nz + nx * (ny + 1) * nz
    const at = nextBuf + lattice0 + base
    let n = 0
    if (layer === 1) {
      // Layer 1: the unknown samples of the plane with a known neighbour (mark 1 stays 1
      // during the layer, in this plane and the others).
      let above1 = 0
      for (let j = 0; j < sy; j++) {
        let c = base + sx * j
        for (let i = 0; i < sx; i++, c++) {
          const m = mark[c]
          if (m === 0) {
            if ((i > 0 && mark[c - 1] === 1) || (i < sx - 1 && mark[c + 1] === 1) || (j > 0 && mark[c - sx] === 1) || (j < sy - 1 && mark[c + sx] === 1) || (k > 0 && mark[c - sxy] === 1) || (k < sz - 1 && mark[c + sxy] === 1)) {
              n = push(mark, lists, at, n, c, i, j)
            }
          } else if (m !== 1 && m !== QUEUED) above1 = 1
        }
      }
      counts[2 * P + p] = above1
    } else if (full) {
      for (let j = 0; j < sy; j++) {
        let c = base + sx * j
        for (let i = 0; i < sx; i++, c++) if (mark[c] === 0) average(f, mark, c, i, j, k, sx, sy, sz, sxy, lim)
      }
      continue
    } else {
      // Unknown neighbours of the samples the last layer set: in-plane ones of this plane's,
      // and the samples straight above and below the neighbouring planes'.
      const from = prevBuf + lattice0
      for (let t = from + base, end = t + counts[prevIndex(layer, P, p)]; t < end; t++) {
        const e = lists[t], i = e & 0xffff, j = e >>> 16
        n = queueInPlane(mark, lists, at, n, base + i + sx * j, i, j, sx, sy)
      }
      for (let d = -1; d <= 1; d += 2) {
        const kk = k + d
        if (kk < 0 || kk >= sz) continue
        // (w's plane nz is the row's last index; its neighbour below is w's plane nz - 1.)
        const pp = cells ? kk : a === 2 && kk === nz ? 3 * nz : 3 * kk + a
        for (let t = from + kk * sxy, end = t + counts[prevIndex(layer, P, pp)]; t < end; t++) {
          const e = lists[t], i = e & 0xffff, j = e >>> 16
          const c = base + i + sx * j
          if (mark[c] === 0) n = push(mark, lists, at, n, c, i, j)
        }
      }
    }
    // Every queued sample has a neighbour set in the last layer (or known, in layer 1).
    for (let t = at, end = at + n; t < end; t++) {
      const e = lists[t], i = e & 0xffff, j = e >>> 16
      average(f, mark, base + i + sx * j, i, j, k, sx, sy, sz, sxy, lim)
    }
    counts[(layer & 1) * P + p] = n
  }
}

/** Index in counts of plane p's count in the buffer layer - 1 wrote. */
function prevIndex(layer: number, P: number, p: number): number {
  return ((layer - 1) & 1) * P + p
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** extendLayerSlab over the row's planes (extensionPlanes). */
export const EXTEND_LAYER = defineKernel({
  name: 'extendLayer',
  args: [f32('fu'), f32('fv'), f32('fw'), u8('mu'), u8('mv'), u8('mw'), int('nx'), int('ny'), int('nz'), int('cells'), int('layer'), int('full'), i32('lists'), i32('counts')],
  split: 'planes',
  range: (a) => extensionPlanes(num(a, 8), num(a, 9)),
  // Layer 1 and full scans read every sample; later layers about six marks around each of
  // the last layer's samples.
  work: (a, n) => {
    const layer = num(a, 10)
    if (layer === 1 || num(a, 11) !== 0) return latticeSamples(num(a, 6), num(a, 7), num(a, 8), num(a, 9))
    const counts = a[13] as Int32Array
    let last = 0
    for (let p = 0, o = prevIndex(layer, n, 0); p < n; p++) last += counts[o + p]
    return 8 * last
  },
  // The band's planes cost what they hold: pieces, taken as threads finish.
  piecesPerThread: 4,
  ref: extendLayerSlab,
})

/** Lattices, marks and lists of one extension (extendInLayers). */
export interface ExtensionFields {
  fu: Float32Array
  fv: Float32Array
  fw: Float32Array
  mu: Uint8Array
  mv: Uint8Array
  mw: Uint8Array
}

/**
 * extrapolateLayers on the three face lattices of (nx, ny, nz) (cells 0) or on one cell
 * lattice (cells 1, fu / mu), layer by layer on the kernels; samples beyond the reach keep
 * their values (the liquid's splat and APPLY_CHANGE leave its unknown faces at 0). `lists` and `counts` are kernel memory of at least
 * extensionListInts and extensionCountInts entries, contents irrelevant (scratch).
 */
export function extendInLayers(kernels: KernelBackend, x: ExtensionFields, nx: number, ny: number, nz: number, cells: number, layers: number, lists: Int32Array, counts: Int32Array): void {
  if (layers < 1) return
  const P = extensionPlanes(nz, cells)
  const run = (layer: number, full: number) => kernels.run(EXTEND_LAYER, x.fu, x.fv, x.fw, x.mu, x.mv, x.mw, nx, ny, nz, cells, layer, full, lists, counts)
  run(1, 0)
  let full = 0
  for (let p = 0; p < P; p++) full |= counts[2 * P + p]
  for (let layer = 2; layer <= layers; layer++) {
    if (!full) {
      // Nothing set in the last layer: nothing can join this one (extrapolateLayers stops too).
      let last = 0
      for (let p = 0, o = prevIndex(layer, P, 0); p < P; p++) last += counts[o + p]
      if (last === 0) break
    }
    run(layer, full)
  }
}

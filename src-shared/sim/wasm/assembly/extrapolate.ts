// The liquid's extension of face velocities into the air (reference: src-shared/sim/liquid/
// extrapolate.ts extrapolateLayers and extendFacesSlab): breadth-first layers, each unknown
// sample taking the mean of its neighbours known before its layer. One call extends whole
// lattices (one per index of [a0, a1)) sequentially, with the reference's visiting order and
// float64 sums: the same bits. Worklists hold sample indices only; (i, j, k) are recovered by
// division (the reference stores them to avoid that in JavaScript).
import { rf32, ru8, wf32 } from './common'

const QUEUED: i32 = 255

@inline function average(f: usize, mark: usize, c: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32, sxy: i32, lim: i32): bool {
  let s: f64 = 0
  let n: i32 = 0
  let m: i32
  if (i > 0) {
    m = ru8(mark, c - 1)
    if (m != 0 && m < lim) {
      s += rf32(f, c - 1)
      n++
    }
  }
  if (i < sx - 1) {
    m = ru8(mark, c + 1)
    if (m != 0 && m < lim) {
      s += rf32(f, c + 1)
      n++
    }
  }
  if (j > 0) {
    m = ru8(mark, c - sx)
    if (m != 0 && m < lim) {
      s += rf32(f, c - sx)
      n++
    }
  }
  if (j < sy - 1) {
    m = ru8(mark, c + sx)
    if (m != 0 && m < lim) {
      s += rf32(f, c + sx)
      n++
    }
  }
  if (k > 0) {
    m = ru8(mark, c - sxy)
    if (m != 0 && m < lim) {
      s += rf32(f, c - sxy)
      n++
    }
  }
  if (k < sz - 1) {
    m = ru8(mark, c + sxy)
    if (m != 0 && m < lim) {
      s += rf32(f, c + sxy)
      n++
    }
  }
  if (n == 0) return false
  wf32(f, c, s / <f64>n)
  store<u8>(mark + <usize>c, <u8>lim)
  return true
}

@inline function push(mark: usize, list: usize, n: i32, c: i32): i32 {
  store<u8>(mark + <usize>c, <u8>QUEUED)
  store<i32>(list + (<usize>n << 2), c)
  return n + 1
}

/** Queues the unknown (mark 0) neighbours of sample c = (i, j, k); returns the new length. */
@inline function queueAround(mark: usize, list: usize, n: i32, c: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32, sxy: i32): i32 {
  if (i > 0 && ru8(mark, c - 1) == 0) n = push(mark, list, n, c - 1)
  if (i < sx - 1 && ru8(mark, c + 1) == 0) n = push(mark, list, n, c + 1)
  if (j > 0 && ru8(mark, c - sx) == 0) n = push(mark, list, n, c - sx)
  if (j < sy - 1 && ru8(mark, c + sx) == 0) n = push(mark, list, n, c + sx)
  if (k > 0 && ru8(mark, c - sxy) == 0) n = push(mark, list, n, c - sxy)
  if (k < sz - 1 && ru8(mark, c + sxy) == 0) n = push(mark, list, n, c + sxy)
  return n
}

/** average() for every sample of list[0 .. n), coordinates recovered from the index. */
function averageList(f: usize, mark: usize, list: usize, n: i32, sx: i32, sy: i32, sz: i32, sxy: i32, lim: i32): void {
  for (let t = 0; t < n; t++) {
    const c = load<i32>(list + (<usize>t << 2))
    const k = c / sxy
    const r = c - k * sxy
    const j = r / sx
    average(f, mark, c, r - j * sx, j, k, sx, sy, sz, sxy, lim)
  }
}

/** extrapolateLayers with worklists a and b (each room for the whole lattice). */
function extrapolate(f: usize, mark: usize, sx: i32, sy: i32, sz: i32, layers: i32, a: usize, b: usize): void {
  if (layers < 1) return
  const sxy = sx * sy
  let prev = a
  let next = b
  let count = 0
  let entryAbove1 = false
  for (let k = 0; k < sz; k++) {
    for (let j = 0; j < sy; j++) {
      let c = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, c++) {
        const m = ru8(mark, c)
        if (m != 1) {
          if (m != 0 && m != QUEUED) entryAbove1 = true
          continue
        }
        count = queueAround(mark, prev, count, c, i, j, k, sx, sy, sz, sxy)
      }
    }
  }
  averageList(f, mark, prev, count, sx, sy, sz, sxy, 2)
  if (entryAbove1) {
    // extrapolate.ts fullScanLayers.
    for (let layer = 2; layer <= layers; layer++) {
      const lim = layer + 1
      for (let k = 0; k < sz; k++) {
        for (let j = 0; j < sy; j++) {
          let c = sx * (j + sy * k)
          for (let i = 0; i < sx; i++, c++) if (ru8(mark, c) == 0) average(f, mark, c, i, j, k, sx, sy, sz, sxy, lim)
        }
      }
    }
    return
  }
  for (let layer = 2; layer <= layers && count > 0; layer++) {
    let queued = 0
    for (let t = 0; t < count; t++) {
      const c = load<i32>(prev + (<usize>t << 2))
      const k = c / sxy
      const r = c - k * sxy
      const j = r / sx
      queued = queueAround(mark, next, queued, c, r - j * sx, j, k, sx, sy, sz, sxy)
    }
    averageList(f, mark, next, queued, sx, sy, sz, sxy, layer + 1)
    count = queued
    const swap = prev
    prev = next
    next = swap
  }
}

/** extendFacesSlab: lattices a in [a0, a1); this thread's worklists at listsBase + worker listsStride (faceListStride). */
export function extendFaces(fu: usize, fv: usize, fw: usize, mu: usize, mv: usize, mw: usize, nx: i32, ny: i32, nz: i32, layers: i32, listsBase: usize, listsStride: usize, a0: i32, a1: i32, worker: i32): void {
  const lists = listsBase + <usize>worker * listsStride
  const half = (listsStride >> 3) << 2
  for (let a = a0; a < a1; a++) {
    // Unmarked faces restart from 0 (extendFacesSlab).
    const f = a == 0 ? fu : a == 1 ? fv : fw
    const m = a == 0 ? mu : a == 1 ? mv : mw
    const sx = a == 0 ? nx + 1 : nx, sy = a == 1 ? ny + 1 : ny, sz = a == 2 ? nz + 1 : nz
    const count = sx * sy * sz
    for (let i = 0; i < count; i++) if (ru8(m, i) == 0) store<f32>(f + (<usize>i << 2), 0)
    extrapolate(f, m, sx, sy, sz, layers, lists, lists + half)
  }
}

/** extendLayersSlab: extrapolateLayers on one lattice, the worklists in the thread's block of `lists`. */
export function extendLayers(f: usize, mark: usize, sx: i32, sy: i32, sz: i32, layers: i32, listsBase: usize, listsStride: usize, a0: i32, a1: i32, worker: i32): void {
  if (a0 >= a1) return
  const lists = listsBase + <usize>worker * listsStride
  extrapolate(f, mark, sx, sy, sz, layers, lists, lists + ((listsStride >> 3) << 2))
}

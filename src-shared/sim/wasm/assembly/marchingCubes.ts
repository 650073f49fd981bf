// The liquid surface mesher's marching cubes, counted and written per node slice (reference:
// src-shared/sim/liquid/surface/marchingCubesKernels.ts mcCountSlab, mcWriteSlab, which give
// geometry/marchingCubes.ts's mesh in its order). float64 arithmetic on the float32 phi values,
// positions rounded to float32 once on the store, as the reference's Float32Array stores.
import { rf32, ri32 } from './common'

const T_MIN: f64 = 1e-3
const ROW_OUT: i32 = 1
const ROW_IN: i32 = 2

@inline function wi32(p: usize, i: i32, v: i32): void {
  store<i32>(p + (<usize>i << 2), v)
}
@inline function wf(p: usize, i: i32, v: f64): void {
  store<f32>(p + (<usize>i << 2), <f32>v)
}
@inline function inside(phi: usize, n: i32): bool {
  return load<f32>(phi + (<usize>n << 2)) < 0
}

@inline function lerpT(a: f64, b: f64): f64 {
  const t = a / (a - b)
  return t < T_MIN ? T_MIN : t > 1 - T_MIN ? 1 - T_MIN : t
}

function classifyRows(phi: usize, at: i32, nx: i32, ny: i32, rows: usize, r: i32): void {
  for (let j = 0; j < ny; j++) {
    const row = at + nx * j
    const ins = inside(phi, row)
    let kind = ins ? ROW_IN : ROW_OUT
    for (let i = 1; i < nx; i++) {
      if (inside(phi, row + i) != ins) {
        kind = 0
        break
      }
    }
    wi32(rows, r + j, kind)
  }
}

/** Whether cube row j of a slab lies wholly on one side (row kinds of its slices at lo, hi). */
@inline function oneSidedCubeRow(rows: usize, lo: i32, hi: i32, j: i32): bool {
  const side = ri32(rows, lo + j)
  return side != 0 && ri32(rows, lo + j + 1) == side && ri32(rows, hi + j) == side && ri32(rows, hi + j + 1) == side
}

@inline function cornerBits(phi: usize, n: i32, nx: i32, plane: i32): i32 {
  return (inside(phi, n) ? 1 : 0) | (inside(phi, n + nx) ? 4 : 0) | (inside(phi, n + plane) ? 16 : 0) | (inside(phi, n + plane + nx) ? 64 : 0)
}

export function mcCount(phi: usize, counts: usize, caseStart: usize, rowsBase: usize, rowsStride: usize, nx: i32, ny: i32, base: i32, s0: i32, k0: i32, k1: i32, worker: i32): void {
  const rows = rowsBase + <usize>worker * rowsStride
  const plane = nx * ny
  // Each slice classified once: this unit's hi is the next unit's lo (mcCountSlab).
  let lo = 0, hi = ny
  if (k0 < k1 && s0 + k0 > 0) classifyRows(phi, (s0 + k0 - 1 - base) * plane, nx, ny, rows, lo)
  for (let u = k0; u < k1; u++) {
    const s = s0 + u, hiAt = (s - base) * plane
    classifyRows(phi, hiAt, nx, ny, rows, hi)
    let cv = 0
    for (let j = 0; j < ny; j++) {
      const rj = ri32(rows, hi + j)
      if (rj != 0 && (j + 1 == ny || ri32(rows, hi + j + 1) == rj)) continue
      for (let i = 0; i < nx; i++) {
        const n = hiAt + i + nx * j, ins = inside(phi, n)
        if (i + 1 < nx && inside(phi, n + 1) != ins) cv++
        if (j + 1 < ny && inside(phi, n + nx) != ins) cv++
      }
    }
    wi32(counts, 3 * u, cv)
    let cz = 0, ct = 0
    if (s > 0) {
      const loAt = hiAt - plane
      for (let j = 0; j < ny; j++) {
        const rj = ri32(rows, lo + j)
        if (rj != 0 && rj == ri32(rows, hi + j)) continue
        for (let i = 0; i < nx; i++) {
          const n = loAt + i + nx * j
          if (inside(phi, n) != inside(phi, n + plane)) cz++
        }
      }
      for (let j = 0; j + 1 < ny; j++) {
        if (oneSidedCubeRow(rows, lo, hi, j)) continue
        const row = loAt + nx * j
        let left = cornerBits(phi, row, nx, plane)
        for (let i = 0; i + 1 < nx; i++) {
          const right = cornerBits(phi, row + i + 1, nx, plane)
          const cube = left | (right << 1)
          left = right
          ct += (ri32(caseStart, cube + 1) - ri32(caseStart, cube)) / 3
        }
      }
    }
    wi32(counts, 3 * u + 1, cz)
    wi32(counts, 3 * u + 2, ct)
    const swap = lo
    lo = hi
    hi = swap
  }
}

function sliceVertices(phi: usize, at: i32, nx: i32, ny: i32, rows: usize, r: i32, maps: usize, xo: i32, yo: i32, first: i32, pos: usize, write: bool, ox: f64, oy: f64, z: f64, h: f64): void {
  let v = first
  for (let j = 0; j < ny; j++) {
    const rj = ri32(rows, r + j)
    if (rj != 0 && (j + 1 == ny || ri32(rows, r + j + 1) == rj)) continue
    const y = oy + <f64>j * h
    for (let i = 0; i < nx; i++) {
      const n = at + i + nx * j, m = i + nx * j
      const a = rf32(phi, n)
      wi32(maps, xo + m, -1)
      wi32(maps, yo + m, -1)
      if (i + 1 < nx) {
        const b = rf32(phi, n + 1)
        if (a < 0 != b < 0) {
          if (write) {
            wf(pos, 3 * v, ox + (<f64>i + lerpT(a, b)) * h)
            wf(pos, 3 * v + 1, y)
            wf(pos, 3 * v + 2, z)
          }
          wi32(maps, xo + m, v++)
        }
      }
      if (j + 1 < ny) {
        const b = rf32(phi, n + nx)
        if (a < 0 != b < 0) {
          if (write) {
            wf(pos, 3 * v, ox + <f64>i * h)
            wf(pos, 3 * v + 1, y + lerpT(a, b) * h)
            wf(pos, 3 * v + 2, z)
          }
          wi32(maps, yo + m, v++)
        }
      }
    }
  }
}

export function mcWrite(
  phi: usize, pos: usize, idx: usize, bases: usize, caseStart: usize, caseTris: usize, edges: usize,
  workBase: usize, workStride: usize, nx: i32, ny: i32, base: i32, s0: i32,
  ox: f64, oy: f64, oz: f64, h: f64, k0: i32, k1: i32, worker: i32,
): void {
  if (k0 >= k1) return
  const work = workBase + <usize>worker * workStride
  const plane = nx * ny
  let xLo = 0, yLo = plane, xHi = 2 * plane, yHi = 3 * plane
  const zm = 4 * plane
  let rLo = 5 * plane, rHi = 5 * plane + ny
  const first = s0 + k0
  if (first > 0) {
    const at = (first - 1 - base) * plane
    classifyRows(phi, at, nx, ny, work, rLo)
    sliceVertices(phi, at, nx, ny, work, rLo, work, xLo, yLo, k0 == 0 ? ri32(bases, 0) : ri32(bases, 1 + 3 * (k0 - 1)), pos, false, ox, oy, 0, h)
  }
  for (let u = k0; u < k1; u++) {
    const s = s0 + u, at = (s - base) * plane
    classifyRows(phi, at, nx, ny, work, rHi)
    sliceVertices(phi, at, nx, ny, work, rHi, work, xHi, yHi, ri32(bases, 1 + 3 * u), pos, true, ox, oy, oz + <f64>s * h, h)
    if (s > 0) {
      const k = s - 1, loAt = at - plane
      let v = ri32(bases, 2 + 3 * u)
      for (let j = 0; j < ny; j++) {
        const rj = ri32(work, rLo + j)
        if (rj != 0 && rj == ri32(work, rHi + j)) continue
        for (let i = 0; i < nx; i++) {
          const n = loAt + i + nx * j
          const a = rf32(phi, n), b = rf32(phi, n + plane)
          if (a < 0 != b < 0) {
            wf(pos, 3 * v, ox + <f64>i * h)
            wf(pos, 3 * v + 1, oy + <f64>j * h)
            wf(pos, 3 * v + 2, oz + (<f64>k + lerpT(a, b)) * h)
            wi32(work, zm + i + nx * j, v++)
          } else wi32(work, zm + i + nx * j, -1)
        }
      }
      let t = ri32(bases, 3 + 3 * u)
      for (let j = 0; j + 1 < ny; j++) {
        if (oneSidedCubeRow(work, rLo, rHi, j)) continue
        const row = loAt + nx * j
        let left = cornerBits(phi, row, nx, plane)
        for (let i = 0; i + 1 < nx; i++) {
          const right = cornerBits(phi, row + i + 1, nx, plane)
          const cube = left | (right << 1)
          left = right
          if (cube == 0 || cube == 255) continue
          const m = i + nx * j
          const end = ri32(caseStart, cube + 1)
          for (let c = ri32(caseStart, cube); c < end; c += 3) {
            for (let q = 0; q < 3; q++) {
              const e = 4 * ri32(caseTris, c + q)
              const slot = m + ri32(edges, e) + nx * ri32(edges, e + 1)
              const upper = ri32(edges, e + 2) == 1, axis = ri32(edges, e + 3)
              const map = axis == 0 ? (upper ? xHi : xLo) : axis == 1 ? (upper ? yHi : yLo) : zm
              wi32(idx, 3 * t + q, ri32(work, map + slot))
            }
            t++
          }
        }
      }
    }
    let swap = xLo
    xLo = xHi
    xHi = swap
    swap = yLo
    yLo = yHi
    yHi = swap
    swap = rLo
    rLo = rHi
    rHi = swap
  }
}

// Multigrid kernels (reference: src-shared/sim/core/multigrid.ts): red-black Gauss-Seidel
// (the default smoother), damped Jacobi, the boundary-band relaxation over a list of runs,
// restriction and prolongation. All bit-identical to the references.
import { rf32, rf64, wf64, ri32, ru8, v64, st64, w32x2 } from './common'

/** (f[o + a], f[o + b]) of a float64 array. */
@inline function gather2(f: usize, o: i32, a: i32, b: i32): v128 {
  return f64x2.replace_lane(f64x2.splat(rf64(f, o + a)), 1, rf64(f, o + b))
}

/** (f[i], f[i + 2]) of a float64 array. */
@inline function evens64(f: usize, i: i32): v128 {
  return i64x2.shuffle(v64(f, i), v64(f, i + 2), 0, 2)
}

/** (f[i], f[i + 2]) of a float32 array, promoted to f64. */
@inline function evens32(f: usize, i: i32): v128 {
  const v = v128.load(f + (<usize>i << 2))
  return f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 0, 2, 0, 2))
}

/** One Gauss-Seidel update of cell c with the reference's border tests (skipped if c is not an unknown). */
@inline function gsCell(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, plane: i32,
  i: i32, j: i32, k: i32, c: i32, fx: i32, fy: i32,
): void {
  const wl = rf32(fu, fx)
  const wr = rf32(fu, fx + 1)
  const wd = rf32(fv, fy)
  const wu = rf32(fv, fy + nx)
  const wb = rf32(fw, c)
  const wf = rf32(fw, c + plane)
  const d = wl + wr + wd + wu + wb + wf
  if (d <= 0) return
  let s = rf64(b, c)
  if (i > 0) s += wl * rf64(x, c - 1)
  if (i < nx - 1) s += wr * rf64(x, c + 1)
  if (j > 0) s += wd * rf64(x, c - nx)
  if (j < ny - 1) s += wu * rf64(x, c + nx)
  if (k > 0) s += wb * rf64(x, c - plane)
  if (k < nz - 1) s += wf * rf64(x, c + plane)
  wf64(x, c, s / d)
}

/**
 * One red-black half sweep of plane k: cells with (i + j + k) & 1 == color. Rows away from
 * the border update two cells of the colour per f64x2 step; each lane does the reference's
 * operations in its order, and a colour's cells read only the other colour (unchanged by
 * this half sweep), so the result is the reference's.
 */
function gsPlane(x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, color: i32, k: i32): void {
  for (let j = 0; j < ny; j++) {
    const i0 = (color + j + k) & 1
    gsRun(x, b, fu, fv, fw, nx, ny, nz, j, k, i0, (nx - i0 + 1) >> 1)
  }
}

/** gaussSeidelColorSlab: one half sweep over cells of `color`, planes [k0, k1). */
export function gaussSeidelColor(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, color: i32, k0: i32, k1: i32,
): void {
  for (let k = k0; k < k1; k++) gsPlane(x, b, fu, fv, fw, nx, ny, nz, color, k)
}

/**
 * A full red-black sweep (colour `first`, then the other) in one pass over memory, same
 * result as two gaussSeidelColor calls over the whole grid. The second colour's plane k - 1
 * is relaxed right after the first colour's plane k, while those planes are still in cache.
 * Split across threads in two phases over the same slab ranges: phase 0 does the first
 * colour on planes [k0, k1) and the second on [k0 + 1, k1 - 2] (their neighbours of the first
 * colour are all in the slab); after the barrier, phase 1 does the second colour on planes k0
 * and k1 - 1, whose neighbours in the adjacent slabs are then done.
 */
export function gaussSeidelSweep(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, first: i32, phase: i32, k0: i32, k1: i32,
): void {
  const second = 1 - first
  if (phase == 1) {
    gsPlane(x, b, fu, fv, fw, nx, ny, nz, second, k0)
    if (k1 - 1 > k0) gsPlane(x, b, fu, fv, fw, nx, ny, nz, second, k1 - 1)
    return
  }
  for (let k = k0; k < k1; k++) {
    gsPlane(x, b, fu, fv, fw, nx, ny, nz, first, k)
    if (k - 1 >= k0 + 1 && k - 1 <= k1 - 2) gsPlane(x, b, fu, fv, fw, nx, ny, nz, second, k - 1)
  }
}

@inline function jacobiCell(
  out: usize, x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, plane: i32, omega: f64,
  i: i32, j: i32, k: i32, c: i32, fx: i32, fy: i32,
): void {
  const wl = rf32(fu, fx)
  const wr = rf32(fu, fx + 1)
  const wd = rf32(fv, fy)
  const wu = rf32(fv, fy + nx)
  const wb = rf32(fw, c)
  const wf = rf32(fw, c + plane)
  const d = wl + wr + wd + wu + wb + wf
  if (d <= 0) {
    wf64(out, c, 0)
    return
  }
  const xc = rf64(x, c)
  let s = rf64(b, c) - d * xc
  if (i > 0) s += wl * rf64(x, c - 1)
  if (i < nx - 1) s += wr * rf64(x, c + 1)
  if (j > 0) s += wd * rf64(x, c - nx)
  if (j < ny - 1) s += wu * rf64(x, c + nx)
  if (k > 0) s += wb * rf64(x, c - plane)
  if (k < nz - 1) s += wf * rf64(x, c + plane)
  wf64(out, c, xc + (omega * s) / d)
}

/** jacobiSlab: out = x + omega (b - A x) / diag for planes [k0, k1); out must not alias x. */
export function jacobi(
  out: usize, x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, omega: f64, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  const zero = f64x2.splat(0)
  const om = f64x2.splat(omega)
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const c0 = nx * (j + ny * k)
      const fx0 = (nx + 1) * (j + ny * k)
      const fy0 = nx * (j + (ny + 1) * k)
      let i = 0
      if (j > 0 && j < ny - 1 && k > 0 && k < nz - 1) {
        jacobiCell(out, x, b, fu, fv, fw, nx, ny, nz, plane, omega, 0, j, k, c0, fx0, fy0)
        i = 1
        for (; i + 1 < nx - 1; i += 2) {
          const c = c0 + i
          const fx = fx0 + i
          const fy = fy0 + i
          const wl = w32x2(fu, fx)
          const wr = w32x2(fu, fx + 1)
          const wd = w32x2(fv, fy)
          const wu = w32x2(fv, fy + nx)
          const wb = w32x2(fw, c)
          const wf = w32x2(fw, c + plane)
          const d = f64x2.add(f64x2.add(f64x2.add(f64x2.add(f64x2.add(wl, wr), wd), wu), wb), wf)
          const xc = v64(x, c)
          let s = f64x2.sub(v64(b, c), f64x2.mul(d, xc))
          s = f64x2.add(s, f64x2.mul(wl, v64(x, c - 1)))
          s = f64x2.add(s, f64x2.mul(wr, v64(x, c + 1)))
          s = f64x2.add(s, f64x2.mul(wd, v64(x, c - nx)))
          s = f64x2.add(s, f64x2.mul(wu, v64(x, c + nx)))
          s = f64x2.add(s, f64x2.mul(wb, v64(x, c - plane)))
          s = f64x2.add(s, f64x2.mul(wf, v64(x, c + plane)))
          const val = f64x2.add(xc, f64x2.div(f64x2.mul(om, s), d))
          st64(out, c, v128.bitselect(val, zero, f64x2.gt(d, zero)))
        }
      }
      for (; i < nx; i++) jacobiCell(out, x, b, fu, fv, fw, nx, ny, nz, plane, omega, i, j, k, c0 + i, fx0 + i, fy0 + i)
    }
  }
}

/**
 * Gauss-Seidel over the cells of one row from i = i0: n cells of one colour, two apart (a
 * half sweep's row, or a run of the boundary band). Away from the grid's border, pairs of
 * this colour's cells (p, p + 2) go in the two lanes of f64x2: every load is a contiguous pair
 * (x[c - 1], x[c]), (x[c + 1], x[c + 2]), ... shuffled into lanes, each lane does the
 * reference's operations in its order, and the two results are stored lane by lane, so no
 * later load overlaps a pending store. The rest go cell by cell.
 */
@inline function gsRun(x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, j: i32, k: i32, i0: i32, n: i32): void {
  const plane = nx * ny
  const c0 = nx * (j + ny * k)
  const fx0 = (nx + 1) * (j + ny * k)
  const fy0 = nx * (j + (ny + 1) * k)
  const end = i0 + 2 * n
  let p = i0
  if (j > 0 && j < ny - 1 && k > 0 && k < nz - 1) {
    if (p == 0 && p < end) {
      gsCell(x, b, fu, fv, fw, nx, ny, nz, plane, 0, j, k, c0, fx0, fy0)
      p = 2
    }
    for (; p + 2 < nx - 1 && p + 2 < end; p += 4) {
      const c = c0 + p
      const fx = fx0 + p
      const fy = fy0 + p
      const W = v128.load(fu + (<usize>fx << 2))
      const wl = f64x2.promote_low_f32x4(i32x4.shuffle(W, W, 0, 2, 0, 2))
      const wr = f64x2.promote_low_f32x4(i32x4.shuffle(W, W, 1, 3, 1, 3))
      const wd = evens32(fv, fy)
      const wu = evens32(fv, fy + nx)
      const wb = evens32(fw, c)
      const wf = evens32(fw, c + plane)
      const d = f64x2.add(f64x2.add(f64x2.add(f64x2.add(f64x2.add(wl, wr), wd), wu), wb), wf)
      const A = v64(x, c - 1)
      const B = v64(x, c + 1)
      let s = evens64(b, c)
      s = f64x2.add(s, f64x2.mul(wl, i64x2.shuffle(A, B, 0, 2)))
      s = f64x2.add(s, f64x2.mul(wr, i64x2.shuffle(B, v64(x, c + 3), 0, 2)))
      s = f64x2.add(s, f64x2.mul(wd, evens64(x, c - nx)))
      s = f64x2.add(s, f64x2.mul(wu, evens64(x, c + nx)))
      s = f64x2.add(s, f64x2.mul(wb, evens64(x, c - plane)))
      s = f64x2.add(s, f64x2.mul(wf, evens64(x, c + plane)))
      const r = v128.bitselect(f64x2.div(s, d), i64x2.shuffle(A, B, 1, 3), f64x2.gt(d, f64x2.splat(0)))
      v128.store64_lane(x + (<usize>c << 3), r, 0)
      v128.store64_lane(x + (<usize>(c + 2) << 3), r, 1)
    }
  }
  for (; p < end; p += 2) gsCell(x, b, fu, fv, fw, nx, ny, nz, plane, p, j, k, c0 + p, fx0 + p, fy0 + p)
}

/**
 * relaxRuns: Gauss-Seidel over runs [begin, end) of an int32 run list (run t: the cells
 * runs[2t], runs[2t] + 2, ..., runs[2t + 1] of them, one row, one colour).
 */
export function relaxRuns(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, runs: usize, begin: i32, end: i32,
): void {
  const plane = nx * ny
  for (let t = begin; t < end; t++) {
    const c = ri32(runs, 2 * t)
    const n = ri32(runs, 2 * t + 1)
    const k = c / plane
    const r = c - k * plane
    const j = r / nx
    gsRun(x, b, fu, fv, fw, nx, ny, nz, j, k, r - j * nx, n)
  }
}

/**
 * restrictSlab: bc = P^T rf / 2 for coarse planes [K0, K1), separably (x, then y, then z).
 * rx/ry/rz: the AxisTransfer rw tables (float64, 4 per coarse cell); scratch: float64,
 * restrictScratchLength(ny, cx, cy) elements per thread, thread `worker` using the block at
 * scratchBase + worker * scratchStride bytes. Two coarse cells per f64x2 step along x, each
 * lane in the reference's order.
 */
export function restrict(
  bc: usize, rf: usize, nx: i32, ny: i32, nz: i32, cx: i32, cy: i32,
  rx: usize, ry: usize, rz: usize, scratchBase: usize, scratchStride: usize, K0: i32, K1: i32, worker: i32,
): void {
  const scratch = scratchBase + <usize>worker * scratchStride
  const plane = nx * ny
  const xr = 0
  const yr = 4 * ny * cx
  for (let K = K0; K < K1; K++) {
    for (let c3 = 0; c3 < 4; c3++) {
      const k = 2 * K - 1 + c3
      const used = k >= 0 && k < nz && rf64(rz, 4 * K + c3) != 0
      if (used) {
        for (let j = 0; j < ny; j++) {
          const o = xr + cx * (j + ny * c3)
          const row = nx * j + plane * k
          let I = 0
          for (; I < cx; I++) {
            if (2 * I - 1 >= 0) break
            wf64(scratch, o + I, restrictX(rf, rx, nx, row, I))
          }
          // Pairs (I, I + 1) whose 6 fine cells 2I-1 .. 2I+4 are all inside the row.
          for (; I + 1 < cx && 2 * I + 4 < nx; I += 2) {
            const i0 = 2 * I - 1
            const P0 = v64(rf, row + i0)
            const P1 = v64(rf, row + i0 + 2)
            const P2 = v64(rf, row + i0 + 4)
            const Q0 = v64(rx, 4 * I)
            const Q1 = v64(rx, 4 * I + 2)
            const Q2 = v64(rx, 4 * I + 4)
            const Q3 = v64(rx, 4 * I + 6)
            let v = f64x2.mul(i64x2.shuffle(Q0, Q2, 0, 2), i64x2.shuffle(P0, P1, 0, 2))
            v = f64x2.add(v, f64x2.mul(i64x2.shuffle(Q0, Q2, 1, 3), i64x2.shuffle(P0, P1, 1, 3)))
            v = f64x2.add(v, f64x2.mul(i64x2.shuffle(Q1, Q3, 0, 2), i64x2.shuffle(P1, P2, 0, 2)))
            v = f64x2.add(v, f64x2.mul(i64x2.shuffle(Q1, Q3, 1, 3), i64x2.shuffle(P1, P2, 1, 3)))
            st64(scratch, o + I, v)
          }
          for (; I < cx; I++) wf64(scratch, o + I, restrictX(rf, rx, nx, row, I))
        }
      }
      for (let J = 0; J < cy; J++) {
        const o = yr + cx * (J + cy * c3)
        for (let I = 0; I < cx; I++) wf64(scratch, o + I, 0)
        if (!used) continue
        for (let b3 = 0; b3 < 4; b3++) {
          const j = 2 * J - 1 + b3
          const wy = rf64(ry, 4 * J + b3)
          if (wy == 0 || j < 0 || j >= ny) continue
          const src = xr + cx * (j + ny * c3)
          const vy = f64x2.splat(wy)
          let I = 0
          for (; I + 1 < cx; I += 2) st64(scratch, o + I, f64x2.add(v64(scratch, o + I), f64x2.mul(vy, v64(scratch, src + I))))
          for (; I < cx; I++) wf64(scratch, o + I, rf64(scratch, o + I) + wy * rf64(scratch, src + I))
        }
      }
    }
    const z0 = f64x2.splat(rf64(rz, 4 * K))
    const z1 = f64x2.splat(rf64(rz, 4 * K + 1))
    const z2 = f64x2.splat(rf64(rz, 4 * K + 2))
    const z3 = f64x2.splat(rf64(rz, 4 * K + 3))
    const half = f64x2.splat(0.5)
    for (let J = 0; J < cy; J++) {
      const out = cx * (J + cy * K)
      const y0 = yr + cx * J
      const ys = cx * cy
      let I = 0
      for (; I + 1 < cx; I += 2) {
        let v = f64x2.add(f64x2.splat(0), f64x2.mul(z0, v64(scratch, y0 + I)))
        v = f64x2.add(v, f64x2.mul(z1, v64(scratch, y0 + ys + I)))
        v = f64x2.add(v, f64x2.mul(z2, v64(scratch, y0 + 2 * ys + I)))
        v = f64x2.add(v, f64x2.mul(z3, v64(scratch, y0 + 3 * ys + I)))
        st64(bc, out + I, f64x2.mul(half, v))
      }
      for (; I < cx; I++) {
        let s: f64 = 0
        for (let c3 = 0; c3 < 4; c3++) s += rf64(rz, 4 * K + c3) * rf64(scratch, yr + cx * (J + cy * c3) + I)
        wf64(bc, out + I, 0.5 * s)
      }
    }
  }
}

/** One coarse cell of restrictSlab's x pass. */
@inline function restrictX(rf: usize, rx: usize, nx: i32, row: i32, I: i32): f64 {
  let s: f64 = 0
  const i0 = 2 * I - 1
  if (i0 >= 0 && i0 + 3 < nx) {
    s =
      rf64(rx, 4 * I) * rf64(rf, row + i0) +
      rf64(rx, 4 * I + 1) * rf64(rf, row + i0 + 1) +
      rf64(rx, 4 * I + 2) * rf64(rf, row + i0 + 2) +
      rf64(rx, 4 * I + 3) * rf64(rf, row + i0 + 3)
  } else {
    for (let a3 = 0; a3 < 4; a3++) {
      const i = i0 + a3
      if (i >= 0 && i < nx) s += rf64(rx, 4 * I + a3) * rf64(rf, row + i)
    }
  }
  return s
}

/**
 * prolongAddSlab: xf += P xc on active fine cells, fine planes [k0, k1). Tables per axis:
 * pa/pb int32, wa/wb float64 (AxisTransfer); active: uint8 per fine cell.
 */
export function prolongAdd(
  xf: usize, xc: usize, active: usize, nx: i32, ny: i32, cx: i32, cy: i32,
  xpa: usize, xpb: usize, xwa: usize, xwb: usize,
  ypa: usize, ypb: usize, ywa: usize, ywb: usize,
  zpa: usize, zpb: usize, zwa: usize, zwb: usize,
  k0: i32, k1: i32,
): void {
  const cplane = cx * cy
  for (let k = k0; k < k1; k++) {
    const za = cplane * ri32(zpa, k)
    const zb = cplane * ri32(zpb, k)
    const wza = rf64(zwa, k)
    const wzb = rf64(zwb, k)
    for (let j = 0; j < ny; j++) {
      const ya = cx * ri32(ypa, j)
      const yb = cx * ri32(ypb, j)
      const wya = rf64(ywa, j)
      const wyb = rf64(ywb, j)
      const c0 = nx * (j + ny * k)
      const vwza = f64x2.splat(wza)
      const vwzb = f64x2.splat(wzb)
      const vwya = f64x2.splat(wya)
      const vwyb = f64x2.splat(wyb)
      let i = 0
      // Two fine cells per step: the coarse values are gathered per lane, the arithmetic is
      // the reference's per lane, inactive lanes keep their value.
      for (; i + 1 < nx; i += 2) {
        const c = c0 + i
        const pa = v128.load64_zero(xpa + (<usize>i << 2))
        const pb = v128.load64_zero(xpb + (<usize>i << 2))
        const a0 = i32x4.extract_lane(pa, 0)
        const a1 = i32x4.extract_lane(pa, 1)
        const b0 = i32x4.extract_lane(pb, 0)
        const b1 = i32x4.extract_lane(pb, 1)
        const wxa = v64(xwa, i)
        const wxb = v64(xwb, i)
        const aa = f64x2.add(f64x2.mul(wxa, gather2(xc, za + ya, a0, a1)), f64x2.mul(wxb, gather2(xc, za + ya, b0, b1)))
        const ab = f64x2.add(f64x2.mul(wxa, gather2(xc, za + yb, a0, a1)), f64x2.mul(wxb, gather2(xc, za + yb, b0, b1)))
        const ba = f64x2.add(f64x2.mul(wxa, gather2(xc, zb + ya, a0, a1)), f64x2.mul(wxb, gather2(xc, zb + ya, b0, b1)))
        const bb = f64x2.add(f64x2.mul(wxa, gather2(xc, zb + yb, a0, a1)), f64x2.mul(wxb, gather2(xc, zb + yb, b0, b1)))
        const p = f64x2.add(
          f64x2.mul(vwza, f64x2.add(f64x2.mul(vwya, aa), f64x2.mul(vwyb, ab))),
          f64x2.mul(vwzb, f64x2.add(f64x2.mul(vwya, ba), f64x2.mul(vwyb, bb))),
        )
        const old = v64(xf, c)
        const on = i64x2.ne(i64x2.extend_low_i32x4_u(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load16_lane(active + <usize>c, i64x2.splat(0), 0)))), i64x2.splat(0))
        st64(xf, c, v128.bitselect(f64x2.add(old, p), old, on))
      }
      for (; i < nx; i++) {
        const c = c0 + i
        if (ru8(active, c) == 0) continue
        const xa = ri32(xpa, i)
        const xb = ri32(xpb, i)
        const wxa = rf64(xwa, i)
        const wxb = rf64(xwb, i)
        const aa = wxa * rf64(xc, za + ya + xa) + wxb * rf64(xc, za + ya + xb)
        const ab = wxa * rf64(xc, za + yb + xa) + wxb * rf64(xc, za + yb + xb)
        const ba = wxa * rf64(xc, zb + ya + xa) + wxb * rf64(xc, zb + ya + xb)
        const bb = wxa * rf64(xc, zb + yb + xa) + wxb * rf64(xc, zb + yb + xb)
        wf64(xf, c, rf64(xf, c) + (wza * (wya * aa + wyb * ab) + wzb * (wya * ba + wyb * bb)))
      }
    }
  }
}

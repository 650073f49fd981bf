// Twins of src-shared/sim/core/multigrid32Kernels.ts: the smoke multigrid's float32 cycle.
// Every operation is an f32 instruction, which rounds as the references' Math.fround does, in
// the references' order. Away from the grid's border, four cells go in the f32x4 lanes: a
// half sweep's four cells of one colour (p, p + 2, p + 4, p + 6), four residual cells, four
// coarse cells of the restriction, four fine cells of the prolongation.
import { ri32, ru8 } from './common'

@inline function lf(p: usize, i: i32): f32 {
  return load<f32>(p + (<usize>i << 2))
}

@inline function sf(p: usize, i: i32, v: f32): void {
  store<f32>(p + (<usize>i << 2), v)
}

@inline function v32(p: usize, i: i32): v128 {
  return v128.load(p + (<usize>i << 2))
}

/** (f[i], f[i + 2], f[i + 4], f[i + 6]) of a float32 array. */
@inline function evens(f: usize, i: i32): v128 {
  return i32x4.shuffle(v32(f, i), v32(f, i + 4), 0, 2, 4, 6)
}

/** One Gauss-Seidel update of cell c (relaxCell32), skipped if c is not an unknown. */
@inline function gsCell32(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, plane: i32,
  i: i32, j: i32, k: i32, c: i32, fx: i32, fy: i32,
): void {
  const wl = lf(fu, fx)
  const wr = lf(fu, fx + 1)
  const wd = lf(fv, fy)
  const wu = lf(fv, fy + nx)
  const wb = lf(fw, c)
  const wf = lf(fw, c + plane)
  const d: f32 = wl + wr + wd + wu + wb + wf
  if (d <= 0) return
  let s = lf(b, c)
  if (i > 0) s += wl * lf(x, c - 1)
  if (i < nx - 1) s += wr * lf(x, c + 1)
  if (j > 0) s += wd * lf(x, c - nx)
  if (j < ny - 1) s += wu * lf(x, c + nx)
  if (k > 0) s += wb * lf(x, c - plane)
  if (k < nz - 1) s += wf * lf(x, c + plane)
  sf(x, c, s / d)
}

/**
 * Gauss-Seidel over n cells of one colour, two apart, from i = i0 in row (j, k). In rows away
 * from the border, four cells (p .. p + 6) per f32x4 step: x's loads are contiguous quads
 * (x[c - 1 .. c + 2], x[c + 3 .. c + 6], x[c + 7 ..]) shuffled into lanes, and the four results
 * are stored lane by lane, so no later load overlaps a pending store. A colour's cells read
 * only the other colour, so the order does not change the result.
 */
@inline function gsRun32(x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, j: i32, k: i32, i0: i32, n: i32): void {
  const plane = nx * ny
  const c0 = nx * (j + ny * k)
  const fx0 = (nx + 1) * (j + ny * k)
  const fy0 = nx * (j + (ny + 1) * k)
  const end = i0 + 2 * n
  let p = i0
  if (j > 0 && j < ny - 1 && k > 0 && k < nz - 1) {
    if (p == 0 && p < end) {
      gsCell32(x, b, fu, fv, fw, nx, ny, nz, plane, 0, j, k, c0, fx0, fy0)
      p = 2
    }
    const zero = f32x4.splat(0)
    for (; p + 6 < nx - 1 && p + 6 < end; p += 8) {
      const c = c0 + p
      const fx = fx0 + p
      const fy = fy0 + p
      const U0 = v32(fu, fx)
      const U1 = v32(fu, fx + 4)
      const wl = i32x4.shuffle(U0, U1, 0, 2, 4, 6)
      const wr = i32x4.shuffle(U0, U1, 1, 3, 5, 7)
      const wd = evens(fv, fy)
      const wu = evens(fv, fy + nx)
      const wb = evens(fw, c)
      const wf = evens(fw, c + plane)
      const d = f32x4.add(f32x4.add(f32x4.add(f32x4.add(f32x4.add(wl, wr), wd), wu), wb), wf)
      const A = v32(x, c - 1)
      const B = v32(x, c + 3)
      const C = v32(x, c + 7)
      let s = evens(b, c)
      s = f32x4.add(s, f32x4.mul(wl, i32x4.shuffle(A, B, 0, 2, 4, 6)))
      // Right neighbours c + 1, c + 3, c + 5, c + 7: A[2], B[0], B[2], C[0].
      s = f32x4.add(s, f32x4.mul(wr, i32x4.shuffle(A, i32x4.shuffle(B, C, 0, 2, 4, 4), 2, 4, 5, 6)))
      s = f32x4.add(s, f32x4.mul(wd, evens(x, c - nx)))
      s = f32x4.add(s, f32x4.mul(wu, evens(x, c + nx)))
      s = f32x4.add(s, f32x4.mul(wb, evens(x, c - plane)))
      s = f32x4.add(s, f32x4.mul(wf, evens(x, c + plane)))
      const r = v128.bitselect(f32x4.div(s, d), i32x4.shuffle(A, B, 1, 3, 5, 7), f32x4.gt(d, zero))
      v128.store32_lane(x + (<usize>c << 2), r, 0)
      v128.store32_lane(x + (<usize>(c + 2) << 2), r, 1)
      v128.store32_lane(x + (<usize>(c + 4) << 2), r, 2)
      v128.store32_lane(x + (<usize>(c + 6) << 2), r, 3)
    }
  }
  for (; p < end; p += 2) gsCell32(x, b, fu, fv, fw, nx, ny, nz, plane, p, j, k, c0 + p, fx0 + p, fy0 + p)
}

function gsPlane32(x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, color: i32, k: i32): void {
  for (let j = 0; j < ny; j++) {
    const i0 = (color + j + k) & 1
    gsRun32(x, b, fu, fv, fw, nx, ny, nz, j, k, i0, (nx - i0 + 1) >> 1)
  }
}

/**
 * gaussSeidelSweep's float32 twin: a full red-black sweep (colour `first`, then the other) in
 * two phases over the same slabs (see multigrid.ts gaussSeidelSweep).
 */
export function gaussSeidelSweep32(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, first: i32, phase: i32, k0: i32, k1: i32,
): void {
  const second = 1 - first
  if (phase == 1) {
    gsPlane32(x, b, fu, fv, fw, nx, ny, nz, second, k0)
    if (k1 - 1 > k0) gsPlane32(x, b, fu, fv, fw, nx, ny, nz, second, k1 - 1)
    return
  }
  for (let k = k0; k < k1; k++) {
    gsPlane32(x, b, fu, fv, fw, nx, ny, nz, first, k)
    if (k - 1 >= k0 + 1 && k - 1 <= k1 - 2) gsPlane32(x, b, fu, fv, fw, nx, ny, nz, second, k - 1)
  }
}

/** relaxRuns32: Gauss-Seidel over runs [begin, end) of an int32 run list. */
export function relaxRuns32(
  x: usize, b: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, runs: usize, begin: i32, end: i32,
): void {
  const plane = nx * ny
  for (let t = begin; t < end; t++) {
    const c = ri32(runs, 2 * t)
    const n = ri32(runs, 2 * t + 1)
    const k = c / plane
    const r = c - k * plane
    const j = r / nx
    gsRun32(x, b, fu, fv, fw, nx, ny, nz, j, k, r - j * nx, n)
  }
}

/** (A x)_c of one cell in float32 (residualSlab32's order), with the border tests. */
@inline function poissonCell32(
  x: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, plane: i32,
  i: i32, j: i32, k: i32, c: i32, fx: i32, fy: i32,
): f32 {
  const wl = lf(fu, fx)
  const wr = lf(fu, fx + 1)
  const wd = lf(fv, fy)
  const wu = lf(fv, fy + nx)
  const wb = lf(fw, c)
  const wf = lf(fw, c + plane)
  let s: f32 = (wl + wr + wd + wu + wb + wf) * lf(x, c)
  if (i > 0) s -= wl * lf(x, c - 1)
  if (i < nx - 1) s -= wr * lf(x, c + 1)
  if (j > 0) s -= wd * lf(x, c - nx)
  if (j < ny - 1) s -= wu * lf(x, c + nx)
  if (k > 0) s -= wb * lf(x, c - plane)
  if (k < nz - 1) s -= wf * lf(x, c + plane)
  return s
}

/** residualSlab32: r = b - A x for cell planes [k0, k1); inner rows' cells 1 .. nx - 2 four at a time. */
export function residual32(r: usize, b: usize, x: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const c0 = nx * (j + ny * k)
      const fx0 = (nx + 1) * (j + ny * k)
      const fy0 = nx * (j + (ny + 1) * k)
      let i = 0
      if (j > 0 && j < ny - 1 && k > 0 && k < nz - 1) {
        sf(r, c0, lf(b, c0) - poissonCell32(x, fu, fv, fw, nx, ny, nz, plane, 0, j, k, c0, fx0, fy0))
        i = 1
        for (; i + 3 < nx - 1; i += 4) {
          const c = c0 + i
          const fx = fx0 + i
          const fy = fy0 + i
          const wl = v32(fu, fx)
          const wr = v32(fu, fx + 1)
          const wd = v32(fv, fy)
          const wu = v32(fv, fy + nx)
          const wb = v32(fw, c)
          const wf = v32(fw, c + plane)
          const d = f32x4.add(f32x4.add(f32x4.add(f32x4.add(f32x4.add(wl, wr), wd), wu), wb), wf)
          let v = f32x4.mul(d, v32(x, c))
          v = f32x4.sub(v, f32x4.mul(wl, v32(x, c - 1)))
          v = f32x4.sub(v, f32x4.mul(wr, v32(x, c + 1)))
          v = f32x4.sub(v, f32x4.mul(wd, v32(x, c - nx)))
          v = f32x4.sub(v, f32x4.mul(wu, v32(x, c + nx)))
          v = f32x4.sub(v, f32x4.mul(wb, v32(x, c - plane)))
          v = f32x4.sub(v, f32x4.mul(wf, v32(x, c + plane)))
          v128.store(r + (<usize>c << 2), f32x4.sub(v32(b, c), v))
        }
      }
      for (; i < nx; i++) {
        const c = c0 + i
        sf(r, c, lf(b, c) - poissonCell32(x, fu, fv, fw, nx, ny, nz, plane, i, j, k, c, fx0 + i, fy0 + i))
      }
    }
  }
}

/** One coarse cell of restrictGrid32's x pass. */
@inline function restrictX32(rf: usize, rx: usize, nx: i32, row: i32, I: i32): f32 {
  const i0 = 2 * I - 1
  if (i0 >= 0 && i0 + 3 < nx) {
    return lf(rx, 4 * I) * lf(rf, row + i0) + lf(rx, 4 * I + 1) * lf(rf, row + i0 + 1) + lf(rx, 4 * I + 2) * lf(rf, row + i0 + 2) + lf(rx, 4 * I + 3) * lf(rf, row + i0 + 3)
  }
  let s: f32 = 0
  for (let a3 = 0; a3 < 4; a3++) {
    const i = i0 + a3
    if (i >= 0 && i < nx) s += lf(rx, 4 * I + a3) * lf(rf, row + i)
  }
  return s
}

/**
 * restrictSlab32 for coarse planes [K0, K1). rx/ry/rz: AxisTransfer32 rw tables (float32, 4 per
 * coarse cell); scratch: restrictScratchLength float32 per thread, thread `worker` using the
 * block at scratchBase + worker * scratchStride bytes.
 */
export function restrictGrid32(
  bc: usize, rf: usize, nx: i32, ny: i32, nz: i32, cx: i32, cy: i32,
  rx: usize, ry: usize, rz: usize, scratchBase: usize, scratchStride: usize, K0: i32, K1: i32, worker: i32,
): void {
  const scratch = scratchBase + <usize>worker * scratchStride
  const plane = nx * ny
  const yr = 4 * ny * cx
  for (let K = K0; K < K1; K++) {
    for (let c3 = 0; c3 < 4; c3++) {
      const k = 2 * K - 1 + c3
      const used = k >= 0 && k < nz && lf(rz, 4 * K + c3) != 0
      if (used) {
        for (let j = 0; j < ny; j++) {
          const o = cx * (j + ny * c3)
          const row = nx * j + plane * k
          let I = 0
          for (; I < cx && 2 * I - 1 < 0; I++) sf(scratch, o + I, restrictX32(rf, rx, nx, row, I))
          // Coarse cells I .. I + 3 draw on fine cells 2I - 1 .. 2I + 8, all inside the row.
          for (; I + 3 < cx && 2 * I + 8 < nx; I += 4) {
            const i0 = 2 * I - 1
            const P0 = v32(rf, row + i0)
            const P1 = v32(rf, row + i0 + 4)
            const E0 = v32(rf, row + i0 + 2)
            const E1 = v32(rf, row + i0 + 6)
            // The four cells' weight quads, transposed: W0 holds each cell's first weight, ...
            const Q0 = v32(rx, 4 * I)
            const Q1 = v32(rx, 4 * I + 4)
            const Q2 = v32(rx, 4 * I + 8)
            const Q3 = v32(rx, 4 * I + 12)
            const L0 = i32x4.shuffle(Q0, Q1, 0, 4, 1, 5)
            const L1 = i32x4.shuffle(Q2, Q3, 0, 4, 1, 5)
            const H0 = i32x4.shuffle(Q0, Q1, 2, 6, 3, 7)
            const H1 = i32x4.shuffle(Q2, Q3, 2, 6, 3, 7)
            const W0 = i32x4.shuffle(L0, L1, 0, 1, 4, 5)
            const W1 = i32x4.shuffle(L0, L1, 2, 3, 6, 7)
            const W2 = i32x4.shuffle(H0, H1, 0, 1, 4, 5)
            const W3 = i32x4.shuffle(H0, H1, 2, 3, 6, 7)
            let v = f32x4.mul(W0, i32x4.shuffle(P0, P1, 0, 2, 4, 6))
            v = f32x4.add(v, f32x4.mul(W1, i32x4.shuffle(P0, P1, 1, 3, 5, 7)))
            v = f32x4.add(v, f32x4.mul(W2, i32x4.shuffle(E0, E1, 0, 2, 4, 6)))
            v = f32x4.add(v, f32x4.mul(W3, i32x4.shuffle(E0, E1, 1, 3, 5, 7)))
            v128.store(scratch + (<usize>(o + I) << 2), v)
          }
          for (; I < cx; I++) sf(scratch, o + I, restrictX32(rf, rx, nx, row, I))
        }
      }
      for (let J = 0; J < cy; J++) {
        const o = yr + cx * (J + cy * c3)
        for (let I = 0; I < cx; I++) sf(scratch, o + I, 0)
        if (!used) continue
        for (let b3 = 0; b3 < 4; b3++) {
          const j = 2 * J - 1 + b3
          const wy = lf(ry, 4 * J + b3)
          if (wy == 0 || j < 0 || j >= ny) continue
          const src = cx * (j + ny * c3)
          const vy = f32x4.splat(wy)
          let I = 0
          for (; I + 3 < cx; I += 4) v128.store(scratch + (<usize>(o + I) << 2), f32x4.add(v32(scratch, o + I), f32x4.mul(vy, v32(scratch, src + I))))
          for (; I < cx; I++) sf(scratch, o + I, lf(scratch, o + I) + wy * lf(scratch, src + I))
        }
      }
    }
    const z0 = f32x4.splat(lf(rz, 4 * K))
    const z1 = f32x4.splat(lf(rz, 4 * K + 1))
    const z2 = f32x4.splat(lf(rz, 4 * K + 2))
    const z3 = f32x4.splat(lf(rz, 4 * K + 3))
    const half = f32x4.splat(0.5)
    const ys = cx * cy
    for (let J = 0; J < cy; J++) {
      const out = cx * (J + cy * K)
      const y0 = yr + cx * J
      let I = 0
      for (; I + 3 < cx; I += 4) {
        let v = f32x4.add(f32x4.splat(0), f32x4.mul(z0, v32(scratch, y0 + I)))
        v = f32x4.add(v, f32x4.mul(z1, v32(scratch, y0 + ys + I)))
        v = f32x4.add(v, f32x4.mul(z2, v32(scratch, y0 + 2 * ys + I)))
        v = f32x4.add(v, f32x4.mul(z3, v32(scratch, y0 + 3 * ys + I)))
        v128.store(bc + (<usize>(out + I) << 2), f32x4.mul(half, v))
      }
      for (; I < cx; I++) {
        let s: f32 = 0
        for (let c3 = 0; c3 < 4; c3++) s += lf(rz, 4 * K + c3) * lf(scratch, y0 + c3 * ys + I)
        sf(bc, out + I, <f32>0.5 * s)
      }
    }
  }
}

/**
 * prolongAddSlab32: xf += P xc on active fine cells, fine planes [k0, k1). Tables per axis:
 * pa/pb int32, wa/wb float32 (AxisTransfer32). Fine cells 2I .. 2I + 3 with 1 <= I and
 * I + 2 < cx read coarse cells I - 1 .. I + 2 of each of their four coarse rows: (pa, pb) is
 * (I, I - 1), (I, I + 1), (I + 1, I), (I + 1, I + 2) (multigrid.ts axisTransfer), so one quad
 * load a coarse row and two shuffles give the lanes' values.
 */
export function prolongAddGrid32(
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
    const wza = lf(zwa, k)
    const wzb = lf(zwb, k)
    const vwza = f32x4.splat(wza)
    const vwzb = f32x4.splat(wzb)
    for (let j = 0; j < ny; j++) {
      const ya = cx * ri32(ypa, j)
      const yb = cx * ri32(ypb, j)
      const wya = lf(ywa, j)
      const wyb = lf(ywb, j)
      const vwya = f32x4.splat(wya)
      const vwyb = f32x4.splat(wyb)
      const c0 = nx * (j + ny * k)
      let i = 0
      for (; i < nx && (i < 2 || (i & 1) != 0); i++) prolongCell32(xf, xc, active, c0 + i, za, zb, ya, yb, wza, wzb, wya, wyb, xpa, xpb, xwa, xwb, i)
      for (; i + 3 < nx && (i >> 1) + 2 < cx; i += 4) {
        const c = c0 + i
        const I = i >> 1
        const wxa = v32(xwa, i)
        const wxb = v32(xwb, i)
        const Raa = v32(xc, za + ya + I - 1)
        const Rab = v32(xc, za + yb + I - 1)
        const Rba = v32(xc, zb + ya + I - 1)
        const Rbb = v32(xc, zb + yb + I - 1)
        const aa = f32x4.add(f32x4.mul(wxa, i32x4.shuffle(Raa, Raa, 1, 1, 2, 2)), f32x4.mul(wxb, i32x4.shuffle(Raa, Raa, 0, 2, 1, 3)))
        const ab = f32x4.add(f32x4.mul(wxa, i32x4.shuffle(Rab, Rab, 1, 1, 2, 2)), f32x4.mul(wxb, i32x4.shuffle(Rab, Rab, 0, 2, 1, 3)))
        const ba = f32x4.add(f32x4.mul(wxa, i32x4.shuffle(Rba, Rba, 1, 1, 2, 2)), f32x4.mul(wxb, i32x4.shuffle(Rba, Rba, 0, 2, 1, 3)))
        const bb = f32x4.add(f32x4.mul(wxa, i32x4.shuffle(Rbb, Rbb, 1, 1, 2, 2)), f32x4.mul(wxb, i32x4.shuffle(Rbb, Rbb, 0, 2, 1, 3)))
        const p = f32x4.add(
          f32x4.mul(vwza, f32x4.add(f32x4.mul(vwya, aa), f32x4.mul(vwyb, ab))),
          f32x4.mul(vwzb, f32x4.add(f32x4.mul(vwya, ba), f32x4.mul(vwyb, bb))),
        )
        const old = v32(xf, c)
        const on = i32x4.ne(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(active + <usize>c))), i32x4.splat(0))
        v128.store(xf + (<usize>c << 2), v128.bitselect(f32x4.add(old, p), old, on))
      }
      for (; i < nx; i++) prolongCell32(xf, xc, active, c0 + i, za, zb, ya, yb, wza, wzb, wya, wyb, xpa, xpb, xwa, xwb, i)
    }
  }
}

/** One fine cell of prolongAddGrid32 through the tables. */
@inline function prolongCell32(
  xf: usize, xc: usize, active: usize, c: i32, za: i32, zb: i32, ya: i32, yb: i32, wza: f32, wzb: f32, wya: f32, wyb: f32,
  xpa: usize, xpb: usize, xwa: usize, xwb: usize, i: i32,
): void {
  if (ru8(active, c) == 0) return
  const xa = ri32(xpa, i)
  const xb = ri32(xpb, i)
  const wxa = lf(xwa, i)
  const wxb = lf(xwb, i)
  const aa = wxa * lf(xc, za + ya + xa) + wxb * lf(xc, za + ya + xb)
  const ab = wxa * lf(xc, za + yb + xa) + wxb * lf(xc, za + yb + xb)
  const ba = wxa * lf(xc, zb + ya + xa) + wxb * lf(xc, zb + ya + xb)
  const bb = wxa * lf(xc, zb + yb + xa) + wxb * lf(xc, zb + yb + xb)
  sf(xf, c, lf(xf, c) + (wza * (wya * aa + wyb * ab) + wzb * (wya * ba + wyb * bb)))
}

/** startCycle32Slab: b = r rounded to float32 and x = 0 on planes [k0, k1) of `plane` cells. */
export function startCycle32(b: usize, x: usize, r: usize, plane: i32, k0: i32, k1: i32): void {
  let c = plane * k0
  const e = plane * k1
  const zero = f32x4.splat(0)
  for (; c + 3 < e; c += 4) {
    const lo = f32x4.demote_f64x2_zero(v128.load(r + (<usize>c << 3)))
    const hi = f32x4.demote_f64x2_zero(v128.load(r + (<usize>(c + 2) << 3)))
    v128.store(b + (<usize>c << 2), i32x4.shuffle(lo, hi, 0, 1, 4, 5))
    v128.store(x + (<usize>c << 2), zero)
  }
  for (; c < e; c++) {
    sf(b, c, <f32>load<f64>(r + (<usize>c << 3)))
    sf(x, c, 0)
  }
}

/** widenSlab: z = x widened to float64 on planes [k0, k1). */
export function finishCycle32(z: usize, x: usize, plane: i32, k0: i32, k1: i32): void {
  let c = plane * k0
  const e = plane * k1
  for (; c + 3 < e; c += 4) {
    const v = v32(x, c)
    v128.store(z + (<usize>c << 3), f64x2.promote_low_f32x4(v))
    v128.store(z + (<usize>(c + 2) << 3), f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 2, 3, 2, 3)))
  }
  for (; c < e; c++) store<f64>(z + (<usize>c << 3), <f64>lf(x, c))
}

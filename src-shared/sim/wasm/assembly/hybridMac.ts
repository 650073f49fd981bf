// Twin of src-shared/sim/hybrid/macStencil.ts: the staggered (MAC) trilinear velocity on the
// hybrid mesh's grid faces, split faces included (the area-weighted mean of their triangles),
// in the reference's operations and order so each answer is its bits. Helpers of the
// face-value row (hybridFit.ts accurateFaceValues) and of the hexahedral traces' single-face
// path (hybridTrace.ts: macGridComponent, whole faces only, from the table by grid face); no
// kernel of its own.
import { rf64, ri32 } from './common'

@inline export function floorNear(u: f64, c: i32): i32 {
  const f = Math.floor(u)
  return f < <f64>(c - 1) ? c - 1 : f > <f64>c ? c : <i32>f
}

// stencilAt's answer (module globals are per thread): the first grid face, the row strides, the weights.
export let sBase: i32 = 0
export let sFx: i32 = 0
export let sFy: i32 = 0
export let sTx: f64 = 0
export let sTy: f64 = 0
export let sTz: f64 = 0

/**
 * macStencil.ts stencilAt: the axis-a stencil around (gx, gy, gz) in cube (ci, cj, ck) into the
 * s* globals; false when it reaches outside the grid (then sBase is 0, the grid's first face,
 * which a caller reading two stencils side by side may read in its place; the strides and
 * weights are set either way).
 */
@inline export function stencilAt(a: i32, gx: f64, gy: f64, gz: f64, ci: i32, cj: i32, ck: i32, nx: i32, ny: i32, nz: i32): bool {
  const u = a == 0 ? gx : gx - 0.5, v = a == 1 ? gy : gy - 0.5, w = a == 2 ? gz : gz - 0.5
  const i0 = a == 0 ? ci : floorNear(u, ci), j0 = a == 1 ? cj : floorNear(v, cj), k0 = a == 2 ? ck : floorNear(w, ck)
  const fx = nx + (a == 0 ? 1 : 0), fy = ny + (a == 1 ? 1 : 0), fz = nz + (a == 2 ? 1 : 0)
  const inside = !(i0 < 0 || j0 < 0 || k0 < 0 || i0 + 1 >= fx || j0 + 1 >= fy || k0 + 1 >= fz)
  const axisOffset = a == 0 ? 0 : a == 1 ? (nx + 1) * ny * nz : (nx + 1) * ny * nz + nx * (ny + 1) * nz
  sBase = inside ? axisOffset + i0 + fx * (j0 + fy * k0) : 0
  sFx = fx; sFy = fy
  sTx = u - <f64>i0; sTy = v - <f64>j0; sTz = w - <f64>k0
  return inside
}

/** macFaceValue: the +a velocity on grid face g that is not one whole mesh face; NaN with none. */
function macFaceValue(gridFaceStart: usize, gridFaces: usize, faceNormal: usize, faceArea: usize, zf: usize, g: i32, a: i32): f64 {
  const s = ri32(gridFaceStart, g), e = ri32(gridFaceStart, g + 1)
  if (s == e) return NaN
  let q: f64 = 0, area: f64 = 0
  for (let i = s; i < e; i++) {
    const f = ri32(gridFaces, i)
    q += rf64(faceArea, f) * rf64(faceNormal, 3 * f + a) * rf64(zf, f)
    area += rf64(faceArea, f)
  }
  return q / area
}

/**
 * macComponentAt: component a at grid point (gx, gy, gz) of cube (ci, cj, ck); NaN when a
 * stencil face is outside the grid or has no mesh face. gridFaceStart 0: whole faces only (a
 * split face counts as missing).
 */
export function macComponentAt(
  macSingle: usize, macSign: usize, gridFaceStart: usize, gridFaces: usize, faceNormal: usize, faceArea: usize, zf: usize,
  a: i32, gx: f64, gy: f64, gz: f64, ci: i32, cj: i32, ck: i32, nx: i32, ny: i32, nz: i32,
): f64 {
  if (!stencilAt(a, gx, gy, gz, ci, cj, ck, nx, ny, nz)) return NaN
  const base = sBase, fx = sFx, fy = sFy, tx = sTx, ty = sTy, tz = sTz
  let sum: f64 = 0
  for (let d = 0; d < 8; d++) {
    const g = base + (d & 1) + fx * (((d & 2) != 0 ? 1 : 0) + fy * ((d & 4) != 0 ? 1 : 0))
    const f = ri32(macSingle, g)
    const value = f >= 0 ? rf64(zf, f) * rf64(macSign, g) : gridFaceStart == 0 ? NaN : macFaceValue(gridFaceStart, gridFaces, faceNormal, faceArea, zf, g, a)
    if (value != value) return NaN
    sum += ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz) * value
  }
  return sum
}

/** macNormalAt: the staggered velocity along (n0, n1, n2) at grid point (gx, gy, gz) in cube `cube`; NaN when a stencil it needs is not whole. */
export function macNormalAt(
  macSingle: usize, macSign: usize, gridFaceStart: usize, gridFaces: usize, faceNormal: usize, faceArea: usize, zf: usize,
  gx: f64, gy: f64, gz: f64, cube: i32, nx: i32, ny: i32, nz: i32, n0: f64, n1: f64, n2: f64,
): f64 {
  const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
  if (n1 == 0 && n2 == 0) return macComponentAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zf, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz) * n0
  if (n0 == 0 && n2 == 0) return macComponentAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zf, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz) * n1
  if (n0 == 0 && n1 == 0) return macComponentAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zf, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz) * n2
  const u = macComponentAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zf, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  const v = macComponentAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zf, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  const w = macComponentAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zf, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  if (!(u == u && v == v && w == w)) return NaN
  return u * n0 + v * n1 + w * n2
}

/** macStencil.ts macGridComponentAt: macComponentAt over whole faces only, the values from the table by grid face (NaN: split, missing or NaN). */
export function macGridComponent(zGrid: usize, a: i32, gx: f64, gy: f64, gz: f64, ci: i32, cj: i32, ck: i32, nx: i32, ny: i32, nz: i32): f64 {
  if (!stencilAt(a, gx, gy, gz, ci, cj, ck, nx, ny, nz)) return NaN
  const base = sBase, fx = sFx, fy = sFy, tx = sTx, ty = sTy, tz = sTz
  let sum: f64 = 0
  for (let d = 0; d < 8; d++) {
    const value = rf64(zGrid, base + (d & 1) + fx * (((d & 2) != 0 ? 1 : 0) + fy * ((d & 4) != 0 ? 1 : 0)))
    if (value != value) return NaN
    sum += ((d & 1) != 0 ? tx : 1 - tx) * ((d & 2) != 0 ? ty : 1 - ty) * ((d & 4) != 0 ? tz : 1 - tz) * value
  }
  return sum
}

// Twins of src-shared/sim/surface/surfaceAdvectKernels.ts: the surface flow's face velocities
// and their semi-Lagrangian advection, departures outside a patch walked across the atlas.
import { ri32, rf64, wf64 } from './common'
import { xFaceSample, yFaceSample } from './surfaceSamples'

@inline function inside(x1: f64, x2: f64): bool {
  return !(x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1)
}

/** surfaceVelocitiesPatches over patches [p0, p1). */
export function surfaceVelocities(fx: usize, fy: usize, sx: usize, sy: usize, ux: usize, uy: usize, N: i32, p0: i32, p1: i32): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const f0 = p * rowX * (N + 2) + 1 + rowX * (j + 1)
      for (let f = f0; f <= f0 + N; f++) {
        const s = rf64(sx, f)
        wf64(ux, f, s > 0 ? rf64(fx, f) / s : 0)
      }
    }
    for (let j = 0; j <= N; j++) {
      const f0 = p * rowY * (N + 3) + 1 + rowY * (j + 1)
      for (let f = f0; f < f0 + N; f++) {
        const s = rf64(sy, f)
        wf64(uy, f, s > 0 ? rf64(fy, f) / s : 0)
      }
    }
  }
}

/** Rows of patchAtlas.ts FROM_EDGE and TO_EDGE (the same table), entry k of edge e. */
@inline function edgeJacobian(e: i32, k: i32): f64 {
  // [1, 0, 0, -1], [0, 1, 1, 0], [-1, 0, 0, 1], [0, -1, -1, 0]
  if (e == 0) return k == 0 ? 1 : k == 3 ? -1 : 0
  if (e == 1) return k == 1 || k == 2 ? 1 : 0
  if (e == 2) return k == 0 ? -1 : k == 3 ? 1 : 0
  return k == 1 || k == 2 ? -1 : 0
}

/**
 * patchAtlas.ts locateOf and the walked sample (surfaceAdvectKernels.ts walkedSample): component c of the face
 * velocities at (x1, x2) of patch p, the point walked into the patch holding it, both components
 * sampled there and turned back by the walk's Jacobian.
 */
function walkedSample(ux: usize, uy: usize, N: i32, neighbour: usize, neighbourEdge: usize, p: i32, x1: f64, x2: f64, c: i32): f64 {
  let q = p
  let a = x1, b = x2, m0: f64 = 1, m1: f64 = 0, m2: f64 = 0, m3: f64 = 1
  let clamp = true
  for (let hops = 0; hops < 8; hops++) {
    let e = -1
    if (a < 0) e = 3
    else if (a > 1) e = 1
    else if (b < 0) e = 0
    else if (b > 1) e = 2
    if (e < 0) {
      clamp = false
      break
    }
    const nq = ri32(neighbour, 4 * q + e)
    if (nq < 0) break
    const f = ri32(neighbourEdge, 4 * q + e)
    let along: f64, out: f64
    if (e == 0) { along = a; out = -b } else if (e == 1) { along = b; out = a - 1 } else if (e == 2) { along = 1 - a; out = b - 1 } else { along = 1 - b; out = -a }
    const al = 1 - along, ou = -out
    if (f == 0) { a = al; b = -ou } else if (f == 1) { a = 1 + ou; b = al } else if (f == 2) { a = 1 - al; b = 1 + ou } else { a = -ou; b = 1 - al }
    q = nq
    const A0 = edgeJacobian(f, 0), A1 = edgeJacobian(f, 1), A2 = edgeJacobian(f, 2), A3 = edgeJacobian(f, 3)
    const B0 = edgeJacobian(e, 0), B1 = edgeJacobian(e, 1), B2 = edgeJacobian(e, 2), B3 = edgeJacobian(e, 3)
    const j00 = -(A0 * B0 + A1 * B2), j01 = -(A0 * B1 + A1 * B3)
    const j10 = -(A2 * B0 + A3 * B2), j11 = -(A2 * B1 + A3 * B3)
    const n00 = j00 * m0 + j01 * m2, n01 = j00 * m1 + j01 * m3
    const n10 = j10 * m0 + j11 * m2, n11 = j10 * m1 + j11 * m3
    m0 = n00; m1 = n01; m2 = n10; m3 = n11
  }
  if (clamp) {
    a = a < 0 ? 0 : a > 1 ? 1 : a
    b = b < 0 ? 0 : b > 1 ? 1 : b
  }
  const v1 = xFaceSample(ux, N, q, a, b), v2 = yFaceSample(uy, N, q, a, b)
  return c == 0 ? m0 * v1 + m2 * v2 : m1 * v1 + m3 * v2
}

/** faceMean: the mean of the four faces of the other kind around a face (k the lower left, row their row length). */
@inline function faceMean(u: usize, k: i32, row: i32): f64 {
  return 0.25 * ((rf64(u, k) + rf64(u, k + 1)) + (rf64(u, k + row) + rf64(u, k + row + 1)))
}

/** surfaceAdvectVelocityPatches over patches [p0, p1). */
export function surfaceAdvectVelocity(
  ux: usize, uy: usize, sx: usize, sy: usize, outX: usize, outY: usize, neighbour: usize, neighbourEdge: usize,
  N: i32, dt: f64, h: f64, p0: i32, p1: i32,
): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    const bx = p * rowX * (N + 2), by = p * rowY * (N + 3)
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const f = bx + i + 1 + rowX * (j + 1)
      const x1 = <f64>i * h, x2 = (<f64>j + 0.5) * h
      const v2 = faceMean(uy, by + i + rowY * (j + 1), rowY)
      const d1 = x1 - dt * rf64(ux, f), d2 = x2 - dt * v2
      const v = inside(d1, d2) ? xFaceSample(ux, N, p, d1, d2) : walkedSample(ux, uy, N, neighbour, neighbourEdge, p, d1, d2, 0)
      wf64(outX, f, rf64(sx, f) * v)
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const f = by + i + 1 + rowY * (j + 1)
      const x1 = (<f64>i + 0.5) * h, x2 = <f64>j * h
      const v1 = faceMean(ux, bx + i + 1 + rowX * j, rowX)
      const d1 = x1 - dt * v1, d2 = x2 - dt * rf64(uy, f)
      const v = inside(d1, d2) ? yFaceSample(uy, N, p, d1, d2) : walkedSample(ux, uy, N, neighbour, neighbourEdge, p, d1, d2, 1)
      wf64(outY, f, rf64(sy, f) * v)
    }
  }
}

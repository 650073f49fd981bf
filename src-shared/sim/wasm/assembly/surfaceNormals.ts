// The liquid mesh's vertex normals (reference: src-shared/geometry/triMesh.ts
// accumulateFaceNormals and normalizeVertexNormals; rows in liquid/surface/normals.ts): the
// reference's float64 expressions in its order, float32 positions promoted on load and the
// normals rounded on store.
import { rf32, rf64, ri32, wf32, wf64 } from './common'

/** accumulateFaceNormals (one index: the whole mesh, in face order). */
export function normalsAccumulate(positions: usize, indices: usize, triangles: i32, acc: usize, vertices: i32, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  memory.fill(acc, 0, <usize>(3 * vertices) << 3)
  for (let t = 0; t < 3 * triangles; t += 3) {
    const a = 3 * ri32(indices, t), b = 3 * ri32(indices, t + 1), c = 3 * ri32(indices, t + 2)
    const pax = rf32(positions, a), pay = rf32(positions, a + 1), paz = rf32(positions, a + 2)
    const ux = rf32(positions, b) - pax, uy = rf32(positions, b + 1) - pay, uz = rf32(positions, b + 2) - paz
    const vx = rf32(positions, c) - pax, vy = rf32(positions, c + 1) - pay, vz = rf32(positions, c + 2) - paz
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx
    wf64(acc, a, rf64(acc, a) + nx); wf64(acc, a + 1, rf64(acc, a + 1) + ny); wf64(acc, a + 2, rf64(acc, a + 2) + nz)
    wf64(acc, b, rf64(acc, b) + nx); wf64(acc, b + 1, rf64(acc, b + 1) + ny); wf64(acc, b + 2, rf64(acc, b + 2) + nz)
    wf64(acc, c, rf64(acc, c) + nx); wf64(acc, c + 1, rf64(acc, c + 1) + ny); wf64(acc, c + 2, rf64(acc, c + 2) + nz)
  }
}

/** normalizeVertexNormals over vertices [v0, v1). */
export function normalsNormalize(acc: usize, out: usize, v0: i32, v1: i32): void {
  for (let i = 3 * v0; i < 3 * v1; i += 3) {
    const x = rf64(acc, i), y = rf64(acc, i + 1), z = rf64(acc, i + 2)
    const len = Math.sqrt(x * x + y * y + z * z)
    const s: f64 = len > 0 && len < Infinity ? 1 / len : 0
    wf32(out, i, x * s)
    wf32(out, i + 1, y * s)
    wf32(out, i + 2, z * s)
  }
}

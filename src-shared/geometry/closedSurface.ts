// Is a triangle mesh a closed surface (a 2-cycle)? True when every edge is used as often in
// one direction (a -> b) as in the other (b -> a), with vertices identified by position so
// that seams of duplicated vertices (glTF UV/normal splits) do not count as holes. Then the
// boundary of the surface is empty and its generalized winding number is an integer,
// constant on each connected component of space minus the surface (Jacobson et al.
// 2013): for such meshes, two points joined by a segment that does not touch the surface
// are on the same side, which lets SDF sampling carry the sign from one sample to the next
// instead of evaluating the winding number everywhere. This holds for non-manifold closed
// surfaces too (two cubes sharing an edge), and regardless of orientation.
import { MeshMemo } from './meshMemo'
import type { TriMesh } from './triMesh'

const REMEMBERED = new MeshMemo<boolean>(8)

/**
 * isClosedSurface, remembered by the mesh's content (meshMemo.ts): for meshes asked about again
 * and again (a scene's rigid bodies: compiling, validating and building each copy asked).
 */
export function isClosedSurfaceRemembered(mesh: TriMesh): boolean {
  return REMEMBERED.get(mesh, '', () => isClosedSurface(mesh))
}

export function isClosedSurface(mesh: TriMesh): boolean {
  const p = mesh.positions, idx = mesh.indices
  const nv = p.length / 3
  // Canonical vertex id: the smallest index among vertices at the same position.
  const order = new Uint32Array(nv)
  for (let i = 0; i < nv; i++) order[i] = i
  order.sort((a, b) => p[3 * a] - p[3 * b] || p[3 * a + 1] - p[3 * b + 1] || p[3 * a + 2] - p[3 * b + 2] || a - b)
  const canon = new Uint32Array(nv)
  for (let s = 0; s < nv; ) {
    const v = order[s]
    let e = s
    while (e < nv && p[3 * order[e]] === p[3 * v] && p[3 * order[e] + 1] === p[3 * v + 1] && p[3 * order[e] + 2] === p[3 * v + 2]) {
      canon[order[e]] = v
      e++
    }
    s = e
  }
  // One number per directed edge: 2 * (min * nv + max) + (1 if it runs min -> max), exact
  // below 2^53 (nv <= 1e7 gives < 2e14). A native numeric sort groups each edge's uses.
  const m = idx.length
  const keys = new Float64Array(m)
  let k = 0
  for (let t = 0; t < m; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = canon[idx[t + e]], b = canon[idx[t + ((e + 1) % 3)]]
      if (a === b) continue // a collapsed edge bounds nothing
      keys[k++] = a < b ? 2 * (a * nv + b) + 1 : 2 * (b * nv + a)
    }
  }
  const used = keys.subarray(0, k).sort()
  for (let s = 0; s < k; ) {
    const edge = Math.floor(used[s] / 2)
    let balance = 0
    let e = s
    while (e < k && Math.floor(used[e] / 2) === edge) {
      balance += used[e] % 2 === 1 ? 1 : -1
      e++
    }
    if (balance !== 0) return false
    s = e
  }
  return true
}

// Test meshes for the geometry tests (not a test file itself).
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import { ellipsoidMesh } from '../../../src-shared/sim/rigid/tessellate'

/** Deterministic PRNG (mulberry32) so failures reproduce. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Unit icosphere: an icosahedron with each triangle split into 4 `levels` times, vertices
 * pushed onto the unit sphere; counter-clockwise seen from outside.
 */
export function icosphere(levels: number): TriMesh {
  // The rigid bodies' tessellation (sim/rigid/tessellate.ts) builds the same icosphere.
  const m = ellipsoidMesh(1, 1, 1, levels)
  return { positions: m.positions, indices: m.indices }
}

/** Axis-aligned cube [-h, h]^3, 12 triangles counter-clockwise seen from outside. */
export function cube(h = 0.5): TriMesh {
  // prettier-ignore
  const positions = Float32Array.from([
    -h, -h, -h, h, -h, -h, h, h, -h, -h, h, -h,
    -h, -h, h, h, -h, h, h, h, h, -h, h, h,
  ])
  const quads = [
    [0, 3, 2, 1], // z = -h
    [4, 5, 6, 7], // z = +h
    [0, 1, 5, 4], // y = -h
    [2, 3, 7, 6], // y = +h
    [0, 4, 7, 3], // x = -h
    [1, 2, 6, 5], // x = +h
  ]
  const indices: number[] = []
  for (const [a, b, c, d] of quads) indices.push(a, b, c, a, c, d)
  return { positions, indices: Uint32Array.from(indices) }
}

/** Random triangle soup in [0, 1]^3: mostly small triangles, some large, a few degenerate. */
export function randomSoup(n: number, seed: number): TriMesh {
  const rand = rng(seed)
  const pos = new Float32Array(9 * n)
  const idx = new Uint32Array(3 * n)
  for (let t = 0; t < n; t++) {
    const size = t % 10 === 0 ? 0.5 : 0.05
    const cx = rand(), cy = rand(), cz = rand()
    for (let c = 0; c < 3; c++) {
      pos[9 * t + 3 * c] = cx + (rand() - 0.5) * size
      pos[9 * t + 3 * c + 1] = cy + (rand() - 0.5) * size
      pos[9 * t + 3 * c + 2] = cz + (rand() - 0.5) * size
      idx[3 * t + c] = 3 * t + c
    }
    if (t % 97 === 5) idx[3 * t + 2] = idx[3 * t + 1] // repeated corner: zero area
    if (t % 89 === 7) {
      // collinear corners
      for (let k = 0; k < 3; k++) pos[9 * t + 6 + k] = 0.5 * (pos[9 * t + k] + pos[9 * t + 3 + k])
    }
  }
  return { positions: pos, indices: idx }
}

/** Copy with the triangles for which `drop(t)` is true removed. */
export function withoutTriangles(mesh: TriMesh, drop: (t: number) => boolean): TriMesh {
  const keep: number[] = []
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    if (!drop(t)) keep.push(mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2])
  }
  return { positions: mesh.positions, indices: Uint32Array.from(keep) }
}

/** Copy with every triangle's winding reversed (normals inward). */
export function flipped(mesh: TriMesh): TriMesh {
  const idx = Uint32Array.from(mesh.indices)
  for (let t = 0; t < idx.length; t += 3) {
    const b = idx[t + 1]
    idx[t + 1] = idx[t + 2]
    idx[t + 2] = b
  }
  return { positions: mesh.positions, indices: idx }
}

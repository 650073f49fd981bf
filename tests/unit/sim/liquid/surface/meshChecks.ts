// Helpers for the liquid-surface tests: particle clouds and exact mesh checks.

/** Deterministic uniform numbers in [0, 1) (mulberry32), so failures reproduce. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Particles on a lattice of spacing dx / 2 (8 per cell), each jittered by up to +-jitter
 * spacings per axis, kept where inside(x, y, z). Lattice points sit at sub-cell centres.
 */
export function latticeParticles(
  lo: [number, number, number],
  hi: [number, number, number],
  dx: number,
  inside: (x: number, y: number, z: number) => boolean,
  seed = 1,
  jitter = 0.25,
): { positions: Float32Array; count: number } {
  const s = dx / 2, rand = rng(seed)
  const out: number[] = []
  for (let z = lo[2] + s / 2; z < hi[2]; z += s)
    for (let y = lo[1] + s / 2; y < hi[1]; y += s)
      for (let x = lo[0] + s / 2; x < hi[0]; x += s) {
        const px = x + (2 * rand() - 1) * jitter * s, py = y + (2 * rand() - 1) * jitter * s, pz = z + (2 * rand() - 1) * jitter * s
        if (inside(px, py, pz)) out.push(px, py, pz)
      }
  return { positions: Float32Array.from(out), count: out.length / 3 }
}

/**
 * Null when every directed edge a -> b occurs exactly once and b -> a occurs too (so each
 * undirected edge bounds exactly two triangles, oppositely oriented), no triangle repeats a
 * vertex and every index is in range; otherwise a sentence saying what is wrong.
 */
export function manifoldProblem(positions: Float32Array, indices: Uint32Array): string | null {
  const nv = positions.length / 3
  const keys = new Float64Array(indices.length)
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e], b = indices[t + ((e + 1) % 3)]
      if (a >= nv || b >= nv) return `triangle ${t / 3} has an index out of range`
      if (a === b) return `triangle ${t / 3} repeats vertex ${a}`
      keys[t + e] = a * nv + b
    }
  }
  const sorted = keys.slice().sort()
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) return `directed edge ${sorted[i]} used twice`
  for (let i = 0; i < sorted.length; i++) {
    const a = Math.floor(sorted[i] / nv), b = sorted[i] - a * nv
    if (!binaryHas(sorted, b * nv + a)) return `edge ${a}-${b} bounds only one triangle`
  }
  return null
}

function binaryHas(a: Float64Array, x: number): boolean {
  let lo = 0, hi = a.length - 1
  while (lo <= hi) {
    const m = (lo + hi) >> 1
    if (a[m] === x) return true
    if (a[m] < x) lo = m + 1
    else hi = m - 1
  }
  return false
}

/** Enclosed signed volume (divergence theorem), positive for outward-facing triangles. */
export function meshVolume(positions: Float32Array, indices: Uint32Array): number {
  let v = 0
  const p = positions
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
    v += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) + p[a + 1] * (p[b + 2] * p[c] - p[b] * p[c + 2]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])
  }
  return v / 6
}

/** Volume centroid of a closed mesh (sum of signed tetrahedra about the origin). */
export function meshCentroid(positions: Float32Array, indices: Uint32Array): [number, number, number] {
  let v = 0, cx = 0, cy = 0, cz = 0
  const p = positions
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
    const tv = (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) + p[a + 1] * (p[b + 2] * p[c] - p[b] * p[c + 2]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6
    v += tv
    cx += (tv * (p[a] + p[b] + p[c])) / 4
    cy += (tv * (p[a + 1] + p[b + 1] + p[c + 1])) / 4
    cz += (tv * (p[a + 2] + p[b + 2] + p[c + 2])) / 4
  }
  return [cx / v, cy / v, cz / v]
}

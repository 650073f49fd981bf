// Volume enclosed by a closed triangle mesh (the divergence theorem over its triangles): how
// the tetrahedral liquid's tests measure the liquid the surface S holds.
export function enclosedVolume(s: { positions: Float32Array; indices: Uint32Array }): number {
  const p = s.positions, I = s.indices
  let v = 0
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2]
    v += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])
  }
  return v / 6
}

// Volume enclosed by a closed triangle mesh (the divergence theorem over its triangles): how
// the tetrahedral liquid's tests measure the liquid the surface S holds, and where its centre
// of volume is (the signed tetrahedra from the origin, each weighted at its centroid).
export function volumeAndCentre(s: { positions: Float32Array; indices: Uint32Array }): { volume: number; y: number } {
  const p = s.positions, I = s.indices
  let v = 0, my = 0
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2]
    const dv = p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])
    v += dv
    my += dv * (p[a + 1] + p[b + 1] + p[c + 1])
  }
  return { volume: v / 6, y: my / (4 * v) }
}

export function enclosedVolume(s: { positions: Float32Array; indices: Uint32Array }): number {
  return volumeAndCentre(s).volume
}

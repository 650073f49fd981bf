// The cut-away view of the simulation mesh M_t (the paper's Figure 3, centre): the tetrahedra
// whose centroids lie behind the plane z = the domain's centre, drawn as the faces that bound
// that half (the cut and the back of the liquid's boundary). Each triangle has its own three
// vertices and its face normal, so facets read as facets, and a colour from its tetrahedron's
// size: the finest lattice light blue, each coarser octree level warmer, so the grading shows.
// A display-only frame mesh (frame.ts): cached and drawn on request, never exported.
import { DISPLAY_ONLY_MESH, type FrameMesh } from '../frame'
import type { LiquidMesh } from './liquidMesh'
import type { TetLiquidSetup } from './tetLiquidSetup'

export const CUTAWAY_MESH = `${DISPLAY_ONLY_MESH}tetrahedra`

/** Linear RGB by octree level: 0 the finest. */
const LEVEL_COLOURS: readonly [number, number, number][] = [
  [0.35, 0.62, 0.9],
  [0.3, 0.75, 0.55],
  [0.85, 0.8, 0.3],
  [0.95, 0.55, 0.2],
  [0.85, 0.3, 0.25],
  [0.6, 0.3, 0.6],
]

export function tetCutaway(m: LiquidMesh, setup: Pick<TetLiquidSetup, 'box' | 'spacing'>): FrameMesh {
  const { topology, geometry, positions } = m
  const { tetCount, tetFaces, tetNeighbours, faceVertices } = topology
  const cz = 0.5 * (setup.box.min[2] + setup.box.max[2])
  const kept = new Uint8Array(tetCount)
  for (let t = 0; t < tetCount; t++) if (geometry.tetCentres[3 * t + 2] <= cz) kept[t] = 1
  // A kept tetrahedron's face is drawn where nothing kept lies beyond it.
  let count = 0
  for (let t = 0; t < tetCount; t++) {
    if (!kept[t]) continue
    for (let k = 0; k < 4; k++) {
      const nb = tetNeighbours[4 * t + k]
      if (nb < 0 || !kept[nb]) count++
    }
  }
  const out = new Float32Array(9 * count), normals = new Float32Array(9 * count), colour = new Float32Array(9 * count)
  let o = 0
  for (let t = 0; t < tetCount; t++) {
    if (!kept[t]) continue
    const level = Math.max(0, Math.min(LEVEL_COLOURS.length - 1, Math.round(Math.log2(geometry.tetMeanEdge[t] / (0.9 * setup.spacing)))))
    const c = LEVEL_COLOURS[level]
    for (let k = 0; k < 4; k++) {
      const nb = tetNeighbours[4 * t + k]
      if (nb >= 0 && kept[nb]) continue
      const f = tetFaces[4 * t + k]
      // Wound to face out of t: the face's stored normal points out of its first tetrahedron.
      const outward = topology.faceTets[2 * f] === t
      const order = outward ? [0, 1, 2] : [0, 2, 1]
      const n = geometry.faceNormals
      const s = outward ? 1 : -1
      for (const q of order) {
        const v = faceVertices[3 * f + q]
        out[o] = positions[3 * v]; out[o + 1] = positions[3 * v + 1]; out[o + 2] = positions[3 * v + 2]
        normals[o] = s * n[3 * f]; normals[o + 1] = s * n[3 * f + 1]; normals[o + 2] = s * n[3 * f + 2]
        colour[o] = c[0]; colour[o + 1] = c[1]; colour[o + 2] = c[2]
        o += 3
      }
    }
  }
  const indices = new Uint32Array(3 * count)
  for (let i = 0; i < indices.length; i++) indices[i] = i
  return { name: CUTAWAY_MESH, positions: out, indices, normals, attributes: { color: { components: 3, data: colour } } }
}

// The control cage of a Catmull-Clark surface as the scene document stores it. Lives in
// geometry so catmullClark.ts does not depend on the scene layer; scene/types.ts re-exports it.

/** Control mesh of a Catmull-Clark surface: flat xyz positions, polygon faces (any valence >= 3). */
export interface CageGeometry {
  positions: number[]
  faces: number[][]
}

// Eddy's world is right-handed and Y up (the glTF convention). Tools that read files without
// converting axes (Blender's VDB and PLY importers, Houdini set to Z up) want Z up. The
// conversion is the rotation of +90 degrees about X, (x, y, z) -> (x, -z, y), the same one
// openvdb/fromVolumes.ts applies to grids: a rotation (not a mirror), so triangle winding and
// the handedness of cross products survive.
import type { FrameMesh, ParticleSet } from '../sim/frame'

export type UpAxis = 'y' | 'z'

/** A copy of xyz triples rotated from Y up to Z up. */
export function rotateYUpToZUp(xyz: Float32Array): Float32Array {
  const out = new Float32Array(xyz.length)
  for (let i = 0; i + 2 < xyz.length; i += 3) {
    out[i] = xyz[i]
    // -0 would print as "-0" in text formats; it is the same point.
    out[i + 1] = -xyz[i + 2] + 0
    out[i + 2] = xyz[i + 1]
  }
  return out
}

// Three-component attributes are world-space vectors (velocity, vorticity, force) and rotate
// with the positions; colours are the exception solvers or users might add.
const NOT_A_VECTOR = /^(colou?r|cd|rgb)$/i

/** A 3-component attribute that is a colour, not a world vector (it never rotates). */
export const isColourAttribute = (name: string): boolean => NOT_A_VECTOR.test(name)

/** Positions, normals and vector attributes rotated; indices, scalars and colours shared. */
export function meshToZUp(mesh: FrameMesh): FrameMesh {
  const out: FrameMesh = { name: mesh.name, positions: rotateYUpToZUp(mesh.positions), indices: mesh.indices }
  if (mesh.normals) out.normals = rotateYUpToZUp(mesh.normals)
  if (mesh.attributes) {
    out.attributes = {}
    for (const [name, a] of Object.entries(mesh.attributes)) {
      out.attributes[name] = a.components === 3 && !NOT_A_VECTOR.test(name) ? { components: 3, data: rotateYUpToZUp(a.data) } : a
    }
  }
  return out
}

/** Particle set with positions and every 3-component vector attribute rotated. */
export function particlesToZUp(set: ParticleSet): ParticleSet {
  const attributes: ParticleSet['attributes'] = {}
  for (const [name, attr] of Object.entries(set.attributes)) {
    const rotate = attr.components === 3 && !NOT_A_VECTOR.test(name)
    attributes[name] = rotate ? { components: 3, data: rotateYUpToZUp(attr.data) } : attr
  }
  return { name: set.name, count: set.count, positions: rotateYUpToZUp(set.positions), attributes }
}

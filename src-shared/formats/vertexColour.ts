// The 'color' attribute of a frame mesh is linear RGB in [0, 1] (glTF's COLOR_0 convention
// and what the viewport shades with). OBJ and PLY readers (Blender, MeshLab) take vertex
// colours as sRGB, so those writers encode them with the sRGB transfer function.
import type { FrameMesh } from '../sim/frame'

/** The mesh's colour attribute when it has one of 3 components per vertex, else undefined. */
export function vertexColours(m: FrameMesh): Float32Array | undefined {
  const c = m.attributes?.color
  return c && c.components === 3 && c.data.length === m.positions.length ? c.data : undefined
}

/** sRGB-encoded value in [0, 1] of a linear one (clamped; NaN becomes 0). */
export function linearToSrgb(v: number): number {
  const x = v > 0 ? (v < 1 ? v : 1) : 0
  return x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055
}

/** Linear value of an sRGB-encoded one in [0, 1]. */
export function srgbToLinear(v: number): number {
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)
}

// Per-vertex colours of a cached mesh, computed in the decode worker like the particles'
// colour values: a 'color' attribute is drawn as the RGB it holds, any other attribute
// through viridis over its range on this frame (vectors by magnitude).
import type { FrameMesh } from '../../../src-shared/sim/frame'
import { isColourAttribute } from '../../../src-shared/formats/upAxis'
import { viridisInto } from './colorRamp'

export interface MeshColors {
  /** The attribute the colours come from, or null (the plain material). */
  colorBy: string | null
  /** Linear RGBA per vertex (Babylon's vertex colour layout), or null. */
  colors: Float32Array | null
  /** Range of the values mapped through viridis (0, 0 for an RGB attribute or none). */
  valueMin: number
  valueMax: number
}

const NONE: MeshColors = { colorBy: null, colors: null, valueMin: 0, valueMax: 0 }

/**
 * colorBy: an attribute name; null for none; undefined for the mesh's 'color' attribute when
 * it has one (a solver that paints its surface wants it shown), else none.
 */
export function meshColors(m: FrameMesh, vertices: number, colorBy: string | null | undefined): MeshColors {
  const attrs = m.attributes ?? {}
  const name = colorBy === undefined ? ('color' in attrs ? 'color' : null) : colorBy
  const a = name !== null ? attrs[name] : undefined
  if (!a || (a.components !== 1 && a.components !== 3) || a.data.length < vertices * a.components) return NONE
  const colors = new Float32Array(vertices * 4)
  const src = a.data
  if (a.components === 3 && isColourAttribute(name!)) {
    for (let v = 0; v < vertices; v++) {
      for (let c = 0; c < 3; c++) {
        const x = src[3 * v + c]
        colors[4 * v + c] = x > 0 ? (x < 1 ? x : 1) : 0
      }
      colors[4 * v + 3] = 1
    }
    return { colorBy: name, colors, valueMin: 0, valueMax: 0 }
  }
  // Values first (into the alpha slots, overwritten below) to find the range in one pass.
  let lo = Infinity
  let hi = -Infinity
  for (let v = 0; v < vertices; v++) {
    const x = a.components === 1 ? src[v] : Math.hypot(src[3 * v], src[3 * v + 1], src[3 * v + 2])
    colors[4 * v + 3] = x
    if (x < lo) lo = x
    if (x > hi) hi = x
  }
  if (!(lo <= hi)) lo = hi = 0
  const span = hi - lo
  for (let v = 0; v < vertices; v++) {
    const x = colors[4 * v + 3]
    // One value everywhere lands mid-ramp; NaN at the bottom.
    viridisInto(span > 0 ? (x - lo) / span : 0.5, colors, 4 * v)
    colors[4 * v + 3] = 1
  }
  return { colorBy: name, colors, valueMin: lo, valueMax: hi }
}

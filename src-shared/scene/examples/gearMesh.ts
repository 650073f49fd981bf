// A spur gear as a closed triangle mesh, built here rather than imported: a toothed disc with
// an axle hole, extruded along its axis (object y), centred on the origin. Carlson 2004's
// gears (Fig. 22) had 250 vertices; this one has 12 trapezoid teeth and a hole, with every
// face carrying its own vertices (flat shading: the viewport's vertex normals then keep the
// teeth's edges sharp), 576 vertices and 384 triangles.
//
// The surface is watertight and faces outwards: each cap is the ring of quads between the
// tooth outline and the hole at the same angles, each side wall a quad per outline edge, and
// every triangle is wound by the rule "(b - a) x (c - a) points out of the solid" (the caps
// up and down, the outer walls away from the teeth, the hole's walls towards the axis).
// isClosedSurface holds and the enclosed volume is the outline's area minus the hole's, times
// the thickness (tests/unit/examples/gearMesh.test.ts).
import type { ExampleMesh } from './types'

export const GEAR_MESH_ID = 'mesh-gear'

export interface GearShape {
  teeth: number
  /** Radius at the tooth tips, m. */
  tipRadius: number
  /** Radius at the bottom of the gaps between teeth, m. */
  rootRadius: number
  /** Radius of the axle hole, m (0: no hole is not supported; keep it below rootRadius). */
  holeRadius: number
  /** Thickness along the axis (object y), m. */
  thickness: number
}

/** The example's gear: 17 cm across the tips, 4 cm thick, a 4.4 cm axle hole. */
export const GEAR: GearShape = { teeth: 12, tipRadius: 0.085, rootRadius: 0.068, holeRadius: 0.022, thickness: 0.04 }

/**
 * Angles (fractions of one tooth's pitch) of the outline's four corners per tooth: up the
 * leading flank from the root at 0 to the tip at 0.2, across the tip to 0.45, down to the
 * root at 0.65, then along the root to the next tooth.
 */
const TOOTH = [
  { at: 0, tip: false },
  { at: 0.2, tip: true },
  { at: 0.45, tip: true },
  { at: 0.65, tip: false },
] as const

/** The tooth outline in the (x, z) plane, counter-clockwise (increasing angle from +x towards +z). */
export function gearOutline(g: GearShape): { outer: [number, number][]; hole: [number, number][] } {
  const outer: [number, number][] = []
  const hole: [number, number][] = []
  const pitch = (2 * Math.PI) / g.teeth
  for (let t = 0; t < g.teeth; t++) {
    for (const c of TOOTH) {
      const a = (t + c.at) * pitch
      const r = c.tip ? g.tipRadius : g.rootRadius
      outer.push([r * Math.cos(a), r * Math.sin(a)])
      hole.push([g.holeRadius * Math.cos(a), g.holeRadius * Math.sin(a)])
    }
  }
  return { outer, hole }
}

/** Shoelace area of a closed outline in the (x, z) plane (positive counter-clockwise). */
export function outlineArea(points: [number, number][]): number {
  let s = 0
  for (let i = 0; i < points.length; i++) {
    const [x0, z0] = points[i]
    const [x1, z1] = points[(i + 1) % points.length]
    s += x0 * z1 - x1 * z0
  }
  return s / 2
}

export function gearMesh(g: GearShape = GEAR): ExampleMesh {
  if (!(g.holeRadius > 0 && g.holeRadius < g.rootRadius && g.rootRadius < g.tipRadius && g.thickness > 0 && g.teeth >= 3)) {
    throw new Error('gearMesh: need 0 < holeRadius < rootRadius < tipRadius, thickness > 0 and at least 3 teeth')
  }
  const { outer, hole } = gearOutline(g)
  const n = outer.length
  const y0 = -g.thickness / 2
  const y1 = g.thickness / 2
  const positions: number[] = []
  const indices: number[] = []
  const vertex = (x: number, y: number, z: number): number => {
    positions.push(x, y, z)
    return positions.length / 3 - 1
  }
  // A triangle wound so that (b - a) x (c - a) has a positive dot with `out`.
  const tri = (a: number, b: number, c: number, out: [number, number, number]) => {
    const p = (i: number, d: number) => positions[3 * i + d]
    const ux = p(b, 0) - p(a, 0), uy = p(b, 1) - p(a, 1), uz = p(b, 2) - p(a, 2)
    const vx = p(c, 0) - p(a, 0), vy = p(c, 1) - p(a, 1), vz = p(c, 2) - p(a, 2)
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx
    if (nx * out[0] + ny * out[1] + nz * out[2] >= 0) indices.push(a, b, c)
    else indices.push(a, c, b)
  }
  // Caps: per outline corner i, the quad (hole i, outer i, outer i+1, hole i+1).
  for (const [y, up] of [[y1, 1], [y0, -1]] as const) {
    const o = outer.map(([x, z]) => vertex(x, y, z))
    const h = hole.map(([x, z]) => vertex(x, y, z))
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n
      tri(h[i], o[i], o[j], [0, up, 0])
      tri(h[i], o[j], h[j], [0, up, 0])
    }
  }
  // Walls: one quad per outline edge. For a counter-clockwise outline the solid lies to the
  // left of each edge (dx, dz), so the outward normal is (dz, -dx); the hole's walls face the
  // other way (towards the axis), as the solid is outside the hole.
  for (const [loop, sign] of [[outer, 1], [hole, -1]] as const) {
    for (let i = 0; i < n; i++) {
      const [ax, az] = loop[i]
      const [bx, bz] = loop[(i + 1) % n]
      const out: [number, number, number] = [sign * (bz - az), 0, -sign * (bx - ax)]
      const a0 = vertex(ax, y0, az), b0 = vertex(bx, y0, bz), b1 = vertex(bx, y1, bz), a1 = vertex(ax, y1, az)
      tri(a0, b0, b1, out)
      tri(a0, b1, a1, out)
    }
  }
  return { id: GEAR_MESH_ID, name: 'Gear', positions: Float32Array.from(positions), indices: Uint32Array.from(indices) }
}

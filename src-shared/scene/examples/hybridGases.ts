// Examples of the hybrid-mesh smoke (Feldman, O'Brien and Klingner 2005):
// 'hybrid-ramp-jet': the paper's Figure 4: a jet shooting downward onto an inclined ramp. On
//   the hybrid mesh the ramp's slope is followed by tetrahedra and the flow spreads up it; the
//   domain's Mesh menu switches to all tetrahedra or all hexahedra (Table 1's comparison).
// 'hybrid-glass': Figure 5: a jet at the centre of a closed, hollow glass object: a bulb with
//   two looping arms (a figure of eight). The smoke is driven up into both arms, speeds up in
//   them, runs round the loops and disperses where the two return flows collide under the bulb.
// 'hybrid-desk-toy': Figure 6: a closed hourglass-shaped vessel of neutrally dense gas, with a
//   dense (cold) region filled in at the top and a light (hot) one at the bottom, both seeded
//   with tracker particles; they trade places through the neck and mix.
// 'hybrid-corkscrew': Figure 7: a jet below an open vertical tube holding a corkscrew (an auger
//   blade round a shaft); the smoke follows the spiral up the tube and rolls out of the top
//   into open space. The tube and its surroundings are tetrahedra, the rest a regular grid.
//
// The glass, the vessel, the tube and the corkscrew are triangle meshes made here from signed
// distance functions (geometry/sdfMesh.ts), stated in metres about their own origin (scale 1).
import { type SdfFunction, sdfMesh } from '../../geometry/sdfMesh'
import type { SceneDocument, SceneObject, Track, Vec3 } from '../types'
import { meshInfoOf, resolutionOr, sceneObject } from './build'
import type { ExampleMesh, ExampleOptions, ExampleScene } from './types'

/** A hybrid-mesh smoke domain with the settings given (everything else default). */
export function hybridDomain(id: string, name: string, params: Record<string, number | string | boolean | [number, number, number]>): SceneObject {
  return sceneObject(id, 'domain', name, { solver: 'hybrid', cfl: 2, minSubsteps: 1, maxSubsteps: 4, ...params })
}

/**
 * The ramp of Figure 4: a slab inclined at `degrees` about z, its lower edge on the floor. Its
 * size puts the band of tetrahedra around it near the paper's share of the hybrid mesh (Table 1:
 * 34,839 tetrahedra beside 85,155 hexahedra at about 45 cubes a side).
 */
export const RAMP = { position: [0, 0.35, 0] as [number, number, number], degrees: 30, scale: [1.2, 0.12, 0.8] as [number, number, number] }

export function rampJetScene(options?: ExampleOptions & { frames?: number; mode?: 'hybrid' | 'tetrahedra' | 'hexahedra' }): ExampleScene {
  const resolution = resolutionOr(options, 40)
  const doc: SceneDocument = {
    meta: { name: 'Jet onto a ramp', fps: 24, frameStart: 1, frameEnd: options?.frames ?? 96 },
    objects: [
      hybridDomain('domain', 'Ramp domain', { position: [0, 1, 0], size: [2, 2, 2], resolution, hybridMesh: options?.mode ?? 'hybrid', hybridBand: 2, buoyancyBeta: 0, buoyancyAlpha: 0, vorticity: 0.05, openYMax: true, openXMin: true, openXMax: true }),
      sceneObject('jet', 'emitter', 'Jet', {
        shape: 'cylinder', fluid: 'gas', position: [-0.2, 1.65, 0], scale: [0.35, 0.3, 0.35], density: 1, temperature: 293.15, velocity: [0, -3, 0], rate: 48,
      }),
      sceneObject('ramp', 'obstacle', 'Ramp', { shape: 'box', position: RAMP.position, rotation: [0, 0, RAMP.degrees], scale: RAMP.scale }),
    ],
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}

// ---------------------------------------------------------------------------------------
// Shapes as signed distances (negative inside), in the mesh's own space.

/** Polynomial smooth minimum (Quilez): a union whose seams are rounded over a width of about k. */
function smoothUnion(a: number, b: number, k: number): number {
  const h = Math.max(k - Math.abs(a - b), 0) / k
  return Math.min(a, b) - (h * h * k) / 4
}

/**
 * The wall of thickness t laid outside the surface d = 0: solid where 0 < d < t. The region
 * d < 0 stays hollow (gas), so the shape's own size is the cavity's and the wall adds to it.
 */
function shell(d: number, t: number): number {
  return Math.abs(d - t / 2) - t / 2
}

/** A ring in the xy plane (axis along z) centred at (cx, cy, 0): major radius R, tube radius r. */
function torusXY(x: number, y: number, z: number, cx: number, cy: number, R: number, r: number): number {
  return Math.hypot(Math.hypot(x - cx, y - cy) - R, z) - r
}

/** A capped cylinder along y, centred at the origin: radius r, half height hh. */
function cylinderY(x: number, y: number, z: number, r: number, hh: number): number {
  const dr = Math.hypot(x, z) - r, dy = Math.abs(y) - hh
  return Math.min(Math.max(dr, dy), 0) + Math.hypot(Math.max(dr, 0), Math.max(dy, 0))
}

/**
 * An example mesh of the surface sdf = 0, meshed with cells of `cell` metres inside `half` of
 * the origin. The examples' cells are about half the thinnest wall or blade (so no wall is
 * holed) and under the simulations' cells, and keep each mesh to 10-25k triangles, so the
 * example project files stay a few hundred kB.
 */
function exampleMesh(id: string, name: string, sdf: SdfFunction, half: Vec3, cell: number): ExampleMesh {
  const { positions, indices } = sdfMesh(sdf, { min: [-half[0], -half[1], -half[2]], max: half, cellSize: cell })
  return { id, name, positions, indices }
}

/** An obstacle showing an example mesh where it was modelled (scale 1, no rotation). */
function meshObstacle(id: string, name: string, mesh: ExampleMesh, position: Vec3): SceneObject {
  return sceneObject(id, 'obstacle', name, { shape: 'mesh', position, rotation: [0, 0, 0], scale: [1, 1, 1] }, mesh.id)
}

/** A channel held at `value` over the first `frames` frames, then 0 (constant keys: no ramp). */
function onlyAtStart(objectId: string, path: string, value: number, frames: number): Track {
  return {
    objectId,
    path,
    keys: [
      { frame: 1, value, interp: 'constant' },
      { frame: 1 + frames, value: 0, interp: 'constant' },
    ],
  }
}

// ---------------------------------------------------------------------------------------
// 'hybrid-glass' (Figure 5)

/**
 * The glass of Figure 5: a hollow bulb with two looping arms, a figure of eight standing in
 * the xy plane. Each arm is a ring whose side passes upright through the bulb's centre, so
 * flow leaving the bulb's top splits left and right, runs round the loops and comes back in
 * from below, where the two arms meet.
 */
export const GLASS = { bulb: 0.28, loop: 0.45, arm: 0.13, wall: 0.08, blend: 0.08 }

function glassCavity(x: number, y: number, z: number): number {
  const { bulb, loop, arm, blend } = GLASS
  const arms = Math.min(torusXY(x, y, z, -loop, 0, loop, arm), torusXY(x, y, z, loop, 0, loop, arm))
  return smoothUnion(Math.hypot(x, y, z) - bulb, arms, blend)
}

export const GLASS_MESH_ID = 'mesh-hybrid-glass'

export function glassMesh(): ExampleMesh {
  const { bulb, loop, arm, wall } = GLASS
  const reach = arm + wall + 0.05
  const half: Vec3 = [2 * loop + reach, loop + reach, Math.max(bulb, arm) + wall + 0.05]
  return exampleMesh(GLASS_MESH_ID, 'Hollow glass', (x, y, z) => shell(glassCavity(x, y, z), wall), half, 0.04)
}

export function glassScene(options?: ExampleOptions): ExampleScene {
  const glass = glassMesh()
  const centre: Vec3 = [0, 0.8, 0]
  const doc: SceneDocument = {
    meta: { name: 'Smoke in a hollow glass', fps: 24, frameStart: 1, frameEnd: 144 },
    objects: [
      // The glass spans about 2.2 x 1.3 x 0.7 m: the box leaves a little air round it. At 40
      // cells (6.25 cm) the 8 cm wall is over a cell thick, so the tetrahedra seal the inside;
      // band 1 already covers most of the box.
      hybridDomain('domain', 'Glass domain', {
        position: centre, size: [2.5, 1.5, 0.9], resolution: resolutionOr(options, 40), hybridMesh: 'hybrid', hybridBand: 1,
        buoyancyAlpha: 0, buoyancyBeta: 0, vorticity: 0.05,
      }),
      // The jet at the bulb's centre, upward: the smoke has no buoyancy, only the jet drives it.
      sceneObject('jet', 'emitter', 'Jet', {
        shape: 'cylinder', fluid: 'gas', position: centre, scale: [0.2, 0.16, 0.2], density: 1, temperature: 293.15, velocity: [0, 3, 0], rate: 24,
      }),
      meshObstacle('glass', 'Hollow glass', glass, centre),
    ],
    tracks: [],
    meshes: [meshInfoOf(glass)],
  }
  return { doc, meshes: [glass] }
}

// ---------------------------------------------------------------------------------------
// 'hybrid-desk-toy' (Figure 6)

/** The desk toy: an hourglass of two bulbs joined by a neck, closed, with a glass wall. */
export const DESK_TOY = { bulb: 0.3, offset: 0.33, neck: 0.22, wall: 0.07, blend: 0.12 }

function deskToyCavity(x: number, y: number, z: number): number {
  const { bulb, offset, neck, blend } = DESK_TOY
  const bulbs = Math.min(Math.hypot(x, y - offset, z) - bulb, Math.hypot(x, y + offset, z) - bulb)
  return smoothUnion(bulbs, cylinderY(x, y, z, neck, offset), blend)
}

export const DESK_TOY_MESH_ID = 'mesh-hybrid-desk-toy'

export function deskToyMesh(): ExampleMesh {
  const { bulb, offset, wall } = DESK_TOY
  const r = bulb + wall + 0.05
  return exampleMesh(DESK_TOY_MESH_ID, 'Desk toy vessel', (x, y, z) => shell(deskToyCavity(x, y, z), wall), [r, offset + r, r], 0.03)
}

/** Tracker particles per second while the fills act (two frames: 2000 particles each). */
const DESK_TOY_TRACKERS = 24_000
/** Frames the fills act for. */
const DESK_TOY_FILL_FRAMES = 2

/**
 * A region filled at the start only: gas at `temperature` (buoyancy makes it heavy below
 * ambient, light above) and tracker particles, with no push of its own (velocity 0).
 */
function startFill(id: string, name: string, position: Vec3, radius: number, density: number, temperature: number): SceneObject {
  const d = 2 * radius
  return sceneObject(id, 'emitter', name, {
    shape: 'sphere', fluid: 'gas', position, scale: [d, d, d], density, temperature, velocity: [0, 0, 0], rate: 200, trackerRate: DESK_TOY_TRACKERS,
  })
}

export function deskToyScene(options?: ExampleOptions): ExampleScene {
  const vessel = deskToyMesh()
  const { bulb, offset } = DESK_TOY
  const centre: Vec3 = [0, 0.8, 0]
  // Each fill: the outer part of its bulb (towards the pole), inside the wall; the neck and
  // the bulbs' inner halves keep the neutral gas between them. The two sit a little to either
  // side of the axis so they slide past each other in the neck instead of meeting head on.
  const fillRadius = 0.55 * bulb
  const fillOffset = offset + 0.35 * bulb
  const side = 0.03
  const doc: SceneDocument = {
    meta: { name: 'Desk toy', fps: 24, frameStart: 1, frameEnd: 144 },
    objects: [
      // Only temperature weighs the gas (alpha 0): the smoke density just shows the two regions.
      hybridDomain('domain', 'Desk toy domain', {
        position: centre, size: [0.9, 1.5, 0.9], resolution: resolutionOr(options, 32), hybridMesh: 'hybrid', hybridBand: 1,
        buoyancyAlpha: 0, vorticity: 0.05,
      }),
      // 60 K either side of ambient: about 2 m/s² of buoyancy each way (beta = g / 293 K).
      startFill('dense', 'Dense (cold) top', [centre[0] - side, centre[1] + fillOffset, centre[2]], fillRadius, 1, 233.15),
      startFill('light', 'Light (hot) bottom', [centre[0] + side, centre[1] - fillOffset, centre[2]], fillRadius, 0.5, 353.15),
      meshObstacle('vessel', 'Desk toy vessel', vessel, centre),
    ],
    tracks: ['dense', 'light'].flatMap((id) => [
      onlyAtStart(id, 'rate', 200, DESK_TOY_FILL_FRAMES),
      onlyAtStart(id, 'trackerRate', DESK_TOY_TRACKERS, DESK_TOY_FILL_FRAMES),
    ]),
    meshes: [meshInfoOf(vessel)],
  }
  return { doc, meshes: [vessel] }
}

// ---------------------------------------------------------------------------------------
// 'hybrid-corkscrew' (Figure 7)

/**
 * The corkscrew cylinder: a tube open at both ends and, inside it, an auger: a helical blade
 * of constant pitch round a thin shaft. The blade runs into the tube's wall, so the gas inside
 * has only the spiral channel to follow.
 */
export const CORKSCREW = { radius: 0.3, wall: 0.09, halfHeight: 0.6, shaft: 0.06, blade: 0.09, pitch: 0.6 }

function tubeSdf(x: number, y: number, z: number): number {
  const { radius, wall, halfHeight } = CORKSCREW
  return Math.max(Math.abs(Math.hypot(x, z) - radius - wall / 2) - wall / 2, Math.abs(y) - halfHeight)
}

/**
 * The auger. The blade is the helicoid y = pitch (theta / 2 pi + k), thickened: a point's
 * height above the nearest turn, times the cosine of the helix angle at its radius, is its
 * distance across the blade (exact at the sheet, an under-estimate away from it, which only
 * the sign of matters to the mesher). It reaches the middle of the tube's wall.
 */
function augerSdf(x: number, y: number, z: number): number {
  const { radius, wall, halfHeight, shaft, blade, pitch } = CORKSCREW
  const rho = Math.hypot(x, z)
  const s = y - (pitch * Math.atan2(z, x)) / (2 * Math.PI)
  const dy = s - pitch * Math.round(s / pitch)
  const slope = pitch / (2 * Math.PI * Math.max(rho, 1e-6))
  const sheet = Math.abs(dy) / Math.sqrt(1 + slope * slope) - blade / 2
  const bladePart = Math.max(sheet, rho - radius - wall / 2, Math.abs(y) - halfHeight)
  return Math.min(bladePart, cylinderY(x, y, z, shaft, halfHeight))
}

export const TUBE_MESH_ID = 'mesh-hybrid-tube'
export const CORKSCREW_MESH_ID = 'mesh-hybrid-corkscrew'

export function tubeMesh(): ExampleMesh {
  const { radius, wall, halfHeight } = CORKSCREW
  const r = radius + wall + 0.05
  return exampleMesh(TUBE_MESH_ID, 'Open cylinder', tubeSdf, [r, halfHeight + 0.05, r], 0.03)
}

export function corkscrewMesh(): ExampleMesh {
  const { radius, wall, halfHeight } = CORKSCREW
  const r = radius + wall / 2 + 0.05
  return exampleMesh(CORKSCREW_MESH_ID, 'Corkscrew', augerSdf, [r, halfHeight + 0.05, r], 0.025)
}

export function corkscrewScene(options?: ExampleOptions): ExampleScene {
  const tube = tubeMesh()
  const screw = corkscrewMesh()
  // The tube stands from y = 0.5 to 1.7 m; the air above it is open space for the smoke to roll in.
  const axis: Vec3 = [0, 1.1, 0]
  const doc: SceneDocument = {
    meta: { name: 'Corkscrew cylinder', fps: 24, frameStart: 1, frameEnd: 120 },
    objects: [
      // Band 2 at 40 cells (6.5 cm) reaches about 19 cm from the walls, the blade and the
      // shaft: the whole inside of the cylinder and a shell round it are tetrahedra.
      hybridDomain('domain', 'Corkscrew domain', {
        position: [0, 1.3, 0], size: [1.3, 2.6, 1.3], resolution: resolutionOr(options, 40), hybridMesh: 'hybrid', hybridBand: 2,
        buoyancyAlpha: 0, vorticity: 0.1, openYMax: true,
      }),
      // Warm smoke blown up into the tube's open bottom; 40 K of warmth keeps it rising above
      // the top. (At 80 K the gas spreading along the box's closed sides stirred the air there
      // to several m/s within 5 s, needing every substep: rougher than the figure's calm rolls.)
      sceneObject('jet', 'emitter', 'Jet', {
        shape: 'cylinder', fluid: 'gas', position: [0, 0.38, 0], scale: [0.5, 0.12, 0.5], density: 1, temperature: 333.15, velocity: [0, 2.5, 0], rate: 24,
      }),
      meshObstacle('tube', 'Open cylinder', tube, axis),
      meshObstacle('corkscrew', 'Corkscrew', screw, axis),
    ],
    tracks: [],
    // In id order, as a project lists its meshes.
    meshes: [meshInfoOf(screw), meshInfoOf(tube)],
  }
  return { doc, meshes: [screw, tube] }
}

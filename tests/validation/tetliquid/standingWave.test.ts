// A standing wave sloshing in a closed tank on the tetrahedral liquid (Chentanez et al. 2007):
// its period, its amplitude and its flatness across the tank, against linear water-wave theory.
//
// Scene: water of mean depth H = 0.5 m in a tank 2 m long (x) and 1 m wide (z), its surface
// started as the plane y = H + s x (a box of water turned about z) with s chosen so the tank's
// longest mode, cos(k (x + 1)) with k = pi / L, has amplitude a = 3 cm (a1 = -(8 / pi^2) s for
// L = 2; ka = 0.047, a / H = 0.06: linear to within 1%). The plane also holds the odd modes
// 3, 5, ... (amplitudes a / 9, a / 25, ...), which the projection on cos(k (x + 1)) leaves out.
// Inviscid theory (Lamb, Hydrodynamics sec. 227-228): omega^2 = g k tanh(k H), so
// T = 2 pi / omega = 1.9765 s; the amplitude is kept (water's viscosity takes exp(-2 nu k^2 t),
// under 0.01% in 4 s), and nothing varies across the tank (z).
//
// Measured from the frame's level set ('liquid', the contouring grid's signed distance): the
// surface height in each column of grid nodes, the mode amplitude (2 / L) sum_i w_i h_i
// cos(k (x_i + 1)) over the nodes from wall to wall (trapezoid weights), averaged over z; the
// period from its zero crossings over two whole periods; the peak |amplitude| in each half
// period over the first frame's (so the measurement's own bias cancels); and the bumps, the
// largest spread of heights across z in one x column over the whole run, apart for the
// columns within a finest tetrahedron edge of the end walls (where the surface meets them;
// the columns on the walls themselves are left out).
//
// Measured on this tree: see README (Physics checks). Before the clamp in meshVelocity.ts and
// the confirmed exits in thickening.ts this test read, at the defaults: period -4.04%, peaks
// 0.855 1.634 0.847, bumps 212 mm (236 mm at the end walls); at resolution 32, CFL 1: period
// -5.44%, peaks 0.836 3.298 3.461, bumps 377 mm.
//
// Tolerances: the period within 2% (the first-order splitting and a surface a contouring cell
// fine); every half period's peak within [0.85, 1.15] of the start; bumps under 10 mm, a third
// of the wave's amplitude and of a contouring cell at the defaults, and 15 mm beside the end
// walls (the unclamped field grew 17 mm by 3 s and 40 mm by 4 s at the defaults, 86 mm at
// resolution 32).
import { describe, expect, it } from 'vitest'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../src-shared/scene/types'
import type { Volume } from '../../../src-shared/sim/frame'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { bakeKernels } from '../bakeKernels'
import { surfaceInColumn } from '../surfaceColumn'

const G = 9.81
const L = 2
const WIDTH = 1
const DEPTH = 0.5
const AMPLITUDE = 0.03
const K = Math.PI / L
const PERIOD = (2 * Math.PI) / Math.sqrt(G * K * Math.tanh(K * DEPTH))
const FPS = 24
const FRAMES = 96
/** The plane's slope whose first mode has the amplitude (a1 = -(8 / pi^2) s for L = 2). */
const SLOPE = (AMPLITUDE * Math.PI ** 2) / 8

function tankScene(params: Record<string, number | string | boolean>): SceneDocument {
  return {
    meta: { name: 'Standing wave', fps: FPS, frameStart: 1, frameEnd: FRAMES },
    objects: [
      sceneObject('domain', 'domain', 'Tank', { solver: 'tetliquid', position: [0, 0.5, 0], size: [L, 1, WIDTH], ...params }),
      // Wider than the tank, its top face at y = H + s x: turned about z, it rises to the right.
      sceneObject('water', 'emitter', 'Water', { shape: 'box', fluid: 'liquid', behavior: 'geometry', position: [0, DEPTH - 0.75, 0], rotation: [0, 0, (Math.atan(SLOPE) * 180) / Math.PI], scale: [3, 1.5, 3], velocity: [0, 0, 0] }),
    ],
    tracks: [],
    meshes: [],
  }
}

interface Surface { amplitude: number; bumps: number; wallBumps: number }

/** The mode amplitude and the bumps across z of the level set's surface (see the file comment). */
function readSurface(level: Volume): Surface {
  const [nx, ny, nz] = level.dims
  const h = level.voxelSize
  // Node i sits at origin + (i + 0.5) h (the level set's cells are centred on the nodes).
  const at = (a: number, i: number) => level.origin[a] + (i + 0.5) * h
  const eps = 1e-6 * h
  let amplitude = 0, bumps = 0, wallBumps = 0
  for (let i = 0; i < nx; i++) {
    const x = at(0, i)
    if (x < -L / 2 - eps || x > L / 2 + eps) continue
    const wall = Math.abs(Math.abs(x) - L / 2) < eps
    // Within a finest tetrahedron edge (two contouring cells) of the wall: the contact line.
    const nearWall = Math.abs(x) > L / 2 - 2 * h - eps
    let sum = 0, n = 0, lo = Infinity, hi = -Infinity
    for (let k = 0; k < nz; k++) {
      const z = at(2, k)
      if (Math.abs(z) > WIDTH / 2 - eps) continue
      const j = surfaceInColumn(level.data, nx, ny, i, k)
      const y = level.origin[1] + j * h
      sum += y
      n++
      if (y < lo) lo = y
      if (y > hi) hi = y
    }
    amplitude += (wall ? 0.5 : 1) * h * (sum / n - DEPTH) * Math.cos(K * (x + L / 2))
    // The wall's own column holds the contact line's mirror (surfaceTracking.ts), not the surface.
    if (wall) continue
    if (nearWall) wallBumps = Math.max(wallBumps, hi - lo)
    else bumps = Math.max(bumps, hi - lo)
  }
  return { amplitude: (2 / L) * amplitude, bumps, wallBumps }
}

interface Slosh { period: number; peaks: number[]; bumps: number; wallBumps: number }

function slosh(params: Record<string, number | string | boolean>): Slosh {
  const doc = tankScene(params)
  const solver = createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
  const start = readSurface(solver.frame().volumes[0])
  const amp = [start.amplitude]
  let bumps = 0, wallBumps = 0
  for (let f = 1; f <= FRAMES; f++) {
    solver.stepFrame(f)
    const s = readSurface(solver.frame().volumes[0])
    amp.push(s.amplitude)
    bumps = Math.max(bumps, s.bumps)
    wallBumps = Math.max(wallBumps, s.wallBumps)
  }
  // amp[f] is the surface at t = f / FPS.
  const crossings: number[] = []
  for (let f = 0; f < FRAMES; f++) if (amp[f] * amp[f + 1] < 0) crossings.push((f + amp[f] / (amp[f] - amp[f + 1])) / FPS)
  expect(crossings.length, 'zero crossings of the mode in 4 s').toBeGreaterThanOrEqual(4)
  // The largest |amplitude| between each pair of crossings: the half periods' peaks.
  const peaks: number[] = []
  for (let c = 0; c + 1 < crossings.length; c++) {
    let m = 0
    for (let f = Math.ceil(crossings[c] * FPS); f <= crossings[c + 1] * FPS; f++) m = Math.max(m, Math.abs(amp[f]))
    peaks.push(m / Math.abs(start.amplitude))
  }
  const period = (2 * (crossings[crossings.length - 1] - crossings[0])) / (crossings.length - 1)
  console.log(`tetrahedral standing wave, ${JSON.stringify(params)}: start amplitude ${(start.amplitude * 1000).toFixed(2)} mm (set ${-AMPLITUDE * 1000} mm); period ${period.toFixed(4)} s against ${PERIOD.toFixed(4)} (${((period / PERIOD - 1) * 100).toFixed(2)}%); half-period peaks over the start ${peaks.map((p) => p.toFixed(3)).join(' ')}; bumps across z up to ${(bumps * 1000).toFixed(1)} mm, ${(wallBumps * 1000).toFixed(1)} mm within a finest edge of the end walls`)
  return { period, peaks, bumps, wallBumps }
}

const SETTINGS: [string, Record<string, number | string | boolean>][] = [
  ['the app defaults (resolution 64, graded, thickening, CFL 4)', {}],
  ['resolution 32, uniform mesh, CFL 1', { resolution: 32, tetMesh: 'uniform', cfl: 1, maxSubsteps: 8 }],
]

describe(`a standing wave on the tetrahedral liquid, 2 m tank 0.5 m deep, a = 3 cm (linear theory: T = ${PERIOD.toFixed(3)} s, amplitude kept, flat across the tank)`, () => {
  for (const [label, params] of SETTINGS) {
    it(`${label}: period within 2%, every half period's peak within [0.85, 1.15] of the start, bumps across the tank under 10 mm (15 mm at the end walls) for 4 s`, () => {
      const r = slosh(params)
      expect(Math.abs(r.period / PERIOD - 1)).toBeLessThanOrEqual(0.02)
      expect(r.peaks.length).toBeGreaterThanOrEqual(3)
      for (const p of r.peaks) {
        expect(p).toBeGreaterThanOrEqual(0.85)
        expect(p).toBeLessThanOrEqual(1.15)
      }
      expect(r.bumps).toBeLessThan(0.01)
      expect(r.wallBumps).toBeLessThan(0.015)
    }, 300_000)
  }
})

// The ground grid on y = 0 (20 m, 1 m spacing, stronger line every 5 m) and the world axes
// (X red, Y green, Z blue), built from line systems: no @babylonjs/materials grid shader.
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import type { Color3 } from '@babylonjs/core/Maths/math.color'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh'
import type { Scene } from '@babylonjs/core/scene'
import { COLORS } from './palette'

const HALF = 10 // m
const MAJOR_EVERY = 5

function lines(name: string, scene: Scene, segments: Vector3[][], color: Color3): LinesMesh {
  const mesh = CreateLineSystem(name, { lines: segments }, scene)
  mesh.color = color
  mesh.isPickable = false
  // Helpers never need per-frame bounding work.
  mesh.freezeWorldMatrix()
  mesh.doNotSyncBoundingInfo = true
  return mesh
}

export function createGrid(scene: Scene): LinesMesh[] {
  const minor: Vector3[][] = []
  const major: Vector3[][] = []
  for (let i = -HALF; i <= HALF; i++) {
    if (i === 0) continue // the X and Z axes take these lines
    const target = i % MAJOR_EVERY === 0 ? major : minor
    target.push([new Vector3(-HALF, 0, i), new Vector3(HALF, 0, i)])
    target.push([new Vector3(i, 0, -HALF), new Vector3(i, 0, HALF)])
  }
  // Axes sit a hair above the grid so they win the depth test against crossing lines.
  const e = 0.001
  return [
    lines('grid:minor', scene, minor, COLORS.gridMinor),
    lines('grid:major', scene, major, COLORS.gridMajor),
    lines('axis:x', scene, [[new Vector3(-HALF, e, 0), new Vector3(HALF, e, 0)]], COLORS.axisX),
    lines('axis:z', scene, [[new Vector3(0, e, -HALF), new Vector3(0, e, HALF)]], COLORS.axisZ),
    // Y up: a short vertical line at the origin is enough to show which way is up.
    lines('axis:y', scene, [[new Vector3(0, 0, 0), new Vector3(0, 1, 0)]], COLORS.axisY),
  ]
}

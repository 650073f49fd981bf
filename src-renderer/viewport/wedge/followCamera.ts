// A side-by-side cell's camera takes the main camera's pose every frame, so orbiting, panning
// or zooming in any cell (the mouse always drives the main camera) moves every cell alike.
// A cell narrower than the canvas keeps the main view's horizontal extent instead of its
// vertical one: what the main view framed stays in view in every cell, only smaller.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import { Camera } from '@babylonjs/core/Cameras/camera'

export function followCamera(cell: ArcRotateCamera, main: ArcRotateCamera, mainAspect: number, cellAspect: number): void {
  // Limits first: the cell's own update() clamps to them.
  cell.lowerBetaLimit = main.lowerBetaLimit
  cell.upperBetaLimit = main.upperBetaLimit
  cell.lowerRadiusLimit = main.lowerRadiusLimit
  cell.upperRadiusLimit = main.upperRadiusLimit
  cell.alpha = main.alpha
  cell.beta = main.beta
  cell.radius = main.radius
  // Not `cell.target = ...`: setTarget would recompute alpha, beta and radius from the old position.
  cell.target.copyFrom(main.target)
  cell.targetScreenOffset.copyFrom(main.targetScreenOffset)
  // Through the setter: it recomputes the camera's up rotation.
  if (!cell.upVector.equals(main.upVector)) cell.upVector = main.upVector.clone()
  cell.minZ = main.minZ
  cell.maxZ = main.maxZ
  cell.mode = main.mode
  const a = Math.max(1e-6, mainAspect)
  const c = Math.max(1e-6, cellAspect)
  const narrower = c < a
  // The main camera's fov is vertical (Babylon's default FOVMODE_VERTICAL_FIXED).
  cell.fovMode = narrower ? Camera.FOVMODE_HORIZONTAL_FIXED : Camera.FOVMODE_VERTICAL_FIXED
  cell.fov = narrower ? 2 * Math.atan(Math.tan(main.fov / 2) * a) : main.fov
  if (main.mode === Camera.ORTHOGRAPHIC_CAMERA) {
    // The main frustum's half height and half width (navigation.ts fits it to the canvas).
    const halfH = ((main.orthoTop ?? 1) - (main.orthoBottom ?? -1)) / 2
    const halfW = halfH * a
    const h = narrower ? halfW / c : halfH
    cell.orthoTop = h
    cell.orthoBottom = -h
    cell.orthoLeft = -h * c
    cell.orthoRight = h * c
  }
}

/** What a test reads of a camera's pose. */
export function cameraPose(c: ArcRotateCamera): { alpha: number; beta: number; radius: number; target: [number, number, number] } {
  return { alpha: c.alpha, beta: c.beta, radius: c.radius, target: [c.target.x, c.target.y, c.target.z] }
}

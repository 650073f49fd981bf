// Engine, scene, camera and lights of the viewport, set up like Blender's 3D view:
// dark grey background, Y up, right-handed, Blender's mouse buttons (navigation.ts), wheel
// zoom proportional to the distance.
import { Engine } from '@babylonjs/core/Engines/engine'
import { Scene } from '@babylonjs/core/scene'
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight'
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight'
import { Color3 } from '@babylonjs/core/Maths/math.color'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh'
// Side effects: scene.pick / multiPick (selection.ts) and effect layers in the scene
// (the selection outline).
import '@babylonjs/core/Culling/ray'
import '@babylonjs/core/Layers/effectLayerSceneComponent'
import { COLORS } from './palette'
import { createGrid } from './grid'
import { allowPoleViews, attachCameraControl } from './navigation'

export interface ViewportEngine {
  engine: Engine
  scene: Scene
  camera: ArcRotateCamera
  /** The ground grid and the world axes (an overlay). */
  grid: readonly LinesMesh[]
  dispose(): void
}

export const DEFAULT_VIEW = { alpha: Math.PI / 4, beta: 1.1, radius: 9, target: new Vector3(0, 0.8, 0) }

export function createViewportEngine(canvas: HTMLCanvasElement): ViewportEngine {
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, antialias: true }, false)
  const scene = new Scene(engine)
  scene.useRightHandedSystem = true
  scene.clearColor = COLORS.background.clone()
  // Picking happens on click only (selection.ts); no work on every mouse move.
  scene.skipPointerMovePicking = true

  // Camera above the +X/+Z quadrant looking at the origin (Blender's default view, Y up).
  const camera = new ArcRotateCamera('viewport:camera', DEFAULT_VIEW.alpha, DEFAULT_VIEW.beta, DEFAULT_VIEW.radius, DEFAULT_VIEW.target.clone(), scene)
  camera.minZ = 0.01
  camera.maxZ = 2000
  camera.lowerRadiusLimit = 0.05
  camera.upperRadiusLimit = 1000
  camera.wheelDeltaPercentage = 0.01
  camera.inertia = 0.6
  camera.panningInertia = 0.6
  attachCameraControl(camera)
  allowPoleViews(camera)
  // Arrow/+- keys belong to the panels' shortcuts, not to the camera.
  camera.inputs.removeByType('ArcRotateCameraKeyboardMoveInput')

  const hemi = new HemisphericLight('viewport:hemi', new Vector3(0.2, 1, 0.3), scene)
  hemi.intensity = 0.65
  hemi.groundColor = new Color3(0.22, 0.22, 0.25)
  hemi.specular = Color3.Black()
  const sun = new DirectionalLight('viewport:sun', new Vector3(-0.4, -1, -0.6), scene)
  sun.intensity = 0.6

  const grid = createGrid(scene)

  // Pan so the point at the orbit centre follows the cursor, at any zoom level: pixels per
  // metre at the target distance.
  scene.onBeforeRenderObservable.add(() => {
    const h = engine.getRenderHeight() || 1
    const metresPerPixel = (2 * Math.max(camera.radius, 1e-3) * Math.tan(camera.fov / 2)) / h
    camera.panningSensibility = 1 / metresPerPixel
  })

  return {
    engine,
    scene,
    camera,
    grid,
    dispose() {
      scene.dispose()
      engine.dispose()
    },
  }
}

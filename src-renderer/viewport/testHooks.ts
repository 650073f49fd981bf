// What end-to-end tests can ask the viewport through `window.__eddyViewport`: whether it
// renders, which objects have nodes, and where an object is on screen so a test can click it.
import type { WedgeGridTestState } from './wedge/wedgeGrid'

export interface EddyViewportTestApi {
  /** True once the engine has rendered its first frame. */
  ready: boolean
  /** Frames rendered so far (proves the render loop runs). */
  renderedFrames: number
  /**
   * Draws at the display's rate for a while, as any change does: a test that waits for a few
   * draws (a screenshot of what is shown, a camera at rest) asks for them rather than waiting
   * on the idle floor's one a second (redrawScheduler.ts).
   */
  requestDraws?(): void
  /** Ids of the objects that have a node in the scene. */
  objectNodes(): string[]
  /** Names and vertex counts of the enabled, visible meshes (what is drawn). */
  sceneMeshes?(): string[]
  /** Object id under canvas CSS pixel (x, y), as a click there would select it. */
  screenToObject?(x: number, y: number): string | null
  /**
   * Canvas-relative CSS pixel position of an object's centre (its bounds' centre), or null
   * when the object has no node or is behind the camera. When something else would win a
   * click at the centre (e.g. an obstacle inside a domain), a nearby point inside the
   * object's on-screen box that does select it is returned instead.
   */
  projectToScreen(objectId: string): { x: number; y: number } | null
  /**
   * Names of the materials an object's visible meshes are drawn with ("mat:rigidBody", or
   * "mat:rigidBodyGhost" while the baked body of its id is shown), [] without a node.
   */
  objectMaterials?(objectId: string): string[]
  /** Canvas-relative CSS pixel position of a world point (m), or null behind the camera. */
  projectPoint?(p: [number, number, number]): { x: number; y: number } | null
  /** The 3D cursor, where new objects are added (m). */
  cursor?(): number[]
  /** The orbit camera: angles (rad), distance and centre (m), and whether it is orthographic. */
  camera?(): { alpha: number; beta: number; radius: number; target: [number, number, number]; ortho: boolean }
  /**
   * The side-by-side wedge view (wedge/wedgeGrid.ts), null in the single view: the grid's
   * columns and rows and, per cell in reading order, its variant's bake key, the frame it last
   * answered, the frame whose data it shows, the frame its camera has drawn since (so a test
   * waits on state, not on frame rate), whether smoke is drawn, and its camera's pose.
   */
  wedgeGrid?(): WedgeGridTestState | null
  /** The baked frame on screen and the playhead-to-GPU times (see cachePlayback.ts). */
  cache?: {
    state(): { frame: number | null; shownFrame: number | null; error: string | null; particleAttributes: string[] }
    timings(): number[]
    /** Of which handing the data to the GPU (texture and vertex buffer updates), ms. */
    uploadTimings?(): number[]
    /** Per load: round trip of the record to the host, and the worker's decode, ms. */
    stageTimings?(): { fetch: number[]; decode: number[]; decodeInWorker: number[] }
    settings(): Record<string, unknown>
    /**
     * What is drawn: the volume box enabled, points per particle set, vertices per mesh, and
     * vertices per rigid body drawn.
     */
    /** The smoke raymarch's steps: what the quality preset asks, and what the frame budget marches now. */
    volumeSteps?(): { requested: number; marched: number }
    parts(): { volume: boolean; particles: number[]; particlesDrawn?: boolean[]; meshes: number[]; meshesDrawn?: boolean[]; rigidBodies?: number[] }
    /**
     * Scene object ids of the simulated rigid bodies drawn; the authored bodies of these ids
     * are drawn as faint wireframes meanwhile.
     */
    shownBodies?(): string[]
    /** Pose of each simulated rigid body drawn now (world position of its centre of mass, m; quaternion x, y, z, w). */
    bodyPoses?(): { id: string; position: [number, number, number]; orientation: [number, number, number, number] }[]
    /** Stops or restarts drawing (benchmarks of the data path only). */
    setRendering?(on: boolean): void
    /** Loading of the frames around the playhead while idle (cachePlayback.ts), and the frames held. */
    setIdleFill?(on: boolean): void
    /** Fetching in the decode worker (with the headless host), or through the page (cachePlayback.ts). */
    setWorkerFetch?(on: boolean): void
    buffered?(): number[]
  }
}

declare global {
  interface Window {
    __eddyViewport?: EddyViewportTestApi
  }
}

export function installTestHooks(api: EddyViewportTestApi): () => void {
  window.__eddyViewport = api
  return () => {
    if (window.__eddyViewport === api) delete window.__eddyViewport
  }
}

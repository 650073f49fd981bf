// The viewport draws when something on it can have changed, not every animation frame
// (src-renderer/viewport/redrawScheduler.ts), on Babylon's NullEngine with a mocked clock:
// each sign of change the scheduler watches makes the next frame draw, and an unchanged scene
// draws only at the idle floor.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ASLEEP_POLL_MS, HOT_MS, IDLE_MS, READY_WAIT_MS, RedrawScheduler } from '../../../src-renderer/viewport/redrawScheduler'
import { nullScene } from './nullEngine'

describe('redraws on change', () => {
  const ctx = nullScene()
  let camera: ArcRotateCamera
  let canvas: EventTarget
  let keys: EventTarget
  let live: boolean
  let scheduler: RedrawScheduler
  let draws: number
  const draw = () => {
    ctx.scene.render()
    draws++
  }
  /** Animation frames 16 ms apart for `ms`; the draws they made. */
  const frames = (ms: number): number => {
    const before = draws
    for (let t = 0; t < ms; t += 16) {
      vi.advanceTimersByTime(16)
      scheduler.tick(draw)
    }
    return draws - before
  }
  /**
   * Lets the scheduler come to rest: past the hot period, and past the wait for a scene that is
   * not ready (the NullEngine never compiles shaders, so its scenes never are).
   */
  const settle = () => {
    frames(READY_WAIT_MS + HOT_MS + 2 * IDLE_MS)
    // Up to the idle floor's next draw: the frame after it draws only if something changed.
    while (frames(16) === 0);
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] })
    camera = new ArcRotateCamera('cam', 1, 1, 10, Vector3.Zero(), ctx.scene)
    canvas = new EventTarget()
    keys = new EventTarget()
    live = false
    draws = 0
    scheduler = new RedrawScheduler(ctx.engine, ctx.scene, camera, canvas, keys, () => live)
  })
  afterEach(() => {
    scheduler.dispose()
    vi.useRealTimers()
  })

  it(`an unchanged scene draws only every ${IDLE_MS} ms`, () => {
    CreateBox('box', {}, ctx.scene)
    settle()
    const n = frames(1000)
    expect(n).toBeGreaterThanOrEqual(Math.floor(1000 / IDLE_MS) - 1)
    expect(n).toBeLessThanOrEqual(Math.ceil(1000 / IDLE_MS) + 1)
  })

  it('draws at once after a request, and on every frame for the hot period', () => {
    settle()
    scheduler.request()
    expect(frames(16)).toBe(1)
    // Every frame of the hot period (give or take the one the period ends in).
    expect(Math.abs(frames(HOT_MS - 32) - (HOT_MS - 32) / 16)).toBeLessThanOrEqual(1)
  })

  it('draws when the camera, a mesh or its parent moves, or a mesh is hidden or changes material', () => {
    const root = new TransformNode('root', ctx.scene)
    const box = CreateBox('box', {}, ctx.scene)
    box.parent = root
    settle()
    const changes: (() => void)[] = [
      () => (box.position.x = 1),
      () => root.position.set(0, 2, 0),
      () => (box.rotation.y = 0.5),
      () => box.setEnabled(false),
      () => box.setEnabled(true),
      () => (box.isVisible = false),
      () => (box.visibility = 0.5),
      () => (box.material = new StandardMaterial('m', ctx.scene)),
      () => CreateBox('another', {}, ctx.scene),
      () => ctx.scene.getMeshByName('another')!.dispose(),
      () => (camera.alpha += 0.1),
      () => camera.target.set(1, 0, 0),
    ]
    for (const change of changes) {
      settle()
      change()
      expect(frames(16), String(change)).toBe(1)
    }
  })

  it('draws on pointer, wheel and key input, on uploads outside a draw, and while a source runs', () => {
    const box = CreateBox('box', { updatable: true }, ctx.scene)
    for (const trigger of [
      () => canvas.dispatchEvent(new Event('pointermove')),
      () => canvas.dispatchEvent(new Event('wheel')),
      () => keys.dispatchEvent(new Event('keydown')),
      () => box.updateVerticesData('position', box.getVerticesData('position')!.map((v) => v * 2)),
    ]) {
      settle()
      trigger()
      expect(frames(16), String(trigger)).toBe(1)
    }
    settle()
    live = true
    expect(Math.abs(frames(1000) - 1000 / 16)).toBeLessThanOrEqual(1)
  })

  it('keeps drawing while a draw moves the camera (a framing glide), then rests', () => {
    settle()
    let steps = 20
    const glide = ctx.scene.onBeforeRenderObservable.add(() => {
      if (steps-- > 0) camera.radius += 0.1
    })
    scheduler.request()
    // The glide's 20 steps at the display's rate, past the hot period.
    const n = frames(HOT_MS + 20 * 16 + 200)
    expect(camera.radius).toBeCloseTo(12, 6)
    expect(n).toBeGreaterThanOrEqual(20)
    ctx.scene.onBeforeRenderObservable.remove(glide)
    settle()
    expect(frames(1000)).toBeLessThanOrEqual(Math.ceil(1000 / IDLE_MS) + 1)
  })
})

describe('the animation-frame loop sleeps between draws', () => {
  const ctx = nullScene()
  let camera: ArcRotateCamera
  let canvas: EventTarget
  let live: boolean
  let scheduler: RedrawScheduler
  let draws: number
  /** The loop as Babylon's runRenderLoop would run it: tick every 16 ms while started. */
  let running: boolean
  let starts: number
  let frameCount: number
  const draw = () => {
    ctx.scene.render()
    draws++
  }
  /** Lets `ms` pass in 16 ms steps: timers fire, and the loop ticks when it runs. Returns the draws made. */
  const pass = (ms: number): number => {
    const before = draws
    for (let t = 0; t < ms; t += 16) {
      vi.advanceTimersByTime(16)
      if (running) {
        frameCount++
        scheduler.tick(draw)
      }
    }
    return draws - before
  }
  /** Past the hot period and the wait for a never-ready scene, then until the loop sleeps. */
  const settle = () => {
    pass(READY_WAIT_MS + HOT_MS + 2 * IDLE_MS)
    for (let t = 0; !scheduler.sleeping && t < 10 * IDLE_MS; t += 16) pass(16)
    expect(scheduler.sleeping).toBe(true)
  }

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] })
    camera = new ArcRotateCamera('cam', 1, 1, 10, Vector3.Zero(), ctx.scene)
    canvas = new EventTarget()
    live = false
    draws = 0
    running = true
    starts = 0
    frameCount = 0
    scheduler = new RedrawScheduler(ctx.engine, ctx.scene, camera, canvas, new EventTarget(), () => live)
    scheduler.attachLoop(
      () => {
        running = true
        starts++
      },
      () => (running = false),
    )
  })
  afterEach(() => {
    scheduler.dispose()
    vi.useRealTimers()
  })

  it(`an idle view runs no animation frames except the idle floor's (one draw every ${IDLE_MS} ms)`, () => {
    CreateBox('box', {}, ctx.scene)
    settle()
    const framesBefore = frameCount
    const n = pass(10 * IDLE_MS)
    // One draw per floor period, each woken by the timer for a frame or two, not 60 frames a second.
    expect(n).toBeGreaterThanOrEqual(9)
    expect(n).toBeLessThanOrEqual(11)
    expect(frameCount - framesBefore).toBeLessThanOrEqual(3 * 11)
  })

  it('wakes at once on a request or input, and within a poll for a camera move, a mesh change or a running source', () => {
    const box = CreateBox('box', {}, ctx.scene)
    settle()
    scheduler.request()
    expect(scheduler.sleeping).toBe(false)
    expect(pass(16)).toBe(1)
    settle()
    canvas.dispatchEvent(new Event('pointermove'))
    expect(pass(16)).toBe(1)
    for (const change of [() => (camera.alpha += 0.1), () => (box.position.x += 1), () => (live = true)]) {
      settle()
      change()
      // Asleep: drawn once the next poll has seen it (a poll period and a frame).
      expect(pass(ASLEEP_POLL_MS + 32), String(change)).toBeGreaterThanOrEqual(1)
      live = false
    }
  })

  it('a running source keeps the loop awake, drawing every frame', () => {
    settle()
    live = true
    pass(ASLEEP_POLL_MS + 32)
    expect(Math.abs(pass(1000) - 1000 / 16)).toBeLessThanOrEqual(1)
    expect(scheduler.sleeping).toBe(false)
  })
})

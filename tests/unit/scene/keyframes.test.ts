import { describe, it, expect } from 'vitest'
import {
  deleteKey,
  evaluateObject,
  evaluateTrack,
  findKey,
  parseChannel,
  readChannel,
  setKey,
  writeChannel,
} from '../../../src-shared/scene/keyframes'
import type { Keyframe, SceneObject, Track } from '../../../src-shared/scene/types'

const key = (frame: number, value: number, interp: Keyframe['interp'] = 'bezier', extra: Partial<Keyframe> = {}): Keyframe => ({ frame, value, interp, ...extra })

/** Sample a track densely over [a, b]. */
function sample(keys: Keyframe[], a: number, b: number, n = 400): number[] {
  return Array.from({ length: n + 1 }, (_, i) => evaluateTrack(keys, a + ((b - a) * i) / n))
}

describe('channels', () => {
  it('parses scalar and component paths', () => {
    expect(parseChannel('rate')).toEqual({ key: 'rate', component: null })
    expect(parseChannel('position.1')).toEqual({ key: 'position', component: 1 })
    expect(parseChannel('position.3')).toEqual({ key: 'position.3', component: null })
  })

  it('reads and writes without mutating', () => {
    const params = { rate: 2, position: [1, 2, 3] as [number, number, number], shape: 'box' }
    expect(readChannel(params, 'rate')).toBe(2)
    expect(readChannel(params, 'position.2')).toBe(3)
    expect(readChannel(params, 'shape')).toBeUndefined()
    expect(readChannel(params, 'rate.0')).toBeUndefined()
    expect(readChannel(params, 'missing')).toBeUndefined()

    const next = writeChannel(params, 'position.0', 9)
    expect(next.position).toEqual([9, 2, 3])
    expect(params.position).toEqual([1, 2, 3])
    expect(next.position).not.toBe(params.position)
    expect(writeChannel(params, 'rate', 5).rate).toBe(5)
    expect(params.rate).toBe(2)
  })
})

describe('evaluateTrack', () => {
  it('throws on an empty track', () => {
    expect(() => evaluateTrack([], 1)).toThrow()
  })

  it('holds a single key everywhere', () => {
    for (const f of [-10, 0, 3.3, 100]) expect(evaluateTrack([key(3, 7)], f)).toBe(7)
  })

  it('constant holds the left key value until the next key', () => {
    const keys = [key(0, 1, 'constant'), key(10, 5, 'constant')]
    expect(evaluateTrack(keys, 0)).toBe(1)
    expect(evaluateTrack(keys, 9.999)).toBe(1)
    expect(evaluateTrack(keys, 10)).toBe(5)
  })

  it('linear interpolates, including at fractional frames', () => {
    const keys = [key(0, 0, 'linear'), key(10, 20, 'linear'), key(20, 0, 'linear')]
    expect(evaluateTrack(keys, 2.5)).toBeCloseTo(5, 12)
    expect(evaluateTrack(keys, 10)).toBe(20)
    expect(evaluateTrack(keys, 15.25)).toBeCloseTo(9.5, 12)
  })

  it('uses the left key interpolation for each segment', () => {
    const keys = [key(0, 0, 'constant'), key(10, 10, 'linear'), key(20, 0, 'bezier')]
    expect(evaluateTrack(keys, 5)).toBe(0)
    expect(evaluateTrack(keys, 15)).toBeCloseTo(5, 12)
  })

  it('extrapolates constantly before the first and after the last key', () => {
    const keys = [key(5, 2, 'linear'), key(10, 4, 'linear')]
    expect(evaluateTrack(keys, -100)).toBe(2)
    expect(evaluateTrack(keys, 4.99)).toBe(2)
    expect(evaluateTrack(keys, 10.01)).toBe(4)
    expect(evaluateTrack(keys, 1e6)).toBe(4)
  })

  it('bezier passes through every key', () => {
    const keys = [key(0, 0), key(7, 3), key(12, -2), key(30, 5)]
    for (const k of keys) expect(evaluateTrack(keys, k.frame)).toBeCloseTo(k.value, 9)
  })

  it('a symmetric 0 -> 1 ease is 0.5 at the midpoint, monotone, and eases in and out', () => {
    const keys = [key(0, 0), key(10, 1)]
    expect(evaluateTrack(keys, 5)).toBeCloseTo(0.5, 9)
    const values = sample(keys, 0, 10)
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1] - 1e-12)
    // Flat handles: slower than linear near the ends, symmetric about the middle.
    expect(evaluateTrack(keys, 1)).toBeLessThan(0.1)
    expect(evaluateTrack(keys, 9)).toBeGreaterThan(0.9)
    expect(evaluateTrack(keys, 2) + evaluateTrack(keys, 8)).toBeCloseTo(1, 9)
    // Known answer: flat one-third handles give x(t) = 10t, y = 3t^2 - 2t^3 (smoothstep).
    const t = 0.3
    expect(evaluateTrack(keys, 10 * t)).toBeCloseTo(3 * t * t - 2 * t * t * t, 9)
  })

  it('auto-clamped handles do not overshoot across several keys', () => {
    // Uneven spacing and values that tempt a Catmull-Rom spline to overshoot.
    const keys = [key(0, 0), key(1, 1), key(10, 2), key(12, 2), key(20, -1), key(21, 5)]
    for (let s = 0; s < keys.length - 1; s++) {
      const lo = Math.min(keys[s].value, keys[s + 1].value)
      const hi = Math.max(keys[s].value, keys[s + 1].value)
      for (const v of sample(keys, keys[s].frame, keys[s + 1].frame, 200)) {
        expect(v).toBeGreaterThanOrEqual(lo - 1e-9)
        expect(v).toBeLessThanOrEqual(hi + 1e-9)
      }
    }
  })

  it('auto handles are smooth through a monotone middle key and flat at an extreme', () => {
    const keys = [key(0, 0), key(10, 5), key(20, 10)]
    // Collinear data: the curve is the straight line with a smooth middle.
    const h = 1e-4
    const left = (evaluateTrack(keys, 10) - evaluateTrack(keys, 10 - h)) / h
    const right = (evaluateTrack(keys, 10 + h) - evaluateTrack(keys, 10)) / h
    expect(left).toBeCloseTo(right, 3)
    expect(left).toBeGreaterThan(0.3)

    const peak = [key(0, 0), key(10, 5), key(20, 0)]
    expect(evaluateTrack(peak, 10 - h)).toBeLessThanOrEqual(5)
    expect(evaluateTrack(peak, 10 + h)).toBeLessThanOrEqual(5)
    expect((evaluateTrack(peak, 10) - evaluateTrack(peak, 10 - h)) / h).toBeCloseTo(0, 3)
  })

  it('uses explicit handles', () => {
    // Handles at one third with values equal to a straight line: the curve is linear.
    const line = [key(0, 0, 'bezier', { handleRight: [10 / 3, 10 / 3] }), key(10, 10, 'bezier', { handleLeft: [20 / 3, 20 / 3] })]
    for (const f of [1, 2.5, 5, 7.75]) expect(evaluateTrack(line, f)).toBeCloseTo(f, 9)

    // Handles pulled up overshoot on purpose (explicit handles are not clamped in value).
    const up = [key(0, 0, 'bezier', { handleRight: [3, 10] }), key(10, 0, 'bezier', { handleLeft: [7, 10] })]
    expect(evaluateTrack(up, 5)).toBeCloseTo(7.5, 9) // y(0.5) = 3/8 * 10 + 3/8 * 10
  })

  it('clamps explicit handles reaching past the segment so frames map to one value', () => {
    // Both handles reach across the whole segment; without clamping x(t) would fold back.
    const keys = [key(0, 0, 'bezier', { handleRight: [20, 0] }), key(10, 1, 'bezier', { handleLeft: [-10, 1] })]
    const values = sample(keys, 0, 10, 1000)
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1] - 1e-9)
    expect(evaluateTrack(keys, 5)).toBeCloseTo(0.5, 9)
    expect(evaluateTrack(keys, 0)).toBe(0)

    // Asymmetric case: reaches 20 + 5 frames in a 10-frame segment, so both handles
    // scale by 10/25 (keeping direction) and the curve equals the pre-scaled one.
    const long = [key(0, 0, 'bezier', { handleRight: [20, 2] }), key(10, 1, 'bezier', { handleLeft: [5, 1] })]
    const scaled = [key(0, 0, 'bezier', { handleRight: [8, 0.8] }), key(10, 1, 'bezier', { handleLeft: [8, 1] })]
    for (const f of [1, 2.5, 4, 6, 7.5, 9]) expect(evaluateTrack(long, f)).toBeCloseTo(evaluateTrack(scaled, f), 9)
  })

  it('solves steep and zero-length handles robustly', () => {
    // Zero-length handles: x'(0) = 0 at the ends; the bisection fallback must still converge.
    const keys = [key(0, 0, 'bezier', { handleRight: [0, 0] }), key(10, 10, 'bezier', { handleLeft: [10, 10] })]
    expect(evaluateTrack(keys, 0.001)).toBeGreaterThanOrEqual(0)
    expect(evaluateTrack(keys, 5)).toBeCloseTo(5, 9)
    expect(Number.isFinite(evaluateTrack(keys, 9.9999999))).toBe(true)
  })

  it('evaluates fractional frames between integer frames', () => {
    const keys = [key(1, 0, 'linear'), key(2, 1, 'linear')]
    expect(evaluateTrack(keys, 1.5)).toBeCloseTo(0.5, 12)
    const b = [key(1, 0), key(2, 1)]
    const v = evaluateTrack(b, 1.25)
    expect(v).toBeGreaterThan(0)
    expect(v).toBeLessThan(0.25)
  })
})

describe('setKey / deleteKey / findKey', () => {
  it('inserts sorted and replaces a key at the same frame', () => {
    let keys: Keyframe[] = []
    keys = setKey(keys, key(10, 1))
    keys = setKey(keys, key(0, 2))
    keys = setKey(keys, key(5, 3))
    expect(keys.map((k) => k.frame)).toEqual([0, 5, 10])
    const before = keys
    keys = setKey(keys, key(5 + 1e-8, 9, 'linear'))
    expect(keys).toHaveLength(3)
    expect(findKey(keys, 5)!.value).toBe(9)
    expect(findKey(keys, 5)!.interp).toBe('linear')
    expect(before[1].value).toBe(3) // input untouched
  })

  it('deletes and finds by frame', () => {
    const keys = [key(0, 1), key(5, 2), key(10, 3)]
    expect(deleteKey(keys, 5).map((k) => k.frame)).toEqual([0, 10])
    expect(deleteKey(keys, 6)).toHaveLength(3)
    expect(keys).toHaveLength(3)
    expect(findKey(keys, 10)!.value).toBe(3)
    expect(findKey(keys, 10.5)).toBeUndefined()
  })
})

describe('evaluateObject', () => {
  const obj: SceneObject = {
    id: 'e1',
    kind: 'emitter',
    name: 'Emitter',
    params: { position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], shape: 'sphere', fluid: 'gas', density: 1, temperature: 600, velocity: [0, 1, 0], rate: 1 },
  }
  const tracks: Track[] = [
    { objectId: 'e1', path: 'rate', keys: [key(0, 0, 'linear'), key(10, 10, 'linear')] },
    { objectId: 'e1', path: 'position.1', keys: [key(0, 2, 'linear'), key(10, 4, 'linear')] },
    { objectId: 'e1', path: 'position.2', keys: [key(0, -1, 'constant')] },
    { objectId: 'other', path: 'density', keys: [key(0, 50, 'linear')] },
    { objectId: 'e1', path: 'temperature', keys: [] },
  ]

  it('replaces animated channels, leaves the rest', () => {
    const p = evaluateObject(obj, tracks, 5)
    expect(p.rate).toBeCloseTo(5, 12)
    expect(p.position).toEqual([0, 3, -1])
    expect(p.density).toBe(1)
    expect(p.temperature).toBe(600)
    expect(p.shape).toBe('sphere')
    expect(p.velocity).toEqual([0, 1, 0])
  })

  it('does not mutate or alias the object params', () => {
    const p = evaluateObject(obj, tracks, 10)
    expect(obj.params.position).toEqual([0, 0, 0])
    expect(obj.params.rate).toBe(1)
    expect(p.velocity).not.toBe(obj.params.velocity)
  })

  it('ignores tracks for channels the object does not have', () => {
    const p = evaluateObject(obj, [{ objectId: 'e1', path: 'strength', keys: [key(0, 3, 'linear')] }], 0)
    expect('strength' in p).toBe(false)
  })
})

describe('animated values conform to their parameter spec', () => {
  it('rounds integer parameters and clamps overshooting handles into range', async () => {
    const { evaluateObject } = await import('../../../src-shared/scene/keyframes')
    const { defaultParams } = await import('../../../src-shared/scene/defaults')
    const seed = { id: 's', kind: 'vortexSeed' as const, name: 'Seed', params: defaultParams('vortexSeed') }
    const tracks = [
      { objectId: 's', path: 'particleCount', keys: [{ frame: 1, value: 10, interp: 'linear' as const }, { frame: 11, value: 21, interp: 'linear' as const }] },
      // An explicit handle far below 0 makes the curve overshoot below strength's minimum (0).
      { objectId: 's', path: 'strength', keys: [{ frame: 1, value: 0, interp: 'bezier' as const, handleRight: [4, -500] as [number, number] }, { frame: 11, value: 1, interp: 'bezier' as const }] },
    ]
    const at = evaluateObject(seed, tracks, 6)
    expect(at.particleCount).toBe(Math.round(15.5))
    expect(Number.isInteger(at.particleCount)).toBe(true)
    expect(at.strength).toBe(0)
  })
})

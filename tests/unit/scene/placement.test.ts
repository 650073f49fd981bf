// New objects at the 3D cursor, standing on the ground plane when the cursor is on it.
import { describe, expect, it } from 'vitest'
import { depthBelowOrigin, positionAtCursor } from '../../../src-shared/scene/placement'

describe('placement at the 3D cursor', () => {
  it('knows how far each kind reaches below its origin', () => {
    expect(depthBelowOrigin('domain', {})).toBe(1) // the default 2 m box
    expect(depthBelowOrigin('domain', { size: [4, 3, 4] })).toBe(1.5)
    expect(depthBelowOrigin('obstacle', { shape: 'box' })).toBe(0.5)
    expect(depthBelowOrigin('obstacle', { shape: 'sphere', scale: [1, 0.2, 1] })).toBeCloseTo(0.1, 12)
    expect(depthBelowOrigin('emitter', {})).toBe(0.5)
    expect(depthBelowOrigin('rigidBody', { shape: 'cylinder' })).toBe(0.5)
    expect(depthBelowOrigin('ccCage', {})).toBe(0.5)
    expect(depthBelowOrigin('vortexSeed', {})).toBe(0.1)
    expect(depthBelowOrigin('heatSource', {})).toBe(0.25)
    // An imported mesh reaches its file's lowest point (scaled), and nothing when it is all above its origin.
    expect(depthBelowOrigin('obstacle', { shape: 'mesh' }, { min: [-1, -0.3, -1], max: [1, 2, 1] })).toBeCloseTo(0.3, 12)
    expect(depthBelowOrigin('obstacle', { shape: 'mesh', scale: [2, 2, 2] }, { min: [-1, -0.3, -1], max: [1, 2, 1] })).toBeCloseTo(0.6, 12)
    expect(depthBelowOrigin('obstacle', { shape: 'mesh' }, { min: [0, 0.2, 0], max: [1, 1, 1] })).toBe(0)
  })

  it('stands an object on the ground when the cursor is on it, and keeps the cursor height otherwise', () => {
    // The default cursor (the origin): a 1 m box rests on the floor instead of straddling it.
    expect(positionAtCursor('obstacle', { shape: 'box' }, [0, 0, 0])).toEqual([0, 0.5, 0])
    expect(positionAtCursor('domain', {}, [2, 0, -1])).toEqual([2, 1, -1])
    expect(positionAtCursor('vortexSeed', {}, [0.5, 0, 0.5])).toEqual([0.5, 0.1, 0.5])
    // High enough already: exactly at the cursor.
    expect(positionAtCursor('obstacle', { shape: 'box' }, [1, 2, 3])).toEqual([1, 2, 3])
    // Partly below the ground: lifted just enough.
    expect(positionAtCursor('emitter', {}, [0, 0.2, 0])).toEqual([0, 0.5, 0])
    // A cursor put below the ground on purpose (a basement, a pit) is obeyed.
    expect(positionAtCursor('obstacle', { shape: 'box' }, [0, -2, 0])).toEqual([0, -2, 0])
  })
})

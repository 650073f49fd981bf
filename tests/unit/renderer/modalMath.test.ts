// The arithmetic of the modal G / R / S: constraints, snapping and typed values.
import { describe, expect, it } from 'vitest'
import { angleStep, moveDelta, scaled, scaleFactor, turnDegrees, typedNumber } from '../../../src-renderer/viewport/modalMath'

describe('modal transform arithmetic', () => {
  it('reads typed values only once they are numbers', () => {
    expect(typedNumber('')).toBeNull()
    expect(typedNumber('-')).toBeNull()
    expect(typedNumber('.')).toBeNull()
    expect(typedNumber('1.5')).toBe(1.5)
    expect(typedNumber('-.25')).toBe(-0.25)
    expect(typedNumber('90')).toBe(90)
    expect(typedNumber('1.2.3')).toBeNull()
  })

  it('moves freely, along one axis, snapped to 0.1 m, or by a typed distance', () => {
    expect(moveDelta([0.23, -0.41, 0.07], null, false, null)).toEqual([0.23, -0.41, 0.07])
    expect(moveDelta([0.23, -0.41, 0.07], 1, false, null)).toEqual([0, -0.41, 0])
    const snapped = moveDelta([0.23, -0.46, 0.04], null, true, null)
    expect(snapped[0]).toBeCloseTo(0.2, 12)
    expect(snapped[1]).toBeCloseTo(-0.5, 12)
    expect(snapped[2]).toBeCloseTo(0, 12)
    expect(moveDelta([9, 9, 9], 2, false, 1.5)).toEqual([0, 0, 1.5])
    // Typed with no axis: along X, as Blender does.
    expect(moveDelta([9, 9, 9], null, false, -2)).toEqual([-2, 0, 0])
  })

  it('turns by the swept angle, snapped to 5 degrees, or by typed degrees', () => {
    expect(turnDegrees(Math.PI / 2, false, null)).toBeCloseTo(90, 12)
    expect(turnDegrees((47 * Math.PI) / 180, true, null)).toBe(45)
    expect(turnDegrees(1, false, -30)).toBe(-30)
    // A sweep across the atan2 seam counts as the small step it is.
    expect(angleStep(Math.PI - 0.1, -Math.PI + 0.1)).toBeCloseTo(0.2, 12)
    expect(angleStep(-Math.PI + 0.1, Math.PI - 0.1)).toBeCloseTo(-0.2, 12)
  })

  it('scales by the distance ratio on every axis or one, snapped to 0.1, or by a typed factor', () => {
    expect(scaleFactor(50, 100, false, null)).toBe(2)
    expect(scaleFactor(50, 77, true, null)).toBeCloseTo(1.5, 12)
    expect(scaleFactor(0, 77, false, null)).toBe(1)
    expect(scaleFactor(50, 77, false, 3)).toBe(3)
    expect(scaled([1, 2, 3], 2, null)).toEqual([2, 4, 6])
    expect(scaled([1, 2, 3], 2, 1)).toEqual([1, 4, 3])
  })
})

// The face normal classes of the linear fit (sim/hybrid/faceNormalClasses.ts): the nine
// directions and their signs are recognised within the tolerance and nothing else is; each
// class's c c^T and c are the direction's own; lists sort stably with the general faces first.
import { describe, expect, it } from 'vitest'
import { CLASS_COUNT, CLASS_DIRECTION, CLASS_PRODUCTS, CLASS_TOLERANCE, faceNormalClasses, normalClassCode, sortListsByClass } from '../../../../src-shared/sim/hybrid/faceNormalClasses'

describe('face normal classes', () => {
  it('each direction and its opposite get their class and sign; c c^T is the direction\'s outer product', () => {
    for (let k = 0; k < CLASS_COUNT; k++) {
      const c = CLASS_DIRECTION.subarray(3 * k, 3 * k + 3)
      expect(Math.hypot(c[0], c[1], c[2])).toBeCloseTo(1, 15)
      expect(normalClassCode(c[0], c[1], c[2])).toBe(2 * k + 2)
      expect(normalClassCode(-c[0], -c[1], -c[2])).toBe(2 * k + 3)
      // xx, yx, yy, zx, zy, zz
      const outer = [c[0] * c[0], c[1] * c[0], c[1] * c[1], c[2] * c[0], c[2] * c[1], c[2] * c[2]]
      for (let j = 0; j < 6; j++) expect(Math.abs(CLASS_PRODUCTS[6 * k + j] - outer[j])).toBeLessThan(1e-15)
    }
  })

  it('normals off every direction by more than the tolerance have no class; within it they keep theirs', () => {
    const h = Math.SQRT1_2
    expect(normalClassCode(h + 4 * CLASS_TOLERANCE, 0, h)).toBe(0)
    expect(normalClassCode(h + CLASS_TOLERANCE / 2, 0, -h)).toBe(2 * 6 + 2)
    expect(normalClassCode(1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3))).toBe(0)
    expect(normalClassCode(0.6, 0.8, 0)).toBe(0)
    expect(normalClassCode(NaN, 0, 0)).toBe(0)
    expect(Array.from(faceNormalClasses(Float64Array.of(0, -1, 0, 0.6, 0, 0.8)))).toEqual([5, 0])
  })

  it('sorts each list by class, general faces first, keeping the order within a class', () => {
    // Faces 0..5: classes none, z, x, none, x, z.
    const codes = Uint8Array.of(0, 6, 3, 0, 2, 7)
    const faces = Int32Array.of(1, 2, 0, 4, 3, 5, /* second list */ 5, 0)
    sortListsByClass(Int32Array.of(0, 6, 8), faces, codes)
    expect(Array.from(faces)).toEqual([0, 3, 2, 4, 1, 5, 0, 5])
  })
})

import { describe, expect, it } from 'vitest'
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector'
import { eulerXYZDegToQuaternion, quaternionToEulerXYZDeg } from '../../../src-renderer/viewport/transformMath'

function rotate(e: [number, number, number], v: [number, number, number]): number[] {
  const m = Matrix.Compose(Vector3.One(), eulerXYZDegToQuaternion(e), Vector3.Zero())
  const r = Vector3.TransformCoordinates(new Vector3(...v), m)
  return [r.x, r.y, r.z]
}

describe('XYZ Euler rotations (degrees) as used by the scene document', () => {
  it('rotates about X, then Y, then Z, right-handed', () => {
    // X +90 takes +Y to +Z (right-handed).
    rotate([90, 0, 0], [0, 1, 0]).forEach((c, i) => expect(c).toBeCloseTo([0, 0, 1][i], 6))
    // X then Y: +Y -> +Z -> +X.
    rotate([90, 90, 0], [0, 1, 0]).forEach((c, i) => expect(c).toBeCloseTo([1, 0, 0][i], 6))
    // X then Y then Z: +Y -> +Z -> +X -> +Y.
    rotate([90, 90, 90], [0, 1, 0]).forEach((c, i) => expect(c).toBeCloseTo([0, 1, 0][i], 6))
  })

  it('converts back to angles that give the same rotation and stay near the previous ones', () => {
    const cases: [number, number, number][] = [
      [10, 20, 30],
      [-170, 45, 100],
      [0, 90, 30],
      [370, 0, 0],
      [0, 0, -725],
      [10, -90, 30],
    ]
    for (const e of cases) {
      const back = quaternionToEulerXYZDeg(eulerXYZDegToQuaternion(e), e)
      for (const v of [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ] as [number, number, number][]) {
        rotate(back, v).forEach((c, i) => expect(c).toBeCloseTo(rotate(e, v)[i], 5))
      }
      // Unwrapped towards the reference: 370 stays 370, -725 stays -725.
      for (let i = 0; i < 3; i++) if (Math.abs(e[1]) < 89) expect(Math.abs(back[i] - e[i])).toBeLessThan(1e-3)
    }
  })
})

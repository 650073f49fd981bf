// The viridis fit against matplotlib's table at a few points (hex values from its _cm_listed).
import { describe, expect, it } from 'vitest'
import { VIRIDIS_GLSL, viridis } from '../../../../src-renderer/viewport/cache/colorRamp'

const hex = (h: string): number[] => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255)

describe('viridis', () => {
  it('matches the table within 2/255 at its ends, quarters and middle', () => {
    const table: [number, string][] = [
      [0, '#440154'],
      [0.25, '#3b528b'],
      [0.5, '#21918c'],
      [0.75, '#5ec962'],
      [1, '#fde725'],
    ]
    for (const [t, h] of table) {
      const got = viridis(t)
      const want = hex(h)
      for (let c = 0; c < 3; c++) expect(Math.abs(got[c] - want[c])).toBeLessThan(2 / 255 + 0.01)
    }
  })

  it('clamps outside [0, 1] and the GLSL carries the same coefficients', () => {
    expect(viridis(-3)).toEqual(viridis(0))
    expect(viridis(7)).toEqual(viridis(1))
    expect(VIRIDIS_GLSL).toContain('vec3 viridis(float t)')
    expect(VIRIDIS_GLSL).toContain((0.2777273272234177).toPrecision(10))
  })
})

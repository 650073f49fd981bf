// The live surface flow's brush, by amount: a held brush lays exactly its paint budget
// (BRUSH_PAINT_RATE x time x brush area x colour), and a dragged brush moves the flow at its
// centre at the drag's speed (the tangent part of it), however many strokes it sends.
import { describe, expect, it } from 'vitest'
import { defaultCage } from '../../../src-shared/scene/defaults'
import { evaluateLimit } from '../../../src-shared/geometry/catmullClarkEval'
import { BRUSH_PAINT_RATE, LiveSurface } from '../../../src-shared/sim/surface/liveSurface'

const still = { gravity: [0, 0, 0] as [number, number, number], drag: 0, colorDiffusion: 0, vorticity: 0, baseColor: [0.2, 0.2, 0.2] as [number, number, number] }

function liveCube(N = 12): LiveSurface {
  const c = defaultCage()
  return new LiveSurface(c.positions, c.faces, N, { ...still })
}

describe('live surface flow', () => {
  it('a held brush lays BRUSH_PAINT_RATE x time x area x colour of paint (within 1e-9)', () => {
    const live = liveCube()
    const top = evaluateLimit(live.fluid.surface, 0, 0.5, 0.5).position
    const r = 0.1, colour: [number, number, number] = [0.5, 0.25, 1]
    for (let k = 0; k < 10; k++) live.stroke({ at: [top[0], top[1], top[2]], radius: r, color: colour, velocity: [0, 0, 0], dt: 0.02 })
    live.step(0)
    const expected = BRUSH_PAINT_RATE * 0.2 * Math.PI * r * r * (0.5 + 0.25 + 1)
    expect(Math.abs(live.paint() / expected - 1)).toBeLessThan(1e-9)
    // And the flow keeps it: 20 steps later the same amount.
    for (let k = 0; k < 20; k++) live.step(1 / 30)
    expect(Math.abs(live.paint() / expected - 1)).toBeLessThan(1e-9)
  })

  it('a dragged brush moves the flow at its centre at the drag speed, not the sum of its strokes (within 10% before projection)', () => {
    const live = liveCube(16)
    const fl = live.fluid
    // Patch 0's centre; a drag along its du direction at 0.5 m/s, sent as 25 strokes.
    const s = evaluateLimit(fl.surface, 0, 0.5, 0.5)
    const du = s.du, len = Math.hypot(du[0], du[1], du[2])
    const v: [number, number, number] = [(0.5 * du[0]) / len, (0.5 * du[1]) / len, (0.5 * du[2]) / len]
    for (let k = 0; k < 25; k++) fl.addImpulse(s.position, 0.15, v, true)
    // The x-face at the centre of patch 0: u^1 = F / sqrt(g), in patch widths a second; times |du| is m/s.
    const g = fl.grid, f = g.xFace(0, g.N / 2, g.N / 2)
    const speed = (fl.fx[f] / fl.metric.xFaces.sqrtG[f]) * len
    console.log(`flow under the brush ${speed.toFixed(3)} m/s for a 0.5 m/s drag`)
    expect(Math.abs(speed / 0.5 - 1)).toBeLessThan(0.1)
  })
})

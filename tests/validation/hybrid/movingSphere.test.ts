// A sphere keyframed through still gas, against the analytic potential flow of a translating
// sphere (Lamb, Hydrodynamics, art. 92): u = grad phi, phi = -V R^3 cos(theta) / (2 r^2). Started
// from rest, the first substep's projection with the sphere's faces moving at V is the discrete
// version of that flow; after that the band is remeshed around the sphere every substep and the
// flow carried onto the new mesh (hybridObstacles.ts, HybridFields.carryFrom), and an inviscid
// flow started from rest stays irrotational. Measured as the rms error over the shell
// 1.1 R < r < 2 R, relative to the analytic flow's rms there: 9.5% / 5.0% after the first frame
// at 24 / 40 cubes (the discretisation: it halves from 24 to 40), 21.6% / 18.6% after six. The
// growth is the semi-Lagrangian advection's, not the remeshing's: the same potential flow past
// a sphere held still on one mesh (a uniform stream through open ends) grows from 10% / 5% to
// 33% / 29% in six steps of the same size, and the all-hexahedral mesh from 89% / 73% to
// 128% / 127%. Tolerances: 14% / 8% after one frame, 30% after six. The tetrahedra follow the
// sphere: their centroid stays within a cube of its centre.
import { describe, expect, it } from 'vitest'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { compileHybridInput, compileHybridScene } from '../../../src-shared/sim/hybrid/compileHybrid'
import { HybridSolver } from '../../../src-shared/sim/hybrid/hybridSolver'

const R = 0.15, V = 1, X0 = 0.6

function scene(resolution: number): SceneDocument {
  return {
    meta: { name: 'Moving sphere', fps: 24, frameStart: 1, frameEnd: 12 },
    objects: [
      sceneObject('domain', 'domain', 'Channel', { solver: 'hybrid', position: [1, 0.6, 0.6], size: [2, 1.2, 1.2], resolution, hybridBand: 2, buoyancyAlpha: 0, buoyancyBeta: 0, vorticity: 0, minSubsteps: 1, maxSubsteps: 1, openXMin: true, openXMax: true }),
      sceneObject('ball', 'obstacle', 'Ball', { shape: 'sphere', position: [X0, 0.6, 0.6], scale: [2 * R, 2 * R, 2 * R] }),
    ],
    // 1 m/s along x: 1/24 m a frame from frame 1.
    tracks: [{ objectId: 'ball', path: 'position.0', keys: [{ frame: 1, value: X0, interp: 'linear' }, { frame: 25, value: X0 + V, interp: 'linear' }] }],
    meshes: [],
  }
}

/**
 * rms |u - u_exact| over rms |u_exact| at 4000 points of the shell 1.1 R < r < 2 R around the
 * sphere's centre (deterministic points): the potential flow u = V R^3 (3 (d.x^) d / r^5 - x^ / r^3) / 2.
 */
function shellError(fields: NonNullable<HybridSolver['state']>, cx: number): number {
  const out = new Float64Array(3)
  let seed = 3, e2 = 0, u2 = 0, n = 0
  const rnd = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
  while (n < 4000) {
    const dx = (2 * rnd() - 1) * 2 * R, dy = (2 * rnd() - 1) * 2 * R, dz = (2 * rnd() - 1) * 2 * R
    const r = Math.hypot(dx, dy, dz)
    if (r < 1.1 * R || r > 2 * R) continue
    const c = fields.cellAt(cx + dx, 0.6 + dy, 0.6 + dz)
    expect(c).toBeGreaterThanOrEqual(0)
    fields.interpolation.accurateVelocityAt(cx + dx, 0.6 + dy, 0.6 + dz, c, fields.z, out, 0)
    const k = (V * R ** 3) / (2 * r ** 3), q = (3 * V * R ** 3 * dx) / (2 * r ** 5)
    const ex = q * dx - k, ey = q * dy, ez = q * dz
    e2 += (out[0] - ex) ** 2 + (out[1] - ey) ** 2 + (out[2] - ez) ** 2
    u2 += ex * ex + ey * ey + ez * ez
    n++
  }
  return Math.sqrt(e2 / u2)
}

describe('a keyframed sphere through still gas', () => {
  it.each([[24, 0.14], [40, 0.08]])('%i cubes along 2 m: the gas moves as the potential flow of a translating sphere, rms within %s after 1 frame and 0.3 after 6', (res, tol) => {
    const doc = scene(res)
    const setup = compileHybridScene(doc, 'domain')
    const solver = new HybridSolver(setup)
    const out = new Float64Array(3)
    const centroids: number[] = []
    const errors: number[] = []
    for (let f = 1; f <= 6; f++) {
      const input = compileHybridInput(doc, 'domain', (f - 1) / 24, 24, { meshes: setup.meshes })
      solver.step(input.frameDt, input, undefined)
      const mesh = solver.currentMesh!, fields = solver.state!
      const cx = X0 + (V * f) / 24
      let sx = 0
      for (let c = mesh.hexCount; c < mesh.cellCount; c++) sx += mesh.cellCentre[3 * c]
      centroids.push(sx / mesh.tetCount - cx)
      if (process.env.ALLF === undefined && f !== 1 && f !== 6) continue
      errors.push(shellError(fields, cx))
    }
    console.log(`${res} cubes: rms error around the sphere ${(100 * errors[0]).toFixed(1)}% after 1 frame, ${(100 * errors[1]).toFixed(1)}% after 6 [${errors.map((e) => (100 * e).toFixed(1)).join(" ")}]; tetrahedra centroid off the sphere's centre by ${centroids.map((d) => d.toFixed(3)).join(', ')} m`)
    expect(errors[0]).toBeLessThan(tol)
    expect(errors[errors.length - 1]).toBeLessThan(0.3)
    // The band went with the sphere: its centroid stays within a cube of the sphere's centre.
    for (const d of centroids) expect(Math.abs(d)).toBeLessThan(setup.grid.dx)
  })
})

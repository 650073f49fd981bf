// The tetrahedral liquid's cut-away (sim/tetliquid/cutaway.ts) and the display-only rule
// (frame.ts): the cut-away holds exactly the faces bounding the tetrahedra behind the domain's
// centre plane, each facing out of its tetrahedron; exporters leave display-only meshes out.
import { describe, expect, it } from 'vitest'
import { frameOutputs } from '../../../../src-main/export/frameOutputs'
import { sceneObject } from '../../../../src-shared/scene/examples/build'
import { isDisplayOnlyMesh } from '../../../../src-shared/sim/frame'
import { createBakeSolver } from '../../../../src-shared/sim/registry'
import { CUTAWAY_MESH } from '../../../../src-shared/sim/tetliquid/cutaway'

function column() {
  const doc = {
    meta: { name: 'Column', fps: 24, frameStart: 1, frameEnd: 4 },
    objects: [
      sceneObject('domain', 'domain', 'Tank', { solver: 'tetliquid', position: [0, 1, 0], size: [2, 2, 2], resolution: 20 }),
      sceneObject('water', 'emitter', 'Column', { shape: 'box', fluid: 'liquid', behavior: 'geometry', position: [-0.5, 0.5, 0], scale: [0.8, 1, 1.6], velocity: [0, 0, 0] }),
    ],
    tracks: [],
    meshes: [],
  }
  const solver = createBakeSolver(doc, 'domain')
  solver.stepFrame(1)
  return solver.frame()
}

describe('the tetrahedral cut-away', () => {
  it('is a display-only mesh of outward facets, all behind the centre plane, coloured by size', () => {
    const frame = column()
    expect(frame.meshes.map((m) => m.name)).toEqual(['liquid', CUTAWAY_MESH])
    const cut = frame.meshes[1]
    expect(isDisplayOnlyMesh(cut)).toBe(true)
    const p = cut.positions, n = cut.normals!
    const triangles = cut.indices.length / 3
    expect(triangles).toBeGreaterThan(100)
    expect(cut.attributes!.color.data.length).toBe(p.length)
    let onCut = 0
    for (let t = 0; t < triangles; t++) {
      // Every vertex at or behind z = 0 (the domain's centre), up to the tetrahedra reaching over it.
      for (let k = 0; k < 3; k++) expect(p[9 * t + 3 * k + 2]).toBeLessThan(0.25)
      // The stored normal agrees with the winding (counter-clockwise seen from outside).
      const ax = p[9 * t + 3] - p[9 * t], ay = p[9 * t + 4] - p[9 * t + 1], az = p[9 * t + 5] - p[9 * t + 2]
      const bx = p[9 * t + 6] - p[9 * t], by = p[9 * t + 7] - p[9 * t + 1], bz = p[9 * t + 8] - p[9 * t + 2]
      const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx
      expect(cx * n[9 * t] + cy * n[9 * t + 1] + cz * n[9 * t + 2]).toBeGreaterThan(0)
      if (n[9 * t + 2] > 0.5) onCut++
    }
    // The cut itself faces the camera side (+z).
    expect(onCut).toBeGreaterThan(triangles / 10)
  })

  it('is left out of OBJ exports, which write the surface alone', () => {
    const frame = column()
    const outputs = frameOutputs(frame, { format: 'obj', outDir: '/tmp', frames: [1], padding: 4, upAxis: 'y', baseName: 'Tank', vdbHalf: false })
    expect(outputs.map((o) => o.name)).toEqual(['liquid'])
  })
})

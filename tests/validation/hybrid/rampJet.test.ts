// The inclined-ramp jet of the paper's Figure 4 (hybrid-ramp-jet) on the three meshes of its
// Table 1: "the behaviors of the tetrahedral and hybrid systems are quite similar. In both, the
// flow spreads naturally up the ramp. The behavior with the regular grid is less natural
// because the ramp must be represented as axis-aligned faces" (seed 000 section 4). Measured
// quantity (the issue's): the smoke within 0.2 m of the ramp's upper face and more than 0.25 m
// up the slope from where the jet's axis meets it, after 28 frames (the jet reaches the ramp
// at about frame 12). On the staircase the risers face down the slope and stop the flow
// climbing it. Measured at 20 cubes: all-hexahedral 21.8 of 277 (7.9% of all the smoke),
// hybrid 27.0 of 291 (9.3%), all-tetrahedral 22.7 of 253 (9.0%). The conforming meshes also
// carry a different amount of smoke out of the jet, so the share is what is compared: both at
// least 1.1x the staircase's (measured 1.18x and 1.14x), and the hybrid mesh's amount at least
// 15% more (measured 24%). The effect is modest at this resolution (the ramp is 1.4 cubes thick)
// and depends on where the jet lands: with a larger ramp and the jet nearer its middle the
// shares were 10.4%, 12.6% and 11.5%.
import { describe, expect, it } from 'vitest'
import { RAMP, rampJetScene } from '../../../src-shared/scene/examples/hybridGases'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { bakeKernels } from '../bakeKernels'

const FRAMES = 28

/** Smoke near the ramp's upper face, up the slope beyond the impact, at the last frame; and all the smoke. */
function upSlopeSmoke(mode: 'hybrid' | 'tetrahedra' | 'hexahedra', resolution: number): { up: number; total: number } {
  const { doc } = rampJetScene({ resolution, mode, frames: FRAMES })
  const jetX = doc.objects.find((o) => o.id === 'jet')!.params.position as number[]
  const solver = createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
  for (let f = 1; f <= FRAMES; f++) solver.stepFrame(f)
  const v = solver.frame().volumes.find((q) => q.name === 'density')!
  const a = (RAMP.degrees * Math.PI) / 180
  const along = [Math.cos(a), Math.sin(a)], up = [-Math.sin(a), Math.cos(a)]
  // Where the jet's vertical axis meets the ramp's upper face, in slope coordinates.
  const sImpact = (jetX[0] - RAMP.position[0]) / Math.cos(a)
  const [nx, ny, nz] = v.dims
  let upSlope = 0, total = 0
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    const d = v.data[i + nx * (j + ny * k)]
    total += d
    const x = v.origin[0] + (i + 0.5) * v.voxelSize - RAMP.position[0], y = v.origin[1] + (j + 0.5) * v.voxelSize - RAMP.position[1]
    const s = x * along[0] + y * along[1], h = x * up[0] + y * up[1] - RAMP.scale[1] / 2
    if (h >= 0 && h <= 0.2 && s > sImpact + 0.25 && s <= RAMP.scale[0] / 2) upSlope += d
  }
  return { up: upSlope, total }
}

describe('the ramp jet (Figure 4, Table 1)', () => {
  it('spreads up the ramp on the hybrid and all-tetrahedral meshes: a share of the smoke up the slope at least 1.1x the all-hexahedral staircase\'s (20 cubes, 28 frames)', { timeout: 300_000 }, () => {
    const hex = upSlopeSmoke('hexahedra', 20), hybrid = upSlopeSmoke('hybrid', 20), tet = upSlopeSmoke('tetrahedra', 20)
    console.log(`smoke up the slope: all-hexahedral ${hex.up.toFixed(1)} of ${hex.total.toFixed(0)}, hybrid ${hybrid.up.toFixed(1)} of ${hybrid.total.toFixed(0)}, all-tetrahedral ${tet.up.toFixed(1)} of ${tet.total.toFixed(0)}`)
    expect(hybrid.up / hybrid.total).toBeGreaterThan(1.1 * (hex.up / hex.total))
    expect(tet.up / tet.total).toBeGreaterThan(1.1 * (hex.up / hex.total))
    expect(hybrid.up).toBeGreaterThan(1.15 * hex.up)
  })
})

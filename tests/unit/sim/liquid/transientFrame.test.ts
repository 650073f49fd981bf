// A transient frame (solver.ts FrameOptions.transient, what the bake runner and the benches ask
// for) holds the same values as a frame of copies, frame after frame while an inflow adds
// markers; its arrays are the solver's own, reused; a frame of copies stays as it was when the
// solver steps on.
import { describe, expect, it } from 'vitest'
import { sceneObject } from '../../../../src-shared/scene/examples/build'
import type { FrameData } from '../../../../src-shared/sim/frame'
import { liquidFamily } from '../../../../src-shared/sim/liquid/family'
import { createBakeSolver } from '../../../../src-shared/sim/registry'

function scene() {
  const { doc, hostId } = liquidFamily.conformanceScene()
  const inflow = sceneObject('transient-inflow', 'emitter', 'Inflow', { shape: 'sphere', fluid: 'liquid', behavior: 'inflow', position: [0.5, 1.2, 0], scale: [0.4, 0.4, 0.4], velocity: [0, -1, 0], temperature: 293.15, rate: 20 })
  return { doc: { ...doc, objects: [...doc.objects, inflow] }, hostId }
}

/** Every array of the frame, by where it sits, as plain copies. */
function arrays(f: FrameData): Map<string, number[]> {
  const out = new Map<string, number[]>()
  for (const v of f.volumes) out.set(`volume ${v.name}`, Array.from(v.data))
  for (const m of f.meshes) {
    out.set(`mesh ${m.name} positions`, Array.from(m.positions))
    out.set(`mesh ${m.name} indices`, Array.from(m.indices))
    out.set(`mesh ${m.name} normals`, Array.from(m.normals ?? []))
  }
  for (const p of f.particles) {
    out.set(`particles ${p.name} positions`, Array.from(p.positions))
    for (const [k, a] of Object.entries(p.attributes)) out.set(`particles ${p.name} ${k}`, Array.from(a.data))
  }
  return out
}

describe('transient liquid frames', () => {
  it('hold the values of copied frames while markers are added, in buffers reused frame after frame; copies stay put', () => {
    const { doc, hostId } = scene()
    const copied = createBakeSolver(doc, hostId)
    const transient = createBakeSolver(doc, hostId)
    const counts: number[] = []
    let kept: FrameData | null = null
    let keptValues: Map<string, number[]> | null = null
    let lastVelocityBuffer: ArrayBufferLike | null = null
    let reused = 0
    for (let f = 1; f <= 5; f++) {
      if (f > 1) {
        copied.stepFrame(f - 1)
        transient.stepFrame(f - 1)
      }
      const a = copied.frame()
      const b = transient.frame({ transient: true })
      const count = a.particles[0].count
      counts.push(count)
      expect(b.particles[0].count).toBe(count)
      expect(b.particles[0].positions.length).toBe(3 * count)
      expect(arrays(b)).toEqual(arrays(a))
      const velocity = b.particles[0].attributes.velocity.data
      if (velocity.buffer === lastVelocityBuffer) reused++
      lastVelocityBuffer = velocity.buffer
      if (f === 2) {
        kept = a
        keptValues = arrays(a)
      }
    }
    // The inflow added markers every frame, so the kept buffers had to grow and be reused.
    console.log(`markers per frame: ${counts.join(', ')}`)
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1])
    // Frame 1's buffers are exact, frame 2 outgrows them and takes 25% headroom, which frames 3-5
    // (a few percent more markers each) fit in.
    expect(reused).toBe(3)
    expect(arrays(kept!)).toEqual(keptValues)
  }, 60_000)
})

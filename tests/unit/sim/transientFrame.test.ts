// A transient frame (solver.ts FrameOptions.transient, what the bake runner and the benches ask
// for) holds the same values as a frame of copies, frame after frame (the liquid's while an
// inflow adds markers); its arrays are the solver's own, reused; a frame of copies stays as it
// was when the solver steps on. On the WebAssembly kernels the liquid's kept arrays live in the
// kernels' memory, where a kernel row interleaves the markers (liquid/frameArrayKernel.ts) and
// the surface mesher reads them in place.
import { afterAll, describe, expect, it } from 'vitest'
import type { CompileOptions } from '../../../src-shared/sim/compile'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { FrameData } from '../../../src-shared/sim/frame'
import { liquidFamily } from '../../../src-shared/sim/liquid/family'
import { smokeFamily } from '../../../src-shared/sim/smoke/family'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import type { SlabPool } from '../../../src-shared/sim/parallel/slabPool'
import type { WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

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
    const counts: number[] = []
    const reused = compare(doc, hostId, 5, (f) => counts.push(f.particles[0].count), (f) => f.particles[0].attributes.velocity.data)
    console.log(`markers per frame: ${counts.join(', ')}`)
    // The inflow added markers every frame, so the kept buffers had to grow and be reused.
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1])
    // Frame 1's buffers are exact, frame 2 outgrows them and takes 25% headroom, which frames 3-5
    // (a few percent more markers each) fit in.
    expect(reused).toBe(3)
  }, 60_000)

  it('on the WebAssembly kernels over 2 threads: the same values, the kept arrays in the kernels\' memory and interleaved by their threads', () => {
    // minParallelWork 0: the interleave of these ~1,300 markers is split over both threads.
    const kernels = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
    backends.push(kernels)
    const { doc, hostId } = scene()
    const pool = (kernels as WasmKernelBackend).runner as SlabPool
    let held = 0
    const reused = compare(doc, hostId, 5, () => {}, (f) => f.particles[0].attributes.velocity.data, { kernels }, (f) => {
      const p = f.particles[0]
      if (kernels.holds(p.positions) && kernels.holds(p.attributes.velocity.data)) held++
    })
    expect(held).toBe(5)
    expect(pool.parallelJobs).toBeGreaterThan(0)
    // Growth in the kernels' memory doubles: frame 2 outgrows frame 1's exact arrays, 3-5 fit.
    expect(reused).toBe(3)
  }, 60_000)
})

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await (b as WasmKernelBackend).dispose()
})

describe('transient smoke frames', () => {
  it('hold the values of copied frames, in grids reused from the first frame on; copies stay put', () => {
    const { doc, hostId } = smokeFamily.conformanceScene()
    const reused = compare(doc, hostId, 4, () => {}, (f) => f.volumes.find((v) => v.name === 'density')!.data)
    expect(reused).toBe(3)
  }, 60_000)
})

/**
 * Bakes `frames` frames twice, one solver handing out copies and one transient frames, and checks
 * they agree frame by frame and that frame 2's copies are unchanged at the end. Returns how many
 * frames handed out the `watched` array in the same buffer as the frame before.
 */
function compare(doc: ReturnType<typeof scene>['doc'], hostId: string, frames: number, each: (f: FrameData) => void, watched: (f: FrameData) => Float32Array, opts: CompileOptions = {}, eachTransient: (f: FrameData) => void = () => {}): number {
  const copied = createBakeSolver(doc, hostId, opts)
  const transient = createBakeSolver(doc, hostId, opts)
  let kept: FrameData | null = null
  let keptValues: Map<string, number[]> | null = null
  let lastBuffer: ArrayBufferLike | null = null
  let lastOffset = -1
  let reused = 0
  for (let f = 1; f <= frames; f++) {
    if (f > 1) {
      copied.stepFrame(f - 1)
      transient.stepFrame(f - 1)
    }
    const a = copied.frame()
    const b = transient.frame({ transient: true })
    each(a)
    eachTransient(b)
    expect(arrays(b)).toEqual(arrays(a))
    // (The kernels' arrays share one buffer: the offset tells them apart.)
    const buffer = watched(b).buffer, offset = watched(b).byteOffset
    if (buffer === lastBuffer && offset === lastOffset) reused++
    lastBuffer = buffer
    lastOffset = offset
    if (f === 2) {
      kept = a
      keptValues = arrays(a)
    }
  }
  expect(arrays(kept!)).toEqual(keptValues)
  return reused
}

// The tetrahedral liquid bakes its projection on the WebAssembly kernels (family.ts): the same
// bits as the TypeScript reference, and memory that does not grow from substep to substep
// although every substep builds a new mesh, matrix and multigrid hierarchy in the kernels'
// bump arena (KernelBackend.scoped gives it back after each solve). Two threads: the new mesh's
// faces are traced on the other thread while this one builds the mesh's MeshLocation.
import { createHash } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'
import { tetDamBreakScene } from '../../../../src-shared/scene/examples/tetLiquids'
import { createBakeSolver, familyOf } from '../../../../src-shared/sim/registry'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'

const FRAMES = 4
const { doc } = tetDamBreakScene({ resolution: 16 })
const domainId = doc.objects.find((o) => o.kind === 'domain')!.id
const wasm = createKernelBackend('wasm', { threads: 2 }) as WasmKernelBackend
afterAll(() => wasm.dispose())
// The most the arena held at the end of a solve: the system really lives in the kernels' memory.
let peak = 0
const scoped = wasm.scoped.bind(wasm)
wasm.scoped = <T>(fn: () => T): T =>
  scoped(() => {
    const r = fn()
    peak = Math.max(peak, wasm.kernels.arena.used)
    return r
  })

/** sha256 of the checkpoint after each frame, and the arena's bytes in use after each. */
function bake(options: Parameters<typeof createBakeSolver>[2]): { hashes: string[]; used: number[] } {
  const solver = createBakeSolver(doc, domainId, options)
  const hashes: string[] = []
  const used: number[] = []
  for (let f = 1; f <= FRAMES; f++) {
    solver.stepFrame(f)
    hashes.push(createHash('sha256').update(solver.checkpoint()).digest('hex').slice(0, 16))
    used.push(wasm.kernels.arena.used)
  }
  return { hashes, used }
}

describe('the tetrahedral liquid on the WebAssembly kernels', () => {
  it('is what a bake uses', () => {
    expect(familyOf(doc, domainId).kernels).toBe('wasm')
  })

  it(`gives the TypeScript reference's checkpoints bit for bit over ${FRAMES} frames of the dam break, and the kernels' memory in use stays the same from frame to frame`, () => {
    const reference = bake({})
    const onWasm = bake({ kernels: wasm, shared: true })
    expect(onWasm.hashes).toEqual(reference.hashes)
    // Only what outlives a frame stays in the arena (nothing, for this family): every substep's
    // system is given back.
    expect(new Set(onWasm.used).size).toBe(1)
    expect(peak).toBeGreaterThan(onWasm.used[0] + 100_000)
    expect(wasm.fallbacks).toBe(0)
  })
})

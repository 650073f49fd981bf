// Where a bake's kernels run (src-main/bake/kernelChoice.ts): the family's preference, the
// request's, and WebAssembly's 4 GiB, checked with the liquid's own memory estimate.
import { describe, expect, it } from 'vitest'
import { chooseKernels, WASM_MEMORY_LIMIT } from '../../../src-main/bake/kernelChoice'
import { estimateBake } from '../../../src-main/bake/estimate'
import { damBreakScene } from '../../../src-shared/scene/examples/damBreak'

function damBreakMemory(resolution: number): number {
  const { doc } = damBreakScene({ resolution })
  const domain = doc.objects.find((o) => o.kind === 'domain')!
  return estimateBake(doc, domain.id, 48, 'float16', 10).memoryBytes
}

describe('kernel choice', () => {
  it('runs a liquid that fits in WebAssembly memory there, and a larger one in TypeScript with a note that names its memory', () => {
    const small = damBreakMemory(64)
    expect(small).toBeLessThan(WASM_MEMORY_LIMIT)
    expect(chooseKernels('wasm', undefined, small)).toEqual({ kind: 'wasm', note: null })
    const big = damBreakMemory(256)
    expect(big).toBeGreaterThan(WASM_MEMORY_LIMIT)
    const c = chooseKernels('wasm', undefined, big)
    expect(c.kind).toBe('ts')
    expect(c.note).toMatch(new RegExp(`needs about ${(big / 1024 ** 3).toFixed(1)} GiB.*TypeScript`))
  })

  it('keeps what the request asks for, and TypeScript for a family that prefers it', () => {
    expect(chooseKernels('wasm', 'ts', 1e6).kind).toBe('ts')
    expect(chooseKernels('wasm', 'wasm', 5 * 1024 ** 3)).toEqual({ kind: 'wasm', note: null })
    expect(chooseKernels('ts', 'wasm', 1e6)).toEqual({ kind: 'ts', note: null })
  })
})

// The default kernel thread count (src-main/sim/kernelCores.ts): every core, or EDDY_THREADS
// up to the cores; anything but a whole number from 1 up is refused by name.
import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { defaultKernelThreads } from '../../../src-main/sim/kernelCores'

describe('default kernel threads', () => {
  const cores = availableParallelism()

  it('is every core unless EDDY_THREADS says fewer', () => {
    expect(defaultKernelThreads({})).toBe(cores)
    expect(defaultKernelThreads({ EDDY_THREADS: '' })).toBe(cores)
    expect(defaultKernelThreads({ EDDY_THREADS: '1' })).toBe(1)
    expect(defaultKernelThreads({ EDDY_THREADS: ' 1 ' })).toBe(1)
    expect(defaultKernelThreads({ EDDY_THREADS: String(cores + 7) })).toBe(cores)
  })

  it.each(['0', '-2', '1.5', 'two', 'NaN', 'Infinity'])('refuses EDDY_THREADS=%s by name', (value) => {
    expect(() => defaultKernelThreads({ EDDY_THREADS: value })).toThrow(new RegExp(`EDDY_THREADS must be a whole number of threads from 1 up, got "${value}"`))
  })
})

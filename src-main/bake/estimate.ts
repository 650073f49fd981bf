// What a bake will cost before it starts, from the family's own estimate (memory, cache and
// checkpoint bytes, and what to lower when it does not fit). The bake is refused with a
// sentence the artist can act on when it would not fit, instead of dying part-way (an
// out-of-memory crash mid-bake is a classic complaint about peer tools).
import fs from 'node:fs'
import os from 'node:os'
import nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import { formatBytes } from '../../src-shared/formatBytes'
import type { FramePrecision } from '../../src-shared/formats/frameRecord'
import { DEFAULT_MAX_GRID_BYTES } from '../../src-shared/sim/core/grid'
import type { KernelKind } from '../../src-shared/sim/core/kernelTypes'
import type { BakeEstimate } from '../../src-shared/sim/family'
import { familyOf } from '../../src-shared/sim/registry'
import type { SceneDocument } from '../../src-shared/scene/types'

export { formatBytes }
export type { BakeEstimate }

export function estimateBake(doc: SceneDocument, hostId: string, frames: number, precision: FramePrecision, checkpointEvery: number): BakeEstimate {
  return familyOf(doc, hostId).estimate({ doc, hostId, frames, precision, checkpointEvery })
}

export interface Budget {
  /** Memory the bake may use, bytes (default: 80% of RAM minus other running bakes). */
  memoryBytes: number
  /** Free space on the project's disk, bytes. */
  diskBytes: number
}

/** The share of this machine's memory bakes may use together (the rest: the OS, the studio). */
export const MACHINE_MEMORY_SHARE = 0.8

export function machineBudget(projectPath: string, reservedMemory = 0): Budget {
  let diskBytes = Number.POSITIVE_INFINITY
  try {
    const s = fs.statfsSync(nodePath.dirname(projectPath))
    diskBytes = s.bavail * s.bsize
  } catch {
    // statfs unsupported (some network file systems): the cache write reports a full disk.
  }
  return { memoryBytes: Math.max(0, os.totalmem() * MACHINE_MEMORY_SHARE - reservedMemory), diskBytes }
}

/**
 * Throws RESOURCE_LIMIT when the estimate does not fit: the memory above the machine's budget,
 * the scaling memory (grids) above WebAssembly's 4 GiB when the kernels run there (`kernels`
 * 'wasm'; in TypeScript the grids live on the JavaScript heap, which has no such ceiling), or a
 * typical cache larger than the free disk. The sentence names the largest value of the
 * family's `lower` setting that fits.
 */
export function checkFits(e: BakeEstimate, budget: Budget, kernels: KernelKind = 'ts'): void {
  const fixed = e.memoryBytes - e.scalingBytes
  const gridCap = kernels === 'wasm' ? DEFAULT_MAX_GRID_BYTES : Infinity
  const limit = Math.min(budget.memoryBytes, gridCap)
  if (e.memoryBytes > budget.memoryBytes || e.scalingBytes > gridCap) {
    const { label, value, exponent, min } = e.lower
    const fit = Math.floor(value * Math.pow(Math.max(0, limit - fixed) / e.scalingBytes, 1 / exponent))
    // Where the 4 GiB comes from: a bake's grids live in one WebAssembly memory (shared by its
    // kernel threads), and wasm32 addresses at most 4 GiB of it, whatever the machine holds.
    const which =
      e.scalingBytes > gridCap
        ? `the 4 GiB a simulation may use (its grids share one WebAssembly memory, and WebAssembly addresses at most 4 GiB, whatever this machine has)`
        : `the ${formatBytes(budget.memoryBytes)} available for bakes on this machine`
    throw new EddyError(
      'RESOURCE_LIMIT',
      `This bake needs about ${formatBytes(e.memoryBytes)} of memory (${e.layout}, ${e.particles.toLocaleString('en')} particles), more than ${which}. Lower the ${label} to ${Math.max(min, fit)} or less.`,
      { field: e.lower.key, memoryBytes: e.memoryBytes, budget: budget.memoryBytes },
    )
  }
  if (e.cacheBytes + e.checkpointBytes > budget.diskBytes) {
    throw new EddyError(
      'RESOURCE_LIMIT',
      `The cache of this bake needs about ${formatBytes(e.cacheBytes + e.checkpointBytes)} but the project's disk has ${formatBytes(budget.diskBytes)} free. Free some space, shorten the frame range or lower the ${e.lower.label}.`,
      { field: e.lower.key, cacheBytes: e.cacheBytes, diskBytes: budget.diskBytes },
    )
  }
}

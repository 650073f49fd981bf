// How a bake's checkpoints are compressed: raw deflate (inflated on restore by fflate, as
// every deflate stream is), level 1, with zlib's run-length strategy, which only looks for runs
// of one repeated byte. A solver's state is float arrays whose redundancy is mostly such runs
// (zeros in the air, in empty cells and unused particle slots), and the full match search of
// level 1 costs about twice the time for little more: measured by tests/bench/checkpoint.bench.ts
// on the smoke, grid liquid and hybrid gas states, 1.7-2.2x faster for streams 4-11% larger.
// Checkpoints are written every tenth frame by default, so this is a share of every bake.
import { constants, deflateRawSync, type ZlibOptions } from 'node:zlib'

export const CHECKPOINT_DEFLATE: Readonly<ZlibOptions> = { level: 1, strategy: constants.Z_RLE }

/** A solver checkpoint compressed for the cache. */
export function deflateCheckpoint(raw: Uint8Array): Uint8Array {
  return deflateRawSync(raw, CHECKPOINT_DEFLATE)
}

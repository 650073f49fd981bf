// Splitting a list of cells kept by colour (reds first, then blacks, each in index order: the
// multigrids' red-black lists) between threads for a row that visits every listed cell
// (residuals, transfers). Split as it lies, one thread took every red cell and the other every
// black one, neighbours in memory: both threads wrote every cache line of the output, and the
// pressure multigrid's prolongation ran 2.4x slower on two threads than on one (its residual
// and restriction no faster). Over colour pairs, index q of the range [0, max(red, black))
// stands for the reds [pairStart(q, red), pairStart(q + 1, red)) and the blacks red +
// [pairStart(q, black), pairStart(q + 1, black)), so a thread's share of either colour covers
// about the same planes. Each cell's value is its own, so the split changes no bits. (The
// AssemblyScript twins use wasm/assembly/common.ts colourPairAt.)

/** The first cell of colour pair q in a colour segment of count cells (pairs: colourPairs()). */
export function pairStart(q: number, count: number, pairs: number): number {
  return pairs === 0 ? 0 : Math.floor((q * count) / pairs)
}

/** The colour-pair range of a list of count cells whose first red are red. */
export function colourPairs(red: number, count: number): number {
  return Math.max(red, count - red)
}

/** The list position where colour pair q starts in colour's segment (0: the reds, 1: the blacks). */
export function colourPairAt(colour: number, q: number, red: number, count: number): number {
  const pairs = colourPairs(red, count)
  return colour === 0 ? pairStart(q, red, pairs) : red + pairStart(q, count - red, pairs)
}

// Run lists of one colour for the multigrid's boundary-band kernels (relaxRuns and its float32
// twin): runs in random rows, from a random first cell of the colour, each a random count that
// stays in its row (the band's runs are whole rows, their ends, or single cells).
import { rng } from './everyBackend'

export function randomRuns(nx: number, ny: number, nz: number, color: number, seed: number): { runs: Int32Array; cells: number } {
  const r = rng(seed)
  const list: number[] = []
  let cells = 0
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++) {
      const first = (color + j + k) & 1
      const slots = Math.floor((nx - first + 1) / 2)
      let at = 0
      while (at < slots && r() < 0.8) {
        const start = at + Math.floor(r() * (slots - at))
        const count = 1 + Math.floor(r() * (slots - start))
        list.push(first + 2 * start + nx * (j + ny * k), count)
        cells += count
        at = start + count + 1
      }
    }
  return { runs: Int32Array.from(list), cells }
}

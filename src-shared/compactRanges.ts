/** Runs of consecutive whole numbers: [1,2,3,7,9,10] -> ["1-3", "7", "9-10"] (frames, variant numbers). */
export function compactRanges(ns: readonly number[]): string[] {
  const out: string[] = []
  for (let i = 0; i < ns.length; ) {
    let j = i
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++
    out.push(j === i ? `${ns[i]}` : `${ns[i]}-${ns[j]}`)
    i = j + 1
  }
  return out
}

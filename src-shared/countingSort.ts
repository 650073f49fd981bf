// A stable counting sort of indices by small integer keys: the bucketing that meshes use to
// match faces and edges by a vertex without hashing (tetTopology.ts, pseudoNormals.ts).

/**
 * The indices 0..keys.length-1 grouped by key (0 <= key < keyCount), increasing within a key:
 * key k's indices are order[start[k] .. start[k + 1]).
 */
export function countingSortByKey(keys: Int32Array, keyCount: number): { start: Int32Array; order: Int32Array } {
  const n = keys.length
  const start = new Int32Array(keyCount + 1)
  for (let e = 0; e < n; e++) start[keys[e] + 1]++
  for (let k = 0; k < keyCount; k++) start[k + 1] += start[k]
  const cursor = start.slice(0, keyCount)
  const order = new Int32Array(n)
  for (let e = 0; e < n; e++) order[cursor[keys[e]]++] = e
  return { start, order }
}

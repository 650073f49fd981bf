// The coarse/fine splitting of algebraic multigrid, as Chentanez, Feldman, Labelle, O'Brien and
// Shewchuk 2007 ("Liquid simulation on lattice-based tetrahedral meshes", sec. 3.5) describe:
//
//   "we partition the level k variables into coarse and fine variables. Coarse variables
//    survive into the coarser level k-1; fine variables do not. [...] (Variables i and j are
//    neighbors if A_ij is non-zero.) [...] Each level k variable must have at least one
//    neighbor labeled coarse (possibly itself). [...] The following greedy algorithm:
//    1. Assign each variable a counter storing its number of neighbors.
//    2. Select a variable at random; label it coarse.
//    3. Label the neighbors of the new coarse variable fine.
//    4. For each unlabeled neighbor of each new fine variable, decrement the count of its
//       number of unlabeled neighbors.
//    5. Select the unlabeled variable that neighbors a fine variable and has the most
//       unlabeled neighbors. Label it coarse.
//    6. Repeat steps 3 to 5 until every variable is labeled."
//
// Choices where the paper leaves room (each deterministic, so a hierarchy is the same on every
// run and every thread count):
// - Strength of connection: the paper's neighbour relation is "A_ij non-zero", i.e. every
//   off-diagonal entry that is not exactly zero (Galerkin products can cancel to an exact 0,
//   which is then no neighbour). `theta` > 0 optionally keeps only the classical Ruge-Stüben
//   strong entries |A_ij| >= theta max_{k != i} |A_ik| (Trottenberg et al. 2001, app. A.3),
//   symmetrised (i, j neighbours if either is strong for the other), so the relation stays
//   symmetric as the paper's is for a symmetric A. The default is theta = 0: the paper's.
// - "Select a variable at random" (step 2, and again whenever no unlabeled variable
//   neighbours a fine one, i.e. a new connected component starts): the unlabeled variable of
//   lowest index. Ties in step 5 ("the most unlabeled neighbors") go to the lowest index.
// - A variable with no neighbour at all (its row is only a diagonal, or empty) cannot satisfy
//   "at least one neighbor labeled coarse" except by being coarse itself; it is labelled fine
//   with nothing to interpolate from instead, since Gauss-Seidel solves a decoupled row
//   exactly and carrying it to every coarser level would only add work. (A row whose only
//   entries are weak under theta > 0 is treated the same way, as Ruge-Stüben do.)
//
// Step 5 is a priority queue over the frontier (unlabeled variables next to a fine one), keyed
// by the counter, largest first (FrontierHeap).
import type { CsrMatrix } from '../sparse/csr'

/** A symmetric neighbour graph (no self loops), neighbours of i at adj[ptr[i] .. ptr[i+1]-1], increasing. */
export interface NeighbourGraph {
  readonly n: number
  readonly ptr: Int32Array
  readonly adj: Int32Array
}

/** The coarse/fine labels of one level. */
export interface Splitting {
  /** Coarse index of each variable (its column of P), -1 for fine variables. */
  readonly coarseIndex: Int32Array
  /** Number of coarse variables (the next level's size). */
  readonly coarse: number
  /** The neighbour relation the splitting used (prolongation averages over the same one). */
  readonly graph: NeighbourGraph
}

/**
 * Neighbours as the paper defines them ("i and j are neighbors if A_ij is non-zero"), or with
 * theta > 0 only the symmetrised classical strong connections |A_ij| >= theta max_k |A_ik|.
 */
export function neighbourGraph(A: CsrMatrix, theta = 0): NeighbourGraph {
  const { n, rowPtr, col, val } = A
  const strong = (i: number, p: number, cut: number) => col[p] !== i && val[p] !== 0 && Math.abs(val[p]) >= cut
  const cutOf = new Float64Array(n)
  if (theta > 0) {
    for (let i = 0; i < n; i++) {
      let m = 0
      for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) if (col[p] !== i) m = Math.max(m, Math.abs(val[p]))
      cutOf[i] = theta * m
    }
  }
  // Row i's neighbours are the union of its own strong columns and the rows that hold i as a
  // strong column. Both lists come out increasing (A's rows are sorted; the second is filled
  // in row order), so a merge gives the sorted, duplicate-free row without sorting.
  const ownPtr = new Int32Array(n + 1)
  const inPtr = new Int32Array(n + 1)
  let sortedRows = true
  for (let i = 0; i < n; i++) {
    let own = 0
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      if (p > rowPtr[i] && col[p] <= col[p - 1]) sortedRows = false
      if (strong(i, p, cutOf[i])) {
        own++
        inPtr[col[p] + 1]++
      }
    }
    ownPtr[i + 1] = ownPtr[i] + own
  }
  for (let i = 0; i < n; i++) inPtr[i + 1] += inPtr[i]
  const ownAdj = new Int32Array(ownPtr[n])
  const inAdj = new Int32Array(inPtr[n])
  const next = inPtr.slice(0, n)
  for (let i = 0, t = 0; i < n; i++)
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++)
      if (strong(i, p, cutOf[i])) {
        ownAdj[t++] = col[p]
        inAdj[next[col[p]]++] = i
      }
  if (!sortedRows) for (let i = 0; i < n; i++) ownAdj.subarray(ownPtr[i], ownPtr[i + 1]).sort()
  // A symmetric relation (every level here: the finest matrix is symmetric, and the Galerkin
  // levels are symmetrised) has each row's two lists equal: the row is then its own list, and
  // the merge below, which would give the same list, is skipped.
  if (sameLists(ownPtr, ownAdj, inPtr, inAdj)) return { n, ptr: ownPtr, adj: ownAdj }
  const ptr = new Int32Array(n + 1)
  const adj = new Int32Array(ownPtr[n] + inPtr[n])
  let m = 0
  for (let i = 0; i < n; i++) {
    let a = ownPtr[i], b = inPtr[i]
    const ae = ownPtr[i + 1], be = inPtr[i + 1]
    let last = -1
    while (a < ae || b < be) {
      const v = b >= be || (a < ae && ownAdj[a] <= inAdj[b]) ? ownAdj[a++] : inAdj[b++]
      if (v !== last) adj[m++] = last = v
    }
    ptr[i + 1] = m
  }
  return { n, ptr, adj: adj.slice(0, m) }
}

/** Whether two adjacency lists (pointers and entries) are the same. */
function sameLists(aPtr: Int32Array, a: Int32Array, bPtr: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < aPtr.length; i++) if (aPtr[i] !== bPtr[i]) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const UNLABELED = 0
const COARSE = 1
const FINE = 2

/** 2^31: a heap key is count * SPAN + (SPAN - 1 - variable), exact in a float64. */
const SPAN = 2147483648

/**
 * The frontier of step 5 (unlabeled variables next to a fine one) as an indexed max-heap of
 * (count, variable): larger count first, then smaller index, both in one float64 key. Each
 * variable is in it at most once (pos), its key lowered in place when its counter falls and
 * removed when it is labelled, so the heap stays the size of the frontier (a heap of every
 * decrement, skipping stale entries, was most of the splitting's time in cache misses).
 */
class FrontierHeap {
  private readonly key: Float64Array
  private readonly item: Int32Array
  private readonly pos: Int32Array
  private size = 0

  constructor(n: number) {
    this.key = new Float64Array(n)
    this.item = new Int32Array(n)
    this.pos = new Int32Array(n).fill(-1)
  }

  /** Puts v in with this count, or lowers its count if it is in already. */
  set(v: number, count: number): void {
    const k = count * SPAN + (SPAN - 1 - v)
    const at = this.pos[v]
    if (at < 0) this.up(this.size++, k, v)
    else this.down(at, k, v)
  }

  /** Takes v out if it is in. */
  remove(v: number): void {
    const at = this.pos[v]
    if (at < 0) return
    this.pos[v] = -1
    const last = --this.size
    if (at === last) return
    const k = this.key[last], u = this.item[last]
    if (at > 0 && k > this.key[(at - 1) >> 1]) this.up(at, k, u)
    else this.down(at, k, u)
  }

  /** Removes and returns the variable with the most unlabeled neighbours (lowest index on ties), or -1. */
  pop(): number {
    if (this.size === 0) return -1
    const v = this.item[0]
    this.remove(v)
    return v
  }

  private up(c: number, k: number, v: number): void {
    const { key, item, pos } = this
    while (c > 0) {
      const parent = (c - 1) >> 1
      if (!(k > key[parent])) break
      key[c] = key[parent]
      item[c] = item[parent]
      pos[item[c]] = c
      c = parent
    }
    key[c] = k
    item[c] = v
    pos[v] = c
  }

  private down(c: number, k: number, v: number): void {
    const { key, item, pos } = this
    const size = this.size
    for (;;) {
      const l = 2 * c + 1
      if (l >= size) break
      const best = l + 1 < size && key[l + 1] > key[l] ? l + 1 : l
      if (!(key[best] > k)) break
      key[c] = key[best]
      item[c] = item[best]
      pos[item[c]] = c
      c = best
    }
    key[c] = k
    item[c] = v
    pos[v] = c
  }
}

/**
 * The paper's greedy coarse/fine splitting of A's variables (steps 1-6 above). Every fine
 * variable with a neighbour ends up next to a coarse one: it was labelled fine as the
 * neighbour of a new coarse variable (step 3).
 */
export function greedySplitting(A: CsrMatrix, theta = 0): Splitting {
  const graph = neighbourGraph(A, theta)
  const { n, ptr, adj } = graph
  const label = new Uint8Array(n)
  // Step 1: the counter of unlabeled neighbours.
  const count = new Int32Array(n)
  for (let i = 0; i < n; i++) count[i] = ptr[i + 1] - ptr[i]
  const heap = new FrontierHeap(n)
  const newFine = new Int32Array(n)
  let seed = 0
  let labelled = 0
  while (labelled < n) {
    // Step 5: the frontier variable with the most unlabeled neighbours.
    let c = heap.pop()
    if (c < 0) {
      // Step 2 (and a new component): the lowest unlabeled index.
      while (label[seed] !== UNLABELED) seed++
      c = seed
      if (ptr[c + 1] === ptr[c]) {
        // No neighbour: fine, solved exactly by the smoother (see the header).
        label[c] = FINE
        labelled++
        continue
      }
    }
    label[c] = COARSE
    labelled++
    // Step 3: its unlabeled neighbours become fine.
    let nf = 0
    for (let p = ptr[c]; p < ptr[c + 1]; p++) {
      const j = adj[p]
      if (label[j] === UNLABELED) {
        label[j] = FINE
        labelled++
        newFine[nf++] = j
        heap.remove(j)
      }
    }
    // Step 4: their unlabeled neighbours lose one unlabeled neighbour each (and join the frontier).
    for (let t = 0; t < nf; t++) {
      const f = newFine[t]
      for (let p = ptr[f]; p < ptr[f + 1]; p++) {
        const k = adj[p]
        if (label[k] === UNLABELED) {
          count[k]--
          heap.set(k, count[k])
        }
      }
    }
  }
  const coarseIndex = new Int32Array(n).fill(-1)
  let coarse = 0
  for (let i = 0; i < n; i++) if (label[i] === COARSE) coarseIndex[i] = coarse++
  return { coarseIndex, coarse, graph }
}

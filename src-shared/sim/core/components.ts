// Connected fluid regions of the pressure system and their null space.
//
// A region of cells joined by open faces that touches no open domain side has only Neumann
// boundaries: A 1 = 0 on it, so A is singular there and b must sum to zero over it (Carlson
// 2004, section 3.3.2.2: "there must be at least one empty air cell ... or the matrix will be
// singular"). PCG converges on such systems if b and every preconditioned residual are kept
// orthogonal to the constant on each such *floating* region; removeMeans does that. Regions
// with an open side are left alone (their A is definite).
import { reuseOrGrow } from './growCapacity'
import { TS_KERNELS } from './kernelBackend'
import type { KernelBackend } from './kernelTypes'
import { REGION_PLANE_SUMS, REGION_SUBTRACT } from './pressureKernels'

export class FluidComponents {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** Component id per cell, -1 for cells that are not unknowns. */
  readonly labels: Int32Array
  /** Union-find parents (scratch). */
  private readonly stack: Int32Array
  private floatingIds: Int32Array = new Int32Array(0)
  /** Cells of floating component f: cells[start[f] .. start[f + 1]), ascending. */
  private start: Int32Array = new Int32Array(1)
  private startStore: Int32Array = new Int32Array(0)
  private cells: Int32Array = new Int32Array(0)
  /** Per floating component g and plane k: where plane k's cells start in its list (g (nz + 1) + k). */
  private planeStart: Int32Array = new Int32Array(0)
  private planeStartStore: Int32Array = new Int32Array(0)
  /** removeMeans's per-plane sums and means (kernel memory, kept from build to build). */
  private partialStore: Float64Array = new Float64Array(0)
  private meanStore: Float64Array = new Float64Array(0)
  /** Number of components found by the last build. */
  count = 0
  /** Number of those with no open side. */
  floating = 0

  /** kernels: where removeMeans runs; the cell lists live in their memory (default TypeScript). */
  constructor(nx: number, ny: number, nz: number, private readonly kernels: KernelBackend = TS_KERNELS) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.labels = kernels.i32(nx * ny * nz)
    this.stack = new Int32Array(nx * ny * nz)
  }

  /**
   * Labels the regions connected through faces with weight > 0: union-find over the -x, -y,
   * -z faces in one sequential sweep (cache friendly, no per-cell division), then a second
   * sweep resolves roots to compact ids and marks regions that reach an open side.
   */
  build(fu: Float32Array, fv: Float32Array, fw: Float32Array): void {
    const { nx, ny, nz, labels } = this
    const parent = this.stack
    const plane = nx * ny
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        let c = nx * (j + ny * k)
        let fx = (nx + 1) * (j + ny * k)
        let fy = nx * (j + (ny + 1) * k)
        for (let i = 0; i < nx; i++, c++, fx++, fy++) {
          const d = fu[fx] + fu[fx + 1] + fv[fy] + fv[fy + nx] + fw[c] + fw[c + plane]
          if (d <= 0) {
            parent[c] = -1
            continue
          }
          parent[c] = c
          if (i > 0 && fu[fx] > 0) union(parent, c - 1, c)
          if (j > 0 && fv[fy] > 0) union(parent, c - nx, c)
          if (k > 0 && fw[c] > 0) union(parent, c - plane, c)
        }
      }
    }
    // Compact ids in order of each region's first cell; labels[root] holds the id once seen.
    let count = 0
    labels.fill(-1)
    const open: number[] = []
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        let c = nx * (j + ny * k)
        let fx = (nx + 1) * (j + ny * k)
        let fy = nx * (j + (ny + 1) * k)
        for (let i = 0; i < nx; i++, c++, fx++, fy++) {
          if (parent[c] < 0) continue
          const root = find(parent, c)
          let id = labels[root]
          if (id < 0) {
            id = count++
            labels[root] = id
            open.push(0)
          }
          labels[c] = id
          // Boundary faces with weight > 0 are open sides (Dirichlet).
          if (
            (i === 0 && fu[fx] > 0) ||
            (i === nx - 1 && fu[fx + 1] > 0) ||
            (j === 0 && fv[fy] > 0) ||
            (j === ny - 1 && fv[fy + nx] > 0) ||
            (k === 0 && fw[c] > 0) ||
            (k === nz - 1 && fw[c + plane] > 0)
          ) {
            open[id] = 1
          }
        }
      }
    }
    this.count = count
    // Map component id -> index among floating components (-1 = has an open side).
    this.floatingIds = new Int32Array(count)
    let f = 0
    for (let id = 0; id < count; id++) this.floatingIds[id] = open[id] ? -1 : f++
    this.floating = f
    // Cell lists of the floating components (counting sort by component, ascending cells),
    // so removeMeans touches only their cells and no labels.
    // In the kernels' memory, kept from build to build (an arena cannot free a block).
    this.startStore = reuseOrGrow(this.startStore, f + 1, (m) => this.kernels.i32(m))
    this.start = this.startStore.subarray(0, f + 1)
    const start = this.start
    start.fill(0)
    if (f === 0) return
    const ids = this.floatingIds
    for (let c = 0; c < labels.length; c++) {
      const id = labels[c]
      if (id >= 0 && ids[id] >= 0) start[ids[id] + 1]++
    }
    for (let g = 0; g < f; g++) start[g + 1] += start[g]
    if (this.cells.length < start[f]) this.cells = this.kernels.i32(labels.length)
    const cells = this.cells
    const next = start.slice(0, f)
    for (let c = 0; c < labels.length; c++) {
      const id = labels[c]
      if (id >= 0 && ids[id] >= 0) cells[next[ids[id]]++] = c
    }
    // Where each plane's cells start in each list (the lists ascend, so plane by plane).
    this.planeStartStore = reuseOrGrow(this.planeStartStore, f * (nz + 1), (m) => this.kernels.i32(m))
    this.planeStart = this.planeStartStore.subarray(0, f * (nz + 1))
    const ps = this.planeStart
    for (let g = 0; g < f; g++) {
      let t = start[g]
      for (let k = 0; k <= nz; k++) {
        while (t < start[g + 1] && cells[t] < k * plane) t++
        ps[g * (nz + 1) + k] = t
      }
    }
    this.partialStore = reuseOrGrow(this.partialStore, f * nz, (m) => this.kernels.f64(m))
    this.meanStore = reuseOrGrow(this.meanStore, f, (m) => this.kernels.f64(m))
  }

  /**
   * Subtracts from v its mean over each floating component (a projection off A's null space):
   * each component's sum by planes, the planes' sums added in plane order, then the mean taken
   * off its cells (pressureKernels.ts REGION_PLANE_SUMS and REGION_SUBTRACT, split by planes).
   */
  removeMeans(v: Float64Array): void {
    const f = this.floating
    if (f === 0) return
    const { nz, start, cells, planeStart } = this
    const partial = this.partialStore, mean = this.meanStore
    this.kernels.run(REGION_PLANE_SUMS, v, cells, planeStart, f, nz, partial, start[f])
    for (let g = 0; g < f; g++) {
      let sum = 0
      for (let k = 0; k < nz; k++) sum += partial[g * nz + k]
      mean[g] = sum / (start[g + 1] - start[g])
    }
    this.kernels.run(REGION_SUBTRACT, v, cells, planeStart, f, nz, mean, start[f])
  }
}

/** Root of c with path halving. */
function find(parent: Int32Array, c: number): number {
  while (parent[c] !== c) {
    const g = parent[parent[c]]
    parent[c] = g
    c = g
  }
  return c
}

/** Joins the sets of a and b; the smaller root index becomes the root. */
function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a)
  const rb = find(parent, b)
  if (ra < rb) parent[rb] = ra
  else if (rb < ra) parent[ra] = rb
}

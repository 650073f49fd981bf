// The surface mesher's marching cubes on the kernels (marchingCubesKernels.ts): the same
// begin / addPlanes sweep as geometry/marchingCubes.ts MarchingCubes, window by window, with
// each window's slices counted, numbered and written by the rows on the backend's threads. The
// mesh lands in arrays of the kernels' memory, kept from frame to frame (grown by doubling:
// the kernels' arena cannot free a block a bigger one replaces), which a MeshBuffers views.
import type { MeshBuffers, NodeGrid } from '../../../geometry/marchingCubes'
import type { KernelBackend } from '../../core/kernelTypes'
import { MC_COUNT, MC_WRITE, type McTables, mcTables, mcWriteScratchLength } from './marchingCubesKernels'

export class KernelMarchingCubes {
  private tables: McTables | null = null
  private counts: Int32Array = new Int32Array(0)
  private bases: Int32Array = new Int32Array(0)
  private positions: Float32Array = new Float32Array(0)
  private indices: Int32Array = new Int32Array(0)
  // The TypeScript reference's scratch (the WebAssembly rows take per-thread blocks instead).
  private rowScratch = new Int32Array(0)
  private writeScratch = new Int32Array(0)
  /** MC_WRITE's split of a window's slices between the threads. */
  private balance = new Float64Array(0)
  // The sweep in progress.
  private grid: NodeGrid | null = null
  private out: MeshBuffers | null = null
  private nextSlice = 0
  /** First vertex of the last slice done (the next window's slice below its first). */
  private lastSliceBase = 0
  private vertices = 0
  private triangles = 0

  constructor(private readonly kernels: KernelBackend) {}

  /** Starts a sweep over g's node slices into `out` (reset: this sweep's mesh only). */
  begin(g: NodeGrid, out: MeshBuffers): void {
    this.tables ??= mcTables((n) => this.kernels.i32(n))
    this.grid = g
    this.out = out
    this.nextSlice = 0
    this.lastSliceBase = 0
    this.vertices = 0
    this.triangles = 0
    out.reset()
    if (this.kernels.kind === 'ts') {
      if (this.rowScratch.length < 2 * g.ny) this.rowScratch = new Int32Array(2 * g.ny)
      const w = mcWriteScratchLength(g.nx, g.ny)
      if (this.writeScratch.length < w) this.writeScratch = new Int32Array(w)
    }
  }

  /** As MarchingCubes.addPlanes: the cubes up to slice kEnd - 1, phi holding slices base..kEnd - 1. */
  addPlanes(phi: Float32Array, base: number, kEnd: number): void {
    const g = this.grid as NodeGrid, out = this.out as MeshBuffers, t = this.tables as McTables
    const s0 = this.nextSlice, units = kEnd - s0
    if (units <= 0) return
    const { nx, ny } = g
    if (this.counts.length < 3 * units) this.counts = this.kernels.i32(3 * units)
    if (this.bases.length < 3 * units + 1) this.bases = this.kernels.i32(3 * units + 1)
    const counts = this.counts, bases = this.bases
    this.kernels.run(MC_COUNT, phi, counts, t.caseStart, this.rowScratch, nx, ny, base, s0, units)
    // Each slice's first vertex and triangle, in the serial sweep's order.
    let v = this.vertices, tri = this.triangles
    bases[0] = this.lastSliceBase
    for (let u = 0; u < units; u++) {
      bases[1 + 3 * u] = v
      v += counts[3 * u]
      bases[2 + 3 * u] = v
      v += counts[3 * u + 1]
      bases[3 + 3 * u] = tri
      tri += counts[3 * u + 2]
    }
    this.reserve(v, tri)
    // The threads' split of the slices: a slice's nodes, and its vertices and triangles at
    // the cost of a few nodes each (the split never changes the bits).
    if (this.balance.length < units + 1) this.balance = new Float64Array(units + 1)
    const w = this.balance
    w[0] = 0
    for (let u = 0; u < units; u++) w[u + 1] = w[u] + nx * ny + 8 * (counts[3 * u] + counts[3 * u + 1] + counts[3 * u + 2])
    this.kernels.run(MC_WRITE, phi, this.positions, this.indices, bases, t.caseStart, t.caseTris, t.edges, this.writeScratch, nx, ny, base, s0, g.origin[0], g.origin[1], g.origin[2], g.h, units, w)
    this.lastSliceBase = bases[1 + 3 * (units - 1)]
    this.vertices = v
    this.triangles = tri
    this.nextSlice = kEnd
    out.positions = this.positions
    out.indices = new Uint32Array(this.indices.buffer, this.indices.byteOffset, this.indices.length)
    out.vertexCount = v
    out.triangleCount = tri
  }

  /** Room for v vertices and t triangles, keeping the sweep's mesh so far. */
  private reserve(v: number, t: number): void {
    if (this.positions.length < 3 * v) {
      const grown = this.kernels.f32(Math.max(3 * v, 2 * this.positions.length, 3 * 1024))
      grown.set(this.positions.subarray(0, 3 * this.vertices))
      this.positions = grown
    }
    if (this.indices.length < 3 * t) {
      const grown = this.kernels.i32(Math.max(3 * t, 2 * this.indices.length, 3 * 2048))
      grown.set(this.indices.subarray(0, 3 * this.triangles))
      this.indices = grown
    }
  }
}

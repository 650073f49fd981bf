// The hybrid mesh's whole back-traces as a kernel row (sim/hybrid/fullTraceKernel.ts, twin
// wasm/assembly/hybridFullTrace.ts): on TypeScript and on 1, 2 and 3 WebAssembly threads the row
// gives, for every face and cell centre, the bits of the classes' trace (HybridAdvection.traceEnd,
// then HybridLocator.cellAt and lastInside), clamps included, on a mesh with tetrahedra around
// a sphere and on an all-hexahedral one, with NaN in the flow; and its end-only mode gives
// traceEnd's ends.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { kernelCopy } from '../../../../src-shared/sim/core/kernelBackend'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { HybridLocator } from '../../../../src-shared/sim/hybrid/hybridLocate'
import { buildHybridMesh, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { FULL_TRACE_PARAMS, FULL_TRACES, type FullTraceMesh, TP_END_ONLY, TP_HEX_COUNT, TP_INV_CELL, TP_INV_H, TP_INX, TP_INY, TP_INZ, TP_IOX, TP_IOY, TP_IOZ, TP_NX, TP_NY, TP_NZ, TP_OX, TP_OY, TP_OZ, TP_STEP } from '../../../../src-shared/sim/hybrid/fullTraceKernel'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { grid, sphere, swirlFaces } from './hybridFixtures'

const BACKENDS = everyBackendOfFile()

interface Case { mesh: HybridMesh; interp: HybridInterpolation; locator: HybridLocator; vv: Float64Array; starts: Float64Array; cells: Int32Array; n: number }

function makeCase(mode: 'hybrid' | 'hexahedra'): Case {
  const mesh = buildHybridMesh({ grid: grid(12), obstacle: sphere, mode, bandCells: 1, sides: CLOSED_BOX })
  const interp = new HybridInterpolation(mesh)
  const locator = new HybridLocator(mesh)
  // A fast swirl: traces of 2-4 cells, many into the walls and the sphere.
  const z = swirlFaces(mesh, 7, 40, 6, 4)
  const vv = new Float64Array(3 * mesh.vertexCount)
  interp.vertexVelocities(z, vv)
  vv[3 * 5] = Number.NaN
  // Every face centre from cell a, then every cell centre from itself.
  const n = mesh.faceCount + mesh.cellCount
  const starts = new Float64Array(3 * n), cells = new Int32Array(n)
  starts.set(mesh.faceCentre)
  starts.set(mesh.cellCentre, 3 * mesh.faceCount)
  cells.set(mesh.faceCellA)
  for (let c = 0; c < mesh.cellCount; c++) cells[mesh.faceCount + c] = c
  return { mesh, interp, locator, vv, starts, cells, n }
}

/** The classes' trace of every start: end, clamped end, cell, clamp flag. */
function expected(k: Case, step: number) {
  const adv = new HybridAdvection(k.interp, k.locator)
  const end = new Float64Array(3 * k.n), at = new Float64Array(3 * k.n), cell = new Int32Array(k.n), left = new Uint8Array(k.n)
  const e = new Float64Array(3), pos = new Float64Array(3)
  for (let i = 0; i < k.n; i++) {
    const x = k.starts[3 * i], y = k.starts[3 * i + 1], z = k.starts[3 * i + 2], c = k.cells[i]
    adv.traceEnd(x, y, z, c, step, k.vv, e)
    end.set(e, 3 * i)
    let ce = k.locator.cellAt(e[0], e[1], e[2])
    left[i] = ce < 0 ? 1 : 0
    if (ce < 0) ce = k.locator.lastInside(x, y, z, c, e[0], e[1], e[2], pos, 0)
    else pos.set(e)
    at.set(pos, 3 * i)
    cell[i] = ce
  }
  return { end, at, cell, left }
}

function runRow(k: Case, backend: (typeof BACKENDS)[number][1], step: number, endOnly: boolean) {
  const { mesh, locator } = k
  const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => kernelCopy(backend, a)
  const index = locator.tetrahedra?.flatIndex() ?? null
  const M: FullTraceMesh = {
    cubeRole: own(mesh.cubeRole), cubeHex: own(mesh.cubeHex), cellCentre: own(mesh.cellCentre), hexVertices: own(mesh.hexVertices),
    tets: own(mesh.tets.length > 0 ? mesh.tets : new Int32Array(4)), frames: own(index?.frames ?? new Float64Array(13)), boxes: own(index?.boxes ?? new Float64Array(6)),
    neighbours: own(index?.neighbours ?? new Int32Array(4)), indexStart: own(index?.cellStart ?? new Int32Array(2)), indexTets: own(index?.cellTets ?? new Int32Array(1)),
  }
  const P = backend.f64(FULL_TRACE_PARAMS)
  P[TP_HEX_COUNT] = mesh.hexCount
  P[TP_NX] = mesh.grid.nx; P[TP_NY] = mesh.grid.ny; P[TP_NZ] = mesh.grid.nz
  P[TP_OX] = mesh.grid.origin[0]; P[TP_OY] = mesh.grid.origin[1]; P[TP_OZ] = mesh.grid.origin[2]
  P[TP_INV_H] = 1 / mesh.grid.dx
  if (index) {
    P[TP_IOX] = index.origin[0]; P[TP_IOY] = index.origin[1]; P[TP_IOZ] = index.origin[2]
    P[TP_INX] = index.dims[0]; P[TP_INY] = index.dims[1]; P[TP_INZ] = index.dims[2]
    P[TP_INV_CELL] = index.inverseCell
  }
  P[TP_STEP] = step
  P[TP_END_ONLY] = endOnly ? 1 : 0
  const pick = backend.u8(k.n)
  pick.fill(1)
  // Every third start left out: its outputs stay as they were.
  for (let i = 2; i < k.n; i += 3) pick[i] = 0
  const at = backend.f64(3 * k.n), end = backend.f64(3 * k.n), cell = backend.i32(k.n), left = backend.u8(k.n)
  at.fill(-7); end.fill(-7); cell.fill(-7); left.fill(7)
  backend.run(FULL_TRACES, M, P, own(k.vv), pick, 1, own(k.starts), own(k.cells), at, cell, left, end, k.n)
  return { at: Float64Array.from(at), end: Float64Array.from(end), cell: Int32Array.from(cell), left: Uint8Array.from(left) }
}

/** ref with every third entry (per index, `width` numbers) replaced by `fill`. */
function picked<T extends Float64Array | Int32Array | Uint8Array>(ref: T, width: number, fill: number): T {
  const out = ref.slice() as T
  for (let i = 2; i * width < out.length; i += 3) for (let d = 0; d < width; d++) out[i * width + d] = fill
  return out
}

describe('the hybrid mesh\'s whole traces as a kernel row', () => {
  for (const mode of ['hybrid', 'hexahedra'] as const) {
    it(`gives the classes' trace bits for every face and cell centre, clamps included, on every backend (${mode} mesh)`, () => {
      const k = makeCase(mode)
      const step = -0.06
      const ref = expected(k, step)
      const clamped = ref.left.reduce((a, b) => a + b, 0)
      const inTets = Array.from(k.cells).filter((c) => c >= k.mesh.hexCount).length
      // The flow reaches the walls and the sphere, and (hybrid) the tetrahedra are traced from.
      expect(clamped).toBeGreaterThan(k.n / 50)
      if (mode === 'hybrid') expect(inTets).toBeGreaterThan(k.n / 10)
      expect(ref.end.some((v) => Number.isNaN(v))).toBe(true)
      for (const [name, b] of BACKENDS) {
        const got = runRow(k, b, step, false)
        expect(sameBits(got.end, picked(ref.end, 3, -7)), `${name}: ends`).toBe(true)
        expect(sameBits(got.at, picked(ref.at, 3, -7)), `${name}: clamped ends`).toBe(true)
        expect(sameBits(got.cell, picked(ref.cell, 1, -7)), `${name}: cells`).toBe(true)
        expect(sameBits(got.left, picked(ref.left, 1, 7)), `${name}: clamp flags`).toBe(true)
        const ends = runRow(k, b, -step, true)
        const fwd = expected(k, -step)
        expect(sameBits(ends.end, picked(fwd.end, 3, -7)), `${name}: forward ends alone`).toBe(true)
        expect(ends.cell.every((c) => c === -7), `${name}: end-only writes no cell`).toBe(true)
      }
    })
  }
})

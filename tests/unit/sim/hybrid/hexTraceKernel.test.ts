// The hexahedral fast path of the hybrid mesh's back-traces (sim/hybrid/hexTraceKernel.ts,
// wasm/assembly/hybridTrace.ts): advectFaces and advectCells, which now run it first, give every
// face and cell the value of its trace taken alone through the public pieces (traceEnd, cellAt,
// lastInside, accurateVelocityAt, scalarsAt), bit for bit; the face row sorts the faces into
// its three cases as the mesh says it should; and the WebAssembly twins on 1, 2 and 3 threads
// give the references' bits, NaN in the fields included.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { kernelCopy, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { HEX_CELL_TRACES, HEX_FACE_TRACES, HEX_TRACE_ACCURATE, HEX_TRACE_DONE, HEX_TRACE_FULL, type HexTraceMesh, MAC_GRID_VALUES } from '../../../../src-shared/sim/hybrid/hexTraceKernel'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { HybridLocator } from '../../../../src-shared/sim/hybrid/hybridLocate'
import { buildHybridMesh, CELL_HEX, FACE_INTERIOR, FACE_OBSTACLE, FACE_WALL, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { sphere, swirlFaces } from './hybridFixtures'

const mesh: HybridMesh = buildHybridMesh({ grid: { nx: 12, ny: 12, nz: 12, dx: 1 / 12, origin: [0, 0, 0] }, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
const interp = new HybridInterpolation(mesh)
const locator = new HybridLocator(mesh)

const BACKENDS = everyBackendOfFile().slice(1)


/** The test's swirl with noise, 0 on closed faces, as face velocities (m/s). */
const faceVelocities = (seed: number) => swirlFaces(mesh, seed, 3, 0.8, 0.5)

/** Face f's advected velocity with its trace taken alone through the public pieces. */
function oneFace(zOld: Float64Array, vv: Float64Array, dt: number, f: number, adv: HybridAdvection): number {
  const C = mesh.faceCentre, N = mesh.faceNormal
  if (mesh.faceKind[f] === FACE_WALL || mesh.faceKind[f] === FACE_OBSTACLE) return zOld[f]
  const x = C[3 * f], y = C[3 * f + 1], z = C[3 * f + 2]
  const end = new Float64Array(3), pos = new Float64Array(3), vel = new Float64Array(3)
  adv.traceEnd(x, y, z, mesh.faceCellA[f], -dt, vv, end)
  let c = locator.cellAt(end[0], end[1], end[2])
  if (c < 0) c = locator.lastInside(x, y, z, mesh.faceCellA[f], end[0], end[1], end[2], pos, 0)
  else pos.set(end)
  if (mesh.cellKind[c] === CELL_HEX) {
    // The staggered value along the normal where what it needs is whole (one component for a
    // face along an axis), else the fit.
    const q = interp.macNormalAt(pos[0], pos[1], pos[2], c, zOld, N[3 * f], N[3 * f + 1], N[3 * f + 2])
    if (q === q) return q
  }
  interp.accurateVelocityAt(pos[0], pos[1], pos[2], c, zOld, vel, 0)
  return vel[0] * N[3 * f] + vel[1] * N[3 * f + 1] + vel[2] * N[3 * f + 2]
}

function traceMesh(k: KernelBackend): HexTraceMesh {
  const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => kernelCopy(k, a)
  return {
    faceCentre: own(mesh.faceCentre), faceNormal: own(mesh.faceNormal), faceCellA: own(mesh.faceCellA), faceKind: own(mesh.faceKind),
    cellCentre: own(mesh.cellCentre), hexVertices: own(mesh.hexVertices), cubeHex: own(mesh.cubeHex), hexCube: own(mesh.hexCube),
    cellKind: own(mesh.cellKind),
  }
}

/** The face velocities zOld (in k's memory) by grid face on backend k (MAC_GRID_VALUES), as the face row reads them. */
function macTable(k: KernelBackend, zOld: Float64Array): Float64Array {
  const zGrid = k.f64(interp.macSingle.length)
  k.run(MAC_GRID_VALUES, kernelCopy(k, interp.macSingle), kernelCopy(k, interp.macSign), zOld, zGrid, interp.macSingle.length)
  return zGrid
}

/** The row's outputs on backend k for the given fields. */
function runRow(k: KernelBackend, zOld: Float64Array, vv: Float64Array, dt: number) {
  const nf = mesh.faceCount
  const put = (a: Float64Array) => {
    const b = k.f64(a.length)
    b.set(a)
    return b
  }
  const zNew = k.f64(nf).fill(-7), at = k.f64(3 * nf), cell = k.i32(nf).fill(-1), status = k.u8(nf).fill(9)
  const { grid } = mesh
  const z = put(zOld)
  k.run(HEX_FACE_TRACES, traceMesh(k), put(vv), z, macTable(k, z), dt, mesh.hexCount, grid.nx, grid.ny, grid.nz, grid.origin[0], grid.origin[1], grid.origin[2], 1 / grid.dx, zNew, at, cell, status, nf)
  return { zNew, at, cell, status }
}

describe('the hexahedral fast path of the hybrid face traces', () => {
  it('the staggered values by grid face: each whole face\'s velocity times its sign, NaN for a split or missing one; the same bits on 1-3 threads', () => {
    const zOld = faceVelocities(5)
    zOld[7] = Number.NaN
    const ref = macTable(TS_KERNELS, zOld)
    let whole = 0, none = 0
    for (let g = 0; g < interp.macSingle.length; g++) {
      const f = interp.macSingle[g]
      if (f >= 0) {
        expect(Object.is(ref[g], zOld[f] * interp.macSign[g])).toBe(true)
        whole++
      } else {
        expect(ref[g]).toBeNaN()
        none++
      }
    }
    expect(whole).toBeGreaterThan(1000)
    expect(none).toBeGreaterThan(100)
    for (const [threads, k] of BACKENDS) {
      const z = k.f64(zOld.length)
      z.set(zOld)
      expect(sameBits(macTable(k, z), ref), `${threads} threads`).toBe(true)
    }
  })

  it('macNormalAt: along an axis, the staggered velocity\'s component wherever the whole stencil is there, bit for bit, and answers at more points', () => {
    const zOld = faceVelocities(11)
    const rng = new Prng(12)
    const vel = new Float64Array(3)
    let whole = 0, more = 0
    for (let c = 0; c < mesh.hexCount; c++) {
      for (let s = 0; s < 4; s++) {
        const x = mesh.cellCentre[3 * c] + (rng.next() - 0.5) / 12, y = mesh.cellCentre[3 * c + 1] + (rng.next() - 0.5) / 12, z = mesh.cellCentre[3 * c + 2] + (rng.next() - 0.5) / 12
        const ok = interp.macVelocityAt(x, y, z, c, zOld, vel, 0)
        for (let a = 0; a < 3; a++) {
          const n = [0, 0, 0]
          n[a] = a === 1 ? -1 : 1
          const q = interp.macNormalAt(x, y, z, c, zOld, n[0], n[1], n[2])
          if (ok) {
            expect(Object.is(q, vel[a] * n[a])).toBe(true)
            whole++
          } else if (q === q) more++
        }
        // A normal off the axes takes all three, as the dot product of macVelocityAt's.
        const h = Math.SQRT1_2
        const d = interp.macNormalAt(x, y, z, c, zOld, h, 0, -h)
        if (ok) expect(Object.is(d, vel[0] * h + vel[1] * 0 + vel[2] * -h)).toBe(true)
        else expect(d).toBeNaN()
      }
    }
    expect(whole).toBeGreaterThan(1000)
    expect(more).toBeGreaterThan(10)
  })

  it('advectFaces gives every face the value of its trace taken alone, bit for bit (a short step and one that runs traces into the obstacle and the walls)', () => {
    const zOld = faceVelocities(3)
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(zOld, vv)
    for (const dt of [0.01, 0.06]) {
      const adv = new HybridAdvection(interp, locator)
      const got = new Float64Array(mesh.faceCount)
      adv.advectFaces(zOld, vv, dt, got)
      for (let f = 0; f < mesh.faceCount; f++) {
        const want = oneFace(zOld, vv, dt, f, adv)
        if (!Object.is(got[f], want)) throw new Error(`dt ${dt}, face ${f}: ${got[f]} against ${want}`)
      }
      // The long step leaves the fluid somewhere: the clamped traces are covered too.
      if (dt === 0.06) expect(adv.clampedTraces).toBeGreaterThan(10)
    }
  })

  it('sorts the faces as the mesh says: closed faces done, those of tetrahedra left to the caller, most of the hexahedra done', () => {
    const zOld = faceVelocities(5)
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(zOld, vv)
    const { status, cell, zNew } = runRow(TS_KERNELS, zOld, vv, 0.01)
    const count = [0, 0, 0]
    let hexFaces = 0
    for (let f = 0; f < mesh.faceCount; f++) {
      const s = status[f]
      count[s]++
      const kind = mesh.faceKind[f]
      if (kind === FACE_WALL || kind === FACE_OBSTACLE) {
        expect(s).toBe(HEX_TRACE_DONE)
        expect(zNew[f]).toBe(zOld[f])
        continue
      }
      if (mesh.faceCellA[f] >= mesh.hexCount) expect(s).toBe(HEX_TRACE_FULL)
      else hexFaces++
      // An accurate-only face ended in a hexahedron that is not plain, or whose stencil is not whole.
      if (s === HEX_TRACE_ACCURATE) expect(cell[f]).toBeLessThan(mesh.hexCount)
      if (s === HEX_TRACE_DONE) expect(mesh.cellKind[cell[f]] === CELL_HEX || cell[f] === -1).toBe(true)
    }
    expect(count[HEX_TRACE_FULL]).toBeGreaterThan(100)
    expect(count[HEX_TRACE_ACCURATE]).toBeGreaterThan(100)
    expect(count[HEX_TRACE_DONE]).toBeGreaterThan(0.5 * hexFaces)
  })

  it('the WebAssembly twin on 1, 2 and 3 threads gives the reference bits, NaN in the field included', () => {
    const zOld = faceVelocities(7)
    // A NaN face velocity: stencils reading it are left to the caller, as macVelocityAt refuses them.
    let nanFace = -1
    for (let f = 0; f < mesh.faceCount && nanFace < 0; f++) if (mesh.faceKind[f] === FACE_INTERIOR && mesh.faceCellA[f] < mesh.hexCount && f > mesh.faceCount / 3) nanFace = f
    zOld[nanFace] = Number.NaN
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(faceVelocities(7), vv)
    // And a NaN vertex velocity: the traces through it are left to the caller.
    vv[3 * 100] = Number.NaN
    const ref = runRow(TS_KERNELS, zOld, vv, 0.02)
    const done = ref.status.filter((s) => s === HEX_TRACE_DONE).length
    expect(done).toBeGreaterThan(0)
    for (const [threads, k] of BACKENDS) {
      const got = runRow(k, zOld, vv, 0.02)
      expect((k as WasmKernelBackend).fallbacks).toBe(0)
      expect(sameBits(got.status, ref.status), `${threads}: status`).toBe(true)
      expect(sameBits(got.zNew, ref.zNew), `${threads}: zNew`).toBe(true)
      expect(sameBits(got.cell, ref.cell), `${threads}: cell`).toBe(true)
      expect(sameBits(got.at, ref.at), `${threads}: at`).toBe(true)
    }
  })

  it('advectCells gives every cell the values of its trace taken alone, bit for bit, for one scalar and for two', () => {
    const zOld = faceVelocities(11)
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(zOld, vv)
    const C = mesh.cellCentre
    const s1 = new Float64Array(mesh.cellCount), s2 = new Float64Array(mesh.cellCount)
    for (let c = 0; c < mesh.cellCount; c++) {
      s1[c] = Math.sin(9 * C[3 * c]) * Math.cos(6 * C[3 * c + 1]) + C[3 * c + 2]
      s2[c] = 300 + 20 * Math.exp(-20 * ((C[3 * c] - 0.3) ** 2 + (C[3 * c + 2] - 0.6) ** 2))
    }
    for (const dt of [0.01, 0.06]) {
      const adv = new HybridAdvection(interp, locator)
      const o1 = new Float64Array(mesh.cellCount), o2 = new Float64Array(mesh.cellCount), alone = new Float64Array(mesh.cellCount)
      adv.advectCells(s1, vv, dt, o1, s2, o2)
      adv.advectCells(s1, vv, dt, alone)
      const end = new Float64Array(3), pos = new Float64Array(3), pair = new Float64Array(2)
      for (let c = 0; c < mesh.cellCount; c++) {
        const x = C[3 * c], y = C[3 * c + 1], z = C[3 * c + 2]
        adv.traceEnd(x, y, z, c, -dt, vv, end)
        let e = locator.cellAt(end[0], end[1], end[2])
        if (e < 0) e = locator.lastInside(x, y, z, c, end[0], end[1], end[2], pos, 0)
        else pos.set(end)
        interp.scalarsAt(pos[0], pos[1], pos[2], e, s1, s2, pair)
        if (!Object.is(o1[c], pair[0]) || !Object.is(o2[c], pair[1]) || !Object.is(alone[c], pair[0])) throw new Error(`dt ${dt}, cell ${c}: ${o1[c]}, ${o2[c]}, ${alone[c]} against ${pair[0]}, ${pair[1]}`)
      }
    }
  })

  it('the cells\' WebAssembly twin on 1, 2 and 3 threads gives the reference bits, with one scalar and two, NaN included', () => {
    const zOld = faceVelocities(13)
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(zOld, vv)
    vv[3 * 50 + 1] = Number.NaN
    const rng = new Prng(2)
    const s1 = new Float64Array(mesh.cellCount).map(() => rng.next()), s2 = new Float64Array(mesh.cellCount).map(() => 290 + 20 * rng.next())
    s1[mesh.cellCount >> 1] = Number.NaN
    const { grid } = mesh
    const run = (k: KernelBackend, two: boolean) => {
      const put = (x: Float64Array) => {
        const y = k.f64(x.length)
        y.set(x)
        return y
      }
      const n = mesh.cellCount
      const oA = k.f64(n).fill(-7), oB = two ? k.f64(n).fill(-7) : null, at = k.f64(3 * n), cell = k.i32(n).fill(-1), status = k.u8(n).fill(9)
      k.run(HEX_CELL_TRACES, traceMesh(k), put(vv), put(s1), two ? put(s2) : null, 0.02, mesh.hexCount, grid.nx, grid.ny, grid.nz, grid.origin[0], grid.origin[1], grid.origin[2], 1 / grid.dx, oA, oB, at, cell, status, n)
      return { oA, oB, at, cell, status }
    }
    for (const two of [false, true]) {
      const ref = run(TS_KERNELS, two)
      const count = [0, 0, 0]
      for (const s of ref.status) count[s]++
      expect(count[HEX_TRACE_DONE]).toBeGreaterThan(0.4 * mesh.hexCount)
      expect(count[HEX_TRACE_ACCURATE]).toBeGreaterThan(20)
      expect(count[HEX_TRACE_FULL]).toBeGreaterThanOrEqual(mesh.tetCount)
      for (const [threads, k] of BACKENDS) {
        const got = run(k, two)
        expect((k as WasmKernelBackend).fallbacks).toBe(0)
        for (const key of ['status', 'oA', 'at', 'cell'] as const) expect(sameBits(got[key], ref[key]), `${threads}, ${two ? 'two scalars' : 'one'}: ${key}`).toBe(true)
        if (two) expect(sameBits(got.oB!, ref.oB!), `${threads}: oB`).toBe(true)
      }
    }
  })
})

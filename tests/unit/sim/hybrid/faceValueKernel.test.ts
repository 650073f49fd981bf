// The face-value row (sim/hybrid/faceValueKernel.ts, wasm/assembly/hybridFit.ts
// accurateFaceValues): every face the trace rows left open gets the accurate velocity at its
// trace's end along its normal, as the public pieces give it one face at a time (macNormalAt
// in a plain hexahedron, else accurateVelocityAt), bit for bit; a face whose cell lists no
// neighbourhood is left to the caller; the statuses say which faces' traces were clamped; and
// the WebAssembly twin on 1, 2 and 3 threads gives the reference's bits, with NaN in the field,
// cells whose shortened neighbourhoods force the constant fit, and cells with none.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { kernelCopy, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { ACCURATE_FACE_VALUES, FACE_VALUE_DONE, FACE_VALUE_DONE_CLAMPED, type FaceValueMesh } from '../../../../src-shared/sim/hybrid/faceValueKernel'
import { HEX_TRACE_ACCURATE, HEX_TRACE_DONE, HEX_TRACE_FULL } from '../../../../src-shared/sim/hybrid/hexTraceKernel'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { HybridLocator } from '../../../../src-shared/sim/hybrid/hybridLocate'
import { buildHybridMesh, CELL_HEX, CELL_TRANSITION, FACE_INTERIOR, FACE_OBSTACLE, FACE_WALL, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { FIT_CONSTANT, fitScratch, LINEAR_FIT_SCRATCH, linearFitAt } from '../../../../src-shared/sim/hybrid/linearFitKernel'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { everyBackendOfFile, sameBits } from '../everyBackend'
import { sphere, swirlFaces } from './hybridFixtures'

const mesh: HybridMesh = buildHybridMesh({ grid: { nx: 12, ny: 12, nz: 12, dx: 1 / 12, origin: [0, 0, 0] }, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
const interp = new HybridInterpolation(mesh)
const BACKENDS = everyBackendOfFile().slice(1)
const EPS2 = interp.epsilonFactor * interp.epsilonFactor

/** What the traces left: per open face a cell, a point within a third of a cell of its centre, a status (accurate or full) and a clamp flag; closed faces done. */
function traceEnds(seed: number) {
  const rng = new Prng(seed)
  const nf = mesh.faceCount
  const at = new Float64Array(3 * nf), cell = new Int32Array(nf), left = new Uint8Array(nf), status = new Uint8Array(nf)
  for (let f = 0; f < nf; f++) {
    const kind = mesh.faceKind[f]
    if (kind === FACE_WALL || kind === FACE_OBSTACLE || rng.next() < 0.2) {
      status[f] = HEX_TRACE_DONE
      continue
    }
    // Faces' own cells, and cells anywhere (a trace may end far from its face).
    const c = rng.next() < 0.5 ? mesh.faceCellA[f] : Math.floor(rng.next() * mesh.cellCount)
    const l = c < mesh.hexCount ? mesh.grid.dx : mesh.cellMeanEdge[c]
    for (let a = 0; a < 3; a++) at[3 * f + a] = mesh.cellCentre[3 * c + a] + (rng.next() - 0.5) * 0.66 * l
    cell[f] = c
    status[f] = rng.next() < 0.5 ? HEX_TRACE_ACCURATE : HEX_TRACE_FULL
    left[f] = rng.next() < 0.3 ? 1 : 0
  }
  return { at, cell, left, status }
}

function faceValueMesh(k: KernelBackend, neighbourStart = interp.neighbourStart, neighbourFaces = interp.neighbourFaces): FaceValueMesh {
  const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => kernelCopy(k, a)
  return {
    faceCentre: own(mesh.faceCentre), faceNormal: own(mesh.faceNormal), faceArea: own(mesh.faceArea), hexCube: own(mesh.hexCube), cellKind: own(mesh.cellKind),
    macSingle: own(interp.macSingle), macSign: own(interp.macSign), gridFaceStart: own(mesh.gridFaceStart), gridFaces: own(mesh.gridFaces),
    neighbourStart: own(neighbourStart), neighbourFaces: own(neighbourFaces), faceClass: own(interp.faceClass), cellMeanEdge: own(mesh.cellMeanEdge),
  }
}

/** The row on backend k: zNew (-7 where it writes nothing) and the statuses after it. */
function runRow(k: KernelBackend, M: FaceValueMesh, zOld: Float64Array, ends: ReturnType<typeof traceEnds>) {
  // Copies even on TypeScript (kernelCopy hands those arrays back as they are): the row writes the statuses.
  const own = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => kernelCopy(k, a.slice() as T)
  const { grid } = mesh
  const zNew = k.f64(mesh.faceCount).fill(-7), status = own(ends.status)
  k.run(ACCURATE_FACE_VALUES, M, own(zOld), grid.nx, grid.ny, grid.nz, grid.origin[0], grid.origin[1], grid.origin[2], 1 / grid.dx, EPS2, own(ends.at), own(ends.cell), own(ends.left), status, zNew, new Float64Array(LINEAR_FIT_SCRATCH), mesh.faceCount)
  return { zNew, status }
}

describe('the accurate face values row', () => {
  it('answers every open face as macNormalAt or accurateVelocityAt does at its trace\'s end, bit for bit, and marks the clamped ones', () => {
    const zOld = swirlFaces(mesh, 3, 3, 0.8, 0.5)
    const ends = traceEnds(5)
    const { zNew, status } = runRow(TS_KERNELS, faceValueMesh(TS_KERNELS), zOld, ends)
    const vel = new Float64Array(3), N = mesh.faceNormal
    // A plain hexahedron beside a transition cell: its stencils reach split grid faces.
    const besideTransition = new Uint8Array(mesh.cellCount)
    for (let f = 0; f < mesh.faceCount; f++) {
      const a = mesh.faceCellA[f], b = mesh.faceCellB[f]
      if (b < 0) continue
      if (mesh.cellKind[a] === CELL_TRANSITION && mesh.cellKind[b] === CELL_HEX) besideTransition[b] = 1
      if (mesh.cellKind[b] === CELL_TRANSITION && mesh.cellKind[a] === CELL_HEX) besideTransition[a] = 1
    }
    let staggered = 0, nearBand = 0, fitted = 0, clamped = 0
    for (let f = 0; f < mesh.faceCount; f++) {
      if (ends.status[f] === HEX_TRACE_DONE) {
        expect(status[f]).toBe(HEX_TRACE_DONE)
        expect(zNew[f]).toBe(-7)
        continue
      }
      const c = ends.cell[f], x = ends.at[3 * f], y = ends.at[3 * f + 1], z = ends.at[3 * f + 2]
      const q = mesh.cellKind[c] === CELL_HEX ? interp.macNormalAt(x, y, z, c, zOld, N[3 * f], N[3 * f + 1], N[3 * f + 2]) : NaN
      let want = q
      if (q === q) {
        staggered++
        if (besideTransition[c]) nearBand++
      } else if (interp.neighbourStart[c + 1] > interp.neighbourStart[c]) {
        interp.accurateVelocityAt(x, y, z, c, zOld, vel, 0)
        want = vel[0] * N[3 * f] + vel[1] * N[3 * f + 1] + vel[2] * N[3 * f + 2]
        fitted++
      } else {
        // Left to the caller as the traces left it.
        expect(status[f]).toBe(ends.status[f])
        expect(zNew[f]).toBe(-7)
        continue
      }
      if (!Object.is(zNew[f], want)) throw new Error(`face ${f}: ${zNew[f]} against ${want}`)
      const wasClamped = ends.status[f] === HEX_TRACE_FULL && ends.left[f] !== 0
      expect(status[f]).toBe(wasClamped ? FACE_VALUE_DONE_CLAMPED : FACE_VALUE_DONE)
      if (wasClamped) clamped++
    }
    expect(staggered).toBeGreaterThan(300)
    expect(nearBand).toBeGreaterThan(30)
    expect(fitted).toBeGreaterThan(300)
    expect(clamped).toBeGreaterThan(100)
  })

  it('the WebAssembly twin on 1, 2 and 3 threads gives the reference bits: NaN in the field, constant fits, cells with no neighbourhood', () => {
    const zOld = swirlFaces(mesh, 7, 3, 0.8, 0.5)
    let nanFace = -1
    for (let f = 0; f < mesh.faceCount && nanFace < 0; f++) if (mesh.faceKind[f] === FACE_INTERIOR && mesh.faceCellA[f] >= mesh.hexCount) nanFace = f
    zOld[nanFace] = Number.NaN
    // Every seventh cell's neighbourhood cut to its first four faces (the linear fit singular,
    // the constant one answers) and every thirteenth's emptied (left to the caller).
    const { neighbourStart: S, neighbourFaces: F } = interp
    const start = new Int32Array(mesh.cellCount + 1), faces: number[] = []
    for (let c = 0; c < mesh.cellCount; c++) {
      const n = S[c + 1] - S[c]
      const keep = c % 13 === 0 ? 0 : c % 7 === 0 ? Math.min(4, n) : n
      for (let i = 0; i < keep; i++) faces.push(F[S[c] + i])
      start[c + 1] = faces.length
    }
    const list = Int32Array.from(faces)
    const ends = traceEnds(9)
    let constant = 0
    const out = new Float64Array(3)
    for (let f = 0; f < mesh.faceCount; f++) {
      const c = ends.cell[f]
      if (ends.status[f] === HEX_TRACE_DONE || c % 7 !== 0 || c % 13 === 0 || start[c + 1] === start[c]) continue
      if (linearFitAt(mesh.faceCentre, mesh.faceNormal, zOld, list, interp.faceClass, start[c], start[c + 1], ends.at[3 * f], ends.at[3 * f + 1], ends.at[3 * f + 2], mesh.cellMeanEdge[c], EPS2, fitScratch(), out, 0) === FIT_CONSTANT) constant++
    }
    expect(constant).toBeGreaterThan(20)
    const ref = runRow(TS_KERNELS, faceValueMesh(TS_KERNELS, start, list), zOld, ends)
    expect(ref.zNew.some((v) => Number.isNaN(v))).toBe(true)
    expect(ref.status.filter((s, f) => s !== FACE_VALUE_DONE && s !== FACE_VALUE_DONE_CLAMPED && ends.status[f] !== HEX_TRACE_DONE).length).toBeGreaterThan(10)
    for (const [threads, k] of BACKENDS) {
      const got = runRow(k, faceValueMesh(k, start, list), zOld, ends)
      expect((k as WasmKernelBackend).fallbacks).toBe(0)
      expect(sameBits(got.status, ref.status), `${threads}: status`).toBe(true)
      expect(sameBits(got.zNew, ref.zNew), `${threads}: zNew`).toBe(true)
    }
  })

  it('faces begun on the kernels\' other threads while the cells are advected on this one give the bits of advectFaces, and cells those of advectCells alone; a second begin before the finish is refused', () => {
    const zOld = swirlFaces(mesh, 17, 3, 0.8, 0.5)
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(zOld, vv)
    const s = Float64Array.from({ length: mesh.cellCount }, (_, c) => Math.sin(7 * mesh.cellCentre[3 * c]) + mesh.cellCentre[3 * c + 1])
    const alone = new HybridAdvection(interp, new HybridLocator(mesh))
    const wantFaces = new Float64Array(mesh.faceCount), wantCells = new Float64Array(mesh.cellCount)
    alone.advectFaces(zOld, vv, 0.03, wantFaces)
    const clamped = alone.clampedTraces
    alone.advectCells(s, vv, 0.03, wantCells)
    for (const [threads, k] of BACKENDS) {
      const own = (a: Float64Array) => kernelCopy(k, a)
      const adv = new HybridAdvection(interp, new HybridLocator(mesh), k)
      const faces = k.f64(mesh.faceCount), cells = k.f64(mesh.cellCount)
      const kz = own(zOld), kv = own(vv), ks = own(s)
      adv.beginFaces(kz, kv, 0.03, faces)
      expect(() => adv.beginFaces(kz, kv, 0.03, faces)).toThrow(/begun again/)
      adv.advectCells(ks, kv, 0.03, cells)
      adv.finishFaces()
      adv.finishFaces()
      expect(sameBits(faces, wantFaces), `${threads}: faces`).toBe(true)
      expect(sameBits(cells, wantCells), `${threads}: cells`).toBe(true)
      // (The faces' count, set by finishFaces after the cells' own.)
      expect(adv.clampedTraces).toBe(clamped)
    }
  })
})

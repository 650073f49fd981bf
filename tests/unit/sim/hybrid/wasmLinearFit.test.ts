// The hybrid mesh's batched linear MLS fits (sim/hybrid/linearFitKernel.ts, seed 000 eq. 11)
// on the WebAssembly kernels (wasm/assembly/hybridFit.ts): the TypeScript reference's bits on 1,
// 2 and 3 threads, the reference the bits of the interpolation's one-point fit, the constant
// fallback taken on a neighbourhood too flat for the linear basis (also when the kernel solves
// it beside a full one in its two lanes), the normal classes' sums within rounding of the
// general ones, and face advection with the batch on the kernels the same bits as on TypeScript.
import { afterAll, describe, expect, it } from 'vitest'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { HybridAdvection } from '../../../../src-shared/sim/hybrid/hybridAdvection'
import { ACCURATE_LINEAR, HybridInterpolation } from '../../../../src-shared/sim/hybrid/hybridInterpolation'
import { buildHybridMesh, CELL_HEX, FACE_INTERIOR, type HybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { FIT_CONSTANT, FIT_LINEAR, fitScratch, LINEAR_FIT_CHUNK, LINEAR_FIT_POINTS, LINEAR_FIT_SCRATCH, linearFitAt } from '../../../../src-shared/sim/hybrid/linearFitKernel'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { faceNormalClasses, sortListsByClass } from '../../../../src-shared/sim/hybrid/faceNormalClasses'

const sphere = (x: number, y: number, z: number) => Math.hypot(x - 0.5, y - 0.45, z - 0.5) - 0.22
const mesh: HybridMesh = buildHybridMesh({ grid: { nx: 12, ny: 12, nz: 12, dx: 1 / 12, origin: [0, 0, 0] }, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
const interp = new HybridInterpolation(mesh)
const EPS2 = interp.epsilonFactor * interp.epsilonFactor

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>, n = a.length): boolean {
  for (let i = 0; i < n; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

function faceVelocities(seed: number): Float64Array {
  const rng = new Prng(seed)
  const z = new Float64Array(mesh.faceCount)
  for (let f = 0; f < mesh.faceCount; f++) z[f] = rng.next() * 2 - 1
  return z
}

/** Points inside the non-hexahedral cells (a random point of each cell's corners' hull), with their fit inputs, on backend k. */
function batch(k: KernelBackend, seed: number) {
  const rng = new Prng(seed)
  const cells: number[] = []
  for (let c = 0; c < mesh.cellCount; c++) if (mesh.cellKind[c] !== CELL_HEX) cells.push(c)
  const n = cells.length
  const at = k.f64(3 * n), start = k.i32(n), end = k.i32(n), len = k.f64(n), out = k.f64(3 * n)
  const copy = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T) => {
    const b = make(a.length)
    b.set(a)
    return b
  }
  for (let q = 0; q < n; q++) {
    const c = cells[q]
    // Within half a mean edge of the centre: inside or just beside the cell, as back-traces end.
    const l = mesh.cellMeanEdge[c]
    for (let a = 0; a < 3; a++) at[3 * q + a] = mesh.cellCentre[3 * c + a] + (rng.next() - 0.5) * 0.5 * l
    start[q] = interp.neighbourStart[c]
    end[q] = interp.neighbourStart[c + 1]
    len[q] = l
  }
  const C = copy(mesh.faceCentre, (m) => k.f64(m)), N = copy(mesh.faceNormal, (m) => k.f64(m)), faces = copy(interp.neighbourFaces, (m) => k.i32(m))
  const z = copy(faceVelocities(seed + 1), (m) => k.f64(m))
  const codes = k.u8(mesh.faceCount)
  codes.set(interp.faceClass)
  return { cells, n, at, start, end, len, out, C, N, faces, codes, z }
}

describe('hybrid linear MLS fits on the WebAssembly kernels', () => {
  it('the reference is the one-point fit of accurateVelocityAt, bit for bit', () => {
    const b = batch(TS_KERNELS, 5)
    TS_KERNELS.run(LINEAR_FIT_POINTS, b.C, b.N, b.z, b.faces, b.codes, b.at, b.start, b.end, b.len, EPS2, b.out, new Float64Array(LINEAR_FIT_SCRATCH), b.n)
    const one = new Float64Array(3)
    for (let q = 0; q < b.n; q++) {
      expect(interp.accurateVelocityAt(b.at[3 * q], b.at[3 * q + 1], b.at[3 * q + 2], b.cells[q], b.z, one, 0)).toBe(ACCURATE_LINEAR)
      if (!sameBits(one, b.out.subarray(3 * q, 3 * q + 3))) throw new Error(`point ${q}: ${one} against ${b.out.subarray(3 * q, 3 * q + 3)}`)
    }
    expect(b.n).toBeGreaterThan(500)
  })

  it('the normal classes\' sums give the general sums\' fit within 1e-12 of the velocity scale, for most faces of the mesh', () => {
    const b = batch(TS_KERNELS, 17)
    const general = new Float64Array(3 * b.n)
    TS_KERNELS.run(LINEAR_FIT_POINTS, b.C, b.N, b.z, b.faces, b.codes, b.at, b.start, b.end, b.len, EPS2, b.out, new Float64Array(LINEAR_FIT_SCRATCH), b.n)
    TS_KERNELS.run(LINEAR_FIT_POINTS, b.C, b.N, b.z, b.faces, null, b.at, b.start, b.end, b.len, EPS2, general, new Float64Array(LINEAR_FIT_SCRATCH), b.n)
    let worst = 0, classified = 0, faces = 0
    for (let i = 0; i < 3 * b.n; i++) worst = Math.max(worst, Math.abs(b.out[i] - general[i]))
    for (let q = 0; q < b.n; q++) for (let i = b.start[q]; i < b.end[q]; i++, faces++) if (b.codes[b.faces[i]] >= 2) classified++
    // The face velocities are within [-1, 1].
    expect(worst).toBeLessThan(1e-12)
    expect(classified / faces).toBeGreaterThan(0.5)
    // The classes changed the rounding, so the comparison is not trivially equal.
    expect(sameBits(b.out, general)).toBe(false)
  })

  it('1, 2 and 3 threads give the reference bits', () => {
    const ref = batch(TS_KERNELS, 9)
    TS_KERNELS.run(LINEAR_FIT_POINTS, ref.C, ref.N, ref.z, ref.faces, ref.codes, ref.at, ref.start, ref.end, ref.len, EPS2, ref.out, new Float64Array(LINEAR_FIT_SCRATCH), ref.n)
    for (const threads of [1, 2, 3]) {
      const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
      backends.push(k)
      const b = batch(k, 9)
      k.run(LINEAR_FIT_POINTS, b.C, b.N, b.z, b.faces, b.codes, b.at, b.start, b.end, b.len, EPS2, b.out, null, b.n)
      expect((k as WasmKernelBackend).fallbacks).toBe(0)
      expect(sameBits(b.out, ref.out, 3 * ref.n), `${threads} threads`).toBe(true)
    }
  })

  it('neighbourhoods longer than the kernel\'s per-face table (LINEAR_FIT_CHUNK faces) go through it in chunks, with the reference bits', () => {
    // Each point's list runs over its own cell's neighbourhood and the next five cells' (the
    // lists are consecutive in neighbourFaces): some 300-600 faces, several chunks each. The
    // joined lists are not sorted by normal class as a whole, so every face takes the general
    // sums (no codes), the path the chunks serve.
    const widen = (b: ReturnType<typeof batch>) => {
      for (let q = 0; q < b.n; q++) b.end[q] = interp.neighbourStart[Math.min(b.cells[q] + 6, mesh.cellCount)]
    }
    const ref = batch(TS_KERNELS, 13)
    widen(ref)
    let longest = 0
    for (let q = 0; q < ref.n; q++) longest = Math.max(longest, ref.end[q] - ref.start[q])
    expect(longest).toBeGreaterThan(3 * LINEAR_FIT_CHUNK)
    TS_KERNELS.run(LINEAR_FIT_POINTS, ref.C, ref.N, ref.z, ref.faces, null, ref.at, ref.start, ref.end, ref.len, EPS2, ref.out, new Float64Array(LINEAR_FIT_SCRATCH), ref.n)
    const k = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
    backends.push(k)
    const b = batch(k, 13)
    widen(b)
    k.run(LINEAR_FIT_POINTS, b.C, b.N, b.z, b.faces, null, b.at, b.start, b.end, b.len, EPS2, b.out, null, b.n)
    expect((k as WasmKernelBackend).fallbacks).toBe(0)
    expect(sameBits(b.out, ref.out, 3 * ref.n)).toBe(true)
  })

  it('a neighbourhood whose faces all lie in one plane falls back to the constant fit, on both backends alike, also in a lane of the kernel\'s paired solves', () => {
    // Four faces of one plane z = 0.5 with three normal directions: the linear basis's Z terms
    // are unconstrained (singular), the constant basis is not.
    const C = Float64Array.of(0.4, 0.5, 0.5, 0.6, 0.5, 0.5, 0.5, 0.4, 0.5, 0.5, 0.6, 0.5, 0.45, 0.55, 0.5)
    const r = Math.SQRT1_2
    const N = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, r, r, 0, r, 0, r)
    const z = Float64Array.of(0.3, -0.2, 0.7, 0.1, 0.5)
    const faces = Int32Array.of(0, 1, 2, 3, 4)
    const out = new Float64Array(3)
    expect(linearFitAt(C, N, z, faces, null, 0, 5, 0.5, 0.5, 0.5, 0.1, EPS2, fitScratch(), out, 0)).toBe(FIT_CONSTANT)
    expect(Math.hypot(out[0], out[1], out[2])).toBeGreaterThan(0.1)
    const k = createKernelBackend('wasm', { threads: 1, strict: true, initialBytes: 1 << 20 })
    backends.push(k)
    const put = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T) => { const b = make(a.length); b.set(a); return b }
    const kc = put(C, (n) => k.f64(n)), kn = put(N, (n) => k.f64(n)), kz = put(z, (n) => k.f64(n)), kf = put(faces, (n) => k.i32(n))
    const at = put(Float64Array.of(0.5, 0.5, 0.5), (n) => k.f64(n)), st = put(Int32Array.of(0), (n) => k.i32(n)), en = put(Int32Array.of(5), (n) => k.i32(n)), ln = put(Float64Array.of(0.1), (n) => k.f64(n))
    const ko = k.f64(3)
    k.run(LINEAR_FIT_POINTS, kc, kn, kz, kf, null, at, st, en, ln, EPS2, ko, null, 1)
    expect(sameBits(ko, out)).toBe(true)
    // Its normals all lie in classes (three axes, two diagonals): with the class sums too.
    const codes = faceNormalClasses(N)
    const sorted = Int32Array.from(faces)
    sortListsByClass(Int32Array.of(0, 5), sorted, codes)
    expect(linearFitAt(C, N, z, sorted, codes, 0, 5, 0.5, 0.5, 0.5, 0.1, EPS2, fitScratch(), out, 0)).toBe(FIT_CONSTANT)
    const kcodes = k.u8(5)
    kcodes.set(codes)
    kf.set(sorted)
    k.run(LINEAR_FIT_POINTS, kc, kn, kz, kf, kcodes, at, st, en, ln, EPS2, ko, null, 1)
    expect(sameBits(ko, out)).toBe(true)
    // Solved two points at a time in the kernel's lanes: a flat neighbourhood (its pivots tiny)
    // and one whose faces all face along x (a zero pivot: that lane's factor stops) beside full
    // ones, so one lane falls back while the other does not, with the reference's bits.
    const m = mesh.faceCount
    const AC = Float64Array.of(0.4, 0.45, 0.5, 0.6, 0.5, 0.55, 0.5, 0.4, 0.45, 0.55, 0.6, 0.5, 0.45, 0.5, 0.6)
    const AN = Float64Array.of(1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0)
    const C2 = Float64Array.from([...mesh.faceCentre, ...C, ...AC]), N2 = Float64Array.from([...mesh.faceNormal, ...N, ...AN])
    const z2 = Float64Array.from([...faceVelocities(4), ...z, 0.1, 0.2, 0.3, 0.4, 0.5])
    const codes2 = faceNormalClasses(N2)
    const full = [interp.neighbourStart[mesh.hexCount], interp.neighbourStart[mesh.hexCount + 1]]
    const L0 = interp.neighbourFaces.length
    const flat = [L0, L0 + 5], axis = [L0 + 5, L0 + 10]
    const list2 = Int32Array.from([...interp.neighbourFaces, ...sorted.map((f) => f + m), m + 5, m + 6, m + 7, m + 8, m + 9])
    const c0 = mesh.cellCentre.subarray(3 * mesh.hexCount, 3 * mesh.hexCount + 3)
    const order = [flat, full, full, flat, axis, full, full, axis, flat]
    const at2 = Float64Array.from(order.flatMap((r) => (r === full ? [c0[0], c0[1], c0[2]] : [0.5, 0.5, 0.5])))
    const st2 = Int32Array.from(order.map((r) => r[0])), en2 = Int32Array.from(order.map((r) => r[1]))
    const ln2 = Float64Array.from(order.map((r) => (r === full ? mesh.cellMeanEdge[mesh.hexCount] : 0.1)))
    const ref2 = new Float64Array(3 * order.length)
    TS_KERNELS.run(LINEAR_FIT_POINTS, C2, N2, z2, list2, codes2, at2, st2, en2, ln2, EPS2, ref2, new Float64Array(LINEAR_FIT_SCRATCH), order.length)
    const k2 = createKernelBackend('wasm', { threads: 1, strict: true, initialBytes: 1 << 24 })
    backends.push(k2)
    const inK = <T extends Float64Array | Int32Array | Uint8Array>(a: T): T => {
      const b = (a instanceof Float64Array ? k2.f64(a.length) : a instanceof Int32Array ? k2.i32(a.length) : k2.u8(a.length)) as T
      b.set(a)
      return b
    }
    const got2 = k2.f64(3 * order.length)
    k2.run(LINEAR_FIT_POINTS, inK(C2), inK(N2), inK(z2), inK(list2), inK(codes2), inK(at2), inK(st2), inK(en2), inK(ln2), EPS2, got2, null, order.length)
    expect(sameBits(got2, ref2)).toBe(true)
    expect(Array.from(ref2.subarray(0, 3))).toEqual(Array.from(out))
    // The faces along x alone: the constant fit is singular too, so 0.
    expect(Array.from(ref2.subarray(12, 15))).toEqual([0, 0, 0])
    // And the linear fit answers where the faces span space (the hybrid mesh's neighbourhoods).
    const b = batch(TS_KERNELS, 3)
    expect(linearFitAt(b.C, b.N, b.z, b.faces, b.codes, b.start[0], b.end[0], b.at[0], b.at[1], b.at[2], b.len[0], EPS2, fitScratch(), out, 0)).toBe(FIT_LINEAR)
  })

  it('plain hexahedra: wherever the staggered stencil misses a face (walls, the band), the fit list is precomputed and answers as accurateVelocityAt does', () => {
    const rng = new Prng(4)
    const z = faceVelocities(8)
    const out = new Float64Array(3), one = new Float64Array(3)
    let missed = 0, whole = 0
    for (let c = 0; c < mesh.cellCount; c++) {
      if (mesh.cellKind[c] !== CELL_HEX) continue
      for (let s = 0; s < 6; s++) {
        const x = mesh.cellCentre[3 * c] + (rng.next() - 0.5) * 0.98 / 12, y = mesh.cellCentre[3 * c + 1] + (rng.next() - 0.5) * 0.98 / 12, zz = mesh.cellCentre[3 * c + 2] + (rng.next() - 0.5) * 0.98 / 12
        if (interp.macVelocityAt(x, y, zz, c, z, out, 0)) { whole++; continue }
        missed++
        const a = interp.neighbourStart[c], b = interp.neighbourStart[c + 1]
        expect(b, `hexahedron ${c}`).toBeGreaterThan(a)
        linearFitAt(mesh.faceCentre, mesh.faceNormal, z, interp.neighbourFaces, interp.faceClass, a, b, x, y, zz, mesh.cellMeanEdge[c], EPS2, fitScratch(), out, 0)
        interp.accurateVelocityAt(x, y, zz, c, z, one, 0)
        expect(sameBits(out, one)).toBe(true)
      }
    }
    expect(missed).toBeGreaterThan(100)
    expect(whole).toBeGreaterThan(missed)
  })

  it('face advection with the fits on 2 WebAssembly threads: the bits of the TypeScript run', () => {
    const zOld = faceVelocities(21)
    for (let f = 0; f < mesh.faceCount; f++) if (mesh.faceKind[f] !== FACE_INTERIOR) zOld[f] = 0
    const vv = new Float64Array(3 * mesh.vertexCount)
    interp.vertexVelocities(zOld, vv)
    const ref = new Float64Array(mesh.faceCount)
    new HybridAdvection(interp).advectFaces(zOld, vv, 0.04, ref)
    const k = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
    backends.push(k)
    const got = new Float64Array(mesh.faceCount)
    new HybridAdvection(interp, undefined, k).advectFaces(zOld, vv, 0.04, got)
    expect(sameBits(got, ref)).toBe(true)
    // The advection moved something: the field is not the old one.
    expect(sameBits(got, zOld)).toBe(false)
  })
})

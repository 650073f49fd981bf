// The rigid coupling's face passes (liquid/rigidFaceKernels.ts: the blends of
// imposeWithReaction and imposeRigidVelocity, boundary()'s walls, restoreClosedFaces, the
// markers' momentum exchange per body) on the WebAssembly kernels against their TypeScript references, bit for
// bit, on 1, 2 and 3 threads, split across the threads (minParallelWork 0). A random owned-face
// list over a small grid (each face owned once, bodies of very different sizes, one body
// unflagged), with closed faces, NaN fractions, faces beside interior cells and arms with
// exact zeros. That the references give the serial passes' bits is checked on whole bakes
// (the gears and bunnies' frame hashes, the bake goldens).
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { FACE_STRIDE, OwnedFaces } from '../../../../src-shared/sim/liquid/ownedFaces'
import {
  BLEND_RIGID, BLEND_WALL, BODY_FLAG, BODY_STATE, EXCHANGE_STRIDE, type FaceArrays32, type FaceArrays64,
  RIGID_BOUNDARY_FACES, RIGID_FACE_BLEND, RIGID_FACE_EXCHANGE, RIGID_RESTORE_FACES,
} from '../../../../src-shared/sim/liquid/rigidFaceKernels'
import type { SlabPool } from '../../../../src-shared/sim/parallel/slabPool'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const backends: WasmKernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const [NX, NY, NZ] = [14, 11, 9]
const DX = 0.04
const ORIGIN = [-0.3, 0.1, -0.2]
const NB = 5
const sizes = [(NX + 1) * NY * NZ, NX * (NY + 1) * NZ, NX * NY * (NZ + 1)]

/** Everything the rows read and write, in b's memory, from one seed. */
function scene(b: KernelBackend, seed: number) {
  const r = rng(seed)
  const faces3 = (fill: (a: number, f: number) => number): FaceArrays32 => {
    const [u, v, w] = sizes.map((n, a) => {
      const x = b.f32(n)
      for (let f = 0; f < n; f++) x[f] = fill(a, f)
      return x
    })
    return { u, v, w }
  }
  const fr = faces3(() => (r() < 0.1 ? 1 : r()))
  const open = faces3(() => { const x = r(); return x < 0.15 ? 0 : x < 0.18 ? NaN : x })
  const vel = faces3(() => (r() - 0.5) * 4)
  const closed = faces3(() => (r() < 0.3 ? 0 : r()))
  const start = faces3(() => (r() - 0.5) * 2)
  const [su, sv, sw] = sizes.map((n) => {
    const x = b.f64(2 * n)
    for (let f = 0; f < 2 * n; f++) x[f] = r() < 0.2 ? 0 : r() * 3
    return x
  })
  const splat: FaceArrays64 = { u: su, v: sv, w: sw }
  const cellPhi = b.f32(NX * NY * NZ)
  for (let c = 0; c < cellPhi.length; c++) cellPhi[c] = r() < 0.2 ? -r() : r()
  // Each face owned by at most one body; body 1 owns few, body 3 many, body 4 none.
  const L = new OwnedFaces(b)
  L.reset(NB)
  const share = [0.1, 0.02, 0.1, 0.4, 0]
  for (let bi = 0; bi < NB; bi++) {
    L.begin(bi)
    for (let a = 0; a < 3; a++) {
      const sx = NX + (a === 0 ? 1 : 0), sy = NY + (a === 1 ? 1 : 0)
      for (let f = bi; f < sizes[a]; f += NB) {
        if (r() >= share[bi]) continue
        const i = f % sx, j = Math.floor(f / sx) % sy, k = Math.floor(f / (sx * sy))
        const t = L.push(a, f, i, j, k, 0, bi)
        for (let d = 0; d < 3; d++) L.arm[3 * t + d] = r() < 0.2 ? 0 : (r() - 0.5) * 0.3
      }
    }
  }
  const state = b.f64(BODY_STATE * NB)
  for (let bi = 0; bi < NB; bi++) {
    for (let d = 0; d < 9; d++) state[BODY_STATE * bi + d] = d < 6 ? (r() - 0.5) * 3 : ORIGIN[d - 6] + r() * 0.4
    state[BODY_STATE * bi + BODY_FLAG] = bi === 2 ? 0 : 1
  }
  const X = b.f64(EXCHANGE_STRIDE * NB)
  for (let i = 0; i < X.length; i++) X[i] = r()
  return { fr, open, vel, closed, start, splat, cellPhi, L, state, X }
}

/** Runs every row once on b and returns the written arrays' bits. */
function runAll(b: KernelBackend): Uint32Array[] {
  const s = scene(b, 7)
  const { L } = s
  b.run(RIGID_FACE_EXCHANGE, L.face, L.arm, L.start, s.state, s.fr, s.open, s.vel, s.splat, 0.37, s.X, NB, L.count)
  b.run(RIGID_FACE_BLEND, L.face, L.arm, s.state, s.fr, s.open, s.vel, BLEND_WALL, DX, ORIGIN[0], ORIGIN[1], ORIGIN[2], L.count)
  b.run(RIGID_FACE_BLEND, L.face, L.arm, s.state, s.fr, s.open, s.vel, BLEND_RIGID, DX, ORIGIN[0], ORIGIN[1], ORIGIN[2], L.count)
  b.run(RIGID_RESTORE_FACES, L.face, s.state, s.open, s.closed, s.vel, s.start, L.count)
  const wall = { u: b.f32(sizes[0]), v: b.f32(sizes[1]), w: b.f32(sizes[2]) }
  b.run(RIGID_BOUNDARY_FACES, L.face, L.arm, s.state, s.fr, s.open, s.closed, wall, s.cellPhi, NX, NY, NZ, L.count)
  const bits = (x: Float32Array | Float64Array) => new Uint32Array(x.buffer, x.byteOffset, x.length * (x.BYTES_PER_ELEMENT / 4)).slice()
  return [s.X, s.vel.u, s.vel.v, s.vel.w, s.closed.u, s.closed.v, s.closed.w, wall.u, wall.v, wall.w].map(bits)
}

describe('rigid coupling face rows', () => {
  it('the list holds every body\'s faces, the empty and the large', () => {
    const { L } = scene(TS_KERNELS, 7)
    const per = Array.from({ length: NB }, (_, bi) => L.start[bi + 1] - L.start[bi])
    expect(per[4]).toBe(0)
    expect(per[3]).toBeGreaterThan(10 * per[1])
    for (let t = 0; t < L.count; t++) expect(L.start[L.face[FACE_STRIDE * t + 6]] <= t && t < L.start[L.face[FACE_STRIDE * t + 6] + 1]).toBe(true)
  })

  it('change what they should: the flagged bodies\' open faces, and the exchange of bodies with marker mass', () => {
    const before = scene(TS_KERNELS, 7)
    const after = runAll(TS_KERNELS)
    const changed = (x: Float32Array, y: Uint32Array) => new Uint32Array(x.buffer, x.byteOffset, x.length).some((v, i) => v !== y[i])
    expect(changed(before.vel.u, after[1]) && changed(before.vel.v, after[2]) && changed(before.vel.w, after[3])).toBe(true)
    expect(changed(before.closed.u, after[4])).toBe(true)
    // The unflagged body's exchange block is left as it was.
    const X = new Float64Array(after[0].buffer)
    for (let i = 0; i < EXCHANGE_STRIDE; i++) expect(X[EXCHANGE_STRIDE * 2 + i]).toBe(before.X[EXCHANGE_STRIDE * 2 + i])
    expect(X[EXCHANGE_STRIDE * 3 + 36]).not.toBe(before.X[EXCHANGE_STRIDE * 3 + 36])
  })

  it('WebAssembly on 1-3 threads gives the reference\'s bits', () => {
    const ref = runAll(TS_KERNELS)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 }) as WasmKernelBackend
      backends.push(b)
      const got = runAll(b)
      for (let k = 0; k < ref.length; k++) expect(got[k], `array ${k}, ${threads} threads`).toEqual(ref[k])
      if (threads > 1) expect((b.runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(5)
    }
  })
})

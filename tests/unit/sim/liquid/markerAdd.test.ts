// MarkerParticles.add (markers.ts) leaves the zeros of slots never used since their arrays were
// made unwritten (so their pages are committed by the kernel pool's idle workers, not by the
// seeding thread): what a marker reads must still be exactly what it was given, whether its
// slot is fresh, was freed by remove(), was copied by a reserve() or was set by a restored count,
// and -0 must keep its sign bit.
import { afterAll, describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelBackend'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

/** Marker q's values and C_p, as add() was given them (C_p is 0 for a new marker). */
function expectMarker(p: MarkerParticles, q: number, v: [number, number, number], t: number): void {
  expect([p.vx[q], p.vy[q], p.vz[q]]).toEqual(v.map(Math.fround))
  expect(Object.is(p.vx[q], Math.fround(v[0])) && Object.is(p.vy[q], Math.fround(v[1])) && Object.is(p.vz[q], Math.fround(v[2]))).toBe(true)
  expect(p.temp[q]).toBe(Math.fround(t))
  expect(Array.from(p.c.subarray(9 * q, 9 * q + 9))).toEqual(new Array(9).fill(0))
}

describe('adding markers', () => {
  for (const kind of ['ts', 'wasm'] as const) {
    it(`gives every marker its own values on reused, copied and restored slots (${kind} arrays)`, () => {
      const alloc = kind === 'ts' ? TS_KERNELS : createKernelBackend('wasm', { threads: 2, initialBytes: 1 << 22 })
      if (kind === 'wasm') backends.push(alloc as KernelBackend)
      const p = new MarkerParticles(1000, 8, true, alloc)
      const dirty = (q: number) => {
        p.vx[q] = p.vy[q] = p.vz[q] = 7
        p.c.fill(5, 9 * q, 9 * q + 9)
      }
      // Fresh slots: still velocities, one with a negative zero.
      for (let q = 0; q < 6; q++) p.add(q, q, q, 0, q === 3 ? -0 : 0, 0, 290)
      for (let q = 0; q < 6; q++) expectMarker(p, q, [0, q === 3 ? -0 : 0, 0], 290)
      // The solver writes every held marker (the move, the transfers' C_p).
      for (let q = 0; q < 6; q++) dirty(q)
      // Freed slots are written in full when reused.
      p.remove(5), p.remove(4)
      p.add(1, 1, 1, 0, 0, 0, 280), p.add(2, 2, 2, 0, 0, 1.5, 281)
      expectMarker(p, 4, [0, 0, 0], 280)
      expectMarker(p, 5, [0, 0, 1.5], 281)
      // Growing copies the held markers; the slots beyond them are fresh again.
      for (let q = 0; q < 6; q++) dirty(q)
      for (let q = 6; q < 40; q++) p.add(q, q, q, 0, 0, 0, 300 + q)
      expect(p.capacity).toBeGreaterThanOrEqual(40)
      for (let q = 6; q < 40; q++) expectMarker(p, q, [0, 0, 0], 300 + q)
      expect(p.vx[2]).toBe(7)
      // A count set from outside (a checkpoint's restore) marks its slots used.
      for (let q = 0; q < 40; q++) dirty(q)
      p.count = 60
      for (let q = 40; q < 60; q++) dirty(q)
      p.count = 10
      for (let q = 10; q < 60; q++) p.add(q, q, q, 0, 0, 0, 310)
      for (let q = 10; q < 60; q++) expectMarker(p, q, [0, 0, 0], 310)
    })
  }
})

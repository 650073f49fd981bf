// Reuse of decoded frames' arrays (a fresh 4 MiB array costs a Chromium worker 17-19 ms of
// first-touched pages): the read-ahead buffer says which frames it let go of, the recycler holds
// back the one whose arrays the volume display last uploaded, the client transfers whole buffers
// to the workers in turn, and a worker's pool hands them to the next decodes by size.
import { describe, expect, it } from 'vitest'
import { BufferPool } from '../../../../src-renderer/viewport/cache/bufferPool'
import { DecodeClient, type DecodeWorkerLike } from '../../../../src-renderer/viewport/cache/decodeClient'
import type { DecodeRequest, DecodeResponse } from '../../../../src-renderer/viewport/cache/decodeProtocol'
import type { DisplayFrame } from '../../../../src-renderer/viewport/cache/displayData'
import { FrameRecycler } from '../../../../src-renderer/viewport/cache/frameRecycler'
import { ReadAheadBuffer } from '../../../../src-renderer/viewport/cache/readAhead'

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

/** A decoded frame whose volume arrays are texelBytes and lightBytes long (0: none). */
function frameWith(frame: number, texelBytes: number, lightBytes = 0): DisplayFrame {
  const volume = texelBytes === 0 ? null : {
    dims: [1, 1, texelBytes / 2] as [number, number, number], voxelSize: 1, origin: [0, 0, 0] as [number, number, number],
    densityMax: 1, temperatureAmbient: 0, temperatureMax: 0, texels: new Uint8Array(texelBytes),
    ...(lightBytes > 0 ? { light: new Uint8Array(lightBytes), lightDims: [1, 1, lightBytes] as [number, number, number] } : {}),
  }
  return { frame, time: frame / 24, volume, particles: [], meshes: [], rigidBodies: [], bytes: texelBytes + lightBytes }
}

class CapturingWorker implements DecodeWorkerLike {
  onmessage: ((e: { data: DecodeResponse }) => void) | null = null
  onerror: ((e: { message?: string }) => void) | null = null
  readonly got: DecodeRequest[] = []
  postMessage(message: DecodeRequest, transfer: ArrayBuffer[]): void {
    this.got.push(structuredClone(message, { transfer }))
  }
  terminate(): void {}
}

describe('recycling decoded frames', () => {
  it('the worker pool hands out kept buffers by size (detached and surplus ones dropped), else new arrays', () => {
    const pool = new BufferPool()
    const a = new ArrayBuffer(64), b = new ArrayBuffer(64), c = new ArrayBuffer(32)
    const detached = new ArrayBuffer(64)
    structuredClone(detached, { transfer: [detached] })
    pool.give([a, b, c, detached])
    expect(pool.size).toBe(3)
    const t1 = pool.take(64), t2 = pool.take(64), t3 = pool.take(64)
    expect([t1.buffer, t2.buffer].sort()).toEqual([a, b].sort())
    expect(t3.buffer).not.toBe(a)
    expect(t3.buffer).not.toBe(b)
    expect(t3.length).toBe(64)
    expect(pool.take(32).buffer).toBe(c)
    pool.give(Array.from({ length: 9 }, () => new ArrayBuffer(16)))
    expect(pool.size).toBe(4)
  })

  it('the worker pool prepares spares of the sizes it was asked for, a slice of pages at a time, up to the count asked', () => {
    const pool = new BufferPool()
    expect(pool.warm(2, 8192)).toBe(false) // no size asked for yet
    pool.take(40_000)
    pool.take(6_000)
    let steps = 0
    while (pool.warm(2, 8192)) steps++
    // Two of each: 5 slices for a 40,000-byte buffer, 1 for a 6,000-byte one, twice.
    expect(steps).toBe(12)
    expect(pool.size).toBe(4)
    const a = pool.take(40_000)
    expect(pool.size).toBe(3)
    expect(a.length).toBe(40_000)
    expect(pool.warm(2, 1 << 20)).toBe(true)
    expect(pool.size).toBe(4)
  })

  it('the read-ahead buffer releases every frame it drops: evicted, invalidated, stale when it arrives, and at dispose', async () => {
    const released: number[] = []
    let version = 1
    const pending: { frame: number; resolve: () => void }[] = []
    const buffer = new ReadAheadBuffer<number>({
      fetchRecord: (frame) => new Promise<number>((resolve) => pending.push({ frame, resolve: () => resolve(version) })),
      decode: async (_v, frame) => frameWith(frame, 8),
      cached: (f) => f >= 1 && f <= 50,
      ahead: 1,
      behind: 0,
      release: (f) => released.push(f.frame),
    })
    const finishAll = async () => {
      while (pending.length > 0) {
        pending.shift()!.resolve()
        await settle()
      }
    }
    buffer.show(10)
    await settle()
    await finishAll()
    expect(buffer.bufferedFrames()).toEqual([10, 11])
    buffer.show(30) // a jump: 10 and 11 leave the window
    await settle()
    expect(released.sort((x, y) => x - y)).toEqual([10, 11])
    await finishAll()
    // Invalidated while held, and a load invalidated while in flight (its data is stale).
    buffer.show(31)
    await settle()
    version = 2
    buffer.invalidate([31, 32])
    await settle()
    await finishAll()
    expect(released.filter((f) => f === 31 || f === 32).length).toBeGreaterThanOrEqual(2)
    const before = released.length
    const held = buffer.bufferedFrames().length
    buffer.dispose()
    expect(released.length - before).toBe(held)
  })

  it('the recycler holds back a frame the display still uses until the display has moved on', () => {
    const recycled: number[] = []
    let inUse: DisplayFrame | null = null
    const r = new FrameRecycler((f) => f === inUse, (f) => recycled.push(f.frame))
    const f1 = frameWith(1, 8), f2 = frameWith(2, 8), f3 = frameWith(3, 8)
    inUse = f1
    r.release(f2)
    r.release(f1)
    r.release(f1)
    expect(recycled).toEqual([2])
    expect(r.pending).toBe(1)
    r.settle()
    expect(recycled).toEqual([2])
    inUse = f3
    r.settle()
    expect(recycled).toEqual([2, 1])
    expect(r.pending).toBe(0)
  })

  it('the client transfers a frame\'s whole volume buffers to its workers in turn; partial views and frames without a volume stay', () => {
    const workers: CapturingWorker[] = []
    const client = new DecodeClient({ workers: 2, createWorker: () => (workers.push(new CapturingWorker()), workers[workers.length - 1]) })
    const f1 = frameWith(1, 16, 4), f2 = frameWith(2, 16)
    client.recycle(f1)
    client.recycle(f2)
    expect(f1.volume!.texels.byteLength).toBe(0) // transferred: detached here
    expect(f1.volume!.light!.byteLength).toBe(0)
    const sizes = (w: CapturingWorker) => w.got.flatMap((m) => (m.kind === 'recycle' ? m.buffers.map((b) => b.byteLength) : []))
    expect(sizes(workers[0])).toEqual([16, 4])
    expect(sizes(workers[1])).toEqual([16])
    // A view of part of a larger buffer is not the frame's to give away.
    const whole = new Uint8Array(64)
    const partial = frameWith(3, 16)
    partial.volume!.texels = whole.subarray(8, 24)
    client.recycle(partial)
    client.recycle(frameWith(4, 0))
    expect(workers.reduce((n, w) => n + w.got.length, 0)).toBe(2)
    expect(whole.byteLength).toBe(64)
    client.dispose()
  })
})

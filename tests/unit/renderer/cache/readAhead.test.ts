// ReadAheadBuffer with a fake cache whose fetches finish when the test says so: ordering under
// out-of-order completion, prefetch direction, the window and the memory cap, invalidation,
// missing frames and failing fetches, abandoned loads giving up their slots, settling after a jump.
import { describe, expect, it } from 'vitest'
import type { DisplayFrame } from '../../../../src-renderer/viewport/cache/displayData'
import { ReadAheadBuffer, type FrameEvent, type ReadAheadOptions } from '../../../../src-renderer/viewport/cache/readAhead'

interface Deferred<T> {
  promise: Promise<T>
  resolve(v: T): void
  reject(e: unknown): void
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((a, b) => {
    resolve = a
    reject = b
  })
  return { promise, resolve, reject }
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

/** A cache of frames [first, last] whose fetches wait for release(); decode tags the bake version. */
function harness(opts: Partial<ReadAheadOptions> & { first?: number; last?: number; frameBytes?: number } = {}) {
  const first = opts.first ?? 1
  const last = opts.last ?? 100
  const fetches: { frame: number; d: Deferred<Uint8Array> }[] = []
  let version = 1
  let inFlight = 0
  let maxInFlight = 0
  const buffer = new ReadAheadBuffer({
    fetchRecord: (frame) => {
      const d = deferred<Uint8Array>()
      fetches.push({ frame, d })
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      return d.promise.finally(() => inFlight--)
    },
    decode: async (record, frame): Promise<DisplayFrame> => ({
      frame,
      time: record[0],
      volume: null,
      particles: [],
      meshes: [],
      rigidBodies: [],
      bytes: opts.frameBytes ?? 100,
    }),
    cached: (f) => f >= first && f <= last,
    ...opts,
  })
  const events: FrameEvent[] = []
  buffer.onFrame((e) => events.push(e))
  /** Finishes the oldest unfinished fetch of `frame`, with the current bake version. */
  const release = async (frame: number): Promise<void> => {
    const i = fetches.findIndex((f) => f.frame === frame)
    if (i < 0) throw new Error(`no fetch of frame ${frame} is pending (pending: ${fetches.map((f) => f.frame).join(',')})`)
    const [f] = fetches.splice(i, 1)
    f.d.resolve(new Uint8Array([version]))
    await settle()
  }
  const fail = async (frame: number, err: Error): Promise<void> => {
    const i = fetches.findIndex((f) => f.frame === frame)
    if (i < 0) throw new Error(`no fetch of frame ${frame} is pending`)
    const [f] = fetches.splice(i, 1)
    f.d.reject(err)
    await settle()
  }
  const pending = (): number[] => fetches.map((f) => f.frame)
  return {
    buffer,
    events,
    release,
    fail,
    pending,
    setVersion: (v: number) => (version = v),
    maxInFlight: () => maxInFlight,
  }
}

describe('ReadAheadBuffer', () => {
  it('answers show() with exactly that frame; a second show of a decoded frame is a hit', async () => {
    const h = harness()
    const p = h.buffer.show(5)
    await settle()
    expect(h.pending()[0]).toBe(5) // the requested frame is fetched first
    await h.release(5)
    expect((await p)?.frame).toBe(5)
    expect(h.events.map((e) => e.frame)).toEqual([5])
    h.buffer.show(6)
    await settle()
    await h.release(6)
    const again = await h.buffer.show(5)
    expect(again?.frame).toBe(5)
    const s = h.buffer.stats()
    expect(s.hits).toBe(1)
    expect(s.misses).toBe(2)
    expect(s.samples).toBe(3)
  })

  it('never delivers an older request as the current frame when loads finish out of order', async () => {
    for (const order of [
      [11, 10],
      [10, 11],
    ]) {
      const h = harness({ concurrency: 2 })
      const p10 = h.buffer.show(10)
      const p11 = h.buffer.show(11)
      await settle()
      expect(h.pending().slice(0, 2).sort()).toEqual([10, 11])
      for (const f of order) await h.release(f)
      expect(h.events.map((e) => e.frame)).toEqual([11])
      // Each promise still carries its own frame.
      expect((await p10)?.frame).toBe(10)
      expect((await p11)?.frame).toBe(11)
    }
  })

  it('delivers each show once, and the latest one even when it goes back to an earlier frame', async () => {
    const h = harness({ concurrency: 2 })
    h.buffer.show(10)
    h.buffer.show(11)
    h.buffer.show(10)
    await settle()
    await h.release(11)
    expect(h.events).toEqual([])
    await h.release(10)
    expect(h.events.map((e) => e.frame)).toEqual([10])
    h.buffer.show(11) // decoded already: delivered before show() returns
    expect(h.events.map((e) => e.frame)).toEqual([10, 11])
  })

  it('prefetches in the direction of play, nearest first, with at most `concurrency` loads', async () => {
    const h = harness({ ahead: 4, behind: 1, concurrency: 2 })
    h.buffer.show(50)
    await settle()
    await h.release(50)
    h.buffer.show(49) // one step back: playing backwards
    expect(h.buffer.direction).toBe(-1)
    await settle()
    const order: number[] = []
    while (h.pending().length > 0) {
      expect(h.pending().length).toBeLessThanOrEqual(2)
      const f = h.pending()[0]
      order.push(f)
      await h.release(f)
    }
    expect(h.maxInFlight()).toBeLessThanOrEqual(2)
    // 51 was prefetched forward before the turn; after it: 49 first, then 48..45, then 50 is held.
    expect(order.indexOf(49)).toBeLessThan(order.indexOf(48))
    expect(order.filter((f) => f < 49)).toEqual([48, 47, 46, 45])
    expect(h.buffer.bufferedFrames()).toEqual([45, 46, 47, 48, 49, 50])
  })

  it('a jump along the timeline keeps the direction; frames beyond the cache are not fetched', async () => {
    const h = harness({ ahead: 3, behind: 1, last: 21 })
    h.buffer.show(10)
    h.buffer.show(20) // a jump, not a step
    expect(h.buffer.direction).toBe(1)
    await settle()
    while (h.pending().length > 0) await h.release(h.pending()[0])
    expect(h.buffer.bufferedFrames()).toEqual(expect.arrayContaining([19, 20, 21]))
    expect(h.buffer.bufferedFrames().some((f) => f > 21)).toBe(false)
  })

  it('evicts frames outside the window and the least recently used over the memory cap', async () => {
    const h = harness({ ahead: 2, behind: 1 })
    h.buffer.show(10)
    await settle()
    while (h.pending().length > 0) await h.release(h.pending()[0])
    expect(h.buffer.bufferedFrames()).toEqual([9, 10, 11, 12])
    h.buffer.show(30)
    await settle()
    expect(h.buffer.bufferedFrames()).toEqual([])
    while (h.pending().length > 0) await h.release(h.pending()[0])
    expect(h.buffer.bufferedFrames()).toEqual([29, 30, 31, 32])
    expect(h.buffer.stats().bytes).toBe(400)

    const capped = harness({ ahead: 8, behind: 2, maxBytes: 350, frameBytes: 100 })
    capped.buffer.show(10)
    await settle()
    while (capped.pending().length > 0) await capped.release(capped.pending()[0])
    const held = capped.buffer.bufferedFrames()
    expect(held.length).toBeLessThanOrEqual(3)
    expect(held).toContain(10)
    expect(capped.buffer.stats().bytes).toBeLessThanOrEqual(350)
    // Held frames are the nearest ahead, not arbitrary ones.
    expect(held).toEqual([10, 11, 12])
  })

  it('tells the loader which frames still loading the playhead has left (abandon), each jump', async () => {
    const abandoned: number[] = []
    const h = harness({ ahead: 3, behind: 0, concurrency: 2, abandon: (f) => abandoned.push(f) })
    h.buffer.show(10)
    await settle()
    await h.release(10)
    expect(h.pending()).toEqual([11, 12])
    expect(abandoned).toEqual([])
    // Stepping on keeps 11 and 12 in the window: nothing abandoned.
    h.buffer.show(11)
    await settle()
    expect(abandoned).toEqual([])
    // A jump leaves both while they load.
    h.buffer.show(40)
    await settle()
    expect(abandoned.sort((a, b) => a - b)).toEqual([11, 12])
  })

  it('while the frame asked for loads, nothing else starts; a frame moved away from is fetched but not decoded', async () => {
    let decodes = 0
    const h = harness({ ahead: 3, behind: 0, concurrency: 2, decode: async (record, frame) => {
      decodes++
      return { frame, time: record[0], volume: null, particles: [], meshes: [], rigidBodies: [], bytes: 100 }
    } })
    h.buffer.show(10)
    await settle()
    expect(h.pending()).toEqual([10])
    await h.release(10)
    expect(h.pending()).toEqual([11, 12])
    // A jump: 11 and 12 are still in flight; 30 starts once a slot frees, alone.
    h.buffer.show(30)
    await settle()
    await h.release(11)
    expect(h.pending()).toEqual([12, 30])
    await h.release(12)
    expect(h.pending()).toEqual([30])
    // Neither 11 nor 12 was decoded: the playhead had left them.
    expect(decodes).toBe(1)
    expect(h.buffer.stats().dropped).toBe(2)
    await h.release(30)
    expect(h.pending()).toEqual([31, 32])
    expect(decodes).toBe(2)
    // A show() whose frame is left while fetching resolves null (not an error).
    const left = h.buffer.show(50)
    await settle()
    await h.release(31)
    expect(h.pending()).toEqual([32, 50])
    h.buffer.show(60)
    await settle()
    await h.release(50)
    expect(await left).toBeNull()
    expect(h.buffer.stats().errors).toBe(0)
  })

  it('an abandoned load gives up its slot at once: the jump\'s frame starts while the loads it replaced are still out', async () => {
    const abandoned: number[] = []
    let decodes = 0
    const h = harness({
      ahead: 3,
      behind: 0,
      concurrency: 2,
      abandon: (f) => abandoned.push(f),
      decode: async (record, frame) => {
        decodes++
        return { frame, time: record[0], volume: null, particles: [], meshes: [], rigidBodies: [], bytes: 100 }
      },
    })
    h.buffer.show(10)
    await settle()
    await h.release(10)
    expect(h.pending()).toEqual([11, 12])
    h.buffer.show(40)
    await settle()
    // 11 and 12 are being cancelled by the loader: 40 does not wait for them.
    expect(abandoned.sort((a, b) => a - b)).toEqual([11, 12])
    expect(h.pending()).toEqual([11, 12, 40])
    expect(h.buffer.stats().inFlight).toBe(1)
    await h.release(40)
    expect(h.events.at(-1)?.frame).toBe(40)
    // The window ahead of 40 takes the two slots; the cancelled loads ending frees none more.
    expect(h.pending()).toEqual([11, 12, 41, 42])
    await h.release(11)
    await h.release(12)
    expect(h.pending()).toEqual([41, 42])
    expect(h.buffer.stats().inFlight).toBe(2)
    expect(decodes).toBe(1 + 1) // 10 and 40: neither abandoned load was decoded
    await h.release(41)
    expect(h.pending()).toEqual([42, 43])
    await h.release(42)
    await h.release(43)
    expect(h.buffer.stats().inFlight).toBe(0)
    expect(h.buffer.bufferedFrames()).toEqual([40, 41, 42, 43])
  })

  it('settling: after a jump only the frame asked for loads until the playhead has rested settleMs, then its window one frame at a time; a step of play ends it', async () => {
    let clock = 0
    const h = harness({ ahead: 3, behind: 1, concurrency: 2, settleMs: 300, now: () => clock })
    const drain = async (): Promise<void> => {
      while (h.pending().length > 0) await h.release(h.pending()[0])
    }
    // The first frame shown is no jump: its window loads at once.
    h.buffer.show(10)
    await settle()
    await h.release(10)
    expect(h.pending()).toEqual([11, 12])
    await drain()
    expect(h.buffer.bufferedFrames()).toEqual([9, 10, 11, 12, 13])
    // A jump: 50 alone, and nothing more while the playhead rests less than 300 ms.
    h.buffer.show(50)
    await settle()
    expect(h.pending()).toEqual([50])
    await h.release(50)
    expect(h.events.at(-1)?.frame).toBe(50)
    expect(h.pending()).toEqual([])
    // Rested: the buffer plans again by itself (a timer) and the window loads, one frame at a
    // time after a jump (the other slot stays free for the next jump's frame).
    clock = 400
    for (let t = 0; t < 100 && h.pending().length === 0; t++) await new Promise((r) => setTimeout(r, 20))
    expect(h.pending()).toEqual([51])
    await h.release(51)
    expect(h.pending()).toEqual([52])
    await h.release(52)
    expect(h.pending()).toEqual([53])
    await drain()
    expect(h.buffer.bufferedFrames()).toEqual([49, 50, 51, 52, 53])
    // A jump while a window load is out starts its frame at once, beside it.
    clock = 800
    h.buffer.show(70)
    await settle()
    clock = 1200
    for (let t = 0; t < 100 && h.pending().length === 0; t++) await new Promise((r) => setTimeout(r, 20))
    expect(h.pending()).toEqual([70])
    await h.release(70)
    for (let t = 0; t < 100 && h.pending().length === 0; t++) await new Promise((r) => setTimeout(r, 20))
    expect(h.pending()).toEqual([71])
    h.buffer.show(30)
    await settle()
    expect(h.pending()).toEqual([71, 30])
    await drain()
    // Another jump, then a step of play before it settled: the window loads at once.
    h.buffer.show(80)
    await settle()
    await h.release(80)
    expect(h.pending()).toEqual([])
    h.buffer.show(81)
    await settle()
    expect(h.pending()).toEqual([81])
    await h.release(81)
    // Playing: both slots again.
    expect(h.pending()).toEqual([82, 83])
  })

  it('idle fill: beyond the loaded window, the nearest frames alternately ahead and behind, up to the memory cap, one slot left free', async () => {
    const h = harness({ ahead: 2, behind: 1, concurrency: 2, idleFill: true, maxBytes: 1000, frameBytes: 100, last: 40 })
    h.buffer.show(20)
    await settle()
    // The window first (20, then 21, 22 and 19), two loads at once.
    const order: number[] = []
    while (h.pending().length > 0) {
      const f = h.pending()[0]
      order.push(f)
      // Beyond the window, one load at a time: the other slot stays free for a show().
      if (![19, 20, 21, 22].includes(f)) expect(h.pending().length).toBe(1)
      await h.release(f)
    }
    expect(order.slice(0, 4).sort()).toEqual([19, 20, 21, 22])
    expect(order.slice(4)).toEqual([23, 18, 24, 17, 25, 16])
    // Ten frames fit under the cap: the window and the six nearest beyond it.
    expect(h.buffer.bufferedFrames()).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25])
    // A jump to one of them is a hit; a miss starts at once although the fill is running.
    const hit = await h.buffer.show(16)
    expect(hit?.frame).toBe(16)
    expect(h.buffer.stats().hits).toBe(1)
    // Around 16 the window needs 15; then the fill moves on (one load in flight)...
    await settle()
    expect(h.pending()).toEqual([15])
    await h.release(15)
    expect(h.pending().length).toBe(1)
    // ...and a miss elsewhere is fetched beside it at once.
    h.buffer.show(35)
    await settle()
    expect(h.pending()).toContain(35)
    expect(h.pending().length).toBe(2)
  })

  it('idle fill keeps the frames it loaded while the window moves, and setIdleFill(false) drops them', async () => {
    const h = harness({ ahead: 1, behind: 1, concurrency: 2, idleFill: true, maxBytes: 700, frameBytes: 100, last: 40 })
    h.buffer.show(20)
    await settle()
    while (h.pending().length > 0) await h.release(h.pending()[0])
    expect(h.buffer.bufferedFrames()).toEqual([17, 18, 19, 20, 21, 22, 23])
    // One step on: the window needs 22 (held) and 21 (held); nothing held is dropped but 17,
    // now the farthest beyond the cap.
    h.buffer.show(21)
    await settle()
    expect(h.buffer.bufferedFrames()).toEqual(expect.arrayContaining([18, 19, 20, 21, 22, 23]))
    while (h.pending().length > 0) await h.release(h.pending()[0])
    expect(h.buffer.bufferedFrames()).toEqual([18, 19, 20, 21, 22, 23, 24])
    h.buffer.setIdleFill(false)
    expect(h.buffer.bufferedFrames()).toEqual([20, 21, 22])
    expect(h.pending()).toEqual([])
  })

  it('invalidate reloads the current frame and delivers the new bake; stale loads are dropped', async () => {
    const h = harness({ ahead: 1, behind: 0 })
    h.buffer.show(5)
    await settle()
    await h.release(5)
    await h.release(6)
    expect(h.events.map((e) => e.data?.time)).toEqual([1])
    h.setVersion(2)
    h.buffer.invalidate([5])
    await settle()
    expect(h.pending()).toEqual([5]) // 6 is still valid
    await h.release(5)
    expect(h.events.map((e) => [e.frame, e.data?.time])).toEqual([
      [5, 1],
      [5, 2],
    ])

    // Invalidated while loading: the old bake's result must not be shown or kept.
    h.buffer.show(6)
    h.buffer.show(7)
    await settle()
    expect(h.pending()).toEqual([7]) // the frame asked for loads alone
    h.setVersion(3)
    h.buffer.invalidate()
    await settle()
    // The stale fetch of 7 still holds a slot; the fresh one starts in the other.
    expect(h.pending()).toEqual([7, 7])
    h.setVersion(2)
    await h.release(7) // stale answer, version 2: not shown
    expect(h.events.at(-1)?.frame).toBe(6)
    h.setVersion(3)
    await h.release(7) // fresh
    expect(h.events.at(-1)).toMatchObject({ frame: 7, data: { time: 3 } })
    expect(h.events.filter((e) => e.frame === 7)).toHaveLength(1)
  })

  it('missing frames resolve null without a fetch; invalidate tells the display when the current frame vanished', async () => {
    const cached = new Set([1, 2, 3])
    const h = harness({ cached, ahead: 2, behind: 0 })
    expect(await h.buffer.show(9)).toBeNull()
    expect(h.events).toEqual([{ frame: 9, data: null }])
    await settle()
    expect(h.pending()).toEqual([])
    expect(h.buffer.stats().missing).toBe(1)

    h.buffer.show(2)
    await settle()
    await h.release(2)
    await h.release(3)
    cached.delete(2) // the artist cleared part of the cache
    h.buffer.invalidate([2])
    expect(h.events.at(-1)).toEqual({ frame: 2, data: null })
    expect(h.buffer.bufferedFrames()).toEqual([3])
  })

  it('a failing fetch rejects that frame only; other frames load and a later show retries', async () => {
    const h = harness({ ahead: 1, behind: 0 })
    const p3 = h.buffer.show(3)
    await settle()
    const rejected = expect(p3).rejects.toThrow('disk on fire')
    await h.fail(3, new Error('disk on fire'))
    await rejected
    expect(h.events).toEqual([{ frame: 3, data: null, error: new Error('disk on fire') }])
    // The failed frame is not fetched again on its own (a damaged record would be fetched in a loop).
    expect(h.pending()).toEqual([4])
    await h.release(4)
    expect(h.pending()).toEqual([])
    expect((await h.buffer.show(4))?.frame).toBe(4)
    const again = h.buffer.show(3)
    await settle()
    await h.release(3)
    expect((await again)?.frame).toBe(3)
    expect(h.buffer.stats().errors).toBe(1)
  })

  it('a show() whose load never started resolves null once the window moves away', async () => {
    const h = harness({ ahead: 2, behind: 0, concurrency: 1 })
    h.buffer.show(50)
    await settle()
    const p0 = h.buffer.show(1) // queued behind 50's fetch
    h.buffer.show(80)
    await settle()
    expect(await p0).toBeNull()
    expect(h.buffer.stats().superseded).toBe(1)
    await h.release(50)
    expect(h.pending()).toEqual([80])
    await h.release(80)
    expect(h.events.map((e) => e.frame)).toEqual([80])
  })

  it('reports latency percentiles from the clock it is given', async () => {
    let t = 0
    const h = harness({ now: () => t, ahead: 0, behind: 0 })
    for (let f = 1; f <= 20; f++) {
      const p = h.buffer.show(f)
      await settle()
      t += f // frame f takes f ms
      await h.release(f)
      await p
    }
    const s = h.buffer.stats()
    expect(s.samples).toBe(20)
    expect(s.p50Ms).toBe(11)
    expect(s.p95Ms).toBe(20)
  })

  it('an ignored show() promise of a failing frame is not an unhandled rejection', async () => {
    // Vitest fails the run on an unhandled rejection; onFrame carries the error instead.
    const h = harness({ ahead: 0, behind: 0 })
    void h.buffer.show(2)
    await settle()
    await h.fail(2, new Error('gone'))
    expect(h.events.at(-1)?.error?.message).toBe('gone')
  })

  it('dispose resolves waiting shows with null and stops delivering', async () => {
    const h = harness()
    const p = h.buffer.show(1)
    h.buffer.dispose()
    expect(await p).toBeNull()
    await settle()
    await h.release(1)
    expect(h.events).toEqual([])
  })
})

// Read-ahead of cached frames for playback and scrubbing: the frame asked for first, then the
// next ones in the direction of play, at most `concurrency` fetch+decode jobs at once, within a
// window around the current frame and a memory cap.
//
// Idle fill (option idleFill): once the window is loaded, the nearest other cached frames,
// alternately ahead and behind, up to the memory cap, so that a jump along the timeline (the
// random scrub an artist does) finds its frame decoded. Those loads take at most
// concurrency - 1 slots: a show() that misses always has a slot free at once.
//
// Settling (option settleMs): after a jump (a move of more than `ahead` frames), only the frame
// asked for loads until the playhead has rested that long; then the window and the idle fill
// follow. An artist clicking along the timeline then gets the machine for each frame asked for
// instead of sharing it with the loads around a frame already left.
//
// Abandoned loads (option abandon: the loader cancels the fetch of a frame the playhead has
// left) give up their slot at once rather than when their cancel comes back: a jump's frame
// then starts without waiting for the round trip of cancelling the loads it replaced.
//
// Determinism: loads finish in any order, but onFrame only ever delivers the frame of the
// latest show() (once per show), so a slow frame 10 can never replace frame 11 on screen.
import type { DisplayFrame } from './displayData'

/**
 * R: what a fetch hands to the decode: the record's bytes, or the display data itself when a
 * decode worker fetched and decoded it in one go (DecodeClient.fetchAndDecode).
 */
export interface ReadAheadOptions<R = Uint8Array> {
  /** The frame's record from the cache (the 'cache.display' request). */
  fetchRecord(frame: number): Promise<R>
  /** Record -> display data (DecodeClient.decode). */
  decode(record: R, frame: number): Promise<DisplayFrame>
  /**
   * A frame still loading has left the frames kept (the playhead moved): a loader that fetches
   * and decodes in one go may skip the decode (its record then comes back null). May be called
   * more than once for one load.
   */
  abandon?(frame: number): void
  /** The frames the cache holds: a predicate, or a collection read at every use. */
  cached: ((frame: number) => boolean) | ReadonlySet<number> | readonly number[]
  /** Frames kept or fetched ahead of the current one in the playback direction. Default 8. */
  ahead?: number
  /** Frames kept behind it. Default 2. */
  behind?: number
  /** Cap on the decoded frames held, bytes (DisplayFrame.bytes). Default 256 MiB. */
  maxBytes?: number
  /** Fetch+decode jobs at once. Default 2. */
  concurrency?: number
  /** Load the nearest cached frames beyond the window while nothing else waits (see the file comment). Default false. */
  idleFill?: boolean
  /**
   * After a jump, how long the playhead must rest before anything but the frame asked for
   * loads, ms (see the file comment). Default 0: at once.
   */
  settleMs?: number
  /** How far beyond the window the idle fill looks, frames each way. Default 1024. */
  idleReach?: number
  /** Clock for latency figures, ms. Default performance.now. */
  now?: () => number
  /**
   * A decoded frame left the buffer (evicted, invalidated, or the buffer disposed): the buffer
   * holds it no longer, so its owner may reuse its arrays once nothing else shows it.
   */
  release?(data: DisplayFrame): void
}

export interface FrameEvent {
  frame: number
  /** null: the frame is not cached (or failed, then `error` says why). */
  data: DisplayFrame | null
  error?: Error
}

export interface ReadAheadStats {
  /** show() calls answered from frames already decoded. */
  hits: number
  /** show() calls that had to wait for a fetch+decode. */
  misses: number
  /** show() calls for frames the cache does not hold. */
  missing: number
  /** Fetches or decodes that failed. */
  errors: number
  /** show() promises resolved null because a later show() moved away before loading began. */
  superseded: number
  /** Loads fetched but not decoded: the playhead had moved away from them. */
  dropped: number
  /** Request -> ready latency over the last 512 answered show() calls, ms (hits count as 0). */
  p50Ms: number
  p95Ms: number
  samples: number
  /** Decoded frames held and their bytes. */
  frames: number
  bytes: number
  inFlight: number
}

interface Entry {
  data: DisplayFrame
  lastUsed: number
}

interface Waiter {
  resolve(d: DisplayFrame | null): void
  reject(e: Error): void
  t0: number
}

/** Identity of a started load; invalidate() forgets it, so its result is dropped. */
interface Load {
  frame: number
  /** Abandoned: its slot is free again (it no longer counts in inFlight). */
  released: boolean
}

const SAMPLES = 512
/** What a load that skipped its decode carries (see start). */
const DROPPED = Symbol('dropped')

export class ReadAheadBuffer<R = Uint8Array> {
  private readonly opts: ReadAheadOptions<R>
  private readonly ahead: number
  private readonly behind: number
  private readonly maxBytes: number
  private readonly concurrency: number
  private readonly idleReach: number
  private readonly settleMs: number
  /** Until when (this.now()) only the frame asked for loads: the last jump plus settleMs. */
  private settleUntil = -Infinity
  /**
   * The last move was a jump (not a step of play or a drag): the window around it then loads
   * one frame at a time (below), so a next jump finds a worker and the host's socket free.
   */
  private afterJump = false
  private settleTimer: ReturnType<typeof setTimeout> | null = null
  /** Whether the idle fill runs (setIdleFill). */
  private idleFill: boolean
  private readonly now: () => number

  private readonly ready = new Map<number, Entry>()
  private readonly loading = new Map<number, Load>()
  private queue: number[] = []
  /** How many entries at the head of queue are the window's (the rest are idle fill). */
  private queueNear = 0
  /** The frames plan() keeps: the window, then the idle fill's, within the memory cap. */
  private keep = new Set<number>()
  /** Frames whose load failed: not loaded again until a show() asks for them or they are invalidated. */
  private readonly failed = new Set<number>()
  private readonly waiters = new Map<number, Waiter[]>()
  private readonly listeners = new Set<(e: FrameEvent) => void>()

  private current: number | null = null
  private token = 0
  private emittedToken = 0
  private dir: 1 | -1 = 1
  private inFlight = 0
  private useClock = 0
  private bytesHeld = 0
  /** Bytes of the last decoded frame: how many frames the memory cap lets the window hold. */
  private frameBytes = 0
  private disposed = false

  private readonly latencies = new Float64Array(SAMPLES)
  private latencyCount = 0
  private counts = { hits: 0, misses: 0, missing: 0, errors: 0, superseded: 0, dropped: 0 }

  constructor(opts: ReadAheadOptions<R>) {
    this.opts = opts
    this.ahead = Math.max(0, Math.floor(opts.ahead ?? 8))
    this.behind = Math.max(0, Math.floor(opts.behind ?? 2))
    this.maxBytes = Math.max(0, opts.maxBytes ?? 256 * 1024 * 1024)
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 2))
    this.idleFill = opts.idleFill ?? false
    this.idleReach = Math.max(0, Math.floor(opts.idleReach ?? 1024))
    this.settleMs = Math.max(0, opts.settleMs ?? 0)
    this.now = opts.now ?? (() => (typeof performance !== 'undefined' ? performance.now() : Date.now()))
  }

  /** The frame of the latest show(), or null before the first. */
  get currentFrame(): number | null {
    return this.current
  }

  /** +1 when playing forward, -1 backward: inferred from steps of at most `ahead` frames. */
  get direction(): 1 | -1 {
    return this.dir
  }

  /**
   * Display data for exactly `frame`: null when the cache does not hold it, or when a later
   * show() moved the window away before its load began (it would never be displayed).
   * Rejects when its fetch or decode fails. Listeners of onFrame hear about this frame only
   * while it is still the latest requested; for a frame already decoded they are called
   * before show() returns.
   */
  show(frame: number): Promise<DisplayFrame | null> {
    if (this.disposed) return Promise.resolve(null)
    const prev = this.current
    if (prev !== null) {
      const step = frame - prev
      // A jump (clicking elsewhere on the timeline) says nothing about the direction of play.
      if (step !== 0 && Math.abs(step) <= Math.max(1, this.ahead)) {
        this.dir = step > 0 ? 1 : -1
        this.settleUntil = -Infinity
        this.afterJump = false
      } else if (step !== 0) {
        this.settleUntil = this.now() + this.settleMs
        this.afterJump = true
      }
    }
    this.current = frame
    // Asking for a frame again retries it (a failed load is not retried on its own).
    this.failed.delete(frame)
    const token = ++this.token
    let result: Promise<DisplayFrame | null>
    const hit = this.ready.get(frame)
    if (!this.isCached(frame)) {
      this.counts.missing++
      this.emit(token, { frame, data: null })
      result = Promise.resolve(null)
    } else if (hit) {
      this.counts.hits++
      hit.lastUsed = ++this.useClock
      this.sample(0)
      this.emit(token, { frame, data: hit.data })
      result = Promise.resolve(hit.data)
    } else {
      this.counts.misses++
      const t0 = this.now()
      result = new Promise<DisplayFrame | null>((resolve, reject) => {
        const list = this.waiters.get(frame) ?? []
        list.push({ resolve, reject, t0 })
        this.waiters.set(frame, list)
      })
    }
    // Marks this promise handled: a caller that only listens to onFrame (which carries the
    // error too) must not produce an unhandled rejection. Chains the caller builds still see it.
    result.catch(() => undefined)
    this.plan()
    return result
  }

  /** Calls `cb` with the latest requested frame's data once it is ready; returns an unsubscribe. */
  onFrame(cb: (e: FrameEvent) => void): () => void {
    this.listeners.add(cb)
    return () => this.listeners.delete(cb)
  }

  /**
   * The cache changed (a re-bake, frames added or cleared): forget the decoded data of these
   * frames (all when omitted), drop loads in flight for them, and reload the current frame
   * (delivered through onFrame again) if it is among them.
   */
  invalidate(frames?: Iterable<number>): void {
    if (this.disposed) return
    const only = frames === undefined ? null : new Set(frames)
    const hit = (g: number): boolean => only === null || only.has(g)
    for (const [g, e] of this.ready) {
      if (!hit(g)) continue
      this.bytesHeld -= e.data.bytes
      this.ready.delete(g)
      this.opts.release?.(e.data)
    }
    for (const g of [...this.loading.keys()]) if (hit(g)) this.loading.delete(g)
    for (const g of [...this.failed]) if (hit(g)) this.failed.delete(g)
    if (this.current !== null && hit(this.current)) {
      const token = ++this.token
      if (!this.isCached(this.current)) this.emit(token, { frame: this.current, data: null })
    }
    this.plan()
  }

  /** Turns the idle fill on or off (off: frames beyond the window are dropped at the next plan). */
  setIdleFill(on: boolean): void {
    if (this.idleFill === on) return
    this.idleFill = on
    this.plan()
  }

  /** Frames decoded and held, ascending (for a "buffered" mark on the timeline). */
  bufferedFrames(): number[] {
    return [...this.ready.keys()].sort((a, b) => a - b)
  }

  stats(): ReadAheadStats {
    const n = Math.min(this.latencyCount, SAMPLES)
    const sorted = Array.from(this.latencies.subarray(0, n)).sort((a, b) => a - b)
    const pct = (p: number): number => (n === 0 ? 0 : sorted[Math.min(n - 1, Math.floor(p * n))])
    return {
      ...this.counts,
      p50Ms: pct(0.5),
      p95Ms: pct(0.95),
      samples: n,
      frames: this.ready.size,
      bytes: this.bytesHeld,
      inFlight: this.inFlight,
    }
  }

  /** Drops everything; pending show() promises resolve null. Loads in flight finish unseen. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    if (this.settleTimer !== null) clearTimeout(this.settleTimer)
    for (const list of this.waiters.values()) for (const w of list) w.resolve(null)
    this.waiters.clear()
    for (const e of this.ready.values()) this.opts.release?.(e.data)
    this.ready.clear()
    this.loading.clear()
    this.queue = []
    this.listeners.clear()
    this.bytesHeld = 0
  }

  // ---------- internals ----------

  private isCached(frame: number): boolean {
    const c = this.opts.cached
    if (typeof c === 'function') return c(frame)
    if (c instanceof Set) return c.has(frame)
    return (c as readonly number[]).includes(frame)
  }

  /** Rebuilds the queue around the current frame, evicts, and starts what the slots allow. */
  private plan(): void {
    if (this.current === null || this.disposed) return
    const f = this.current
    // How many frames the memory cap holds, judged by the last decoded frame's size.
    const fit = this.frameBytes > 0 ? Math.max(1, Math.floor(this.maxBytes / this.frameBytes)) : Infinity
    const want: number[] = []
    const keep = new Set<number>()
    const consider = (g: number): void => {
      if (keep.size >= fit || !this.isCached(g) || keep.has(g) || this.failed.has(g)) return
      keep.add(g)
      if (!this.ready.has(g) && !this.loading.has(g)) want.push(g)
    }
    consider(f)
    for (let k = 1; k <= this.ahead; k++) consider(f + this.dir * k)
    for (let k = 1; k <= this.behind; k++) consider(f - this.dir * k)
    const nearAll = want.length
    // Beyond the window only while the memory cap is known (a frame decoded) and the window
    // itself has nothing left to load.
    if (this.idleFill && nearAll === 0 && fit !== Infinity) {
      for (let k = 1; k <= this.idleReach && keep.size < fit; k++) {
        consider(f + this.dir * (this.ahead + k))
        consider(f - this.dir * (this.behind + k))
      }
    } else if (this.idleFill) {
      // Keep what the fill has loaded so far (nearest first) while the window loads.
      for (let k = 1; k <= this.idleReach && keep.size < fit; k++) {
        for (const g of [f + this.dir * (this.ahead + k), f - this.dir * (this.behind + k)]) {
          if (this.ready.has(g) && keep.size < fit) keep.add(g)
        }
      }
    }
    this.keep = keep
    // Settling after a jump: what is held stays (keep), but only the frame asked for loads.
    const settling = this.settleMs > 0 && this.now() < this.settleUntil
    const queue = settling ? want.filter((g) => g === f) : want
    if (queue.length < want.length) this.replanAt(this.settleUntil)
    const near = settling ? queue.length : nearAll
    if (this.opts.abandon) {
      for (const [g, load] of this.loading) {
        if (keep.has(g)) continue
        this.opts.abandon(g)
        // Its fetch is being cancelled, and a decode it may already be in is the worker's to
        // finish: either way it needs no slot of the buffer's any more. (Should the playhead
        // come back to it before it settles, it stays uncounted: one load over the limit at most.)
        if (!load.released) {
          load.released = true
          this.inFlight--
        }
      }
    }
    this.queue = queue
    this.queueNear = near
    // A show() still waiting on a frame that will not be loaded now gets null.
    for (const g of [...this.waiters.keys()]) {
      if (this.loading.has(g) || queue.includes(g)) continue
      const list = this.waiters.get(g) ?? []
      this.waiters.delete(g)
      this.counts.superseded += list.length
      for (const w of list) w.resolve(null)
    }
    this.evict()
    this.pump()
  }

  /** plan() again at `when` (this.now() time), once: the end of a settling period. */
  private replanAt(when: number): void {
    if (this.settleTimer !== null) clearTimeout(this.settleTimer)
    this.settleTimer = setTimeout(
      () => {
        this.settleTimer = null
        this.plan()
      },
      Math.max(0, when - this.now()) + 1,
    )
  }

  private pump(): void {
    // The idle fill leaves one slot for a show() that misses (with a single slot, it waits).
    const fillSlots = Math.max(1, this.concurrency - 1)
    while (!this.disposed && this.inFlight < this.concurrency && this.queue.length > 0) {
      if (this.queueNear === 0 && this.inFlight >= fillSlots) break
      // While the frame asked for is still loading, nothing else starts: its fetch and decode
      // then share the host and the cores with no prefetch (a jump costs one of each). (It
      // does wait for a free slot: dragging the playhead must not flood the host with fetches.)
      const cur = this.current
      if (cur !== null && this.loading.has(cur) && this.queue[0] !== cur) break
      // After a jump (with settling on), the frames around it take one slot: the other is kept
      // for the frame the next jump asks for, whose load would otherwise share both workers and
      // the socket with two of these.
      if (this.afterJump && this.settleMs > 0 && this.inFlight >= fillSlots && this.queue[0] !== cur) break
      const g = this.queue.shift() as number
      if (this.queueNear > 0) this.queueNear--
      this.start(g)
    }
  }

  private start(frame: number): void {
    const load: Load = { frame, released: false }
    this.loading.set(frame, load)
    this.inFlight++
    // The promise chain catches a fetch or decode that throws synchronously too.
    Promise.resolve()
      .then(() => this.opts.fetchRecord(frame))
      // A frame the playhead has moved away from since is not decoded (the decode is the
      // larger cost and would hold up the frame now wanted).
      .then(async (record): Promise<DisplayFrame | typeof DROPPED> => (this.keep.has(frame) || this.disposed ? this.opts.decode(record, frame) : DROPPED))
      .then(
        (data) => (data === DROPPED ? this.drop(load) : this.finish(load, data, null)),
        (err: unknown) => this.finish(load, null, err instanceof Error ? err : new Error(String(err))),
      )
  }

  private finish(load: Load, data: DisplayFrame | null, error: Error | null): void {
    if (!load.released) this.inFlight--
    if (this.disposed) return
    const g = load.frame
    if (this.loading.get(g) !== load) {
      // Invalidated while in flight: the data is stale; plan() already queued a fresh load.
      if (data) this.opts.release?.(data)
      this.pump()
      return
    }
    this.loading.delete(g)
    const list = this.waiters.get(g) ?? []
    this.waiters.delete(g)
    if (error || !data) {
      const err = error ?? new Error(`Frame ${g} decoded to nothing`)
      this.counts.errors++
      this.failed.add(g)
      for (const w of list) w.reject(err)
      if (g === this.current) this.emit(this.token, { frame: g, data: null, error: err })
    } else {
      this.ready.set(g, { data, lastUsed: ++this.useClock })
      this.bytesHeld += data.bytes
      this.frameBytes = data.bytes
      const t = this.now()
      for (const w of list) {
        this.sample(t - w.t0)
        w.resolve(data)
      }
      if (g === this.current) this.emit(this.token, { frame: g, data })
    }
    this.plan()
  }

  /** A load fetched but not decoded (see start): whoever asked for its frame has moved on. */
  private drop(load: Load): void {
    if (!load.released) this.inFlight--
    if (this.disposed) return
    const g = load.frame
    if (this.loading.get(g) === load) {
      this.loading.delete(g)
      const list = this.waiters.get(g) ?? []
      this.waiters.delete(g)
      this.counts.superseded += list.length
      for (const w of list) w.resolve(null)
    }
    this.counts.dropped++
    this.plan()
  }

  /** Frames plan() does not keep go; then least recently used ones while over the cap (never the current one). */
  private evict(): void {
    for (const [g, e] of this.ready) {
      if (this.keep.has(g)) continue
      this.ready.delete(g)
      this.bytesHeld -= e.data.bytes
      this.opts.release?.(e.data)
    }
    if (this.bytesHeld <= this.maxBytes) return
    const byAge = [...this.ready.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)
    for (const [g, e] of byAge) {
      if (this.bytesHeld <= this.maxBytes) break
      if (g === this.current) continue
      this.ready.delete(g)
      this.bytesHeld -= e.data.bytes
      this.opts.release?.(e.data)
    }
  }

  private emit(token: number, e: FrameEvent): void {
    if (token !== this.token || this.emittedToken === token) return
    this.emittedToken = token
    for (const cb of [...this.listeners]) {
      try {
        cb(e)
      } catch (err) {
        // A failing listener must not stop the others or the buffer; report it out of band.
        queueMicrotask(() => {
          throw err
        })
      }
    }
  }

  private sample(ms: number): void {
    this.latencies[this.latencyCount % SAMPLES] = ms
    this.latencyCount++
  }
}

// The decode worker's reusable output buffers: texels and light arrays of decoded frames the
// page has let go of (DecodeClient.recycle), kept by size and handed to the next decodes.
// Why: a decoded 128^3 smoke frame is 4 MiB of texels and up to 2 MiB of light, and a fresh
// array that size costs 17-19 ms in a Chromium worker to first touch its pages (measured: the
// same 4 MiB written into a reused buffer took 0.4-0.6 ms), which was most of a frame's decode.
// The decoded arrays travel to the page (transferred), so only the page can give them back;
// until it does (the first frames after opening a cache, or while the read-ahead buffer keeps
// every frame it loads), the worker prepares spares of the sizes it has needed in its idle
// time, a few pages at a time (warm), so the first touch happens off a jump's path.

/** At most this many buffers of one size are kept (two workers, a frame or two in flight each). */
const PER_SIZE = 4
/** Bytes of a page: touching one byte of each commits the whole buffer. */
const PAGE = 4096

export class BufferPool {
  private readonly bySize = new Map<number, ArrayBuffer[]>()
  /** Sizes asked of take(), the ones warm() prepares spares of. */
  private readonly sizes = new Set<number>()
  /** The spare being touched by warm(), and how far. */
  private warming: { bytes: Uint8Array; at: number } | null = null

  /** Keeps buffers for reuse (detached or surplus ones are dropped). */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const b of buffers) {
      if (b.byteLength === 0) continue
      const list = this.bySize.get(b.byteLength) ?? []
      if (list.length >= PER_SIZE) continue
      list.push(b)
      this.bySize.set(b.byteLength, list)
    }
  }

  /** A `bytes`-long array: a kept buffer (any content) when one of that size is there, else a new one. */
  readonly take = (bytes: number): Uint8Array => {
    this.sizes.add(bytes)
    const b = this.bySize.get(bytes)?.pop()
    return b ? new Uint8Array(b) : new Uint8Array(bytes)
  }

  /**
   * Prepares spares: touches at most `budget` bytes of a new buffer of a size take() was asked
   * for and the pool holds fewer than `spare` of, keeping it once all its pages are touched.
   * Returns whether there is more to do (call again later, between messages).
   */
  warm(spare: number, budget: number): boolean {
    if (this.warming === null) {
      let size = 0
      for (const s of this.sizes) if ((this.bySize.get(s)?.length ?? 0) < Math.min(spare, PER_SIZE)) size = s
      if (size === 0) return false
      this.warming = { bytes: new Uint8Array(size), at: 0 }
    }
    const w = this.warming
    const end = Math.min(w.bytes.length, w.at + budget)
    for (let i = w.at; i < end; i += PAGE) w.bytes[i] = 0
    w.at = end
    if (w.at >= w.bytes.length) {
      this.warming = null
      this.give([w.bytes.buffer as ArrayBuffer])
    }
    return true
  }

  /** Buffers kept now. */
  get size(): number {
    let n = 0
    for (const list of this.bySize.values()) n += list.length
    return n
  }
}

// The decode worker's reusable output buffers: texels and light arrays of decoded frames the
// page has let go of (DecodeClient.recycle), kept by size and handed to the next decodes.
// Why: a decoded 128^3 smoke frame is 4 MiB of texels and up to 2 MiB of light, and a fresh
// array that size costs 17-19 ms in a Chromium worker to first touch its pages (measured: the
// same 4 MiB written into a reused buffer took 0.4-0.6 ms), which was most of a frame's decode.
// The decoded arrays travel to the page (transferred), so only the page can give them back.

/** At most this many buffers of one size are kept (two workers, a frame or two in flight each). */
const PER_SIZE = 4

export class BufferPool {
  private readonly bySize = new Map<number, ArrayBuffer[]>()

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
    const b = this.bySize.get(bytes)?.pop()
    return b ? new Uint8Array(b) : new Uint8Array(bytes)
  }

  /** Buffers kept now. */
  get size(): number {
    let n = 0
    for (const list of this.bySize.values()) n += list.length
    return n
  }
}

// Decoded frames the read-ahead buffer has let go of go back to the decode workers, whose next
// decodes write into their arrays (DecodeClient.recycle, bufferPool.ts: a fresh 4 MiB array
// cost 17-19 ms of first-touched pages per 128^3 frame). A frame whose arrays the volume
// display last uploaded waits: Babylon keeps them to restore the textures after a lost GPU
// context. It goes once the display has uploaded another frame's.
import type { DisplayFrame } from './displayData'

export class FrameRecycler {
  private readonly waiting: DisplayFrame[] = []

  constructor(
    /** Whether the display still holds the frame's arrays (CacheDisplay.holds). */
    private readonly inUse: (f: DisplayFrame) => boolean,
    /** Hands the frame's arrays to the decoder; the frame is not read again. */
    private readonly recycle: (f: DisplayFrame) => void,
  ) {}

  /** The buffer holds `f` no longer. */
  release(f: DisplayFrame): void {
    if (!this.inUse(f)) this.recycle(f)
    else if (!this.waiting.includes(f)) this.waiting.push(f)
  }

  /** After the display changed: frames that waited and are free now go. */
  settle(): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const f = this.waiting[i]
      if (this.inUse(f)) continue
      this.waiting.splice(i, 1)
      this.recycle(f)
    }
  }

  /** Frames waiting for the display to let go of them. */
  get pending(): number {
    return this.waiting.length
  }
}

// One variant of the side-by-side wedge view: its cache display (on its own layer bit, so
// only its cell's camera draws it) and the frame under the playhead, fetched and decoded
// alone: no read-ahead, so nine variants hold nine frames, not nine buffers. While a load
// runs, newer requests only replace the wanted frame; when the load ends the latest one is
// loaded next (scrubbing skips the frames in between, as the main view does). A frame that
// leaves the screen, or is decoded and not shown, gives its arrays back to the decoder
// (frameRecycler.ts): scrubbing the grid decodes a frame per variant per move.
import type { Scene } from '@babylonjs/core/scene'
import { CacheDisplay, type CacheDisplaySettings } from '../cache/cacheDisplay'
import type { DecodeClient } from '../cache/decodeClient'
import type { DisplayFrame } from '../cache/displayData'
import { FrameRecycler } from '../cache/frameRecycler'
import type { FetchRecord } from '../cachePlayback'

type Ranges = readonly (readonly [number, number])[]

export interface VariantCellState {
  /** The frame last asked for and answered (drawn, not cached there, or failed). */
  frame: number | null
  /** The frame whose data is on screen (null: nothing cached at `frame`). */
  shownFrame: number | null
  error: string | null
}

export class VariantCell {
  readonly display: CacheDisplay
  state: VariantCellState = { frame: null, shownFrame: null, error: null }
  private cached: Ranges = []
  private sig = ''
  private wanted: number | null = null
  private loading = false
  /** The answer on screen no longer matches the cache or the decode settings: load it again. */
  private dirty = false
  private disposed = false
  /** Called after every answer (the grid checks whether every cell has the playhead's frame). */
  onState: (() => void) | null = null
  /** The decoded frame on screen (its arrays go back to the decoder once another replaces it). */
  private drawn: DisplayFrame | null = null
  private readonly recycler: FrameRecycler

  constructor(
    scene: Scene,
    readonly key: string,
    private readonly client: DecodeClient,
    private readonly fetchRecord: FetchRecord,
    settings: Partial<CacheDisplaySettings>,
  ) {
    this.display = new CacheDisplay(scene, settings)
    this.recycler = new FrameRecycler(
      (f) => this.display.holds(f),
      (f) => this.client.recycle(f),
    )
  }

  /** The variant's cached frames; a new `sig` (the cache changed) re-reads the frame shown. */
  setSource(cached: Ranges, sig: string): void {
    this.cached = cached
    if (sig === this.sig) return
    this.sig = sig
    this.invalidate()
  }

  /** Shows the cached frame `frame` (or nothing when it is not cached). */
  show(frame: number): void {
    this.wanted = frame
    void this.pump()
  }

  /** Loads the wanted frame again (decode settings changed, or the cache did). */
  invalidate(): void {
    this.dirty = true
    void this.pump()
  }

  /** Whether `frame` is answered on screen. */
  answered(frame: number): boolean {
    return this.state.frame === frame && !this.loading && !this.dirty
  }

  dispose(): void {
    this.disposed = true
    this.onState = null
    this.display.dispose()
  }

  private isCached(f: number): boolean {
    return this.cached.some(([a, b]) => f >= a && f <= b)
  }

  private async pump(): Promise<void> {
    if (this.loading || this.disposed) return
    const f = this.wanted
    if (f === null || (f === this.state.frame && !this.dirty)) return
    this.dirty = false
    if (!this.isCached(f)) {
      this.draw(null)
      this.setState({ frame: f, shownFrame: null, error: null })
      return
    }
    this.loading = true
    let answer: { data: DisplayFrame } | { error: string } | null = null
    try {
      const record = await this.fetchRecord(this.key, f)
      // The playhead moved on while the record travelled: decode the newer frame instead.
      if (!this.disposed && this.wanted === f) answer = { data: await this.client.decode(record) }
    } catch (e) {
      answer = { error: `Frame ${f} could not be shown: ${e instanceof Error ? e.message : String(e)}` }
    }
    // Not loading any more before the answer is told, so answered() holds when onState runs.
    this.loading = false
    if (this.disposed) return
    if (answer && this.wanted === f && !this.dirty) {
      const data = 'data' in answer ? answer.data : null
      this.draw(data)
      this.setState({ frame: f, shownFrame: data ? f : null, error: 'error' in answer ? answer.error : null })
    } else if (answer && 'data' in answer) this.client.recycle(answer.data) // decoded, never shown
    void this.pump()
  }

  /** Shows `data` (null: nothing); the frame it replaces gives its arrays back once the display lets go of them. */
  private draw(data: DisplayFrame | null): void {
    this.display.show(data)
    const old = this.drawn
    this.drawn = data
    if (old !== null && old !== data) this.recycler.release(old)
    this.recycler.settle()
  }

  private setState(s: VariantCellState): void {
    this.state = s
    this.onState?.()
  }
}

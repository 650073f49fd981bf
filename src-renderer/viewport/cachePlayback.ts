// Cached frames of the active simulation under the playhead: a read-ahead buffer fetches
// records ('cache.display', binary) and decodes them in a worker; with the headless host the
// worker fetches them itself over its own WebSocket and decodes at once (decodeClient.ts
// fetchAndDecode), so a record never waits for the page's busy main thread (a load the playhead
// leaves while its fetch is out skips its decode, workerLoads.ts). The frame delivered is always
// the one last asked for (ReadAheadBuffer.onFrame), so a late decode never replaces a newer
// frame. Times from playhead move to the data handed to the GPU are kept for the benchmark.
import type { Scene } from '@babylonjs/core/scene'
import { CacheDisplay, type CacheDisplaySettings } from './cache/cacheDisplay'
import { DecodeClient } from './cache/decodeClient'
import { FrameRecycler } from './cache/frameRecycler'
import { ReadAheadBuffer } from './cache/readAhead'
import { WorkerLoads } from './cache/workerLoads'
import type { DisplayFrame, DisplayOptions } from './cache/displayData'
import { lightDirection } from '../../src-shared/formats/lightVolume'

/** How long the playhead rests after a jump before the frames around it load, ms. */
const JUMP_SETTLE_MS = 200

export type FetchRecord = (domainId: string, frame: number) => Promise<Uint8Array>
/** The host's WebSocket address when the page talks to the headless host (null in Electron). */
export type HostUrl = () => string | null

export interface CacheSource {
  domainId: string | null
  /** Inclusive ranges of valid cached frames. */
  cached: readonly (readonly [number, number])[]
  /** Changes whenever cached frames change (a re-bake): decoded frames are dropped. */
  version: number
  ambientTemperature: number
  /**
   * The volumes the raymarcher draws as density and emission, as the simulation's family
   * names them (DisplayOptions.densityVolume / emissionVolume). Default 'density', 'temperature'.
   */
  densityVolume?: string
  emissionVolume?: string
  /**
   * A bake of this simulation is running: no idle fill (it would take cores from the bake, and
   * every frame the bake adds invalidates what is held).
   */
  baking?: boolean
}

export interface CachePlaybackState {
  /** The frame last asked for and answered (shown, not cached, or failed). */
  frame: number | null
  /** Frame whose data is on screen (null: nothing cached there). */
  shownFrame: number | null
  /** Why the frame under the playhead could not be shown (a damaged record, a lost connection). */
  error: string | null
  /** The attributes the shown frame's points carry, each once (what they can be coloured by). */
  particleAttributes: string[]
}

const LATENCY_SAMPLES = 512

function push(list: number[], v: number): void {
  list.push(v)
  if (list.length > LATENCY_SAMPLES) list.shift()
}

export class CachePlayback {
  readonly display: CacheDisplay
  // Two workers even on two cores: a jump's decode then never queues behind a prefetch.
  private readonly client = new DecodeClient({ workers: 2 })
  /** Frames the buffer lets go of give their arrays back to the workers (frameRecycler.ts). */
  private readonly recycler: FrameRecycler
  private buffer: ReadAheadBuffer<Uint8Array> | ReadAheadBuffer<DisplayFrame | null> | null = null
  private unsubscribe: (() => void) | null = null
  private source: CacheSource = { domainId: null, cached: [], version: -1, ambientTemperature: 293.15 }
  private requestedAt = new Map<number, number>()
  private readonly latencies: number[] = []
  private readonly uploads: number[] = []
  /** Per load: the record's round trip to the host, and the worker's decode (ms). */
  private readonly stages = { fetch: [] as number[], decode: [] as number[] }
  state: CachePlaybackState = { frame: null, shownFrame: null, error: null, particleAttributes: [] }
  /** Whether the decode worker fetches records itself, where it can (setWorkerFetch). */
  private workerFetch = true
  /** Whether buffers load the frames beyond the read-ahead window while idle (setIdleFill). */
  private idleFill = true
  onState: ((s: CachePlaybackState) => void) | null = null

  constructor(
    scene: Scene,
    private readonly fetchRecord: FetchRecord,
    private readonly hostUrl: HostUrl = () => null,
  ) {
    this.display = new CacheDisplay(scene, { quality: 'low' })
    this.recycler = new FrameRecycler(
      (f) => this.display.holds(f),
      (f) => this.client.recycle(f),
    )
  }

  private isCached = (f: number): boolean => this.source.cached.some(([a, b]) => f >= a && f <= b)

  /** Points the playback at a simulation's cache; call on every change of source or frames. */
  setSource(next: CacheSource): void {
    const prev = this.source
    this.source = next
    if (!!next.baking !== !!prev.baking) this.buffer?.setIdleFill(this.idleFill && !next.baking)
    if (next.ambientTemperature !== prev.ambientTemperature || next.densityVolume !== prev.densityVolume || next.emissionVolume !== prev.emissionVolume) {
      const { ambientTemperature, densityVolume, emissionVolume } = next
      this.client.display = { ...this.client.display, ambientTemperature, densityVolume, emissionVolume }
      this.buffer?.invalidate()
    }
    if (next.domainId !== prev.domainId) {
      this.unsubscribe?.()
      this.buffer?.dispose()
      this.buffer = null
      this.display.show(null)
      this.display.setHost(next.domainId)
      this.setState({ frame: null, shownFrame: null, error: null, particleAttributes: [] })
      const domainId = next.domainId
      if (domainId) {
        const timed = async <T>(list: number[], run: () => Promise<T>): Promise<T> => {
          const t0 = performance.now()
          const out = await run()
          push(list, performance.now() - t0)
          return out
        }
        const common = {
          cached: this.isCached,
          // While the playhead rests, the frames around it load too (up to the buffer's memory
          // cap): a jump along the timeline then shows a frame already decoded.
          idleFill: this.idleFill && !next.baking,
          // Clicking along the timeline: each frame asked for loads alone; the frames around
          // it follow once the playhead rests (readAhead.ts).
          settleMs: JUMP_SETTLE_MS,
          release: (f: DisplayFrame) => this.recycler.release(f),
        }
        const url = this.hostUrl()
        const loads =
          url === null || !this.client.canFetch
            ? null
            : new WorkerLoads(
                this.client,
                url,
                domainId,
                this.fetchRecord,
                (fetchMs, decodeMs) => {
                  push(this.stages.fetch, fetchMs)
                  push(this.stages.decode, decodeMs)
                },
                () => this.workerFetch,
              )
        this.buffer =
          loads !== null
            ? new ReadAheadBuffer<DisplayFrame | null>({
                ...common,
                fetchRecord: (f) => loads.load(f),
                // null: the worker skipped the decode (abandoned), yet the frame is wanted again.
                decode: async (shown, f) => shown ?? ((await loads.load(f, false)) as DisplayFrame),
                abandon: (f) => loads.abandon(f),
              })
            : new ReadAheadBuffer<Uint8Array>({
                ...common,
                fetchRecord: (f) => timed(this.stages.fetch, () => this.fetchRecord(domainId, f)),
                decode: (record) => timed(this.stages.decode, () => this.client.decode(record)),
              })
        this.unsubscribe = this.buffer.onFrame((e) => {
          const u0 = performance.now()
          this.display.show(e.data)
          this.uploads.push(performance.now() - u0)
          this.recycler.settle()
          if (this.uploads.length > LATENCY_SAMPLES) this.uploads.shift()
          const t0 = this.requestedAt.get(e.frame)
          if (t0 !== undefined && e.data) {
            this.latencies.push(performance.now() - t0)
            if (this.latencies.length > LATENCY_SAMPLES) this.latencies.shift()
          }
          this.requestedAt.delete(e.frame)
          const particleAttributes = e.data ? [...new Set(e.data.particles.flatMap((p) => p.attributes))] : []
          this.setState({ frame: e.frame, shownFrame: e.data ? e.frame : null, error: e.error ? `Frame ${e.frame} could not be shown: ${e.error.message}` : null, particleAttributes })
        })
      }
    } else if (next.version !== prev.version) {
      this.buffer?.invalidate()
    }
  }

  /** The options every decode uses now (the side-by-side wedge view decodes its variants with the same). */
  get decodeOptions(): Readonly<DisplayOptions> {
    return this.client.display
  }

  /** Whether the frame asked for is answered on screen (shown, not cached, or failed); true with no cache to show. */
  answered(frame: number): boolean {
    return !this.buffer || this.state.frame === frame
  }

  /** Shows the cached frame under the playhead (or nothing when that frame is not cached). */
  show(frame: number): void {
    if (!this.buffer) return
    this.requestedAt.clear()
    this.requestedAt.set(frame, performance.now())
    void this.buffer.show(frame)
  }

  /** Display settings; a colour-by or light-direction change re-decodes (colours and the smoke's light volume are computed in the worker). */
  setSettings(s: Partial<CacheDisplaySettings>): void {
    const { redecode } = this.display.setSettings(s)
    if (redecode) {
      const { particleColorBy, meshColorBy, lightAzimuth, lightElevation } = this.display.settings
      this.client.display = { ...this.client.display, particleColorBy, meshColorBy, toLight: lightDirection(lightAzimuth, lightElevation) }
      this.buffer?.invalidate()
    }
  }

  /**
   * Turns loading the frames around the playhead while idle on or off (the benchmark measures a
   * jump to a frame not loaded yet with it off).
   */
  setIdleFill(on: boolean): void {
    this.idleFill = on
    this.buffer?.setIdleFill(on && !this.source.baking)
  }

  /**
   * Turns fetching in the decode worker on or off (with the headless host; off, the page
   * fetches and the worker decodes): the scrubbing benchmark times both paths in one run.
   */
  setWorkerFetch(on: boolean): void {
    this.workerFetch = on
  }

  /** Frames decoded and held now, ascending. */
  bufferedFrames(): number[] {
    return this.buffer?.bufferedFrames() ?? []
  }

  /** Playhead move -> data handed to the GPU, ms, for frames that were shown. */
  timings(): number[] {
    return [...this.latencies]
  }

  /** Fetch and decode times of the loads so far, ms (the benchmark splits the path with them). */
  stageTimings(): { fetch: number[]; decode: number[]; decodeInWorker: number[] } {
    return { fetch: [...this.stages.fetch], decode: [...this.stages.decode], decodeInWorker: [...this.client.workerMs] }
  }

  /** Of which the hand-over itself (texture and buffer updates), ms. */
  uploadTimings(): number[] {
    return [...this.uploads]
  }

  stats() {
    return this.buffer?.stats() ?? null
  }

  dispose(): void {
    this.unsubscribe?.()
    this.buffer?.dispose()
    this.client.dispose()
    this.display.dispose()
  }

  private setState(s: CachePlaybackState): void {
    this.state = s
    this.onState?.(s)
  }
}

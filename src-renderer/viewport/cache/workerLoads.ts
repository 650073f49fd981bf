// Cached frames loaded by a decode worker over its own connection to the headless host
// (DecodeClient.fetchAndDecode), with the page's own fetch as the fallback: should the
// worker's socket fail (refused, closed under it, or silent past hostRecords.ts's timeout),
// that load and every later one go through the page's connection and the worker only decodes,
// as before. A load whose frame the playhead has left (abandon) skips its decode if its fetch
// is still out, as the page's path does (readAhead.ts): a jump's frame then never waits behind
// a decode nobody wants.
import { isEddyError } from '../../../src-shared/api/errors'
import type { DisplayFrame } from './displayData'

/** What WorkerLoads needs of a DecodeClient. */
export interface WorkerLoadClient {
  readonly canFetch: boolean
  fetchAndDecode(url: string, domainId: string, frame: number): { result: Promise<{ frame: DisplayFrame | null; fetchMs: number; decodeMs: number }>; cancel(): void }
  decode(record: Uint8Array): Promise<DisplayFrame>
}

export class WorkerLoads {
  /** Set once the worker's connection failed: later loads go through the page. */
  failed = false
  /** Cancel functions of the worker loads out, by frame. */
  private readonly out = new Map<number, () => void>()

  constructor(
    private readonly client: WorkerLoadClient,
    private readonly url: string,
    private readonly domainId: string,
    private readonly pageFetch: (domainId: string, frame: number) => Promise<Uint8Array>,
    /** Each load's fetch and decode times, ms. */
    private readonly onTimes: (fetchMs: number, decodeMs: number) => void = () => undefined,
    /** Whether to fetch in the worker at all (the scrubbing benchmark compares both paths). */
    private readonly enabled: () => boolean = () => true,
  ) {}

  /**
   * The frame's display data; null when abandon(frame) came while its fetch was out in the
   * worker (then nothing was decoded). cancellable false: never null (abandon is ignored).
   */
  async load(frame: number, cancellable = true): Promise<DisplayFrame | null> {
    if (!this.failed && this.enabled() && this.client.canFetch) {
      const job = this.client.fetchAndDecode(this.url, this.domainId, frame)
      if (cancellable) this.out.set(frame, job.cancel)
      try {
        const r = await job.result
        if (r.frame) this.onTimes(r.fetchMs, r.decodeMs)
        return r.frame
      } catch (e) {
        // The host's own refusals (a frame not cached, a corrupt record) are the answer; only
        // a connection failure sends the load to the page's connection.
        if (!isEddyError(e) || e.code !== 'IO_ERROR') throw e
        this.failed = true
      } finally {
        if (this.out.get(frame) === job.cancel) this.out.delete(frame)
      }
    }
    const t0 = performance.now()
    const record = await this.pageFetch(this.domainId, frame)
    const t1 = performance.now()
    const shown = await this.client.decode(record)
    this.onTimes(t1 - t0, performance.now() - t1)
    return shown
  }

  /** The playhead left `frame`: a worker load of it still fetching skips its decode. */
  abandon(frame: number): void {
    this.out.get(frame)?.()
  }
}

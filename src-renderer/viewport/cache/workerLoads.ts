// Cached frames loaded by a decode worker over its own connection to the headless host
// (DecodeClient.fetchAndDecode), with the page's own fetch as the fallback: should the
// worker's socket fail (refused, or closed under it), that load and every later one go
// through the page's connection and the worker only decodes, as before.
import { isEddyError } from '../../../src-shared/api/errors'
import type { DisplayFrame } from './displayData'

/** What WorkerLoads needs of a DecodeClient. */
export interface WorkerLoadClient {
  readonly canFetch: boolean
  fetchAndDecode(url: string, domainId: string, frame: number): Promise<{ frame: DisplayFrame; fetchMs: number; decodeMs: number }>
  decode(record: Uint8Array): Promise<DisplayFrame>
}

export class WorkerLoads {
  /** Set once the worker's connection failed: later loads go through the page. */
  failed = false

  constructor(
    private readonly client: WorkerLoadClient,
    private readonly url: string,
    private readonly domainId: string,
    private readonly pageFetch: (domainId: string, frame: number) => Promise<Uint8Array>,
    /** Each load's fetch and decode times, ms. */
    private readonly onTimes: (fetchMs: number, decodeMs: number) => void = () => undefined,
  ) {}

  async load(frame: number): Promise<DisplayFrame> {
    if (!this.failed && this.client.canFetch) {
      try {
        const r = await this.client.fetchAndDecode(this.url, this.domainId, frame)
        this.onTimes(r.fetchMs, r.decodeMs)
        return r.frame
      } catch (e) {
        // The host's own refusals (a frame not cached, a corrupt record) are the answer; only
        // a connection failure sends the load to the page's connection.
        if (!isEddyError(e) || e.code !== 'IO_ERROR') throw e
        this.failed = true
      }
    }
    const t0 = performance.now()
    const record = await this.pageFetch(this.domainId, frame)
    const t1 = performance.now()
    const shown = await this.client.decode(record)
    this.onTimes(t1 - t0, performance.now() - t1)
    return shown
  }
}

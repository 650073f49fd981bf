// A transport moves request/response/event envelopes between the renderer and the main
// services. Two implementations share this interface: Electron IPC (through the preload's
// contextBridge) and a WebSocket to the headless host.
import type { EventEnvelope, RequestEnvelope, ResponseEnvelope } from '../../src-shared/api/contract'

export interface Transport {
  readonly kind: 'electron' | 'websocket'
  /** The WebSocket's address (websocket only): a decode worker opens its own there. */
  readonly url?: string
  send(env: RequestEnvelope): Promise<ResponseEnvelope>
  onEvent(cb: (ev: EventEnvelope) => void): () => void
  /** Called when the connection to the services is lost for good (host exited). */
  onClose(cb: (reason: string) => void): void
}

/** What src-main/electron/preload.ts exposes on `window.eddyIpc` through contextBridge. */
export interface PreloadApi {
  request(env: RequestEnvelope): Promise<ResponseEnvelope>
  onEvent(cb: (ev: EventEnvelope) => void): () => void
}

declare global {
  interface Window {
    eddyIpc?: PreloadApi
  }
}

// Electron transport: the preload script owns ipcRenderer; we only see its typed surface.
import type { PreloadApi, Transport } from './transport'

export function ipcTransport(api: PreloadApi): Transport {
  return {
    kind: 'electron',
    send: (env) => api.request(env),
    onEvent: (cb) => api.onEvent(cb),
    onClose: () => {
      // The main process outlives the window; there is nothing to lose.
    },
  }
}

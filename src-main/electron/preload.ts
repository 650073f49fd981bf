// Sandboxed preload: exposes only the typed request/event surface of the API, never
// ipcRenderer itself. Built as CommonJS because sandboxed preloads cannot be ES modules.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { EventEnvelope, RequestEnvelope, ResponseEnvelope } from '../../src-shared/api/contract'
import { IPC_EVENT, IPC_REQUEST } from './channels'

contextBridge.exposeInMainWorld('eddyIpc', {
  request: (env: RequestEnvelope): Promise<ResponseEnvelope> => ipcRenderer.invoke(IPC_REQUEST, env),
  onEvent: (cb: (ev: EventEnvelope) => void): (() => void) => {
    const listener = (_e: IpcRendererEvent, ev: EventEnvelope): void => cb(ev)
    ipcRenderer.on(IPC_EVENT, listener)
    return () => ipcRenderer.removeListener(IPC_EVENT, listener)
  },
})

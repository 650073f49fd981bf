// Electron transport: requests arrive on one invoke channel and go to the same service
// as the headless host's WebSocket; only our own window's top frame may call it.
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { pathToFileURL } from 'node:url'
import type { EventEnvelope, ResponseEnvelope } from '../../src-shared/api/contract'
import type { EddyService } from '../app/service'
import { IPC_EVENT, IPC_REQUEST } from './channels'
import { RENDERER_INDEX } from './window'

function trustedSender(e: IpcMainInvokeEvent): boolean {
  const frame = e.senderFrame
  return !!frame && frame.parent === null && frame.url.split('#')[0] === pathToFileURL(RENDERER_INDEX).href
}

export function installIpc(service: EddyService, windows: () => BrowserWindow[]): void {
  ipcMain.handle(IPC_REQUEST, async (e, raw: unknown): Promise<ResponseEnvelope> => {
    if (!trustedSender(e)) return { id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: 'Request from an untrusted frame' } }
    return service.request(raw)
  })
  service.onProjectChanged = (state) => broadcast(windows(), { event: 'project.changed', payload: { state } })
  service.onEvent = (ev) => broadcast(windows(), ev)
}

export function broadcast(wins: BrowserWindow[], ev: EventEnvelope): void {
  for (const w of wins) if (!w.isDestroyed()) w.webContents.send(IPC_EVENT, ev)
}

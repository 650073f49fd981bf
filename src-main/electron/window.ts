// The application window, locked down per Electron's security checklist: isolated,
// sandboxed renderer without Node, a strict CSP on every response, no navigation away
// from the app, no new windows.
import { BrowserWindow, session, shell } from 'electron'
import { fileURLToPath } from 'node:url'
import { CONTENT_SECURITY_POLICY } from '../host/staticFiles'

export const RENDERER_INDEX = fileURLToPath(new URL('../renderer/index.html', import.meta.url))
const PRELOAD = fileURLToPath(new URL('../preload/preload.cjs', import.meta.url))

export function installContentSecurityPolicy(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } })
  })
}

export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    title: 'Eddy',
    backgroundColor: '#232323',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  })
  win.once('ready-to-show', () => win.show())
  win.webContents.on('will-navigate', (e) => e.preventDefault())
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url)
    return { action: 'deny' }
  })
  void win.loadFile(RENDERER_INDEX)
  return win
}

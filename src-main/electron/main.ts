// Electron main process: the services of src-main/app behind IPC, one locked-down window,
// and the application menu. The only code in Eddy that imports 'electron'.
// The solver families register their parameters with the spec table before anything reads it.
import '../../src-shared/sim/registry'
import { app, BrowserWindow } from 'electron'
import { join } from 'node:path'
import { EddyService } from '../app/service'
import { APP_VERSION } from '../app/version'
import { installIpc } from './ipc'
import { buildMenu } from './menu'
import { createMainWindow, installContentSecurityPolicy } from './window'

const service = new EddyService({
  mode: 'electron',
  version: APP_VERSION,
  dataDir: process.env.EDDY_DATA_DIR ?? app.getPath('userData'),
  projectsDir: process.env.EDDY_PROJECTS_DIR ?? join(app.getPath('documents'), 'Eddy Projects'),
  bakeWorker: new URL('./bakeWorker.js', import.meta.url),
})

const windows = (): BrowserWindow[] => BrowserWindow.getAllWindows()

app.whenReady().then(async () => {
  installContentSecurityPolicy()
  installIpc(service, windows)
  const refreshMenu = service.onProjectChanged
  service.onProjectChanged = (state) => {
    refreshMenu?.(state)
    void buildMenu(service, windows)
  }
  await buildMenu(service, windows)
  createMainWindow()
  app.on('activate', () => {
    if (windows().length === 0) createMainWindow()
  })
})

app.on('window-all-closed', () => {
  // Bakes are cancelled (workers stopped, finished frames kept) before the file closes.
  void service.close().finally(() => {
    if (process.platform !== 'darwin') app.quit()
  })
})

// The application menu. File commands that need a native dialog run here in the main
// process; the rest are forwarded to the renderer as 'menu.command' events so that the
// keyboard, the in-app menu bar and this menu share one implementation.
import { BrowserWindow, Menu, dialog, type MenuItemConstructorOptions } from 'electron'
import { basename, dirname, extname } from 'node:path'
import type { MenuCommand } from '../../src-shared/api/contract'
import type { EddyService } from '../app/service'
import { broadcast } from './ipc'

type Windows = () => BrowserWindow[]

const EDDY_FILTER = [{ name: 'Eddy project', extensions: ['eddy'] }]

function send(windows: Windows, command: MenuCommand): void {
  broadcast(windows(), { event: 'menu.command', payload: { command } })
}

async function call(service: EddyService, type: string, params: unknown): Promise<void> {
  const r = await service.request({ id: 0, type, params })
  if (!r.ok) dialog.showErrorBox('Eddy', r.error.message)
}

export async function buildMenu(service: EddyService, windows: Windows): Promise<void> {
  const recent = await service.request({ id: 0, type: 'project.recent', params: {} })
  const recentItems: MenuItemConstructorOptions[] =
    recent.ok && Array.isArray(recent.result) && recent.result.length
      ? (recent.result as { path: string; name: string }[]).map((p) => ({
          label: `${p.name} — ${p.path}`,
          click: () => void call(service, 'project.open', { path: p.path }).then(() => buildMenu(service, windows)),
        }))
      : [{ label: 'No recent projects', enabled: false }]

  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        {
          label: 'New…',
          accelerator: 'CmdOrCtrl+N',
          click: async () => {
            const r = await dialog.showSaveDialog({ title: 'New Eddy project', filters: EDDY_FILTER })
            if (r.canceled || !r.filePath) return
            await call(service, 'project.create', { name: basename(r.filePath, extname(r.filePath)), dir: dirname(r.filePath) })
            await buildMenu(service, windows)
          },
        },
        {
          label: 'Open…',
          accelerator: 'CmdOrCtrl+O',
          click: async () => {
            const r = await dialog.showOpenDialog({ title: 'Open Eddy project', filters: EDDY_FILTER, properties: ['openFile'] })
            if (r.canceled || !r.filePaths[0]) return
            await call(service, 'project.open', { path: r.filePaths[0] })
            await buildMenu(service, windows)
          },
        },
        { label: 'Open Recent', submenu: recentItems },
        { type: 'separator' },
        {
          label: 'Save As…',
          accelerator: 'CmdOrCtrl+Shift+S',
          click: async () => {
            const r = await dialog.showSaveDialog({ title: 'Save project as', filters: EDDY_FILTER })
            if (r.canceled || !r.filePath) return
            await call(service, 'project.saveAs', { path: r.filePath })
            await buildMenu(service, windows)
          },
        },
        { label: 'Close Project', accelerator: 'CmdOrCtrl+W', click: () => void call(service, 'project.close', {}) },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { label: 'Undo', accelerator: 'CmdOrCtrl+Z', click: () => send(windows, 'edit.undo') },
        { label: 'Redo', accelerator: 'CmdOrCtrl+Shift+Z', click: () => send(windows, 'edit.redo') },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
      ],
    },
    { label: 'View', submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { role: 'togglefullscreen' }] },
    {
      label: 'Help',
      submenu: [
        { label: 'Keyboard and Mouse', click: () => send(windows, 'help.shortcuts') },
        { label: 'About Eddy', click: () => send(windows, 'help.about') },
      ],
    },
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

// Renderer entry: connect to the services (Electron IPC or the headless host's WebSocket),
// load what is already open, subscribe to pushed events, then mount the UI.
// The solver families register their parameters with the spec table before any UI reads it.
import '../src-shared/sim/registry'
import { mount } from 'svelte'
import App from './App.svelte'
import { connectApi } from './bridge/client'
import { runMenuCommand } from './panels/commands'
import { installShortcuts } from './panels/shortcuts'
import { app } from './state/app.svelte'
import { bakes } from './state/bakes.svelte'

function showFatal(target: HTMLElement, title: string, detail: string): void {
  target.replaceChildren()
  const box = document.createElement('div')
  box.className = 'fatal'
  box.dataset.testid = 'connect-error'
  const h = document.createElement('h1')
  h.textContent = title
  const p = document.createElement('p')
  p.textContent = detail
  box.append(h, p)
  target.append(box)
}

async function start(): Promise<void> {
  const target = document.getElementById('app')
  if (!target) throw new Error('index.html has no #app element')
  try {
    const api = await connectApi()
    app.api = api
    api.transport.onClose((reason) => {
      app.connectionLost = reason
      app.playing = false
    })
    api.on('project.changed', (p) => app.setProject(p.state))
    api.on('bake.update', (p) => bakes.onBakeUpdate(p))
    api.on('export.update', (p) => bakes.onExportUpdate(p))
    api.on('menu.command', (p) => runMenuCommand(p.command, p.path))
    const [info, project] = await Promise.all([api.call('app.info', {}), api.call('project.get', {})])
    app.mode = info.mode
    app.projectsDir = info.projectsDir
    app.version = info.version
    app.setProject(project)
  } catch (e) {
    showFatal(target, 'Eddy could not connect to its services', e instanceof Error ? e.message : String(e))
    return
  }
  installShortcuts()
  mount(App, { target })
}

void start()

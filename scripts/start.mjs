// `npm start`: opens Eddy. With the Electron binary installed it runs the Electron app.
// Without it (as on machines that cannot download Electron) it starts the same services
// in the headless host and opens the same renderer as a Chromium app window; with no
// display at all it prints the address and says how to open it.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { openAppWindow } from './lib/browserWindow.mjs'
import { CHROMIUM, ROOT, ensureBuild, ensureDebianPackages, ensureNodeModules } from './lib/ensure.mjs'

function electronBinary() {
  const pathFile = join(ROOT, 'node_modules/electron/path.txt')
  if (!existsSync(pathFile)) return null
  const bin = join(ROOT, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(bin) ? bin : null
}

const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)

try {
  ensureNodeModules()
  ensureBuild()
} catch (e) {
  console.error(`eddy: ${e.message}`)
  process.exit(1)
}

const electron = electronBinary()
if (electron && hasDisplay) {
  const child = spawn(electron, [ROOT], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  if (hasDisplay) {
    try {
      ensureDebianPackages([CHROMIUM])
    } catch (e) {
      console.error(`eddy: ${e.message}`)
      process.exit(1)
    }
  }
  const host = spawn(process.execPath, [join(ROOT, 'out/main/host.js'), ...process.argv.slice(2)], { stdio: ['ignore', 'pipe', 'inherit'] })
  let window = null
  let stopping = false
  let windowCrashed = false
  const stop = () => {
    if (stopping) return
    stopping = true
    window?.proc.kill('SIGTERM')
    host.kill('SIGTERM')
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  host.on('exit', (code) => {
    // Wait for Chromium so a per-process profile can be removed before we go.
    stopping = true
    window?.proc.kill('SIGTERM')
    void (window?.done() ?? Promise.resolve()).then(() => process.exit(windowCrashed ? 1 : (code ?? 0)))
  })
  createInterface({ input: host.stdout }).on('line', (line) => {
    if (!line.startsWith('EDDY_HOST_READY ')) {
      console.log(line)
      return
    }
    // The one-time launch address comes through this pipe, never argv or the environment.
    // It may appear on Chromium's command line: the first request voids it.
    const { launchUrl, dataDir } = JSON.parse(line.slice('EDDY_HOST_READY '.length))
    if (!hasDisplay) {
      console.log(`\nEddy is running. Open this launch address once:\n  ${launchUrl}\nThere is no display here (DISPLAY is not set), so no window was opened.`)
      console.log('Open it in Chromium or Chrome on this machine (Eddy only listens on 127.0.0.1). It works once: that browser then keeps the session. Ctrl+C stops Eddy.')
      return
    }
    if (!electron) console.log('eddy: the Electron binary is not installed (run `node node_modules/electron/install.js` where the internet is reachable); opening Eddy as a Chromium app window instead.')
    window = openAppWindow({ launchUrl, dataDir })
    console.log(`Eddy window opened (profile ${window.profile.dir}). Closing the window stops Eddy.`)
    window.proc.on('exit', (code, signal) => {
      // A window the user closed exits 0; anything else is a crash worth explaining.
      if (!stopping && (code !== 0 || signal !== null)) {
        windowCrashed = true
        const why = signal ? `was killed by ${signal}` : `exited with code ${code}`
        console.error(`eddy: the Chromium window ${why}. Its last messages:\n${window.lastMessages().map((l) => `  ${l}`).join('\n') || '  (none)'}`)
      }
      void window.done().then(stop)
    })
  })
}

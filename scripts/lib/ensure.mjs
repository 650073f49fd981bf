// Install and build steps shared by `npm start` and `npm test`, so both work on a fresh
// clone: npm packages (npm ci when the lockfile changed), Debian packages (chromium, xvfb)
// when running as root, and the electron-vite build when sources are newer than out/.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '')

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts })
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`)
  return r.status ?? 1
}

function mtime(p) {
  try {
    return statSync(p).mtimeMs
  } catch {
    return 0
  }
}

function newestIn(dir) {
  let newest = 0
  if (!existsSync(dir)) return 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    newest = Math.max(newest, e.isDirectory() ? newestIn(p) : mtime(p))
  }
  return newest
}

export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules/.package-lock.json')
  if (existsSync(marker) && mtime(marker) >= mtime(join(ROOT, 'package-lock.json'))) return
  console.log('eddy: installing npm packages (npm ci; better-sqlite3 compiles from source, about a minute)')
  const env = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' }
  if (run('npm', ['ci', '--no-audit', '--no-fund'], { env }) !== 0) throw new Error('npm ci failed')
}

/** Debian packages: installs them when root and apt-get exist, else says what to run. */
export function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !existsSync(p.binary))
  if (missing.length === 0) return
  const names = missing.map((p) => p.name)
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`eddy: installing Debian packages: ${names.join(' ')}`)
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    if (run('apt-get', ['update', '-qq'], { env }) !== 0 || run('apt-get', ['install', '-y', '-qq', ...names], { env }) !== 0) {
      throw new Error(`apt-get install ${names.join(' ')} failed`)
    }
    return
  }
  throw new Error(`Missing Debian packages: ${names.join(' ')}. Install them with: sudo apt-get install -y ${names.join(' ')}`)
}

export function ensureBuild() {
  // WebAssembly kernels first: shared code (and so every bundle) imports the generated module.
  if (run('node', [join(ROOT, 'scripts/build-wasm.mjs')]) !== 0) throw new Error('building the WebAssembly kernels failed')
  const built = Math.min(mtime(join(ROOT, 'out/main/host.js')), mtime(join(ROOT, 'out/main/cli.js')), mtime(join(ROOT, 'out/renderer/index.html')), mtime(join(ROOT, 'out/preload/preload.cjs')))
  const sources = Math.max(
    newestIn(join(ROOT, 'src-main')),
    newestIn(join(ROOT, 'src-renderer')),
    newestIn(join(ROOT, 'src-shared')),
    mtime(join(ROOT, 'electron.vite.config.ts')),
    mtime(join(ROOT, 'package-lock.json')),
  )
  if (built > 0 && built >= sources) return
  console.log('eddy: building (electron-vite build)')
  if (run(join(ROOT, 'node_modules/.bin/electron-vite'), ['build']) !== 0) throw new Error('electron-vite build failed')
}

export const CHROMIUM = { name: 'chromium', binary: '/usr/bin/chromium' }
export const XVFB = { name: 'xvfb', binary: '/usr/bin/Xvfb' }

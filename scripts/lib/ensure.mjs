// Install and build steps shared by `npm start` and `npm test`, so both work on a fresh
// clone: npm packages (npm ci when the lockfile changed), Debian packages (chromium, xvfb)
// when running as root, and the electron-vite build when sources are newer than out/.
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

// The one package whose install script compiles (better-sqlite3: SQLite's amalgamation, about
// 100 s on one core); package.json's allowScripts keeps every other install script off.
const NATIVE_PACKAGE = 'better-sqlite3'
const NATIVE_BINDING = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
const npmEnv = () => ({ ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' })

function lockfileInstalled() {
  const marker = join(ROOT, 'node_modules/.package-lock.json')
  return existsSync(marker) && mtime(marker) >= mtime(join(ROOT, 'package-lock.json'))
}

/**
 * npm packages as the lockfile says, better-sqlite3 compiled. `background: true` (npm test)
 * unpacks the packages, starts the compile and returns a promise of its end, so the
 * WebAssembly build, the bundle and the type check (which need no native code) use the
 * other core meanwhile; `await` it before anything opens a database. Otherwise the compile
 * is finished on return. A compile that was cut short (the packages unpacked, no binding)
 * is redone.
 */
export function ensureNodeModules({ background = false } = {}) {
  if (!lockfileInstalled()) {
    console.log(`eddy: installing npm packages (npm ci; ${NATIVE_PACKAGE} compiles from source, about a minute and a half)`)
    if (run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { env: npmEnv() }) !== 0) throw new Error('npm ci failed')
  } else if (existsSync(NATIVE_BINDING)) {
    return Promise.resolve()
  }
  if (!background) {
    if (run('npm', ['rebuild', NATIVE_PACKAGE], { env: npmEnv() }) !== 0) throw new Error(`compiling ${NATIVE_PACKAGE} failed (npm rebuild ${NATIVE_PACKAGE})`)
    return Promise.resolve()
  }
  // Its output goes to a file, printed only if it fails: it would interleave with the build's.
  const log = join(tmpdir(), `eddy-native-build-${process.pid}.log`)
  const out = openSync(log, 'w')
  return new Promise((resolve, reject) => {
    // A group of its own, so that if this process ends first the compiler ends with it.
    const child = spawn('npm', ['rebuild', NATIVE_PACKAGE], { cwd: ROOT, env: npmEnv(), stdio: ['ignore', out, out], detached: true })
    closeSync(out)
    const stopCompile = () => {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        // already gone
      }
    }
    process.on('exit', stopCompile)
    child.on('error', (e) => reject(new Error(`npm rebuild ${NATIVE_PACKAGE} could not start: ${e.message}`)))
    child.on('exit', (code) => {
      process.off('exit', stopCompile)
      const output = existsSync(log) ? readFileSync(log, 'utf8') : ''
      rmSync(log, { force: true })
      if (code === 0 && existsSync(NATIVE_BINDING)) return resolve()
      process.stdout.write(output)
      reject(new Error(`compiling ${NATIVE_PACKAGE} failed (npm rebuild ${NATIVE_PACKAGE} exited with ${code}; its output is above)`))
    })
  })
}

/** The environment variable naming the status file of a Debian install running beside npm test. */
export const APT_STATUS_ENV = 'EDDY_APT_STATUS'
// The longest npm test waits for that install: a fresh machine's takes about two minutes.
const APT_WAIT_MS = 20 * 60_000

/**
 * Waits for the Debian packages CI installs beside npm test (.ci/run): the packages install
 * while the npm packages unpack, better-sqlite3 compiles, the bundles build and the types are
 * checked, none of which needs them. .ci/run names a status file in EDDY_APT_STATUS and writes
 * apt-get's exit code to it when the install ends, its output to the same path plus `.log`.
 * Resolves at once when the variable is unset; rejects, with the end of apt-get's output, when
 * the install failed or did not end within `timeoutMs` (APT_WAIT_MS).
 */
export async function awaitBackgroundDebianInstall({ timeoutMs = APT_WAIT_MS } = {}) {
  const status = process.env[APT_STATUS_ENV]
  if (!status) return
  const t0 = Date.now()
  let said = false
  while (!existsSync(status) || readFileSync(status, 'utf8').trim() === '') {
    if (Date.now() - t0 > timeoutMs) throw new Error(`the Debian packages' install (apt-get install, started by .ci/run) did not end within ${(timeoutMs / 60_000).toFixed(1)} minutes`)
    if (!said) console.log('eddy: waiting for the Debian packages (apt-get install, started by .ci/run)')
    said = true
    await new Promise((r) => setTimeout(r, 500))
  }
  const code = readFileSync(status, 'utf8').trim()
  if (code !== '0') {
    const log = `${status}.log`
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-30).join('\n') : '(no output kept)'
    throw new Error(`installing the Debian packages failed (apt-get install exited with ${code}); the end of its output:\n${tail}`)
  }
  console.log(`eddy: the Debian packages were installed${said ? ` (waited ${((Date.now() - t0) / 1000).toFixed(0)} s)` : ''}`)
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

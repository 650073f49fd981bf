// Opens the headless host's renderer as a Chromium app window (what `npm start` does when
// the Electron binary is missing). Two rules:
// - Nothing secret on Chromium's command line: it gets the host's one-time launch address,
//   which the host voids on first use (the session then lives in an HttpOnly cookie).
// - One reused profile, <app data>/chromium-profile, instead of a fresh 11 MB folder in
//   /tmp per run. When another Eddy window holds it, a second profile named after this
//   process is used and removed on exit (and left-overs of crashed runs on the next start).
import { spawn } from 'node:child_process'
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { CHROMIUM } from './ensure.mjs'

export const PROFILE_NAME = 'chromium-profile'
const STDERR_LINES_KEPT = 20

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

/** True while a running Chromium holds the profile (its SingletonLock names host and pid). */
export function profileInUse(dir) {
  let target
  try {
    target = readlinkSync(join(dir, 'SingletonLock'))
  } catch {
    return false
  }
  const dash = target.lastIndexOf('-')
  const pid = Number(target.slice(dash + 1))
  if (target.slice(0, dash) !== hostname() || !Number.isInteger(pid) || pid <= 0) return true // another machine's, or unreadable: leave it
  return alive(pid)
}

/**
 * Pids of the Chromium processes still running on a profile, helpers included. When the
 * browser process exits (e.g. it found no X server), its zygotes can outlive it for a moment
 * and still write into the profile: removing the folder then races them (ENOTEMPTY). Read
 * from /proc, so empty where there is none.
 */
export function profileProcesses(dir) {
  const flag = `--user-data-dir=${dir}`
  const pids = []
  for (const name of safeList('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let cmdline
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1')
    } catch {
      continue // gone meanwhile
    }
    // Arguments end in NUL, or in spaces where a zygote rewrote its title.
    const at = cmdline.indexOf(flag)
    const after = cmdline[at + flag.length]
    if (at >= 0 && (after === undefined || after === '\0' || after === ' ')) pids.push(Number(name))
  }
  return pids
}

const HELPERS_EXIT_MS = 10_000

/** Resolves once no process runs on the profile, or after HELPERS_EXIT_MS (then says so). */
async function profileReleased(dir) {
  const until = Date.now() + HELPERS_EXIT_MS
  let left = profileProcesses(dir)
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50))
    left = profileProcesses(dir)
  }
  if (left.length > 0) console.error(`eddy: Chromium processes ${left.join(', ')} still run on ${dir} ${HELPERS_EXIT_MS / 1000} s after the window closed`)
  return left.length === 0
}

/** Removes per-process profiles whose process is gone, and the /tmp profiles older versions left. */
function removeLeftovers(dataDir) {
  const perProcess = new RegExp(`^${PROFILE_NAME}-(\\d+)$`)
  for (const name of safeList(dataDir)) {
    const m = perProcess.exec(name)
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(join(dataDir, name), { recursive: true, force: true })
  }
  const uid = process.getuid?.()
  for (const name of safeList(tmpdir())) {
    if (!name.startsWith('eddy-chromium-')) continue
    const dir = join(tmpdir(), name)
    try {
      const st = lstatSync(dir)
      if (st.isDirectory() && (uid === undefined || st.uid === uid) && !profileInUse(dir)) rmSync(dir, { recursive: true, force: true })
    } catch {
      // gone meanwhile, or not ours
    }
  }
}

function safeList(dir) {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** The profile folder this run uses, and whether it is this run's own (removed on exit). */
export function chooseProfile(dataDir) {
  const base = resolve(dataDir)
  mkdirSync(base, { recursive: true, mode: 0o700 })
  removeLeftovers(base)
  const shared = join(base, PROFILE_NAME)
  if (!profileInUse(shared)) {
    mkdirSync(shared, { recursive: true, mode: 0o700 })
    return { dir: shared, temporary: false }
  }
  const own = join(base, `${PROFILE_NAME}-${process.pid}`)
  mkdirSync(own, { recursive: true, mode: 0o700 })
  return { dir: own, temporary: true }
}

export function chromiumArgs(launchUrl, profileDir, extraArgs = []) {
  return [
    `--app=${launchUrl}`,
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--test-type',
    // WebGL on the GPU where there is one; on a machine without one, SwiftShader's software
    // WebGL, which Chromium blocks unless asked. (This window used to force SwiftShader with
    // --use-angle=swiftshader, which left a machine's GPU unused.)
    '--enable-unsafe-swiftshader',
    '--window-size=1440,900',
    // The profile is reused: no "restore pages?" bubble after a killed run.
    '--hide-crash-restore-bubble',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ...extraArgs,
  ]
}

/**
 * Starts Chromium on the launch address. `extraArgs` is for tests only (e.g. a headless
 * platform where there is no X server). `done()` waits for Chromium and its helper processes
 * to exit, then removes a per-process profile.
 */
export function openAppWindow({ launchUrl, dataDir, extraArgs = [], binary = CHROMIUM.binary }) {
  const profile = chooseProfile(dataDir)
  // stderr is read (never left to fill its pipe) and its last lines kept, so a window that
  // dies or never appears can be explained by what Chromium said.
  const proc = spawn(binary, chromiumArgs(launchUrl, profile.dir, extraArgs), { stdio: ['ignore', 'ignore', 'pipe'] })
  const said = []
  createInterface({ input: proc.stderr }).on('line', (line) => {
    said.push(line)
    if (said.length > STDERR_LINES_KEPT) said.shift()
  })
  const exited = new Promise((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r()
    else proc.once('exit', () => r())
  })
  return {
    proc,
    profile,
    /** Chromium's last stderr lines (at most STDERR_LINES_KEPT). */
    lastMessages: () => said.slice(),
    async done() {
      await exited
      const released = await profileReleased(profile.dir)
      // A helper that outlived the wait keeps the folder; the next start removes it.
      if (profile.temporary && released) rmSync(profile.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
    },
  }
}

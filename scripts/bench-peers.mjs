// `npm run bench:peers -- smoke [--res 64] [--frames 48] [--threads N]`: runs Eddy's benchmark
// and, when `blender` is on PATH, Blender Mantaflow's peer script on the same scene in one
// run, and prints both figures and their ratio. Peer scripts come from ../shared/peers/.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ROOT, ensureBuild, ensureNodeModules } from './lib/ensure.mjs'

const SCENES = { smoke: 'blender_smoke.py' }
const argv = process.argv.slice(2)
const scene = argv[0]
if (!SCENES[scene]) {
  console.error(`usage: npm run bench:peers -- <${Object.keys(SCENES).join('|')}> [--res 64] [--frames 48] [--threads N]`)
  process.exit(2)
}
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : def
}
const res = Number(opt('res', '64'))
const frames = Number(opt('frames', '48'))
const threads = opt('threads', undefined)

ensureNodeModules()
ensureBuild()

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null
}

// Eddy first, in its own process, so neither run shares a heap or JIT with the other.
const eddyArgs = [join(ROOT, 'out/main/cli.js'), 'bench', scene, '--res', String(res), '--frames', String(frames), ...(threads ? ['--threads', threads] : [])]
console.log(`== Eddy: node ${eddyArgs.slice(1).join(' ')}`)
const eddy = spawnSync(process.execPath, eddyArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
process.stdout.write(eddy.stdout)
const eddyLine = eddy.stdout.split('\n').find((l) => l.startsWith('EDDY_BENCH '))
const eddyMs = eddyLine ? JSON.parse(eddyLine.slice('EDDY_BENCH '.length)).msPerFrame : null
if (eddy.status !== 0 || eddyMs === null) {
  console.error('Eddy benchmark failed')
  process.exit(1)
}

const peers = resolve(ROOT, '../shared/peers')
const blender = which('blender')
let peerMs = null
if (!blender) console.log('== Blender: not on PATH (apt-get install blender), so no peer figure this run')
else if (!existsSync(join(peers, SCENES[scene]))) console.log(`== Blender: peer script ${join(peers, SCENES[scene])} not found`)
else {
  const out = mkdtempSync(join(tmpdir(), 'eddy-peer-'))
  const args = ['-b', ...(threads ? ['-t', threads] : []), '-P', join(peers, SCENES[scene]), '--', String(res), String(frames), out]
  console.log(`== Blender Mantaflow: blender ${args.join(' ')}`)
  const r = spawnSync(blender, args, { encoding: 'utf8', cwd: out })
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('PEER '))
  if (line) {
    console.log(line)
    peerMs = Number(/per_frame_ms=([\d.]+)/.exec(line)?.[1])
  } else console.log(`Blender run failed (exit ${r.status}): ${(r.stderr ?? '').slice(-500)}`)
  rmSync(out, { recursive: true, force: true })
}

console.log('\n| scene | res | frames | Eddy ms/frame | Mantaflow ms/frame | Eddy / Mantaflow |')
console.log('|---|---|---|---|---|---|')
console.log(`| ${scene} | ${res} | ${frames} | ${eddyMs.toFixed(1)} | ${peerMs ? peerMs.toFixed(1) : 'n/a'} | ${peerMs ? (eddyMs / peerMs).toFixed(2) : 'n/a'} |`)

// `npm run bench:peers -- smoke|liquid|viscous [--res 64] [--frames 48] [--threads N] [--viscosity 0.2]`:
// runs Eddy's benchmark and, when `blender` is on PATH, Blender Mantaflow's peer script on the
// same scene in one run, and prints both figures and their ratio. Peer scripts come from
// ../shared/peers/. `liquid` also bakes the melting-bunny example on Carlson 2004's
// 35x28x38 grid and prints it next to the thesis's own figure (Table 6).
// `npm run bench:peers -- tetmesh [--max 1000000] [--threads N]`: `eddy bench tetmesh` with each
// pressure system also solved by hypre's BoomerAMG-PCG (scripts/peers/boomeramg.c, built here
// when libhypre-dev is installed).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ROOT, ensureBuild, ensureNodeModules } from './lib/ensure.mjs'
import { buildBoomerAmg } from './lib/boomeramgPeer.mjs'

const SCENES = { smoke: 'blender_smoke.py', liquid: 'blender_liquid.py', viscous: 'blender_viscous.py' }
const argv = process.argv.slice(2)
const scene = argv[0]
if (!SCENES[scene] && scene !== 'tetmesh') {
  console.error(`usage: npm run bench:peers -- <${Object.keys(SCENES).join('|')}> [--res 64] [--frames 48] [--threads N] [--viscosity 0.2 (viscous)]`)
  console.error('       npm run bench:peers -- tetmesh [--max 1000000] [--threads N]')
  process.exit(2)
}
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : def
}

if (scene === 'tetmesh') {
  ensureNodeModules()
  ensureBuild()
  const peer = buildBoomerAmg()
  if (peer.missing) console.log(`== BoomerAMG: no ${peer.missing}, so no peer figure this run`)
  const args = [join(ROOT, 'out/main/cli.js'), 'bench', 'tetmesh', '--max', opt('max', '1000000'), ...(opt('threads') ? ['--threads', opt('threads')] : []), ...(peer.driver ? ['--hypre', peer.driver] : [])]
  console.log(`== Eddy: node ${args.slice(1).join(' ')}`)
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' })
  process.exit(r.status ?? 1)
}
const res = Number(opt('res', '64'))
const frames = Number(opt('frames', '48'))
const threads = opt('threads', undefined)
// Blender's viscous peer defaults to strength 0.2; Eddy reads the same number as m²/s.
const viscosity = scene === 'viscous' ? opt('viscosity', '0.2') : undefined
// --threads limits both: Eddy's kernel threads (the smoke's kernels, the liquid's marker and
// pressure kernels) and Blender's.
const eddyThreads = threads ? ['--threads', threads] : []

ensureNodeModules()
ensureBuild()

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null
}

/** Runs `eddy bench ...` in its own process (no shared heap or JIT); returns its EDDY_BENCH json. */
function runEddy(args) {
  const eddyArgs = [join(ROOT, 'out/main/cli.js'), 'bench', ...args]
  console.log(`== Eddy: node ${eddyArgs.slice(1).join(' ')}`)
  const r = spawnSync(process.execPath, eddyArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  process.stdout.write(r.stdout)
  const line = r.stdout.split('\n').find((l) => l.startsWith('EDDY_BENCH '))
  if (r.status !== 0 || !line) {
    console.error(`Eddy benchmark failed: eddy bench ${args.join(' ')}`)
    process.exit(1)
  }
  return JSON.parse(line.slice('EDDY_BENCH '.length))
}

// Eddy first, then Blender.
const eddy = runEddy([scene, '--res', String(res), '--frames', String(frames), ...eddyThreads, ...(viscosity ? ['--viscosity', viscosity] : [])])
const eddyMs = eddy.msPerFrame
const eddyRss = eddy.peakRssMiB
// Blender's peak memory from GNU time (Debian package "time") when it is installed.
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : null
let peerRss = null

const peers = resolve(ROOT, '../shared/peers')
const blender = which('blender')
let peerMs = null
if (!blender) console.log('== Blender: not on PATH (apt-get install blender), so no peer figure this run')
else if (!existsSync(join(peers, SCENES[scene]))) console.log(`== Blender: peer script ${join(peers, SCENES[scene])} not found`)
else {
  const out = mkdtempSync(join(tmpdir(), 'eddy-peer-'))
  const args = ['-b', ...(threads ? ['-t', threads] : []), '-P', join(peers, SCENES[scene]), '--', String(res), String(frames), out, ...(viscosity ? [viscosity] : [])]
  console.log(`== Blender Mantaflow: blender ${args.join(' ')}`)
  const r = gnuTime
    ? spawnSync(gnuTime, ['-f', 'PEAK_RSS_KB %M', blender, ...args], { encoding: 'utf8', cwd: out })
    : spawnSync(blender, args, { encoding: 'utf8', cwd: out })
  const rss = /PEAK_RSS_KB (\d+)/.exec(r.stderr ?? '')
  if (rss) peerRss = Number(rss[1]) / 1024
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('PEER '))
  if (line) {
    console.log(line)
    peerMs = Number(/per_frame_ms=([\d.]+)/.exec(line)?.[1])
  } else console.log(`Blender run failed (exit ${r.status}): ${(r.stderr ?? '').slice(-500)}`)
  rmSync(out, { recursive: true, force: true })
}

console.log('\n| scene | res | frames | Eddy ms/frame | Mantaflow ms/frame | Eddy / Mantaflow | Eddy peak RSS MiB | Mantaflow peak RSS MiB | RSS ratio |')
console.log('|---|---|---|---|---|---|---|---|---|')
const fmt = (v, d = 1) => (v ? v.toFixed(d) : 'n/a')
console.log(
  `| ${scene} | ${res} | ${frames} | ${eddyMs.toFixed(1)} | ${fmt(peerMs)} | ${peerMs ? (eddyMs / peerMs).toFixed(2) : 'n/a'} | ` +
    `${fmt(eddyRss, 0)} | ${fmt(peerRss, 0)} | ${eddyRss && peerRss ? (eddyRss / peerRss).toFixed(2) : 'n/a'} |`,
)
if (scene !== 'smoke') {
  const where = eddy.kernels === 'wasm' ? `its marker loops and pressure kernels on ${eddy.threads} thread${eddy.threads === 1 ? '' : 's'}, the rest on one` : 'on one thread'
  console.log(`Eddy's liquid solver runs ${where}; Blender on ${threads ?? 'all cores (its default)'}. Eddy's time has no cache writes, Blender's includes its VDB and mesh files.`)
}

// Carlson 2004, Table 6 and sec. 4.5.1: the melting bunny took 330 s for 600 frames on a
// 35x28x38 grid on a 2.0 GHz Pentium 4, without surface meshing (surfaces were splatted
// offline). Ours: the melting-bunny example at resolution 38 (exactly that grid), same frames
// as above; "sim" leaves out the surface mesh, the fair comparison with the thesis.
if (scene === 'liquid') {
  const b = runEddy(['bunny', '--res', '38', '--frames', String(frames), ...eddyThreads])
  console.log('\n| melting bunny | grid | frames | s/frame (sim) | s/frame (sim + surface mesh) | machine |')
  console.log('|---|---|---|---|---|---|')
  console.log('| Carlson 2004 (thesis Table 6) | 35x28x38 | 600 | 0.55 | n/a (meshed offline) | 2.0 GHz Pentium 4 |')
  console.log(`| Eddy melting-bunny example | ${String(b.layout).replace(' grid', '')} | ${frames} (first ${frames} of 240) | ${(b.simMsPerFrame / 1000).toFixed(3)} | ${(b.msPerFrame / 1000).toFixed(3)} | this machine, ${b.kernels === 'wasm' ? `${b.threads} kernel thread${b.threads === 1 ? '' : 's'}` : '1 thread'} |`)
  console.log('Carlson 2004 melting bunny: 0.55 s/frame on a 35x28x38 grid (2.0 GHz Pentium 4)')
  console.log(`Eddy melting bunny: ${(b.simMsPerFrame / 1000).toFixed(3)} s/frame (${(b.msPerFrame / 1000).toFixed(3)} with the surface mesh) on a ${b.layout}, first ${frames} frames`)
}

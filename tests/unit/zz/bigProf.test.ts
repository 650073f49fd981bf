import fs from 'node:fs'
import { Session } from 'node:inspector/promises'
import { it } from 'vitest'
import '../../../src-shared/sim/registry'
import { runBake } from '../../../src-main/bake/runner'
import { makeSmokeProject, tempDir } from '../bake/bakeFixtures'

it('prof', async () => {
  const dir = tempDir('eddy-bigp-')
  const file = makeSmokeProject(dir, { name: 'big', res: 288, frames: 2, domainParams: { advection: 'semiLagrangian', reflection: false, pressureTolerance: 1e-3 } })
  const s = new Session(); s.connect()
  await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 1000 }); await s.post('Profiler.start')
  const t0 = Date.now()
  const lines: string[] = []
  await runBake({ projectPath: file, domainId: 'domain', mode: 'bake' }, { log: (l) => { lines.push(l); console.log((Date.now() - t0) / 1000, l) } })
  const { profile } = await s.post('Profiler.stop')
  fs.writeFileSync('/tmp/big.cpuprofile', JSON.stringify(profile))
  console.log('total', (Date.now() - t0) / 1000)
  fs.rmSync(dir, { recursive: true, force: true })
}, 1_200_000)

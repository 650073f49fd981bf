// The `eddy` command line: `eddy bake`, `eddy export` and `eddy bench`. `eddy bench smoke [--res 64] [--frames 48] [--threads N]
// [--pressure mic|mg] [--kernels wasm|ts]` times the smoke solver on the Blender peer scene.
import { availableParallelism } from 'node:os'
import { isEddyError } from '../../src-shared/api/errors'
import { parseOptions, UsageError } from './args'
import { benchSmoke } from './benchSmoke'
import { bakeCommand } from './bakeCommand'
import { exportCommand } from './exportCommand'

const USAGE = `usage:
  eddy bake PROJECT.eddy --sim NAME [--frames 1-120] [--mode bake|resume|range] [--from N]
            [--threads N] [--precision float16|float32|uint8] [--checkpoint-every N]
    Bakes a simulation into the project's cache (Ctrl-C cancels; --mode resume continues).
  eddy export PROJECT.eddy --sim NAME --format vdb|obj|ply|gltf|glb --out DIR
              [--frames A-B] [--padding 4] [--up y|z]
    Writes cached frames as files plus NAME_manifest.json.
  eddy bench smoke [--res 64] [--frames 48] [--threads N] [--pressure mic|mg] [--kernels wasm|ts]
    Bakes the scene of shared/peers/blender_smoke.py and prints ms/frame by stage.`

async function main(argv: string[]): Promise<number> {
  const [command, what, ...rest] = argv
  if (command === 'bake') return bakeCommand(argv.slice(1), process.stdout)
  if (command === 'export') return exportCommand(argv.slice(1), process.stdout)
  if (command === 'bench' && what === 'smoke') {
    const o = parseOptions(rest, {
      res: { type: 'int', min: 8, max: 1024 },
      frames: { type: 'int', min: 1, max: 100000 },
      threads: { type: 'int', min: 1, max: 256 },
      pressure: { type: 'string', choices: ['mic', 'mg'] },
      kernels: { type: 'string', choices: ['wasm', 'ts'] },
    })
    const result = await benchSmoke(
      {
        res: o.res ?? 64,
        frames: o.frames ?? 48,
        threads: o.threads ?? availableParallelism(),
        pressure: (o.pressure as 'mic' | 'mg' | undefined) ?? 'mg',
        kernels: (o.kernels as 'wasm' | 'ts' | undefined) ?? 'wasm',
      },
      (line) => console.log(line),
    )
    console.log(`EDDY_BENCH ${JSON.stringify(result)}`)
    return 0
  }
  console.error(USAGE)
  return 2
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) console.error(`eddy: ${e.message}\n${USAGE}`)
    else if (isEddyError(e)) console.error(`eddy: ${e.message}`)
    else console.error(e)
    process.exit(e instanceof UsageError ? 2 : 1)
  },
)

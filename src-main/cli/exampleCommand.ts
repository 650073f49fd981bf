// `eddy example NAME OUT.eddy`: writes a new project file from one of the shipped example
// scenes (src-main/store/exampleProject.ts). An unknown or missing NAME prints the list; an
// existing OUT is refused, never overwritten.
import { EXAMPLES, findExample } from '../../src-shared/scene/examples'
import { hostsSimulations } from '../../src-shared/sim/registry'
import { createExampleProject } from '../store/exampleProject'
import { UsageError } from './args'

export function exampleList(): string {
  const width = Math.max(...EXAMPLES.map((e) => e.id.length))
  return EXAMPLES.map((e) => `  ${e.id.padEnd(width)}  ${e.description}`).join('\n')
}

export function exampleCommand(args: string[], log: (line: string) => void, error: (line: string) => void): number {
  const [name, out, ...rest] = args
  if (!name || !findExample(name)) {
    error(`${name ? `eddy: no example named "${name}"` : 'eddy example needs an example name'}; examples:\n${exampleList()}\nusage: eddy example NAME OUT.eddy`)
    return 2
  }
  if (!out || out.startsWith('--')) throw new UsageError('eddy example needs the project file to write, e.g. eddy example dam-break dam.eddy')
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}"`)
  createExampleProject(name, out)
  const example = findExample(name)!
  const domains = example.build().doc.objects.filter((o) => hostsSimulations(o.kind)).map((o) => o.name)
  log(`Wrote ${out}: ${example.title}, ${domains.length === 1 ? 'simulation' : 'simulations'} ${domains.map((d) => `"${d}"`).join(', ')}.`)
  log(`Bake with: eddy bake ${out} --sim "${domains[0]}"`)
  return 0
}

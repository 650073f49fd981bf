#!/usr/bin/env node
// `npx eddy …`: the command line (bench now; bake and export with the bake service).
// Builds if sources changed, then runs the compiled CLI with the same arguments.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { ROOT, ensureBuild, ensureNodeModules } from './lib/ensure.mjs'

try {
  ensureNodeModules()
  ensureBuild()
} catch (e) {
  console.error(`eddy: ${e.message}`)
  process.exit(1)
}
const r = spawnSync(process.execPath, [join(ROOT, 'out/main/cli.js'), ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)

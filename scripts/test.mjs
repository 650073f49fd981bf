// `npm test`: install what is missing, build, type-check all three layers, run the unit and
// validation tests, then the end-to-end tests in headless Chromium against the headless
// host. Ends with one plain line `N passed, N failed` summing every suite (CI reads it).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { APT_STATUS_ENV, CHROMIUM, ROOT, awaitBackgroundDebianInstall, ensureBuild, ensureDebianPackages, ensureNodeModules, run } from './lib/ensure.mjs'

const results = []
// Failed tests, named again at the very end: CI keeps only the tail of a long log.
const failures = []
function record(suite, passed, failed, skipped = 0) {
  results.push({ suite, passed, failed, skipped })
  console.log(`== ${suite}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
}

function firstLine(text) {
  const line = String(text ?? 'no message').split('\n').find((l) => l.trim()) ?? 'no message'
  return line.trim().slice(0, 300)
}

/** Runs the vitest projects (the first names the suite and its report) in one run. */
function vitest(...projects) {
  const project = projects[0]
  const dir = join(ROOT, 'test-results')
  mkdirSync(dir, { recursive: true })
  const report = join(dir, `vitest-${project}.json`)
  rmSync(report, { force: true })
  const code = run(join(ROOT, 'node_modules/.bin/vitest'), ['run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`])
  if (!existsSync(report)) {
    failures.push(`${project}: vitest wrote no report (exit ${code})`)
    record(`vitest ${project}`, 0, 1)
    return
  }
  const r = JSON.parse(readFileSync(report, 'utf8'))
  // A file that fails to load counts as a failure even when it declared no tests.
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length
  const failed = r.numFailedTests + brokenFiles + (code !== 0 && r.numFailedTests + brokenFiles === 0 ? 1 : 0)
  for (const f of r.testResults ?? []) {
    const file = f.name.startsWith(ROOT) ? f.name.slice(ROOT.length + 1) : f.name
    if (f.status === 'failed' && (f.assertionResults ?? []).length === 0) failures.push(`${project} ${file}: ${firstLine(f.message)}`)
    for (const a of f.assertionResults ?? []) {
      if (a.status === 'failed') failures.push(`${project} ${file} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`)
    }
  }
  if (code !== 0 && r.numFailedTests + brokenFiles === 0) failures.push(`${project}: vitest exited with ${code} though every test passed (an unhandled error: see its "Errors" section above)`)
  record(`vitest ${project}`, r.numPassedTests, failed, r.numPendingTests + r.numTodoTests)
}

function stop(message) {
  console.error(`eddy: ${message}`)
  console.log('0 passed, 1 failed')
  process.exit(1)
}

// better-sqlite3 compiles (on a fresh clone) while the kernels and bundles build and the types
// are checked: none of them opens a database, and the compile keeps only one core busy. On CI
// the Debian packages install meanwhile too (.ci/run; awaitBackgroundDebianInstall).
let nativeBuild
try {
  nativeBuild = ensureNodeModules({ background: true }).then(
    () => null,
    (e) => e,
  )
  // Without an install running beside it, a missing Chromium is said (or installed) at once,
  // not after the build; with one, only once that install has ended (below).
  if (!process.env[APT_STATUS_ENV]) ensureDebianPackages([CHROMIUM])
  ensureBuild()
} catch (e) {
  stop(e.message)
}

const typecheck = run('node', [join(ROOT, 'scripts/typecheck.mjs')]) === 0
if (!typecheck) failures.push('typecheck: see its errors above')
record('typecheck', ...(typecheck ? [1, 0] : [0, 1]))
const nativeError = await nativeBuild
if (nativeError) stop(nativeError.message)
try {
  await awaitBackgroundDebianInstall()
  ensureDebianPackages([CHROMIUM])
} catch (e) {
  stop(e.message)
}
vitest('unit', 'unit-isolated')
vitest('e2e')

if (failures.length) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`)
const passed = results.reduce((s, r) => s + r.passed, 0)
const failed = results.reduce((s, r) => s + r.failed, 0)
const skipped = results.reduce((s, r) => s + r.skipped, 0)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed ? 1 : 0)

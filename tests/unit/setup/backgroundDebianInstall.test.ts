// .ci/run installs the Debian packages while npm test installs, builds and type-checks; npm test
// waits for that install's exit code before its first test (scripts/lib/ensure.mjs).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { APT_STATUS_ENV, awaitBackgroundDebianInstall } from '../../../scripts/lib/ensure.mjs'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-apt-'))
const status = path.join(dir, 'apt-status')

afterEach(() => {
  delete process.env[APT_STATUS_ENV]
  fs.rmSync(status, { force: true })
  fs.rmSync(`${status}.log`, { force: true })
})

describe('waiting for the Debian packages CI installs beside npm test', () => {
  it('returns at once when no install runs beside it', async () => {
    await expect(awaitBackgroundDebianInstall({ timeoutMs: 50 })).resolves.toBeUndefined()
  })

  it('waits until the install writes exit code 0 (an empty status file is still running)', async () => {
    process.env[APT_STATUS_ENV] = status
    fs.writeFileSync(status, '')
    let ended = false
    const waiting = awaitBackgroundDebianInstall({ timeoutMs: 10_000 }).then(() => (ended = true))
    await new Promise((r) => setTimeout(r, 700))
    expect(ended).toBe(false)
    fs.writeFileSync(status, '0\n')
    await waiting
    expect(ended).toBe(true)
  })

  it("names a failed install's exit code and shows the end of its output", async () => {
    process.env[APT_STATUS_ENV] = status
    fs.writeFileSync(`${status}.log`, 'Reading package lists...\nE: Unable to locate package blender\n')
    fs.writeFileSync(status, '100\n')
    await expect(awaitBackgroundDebianInstall({ timeoutMs: 10_000 })).rejects.toThrow(/apt-get install exited with 100[^]*Unable to locate package blender/)
  })

  it('gives up on an install that never ends, saying so', async () => {
    process.env[APT_STATUS_ENV] = status
    await expect(awaitBackgroundDebianInstall({ timeoutMs: 600 })).rejects.toThrow(/did not end within 0\.0 minutes/)
  })
})

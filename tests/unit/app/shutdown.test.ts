// Issue 11: SIGTERM must end the host within 2 s whatever is stuck. makeShutdown runs the
// graceful stop against a deadline and ends the process without joining threads when the
// stop hangs, when a thread is known to be stuck, or on a second signal.
import { describe, expect, it } from 'vitest'
import { makeShutdown } from '../../../src-main/app/shutdown'

function harness(graceful: () => Promise<void>, stuck: string[] = []) {
  const calls: string[] = []
  const stop = makeShutdown({ graceful, deadlineMs: 100, exit: (c) => calls.push(`exit ${c}`), kill: () => calls.push('kill'), stuck: () => stuck, log: () => undefined })
  return { stop, calls }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('makeShutdown', () => {
  it('exits 0 after a graceful stop', async () => {
    const { stop, calls } = harness(async () => undefined)
    stop('SIGTERM')
    await sleep(20)
    expect(calls).toEqual(['exit 0'])
    await sleep(150)
    expect(calls).toEqual(['exit 0'])
  })

  it('kills itself at the deadline when the graceful stop never ends', async () => {
    const { stop, calls } = harness(() => new Promise<void>(() => undefined))
    stop('SIGTERM')
    await sleep(50)
    expect(calls).toEqual([])
    await sleep(100)
    expect(calls).toEqual(['kill'])
  })

  it('kills itself when a thread is stuck in a system call (process.exit would join it forever)', async () => {
    const { stop, calls } = harness(async () => undefined, ['Save As to /mnt/share/x.eddy'])
    stop('SIGTERM')
    await sleep(20)
    expect(calls).toEqual(['kill'])
  })

  it('a second signal while stopping ends it at once', async () => {
    const { stop, calls } = harness(() => new Promise<void>(() => undefined))
    stop('SIGTERM')
    stop('SIGINT')
    expect(calls).toEqual(['kill'])
    await sleep(150)
    expect(calls).toEqual(['kill'])
  })
})

// hostRecords.ts: a decode worker's own requests for cached frame records over the host's
// WebSocket protocol (JSON request out; a binary reply with the request id, or a JSON error,
// in; events ignored), and what happens when the socket is refused or closes.
import { describe, expect, it } from 'vitest'
import { HostRecords } from '../../../../src-renderer/viewport/cache/hostRecords'
import { FakeHostSocket, fakeHost } from './fakeHostSocket'

describe('HostRecords', () => {
  it('asks for cache.display and resolves with the bytes of the matching reply', async () => {
    const host = fakeHost()
    host.frames.set(3, Uint8Array.from([1, 2, 3, 4, 5]))
    host.frames.set(4, Uint8Array.from([9, 8]))
    const link = new HostRecords('ws://127.0.0.1:1/ws', (u) => new FakeHostSocket(u, host))
    const [a, b] = await Promise.all([link.display('dom', 3), link.display('dom', 4)])
    expect(Array.from(a)).toEqual([1, 2, 3, 4, 5])
    expect(Array.from(b)).toEqual([9, 8])
    expect(host.sockets.length).toBe(1) // one connection for both
    expect(host.sockets[0].binaryType).toBe('arraybuffer')
    expect(host.sockets[0].url).toBe('ws://127.0.0.1:1/ws?events=none')
    expect(host.requests.map((t) => JSON.parse(t))).toEqual([
      { id: 1, type: 'cache.display', params: { domainId: 'dom', frame: 3 } },
      { id: 2, type: 'cache.display', params: { domainId: 'dom', frame: 4 } },
    ])
  })

  it("rejects with the host's error code and sentence", async () => {
    const host = fakeHost()
    const link = new HostRecords('ws://h/ws', (u) => new FakeHostSocket(u, host))
    await expect(link.display('dom', 7)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Frame 7 is not in the cache' })
  })

  it('a refused connection rejects with IO_ERROR naming the address; a closed one fails what waits and reconnects next time', async () => {
    const host = fakeHost()
    host.refuse = true
    const link = new HostRecords('ws://127.0.0.1:9/ws', (u) => new FakeHostSocket(u, host))
    await expect(link.display('dom', 1)).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('ws://127.0.0.1:9/ws') })
    host.refuse = false
    host.frames.set(1, Uint8Array.from([7]))
    expect(Array.from(await link.display('dom', 1))).toEqual([7])
    expect(host.sockets.length).toBe(2)
    // Closed while a request waits: it fails with IO_ERROR; the next request opens a new socket.
    const waiting = link.display('dom', 1)
    host.sockets[1].close()
    await expect(waiting).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('closed') })
    expect(Array.from(await link.display('dom', 1))).toEqual([7])
    expect(host.sockets.length).toBe(3)
  })

  it('a request the host never answers fails with IO_ERROR after the timeout, naming the frame; later answers still work', async () => {
    const host = fakeHost()
    host.frames.set(2, Uint8Array.from([4]))
    const link = new HostRecords('ws://h/ws', (u) => new FakeHostSocket(u, host), 50)
    host.silent.add(2)
    await expect(link.display('dom', 2)).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/frame 2 within/) })
    host.silent.clear()
    expect(Array.from(await link.display('dom', 2))).toEqual([4])
  })
})

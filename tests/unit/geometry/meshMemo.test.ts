// MeshMemo (geometry/meshMemo.ts): values remembered by a mesh's content, so a scene's copies of
// one mesh share a computation, while a different mesh, an edited copy or a different extra key
// never gets another's value, and a computation that throws leaves nothing behind.
import { describe, expect, it } from 'vitest'
import { MeshMemo } from '../../../src-shared/geometry/meshMemo'
import { cube } from './meshes'

describe('MeshMemo', () => {
  it('computes once per content and extra key, whichever copy of the arrays asks', () => {
    const memo = new MeshMemo<number>(4)
    let runs = 0
    const area = (m: { positions: Float32Array }) => memo.get(m as never, 'a', () => (runs++, m.positions.length))
    const a = cube(), copy = { positions: a.positions.slice(), indices: a.indices.slice() }
    expect(area(a)).toBe(a.positions.length)
    expect(area(copy)).toBe(a.positions.length)
    expect(runs).toBe(1)
    // Another extra key is another value.
    expect(memo.get(a, 'b', () => (runs++, -1))).toBe(-1)
    expect(runs).toBe(2)
    // An edit in place (same objects) is new content.
    copy.positions[0] += 0.5
    expect(memo.get(copy, 'a', () => (runs++, 7))).toBe(7)
    expect(runs).toBe(3)
    // -0 and 0 are different content (bit for bit).
    const z = cube()
    const zeroAt = z.positions.findIndex((v) => v === 0)
    if (zeroAt >= 0) {
      const negative = { positions: z.positions.slice(), indices: z.indices.slice() }
      negative.positions[zeroAt] = -0
      memo.get(z, 'z', () => 1)
      expect(memo.get(negative, 'z', () => 2)).toBe(2)
    }
  })

  it('remembers nothing when the computation throws, and forgets the least recently used first', () => {
    const memo = new MeshMemo<string>(2)
    const meshes = [0.5, 1, 2].map((s) => cube(s))
    expect(() => memo.get(meshes[0], '', () => { throw new Error('bad mesh') })).toThrow('bad mesh')
    expect(memo.get(meshes[0], '', () => 'first')).toBe('first')
    memo.get(meshes[1], '', () => 'second')
    memo.get(meshes[0], '', () => 'again') // used: now the most recent
    memo.get(meshes[2], '', () => 'third') // evicts the second
    expect(memo.get(meshes[0], '', () => 'recomputed')).toBe('first')
    expect(memo.get(meshes[1], '', () => 'recomputed')).toBe('recomputed')
  })
})

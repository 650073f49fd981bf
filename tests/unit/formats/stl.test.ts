import { describe, expect, it } from 'vitest'
import { parseStl, weldVertices } from '../../../src-shared/formats/stl'
import { computeBounds } from '../../../src-shared/geometry/triMesh'

// Unit cube [0,1]^3 as 12 outward triangles (corner soup, 9 floats each).
const C = [
  [0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
  [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1],
]
const CUBE_TRIS = [
  [0, 2, 1], [0, 3, 2], // z = 0
  [4, 5, 6], [4, 6, 7], // z = 1
  [0, 1, 5], [0, 5, 4], // y = 0
  [2, 3, 7], [2, 7, 6], // y = 1
  [0, 4, 7], [0, 7, 3], // x = 0
  [1, 2, 6], [1, 6, 5], // x = 1
]

function binaryStl(tris: number[][][], header = 'binary cube', count = tris.length): Uint8Array {
  const bytes = new Uint8Array(84 + 50 * tris.length)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < header.length; i++) bytes[i] = header.charCodeAt(i)
  view.setUint32(80, count, true)
  tris.forEach((tri, t) => {
    const base = 84 + 50 * t
    // normal left as zero: readers must not rely on it
    tri.forEach((v, k) => v.forEach((x, c) => view.setFloat32(base + 12 + 12 * k + 4 * c, x, true)))
  })
  return bytes
}

function asciiStl(tris: number[][][]): string {
  const lines = ['solid cube']
  for (const tri of tris) {
    lines.push('  facet normal 0 0 0', '    outer loop')
    for (const v of tri) lines.push(`      vertex ${v.join(' ')}`)
    lines.push('    endloop', '  endfacet')
  }
  lines.push('endsolid cube', '')
  return lines.join('\n')
}

const cubeSoup = CUBE_TRIS.map((t) => t.map((i) => C[i]))
const enc = new TextEncoder()

/** Signed volume: 1 for the outward unit cube. */
function volume(m: { positions: Float32Array; indices: Uint32Array }): number {
  const p = m.positions
  let v = 0
  for (let t = 0; t < m.indices.length; t += 3) {
    const a = 3 * m.indices[t], b = 3 * m.indices[t + 1], c = 3 * m.indices[t + 2]
    v += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])
  }
  return v / 6
}

describe('parseStl', () => {
  it('reads a binary cube and welds it to 8 vertices', () => {
    const m = parseStl(binaryStl(cubeSoup), 'cube.stl')
    expect(m.positions.length / 3).toBe(8)
    expect(m.indices.length / 3).toBe(12)
    expect(computeBounds(m.positions)).toEqual({ min: [0, 0, 0], max: [1, 1, 1] })
    expect(volume(m)).toBeCloseTo(1, 6) // winding preserved
    // The first triangle is the first three corners, in order.
    const corner = (k: number) => Array.from(m.positions.subarray(3 * m.indices[k], 3 * m.indices[k] + 3))
    expect([corner(0), corner(1), corner(2)]).toEqual([C[0], C[2], C[1]])
  })

  it('reads an ASCII cube the same way', () => {
    const m = parseStl(enc.encode(asciiStl(cubeSoup)), 'cube.stl')
    expect(m.positions.length / 3).toBe(8)
    expect(m.indices.length / 3).toBe(12)
    expect(volume(m)).toBeCloseTo(1, 6)
    const b = parseStl(binaryStl(cubeSoup), 'cube.stl')
    expect(m).toEqual(b)
  })

  it('accepts upper-case keywords, CRLF, several solids and "nan" facet normals', () => {
    const text = asciiStl(cubeSoup.slice(0, 6)).toUpperCase().replace(/\n/g, '\r\n') + asciiStl(cubeSoup.slice(6)).replace(/normal 0 0 0/, 'normal nan nan nan')
    const m = parseStl(enc.encode(text), 'cube.stl')
    expect(m.indices.length / 3).toBe(12)
    expect(m.positions.length / 3).toBe(8)
  })

  it('treats a binary file whose header starts with "solid" as binary', () => {
    const bytes = binaryStl(cubeSoup, 'solid exported by SomeCAD')
    const m = parseStl(bytes, 'cad.stl')
    expect(m.indices.length / 3).toBe(12)
    expect(m.positions.length / 3).toBe(8)
  })

  it('reports a size that does not match the declared count', () => {
    const bytes = binaryStl(cubeSoup).slice(0, 84 + 50 * 11 + 20)
    expect(() => parseStl(bytes, 'cut.stl')).toThrow(/"cut\.stl" declares 12 triangles but holds 654 bytes/)
    const lying = binaryStl(cubeSoup, 'x', 13)
    expect(() => parseStl(lying, 'lying.stl')).toThrow(expect.objectContaining({ code: 'MESH_PARSE', details: { declared: 13, bytes: 684 } }))
  })

  it('rejects files too short to be STL', () => {
    expect(() => parseStl(new Uint8Array(10), 'tiny.stl')).toThrow(/too short/)
  })

  it('welds -0 with 0 but keeps distinct positions apart', () => {
    const m = weldVertices(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, -0, 0, -0, 0, 1, 0, 1e-7, 0, 0]))
    expect(m.positions.length / 3).toBe(4)
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3])
  })

  describe('strict ASCII errors with line numbers', () => {
    const parse = (text: string) => () => parseStl(enc.encode(text), 'bad.stl')
    const one = asciiStl(cubeSoup.slice(0, 1))
    it('four vertices in a loop', () => {
      const text = one.replace('    endloop', '      vertex 1 1 1\n    endloop')
      expect(parse(text)).toThrow(/"bad\.stl" line 7: a facet has more than 3 vertices/)
    })
    it('two vertices in a loop', () => {
      const lines = one.split('\n')
      lines.splice(4, 1)
      expect(parse(lines.join('\n'))).toThrow(/line 6: a facet has 2 vertices/)
    })
    it('a bad number', () => expect(parse(one.replace('vertex 1 1 0', 'vertex 1 one 0'))).toThrow(/line 5: vertex value "one" is not a number/))
    it('a non-finite vertex', () => expect(parse(one.replace('vertex 1 1 0', 'vertex 1 inf 0'))).toThrow(/line 5: vertex value "inf" is not finite/))
    it('missing endsolid', () => expect(parse(one.replace('endsolid cube', ''))).toThrow(/line 9: the file ends inside a solid/))
    it('a misspelt keyword', () => expect(parse(one.replace('endfacet', 'endfacit'))).toThrow(/line 8: expected "endfacet", found "endfacit"/))
    it('text after endsolid', () => expect(parse(one + 'garbage\n')).toThrow(/line 10: expected "solid", found "garbage"/))
  })
})

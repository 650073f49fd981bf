import { describe, expect, it } from 'vitest'
import { parseObj, writeObj } from '../../../src-shared/formats/obj'
import { computeVertexNormals, type TriMesh } from '../../../src-shared/geometry/triMesh'
import { BUNNY_TRIANGLE_COUNT, BUNNY_VERTEX_COUNT, bunnyMesh, bunnyObjText } from '../../fixtures/makeBunnyObj'

const enc = new TextEncoder()
const obj = (text: string) => parseObj(enc.encode(text), 'test.obj')

/** Expects parseObj(text) to fail with MESH_PARSE and a message matching `pattern`. */
function expectError(text: string, pattern: RegExp) {
  let caught: unknown
  try {
    obj(text)
  } catch (e) {
    caught = e
  }
  expect(caught).toMatchObject({ code: 'MESH_PARSE' })
  expect((caught as Error).message).toMatch(pattern)
}

const triangle = 'v 0 0 0\nv 1 0 0\nv 0 1 0\n'

describe('parseObj', () => {
  it('round-trips writeObj output bit for bit', () => {
    // Awkward float32 values: tiny, huge, negative, non-terminating decimals, -0.
    const values = [0, -0, 0.1, 1 / 3, -123456.78, 1e-7, 3.4e38, -2.5e-30, Math.PI, 16777217, 0.000123, 7]
    const positions = new Float32Array(values.length * 3)
    let seed = 12345
    for (let i = 0; i < positions.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      positions[i] = values[i % values.length] * (seed % 2 ? 1 : -1) + (i % 5 === 0 ? seed / 2147483648 : 0)
    }
    const n = positions.length / 3
    const indices = new Uint32Array(Array.from({ length: (n - 2) * 3 }, (_, k) => Math.floor(k / 3) + (k % 3)))
    const mesh: TriMesh = { positions, indices }
    const text = writeObj(mesh, { header: 'round trip\nsecond line' })
    expect(text.startsWith('# round trip\n# second line\n')).toBe(true)
    const back = obj(text)
    // -0 is written as 0; compare through +0 to allow that single documented change.
    expect(Array.from(back.positions)).toEqual(Array.from(positions, (x) => x + 0))
    expect(back.indices).toEqual(indices)
  })

  it('reads numbers identically on the byte fast path and the general path', () => {
    // A leading space sends a line down the general (string) path; both must agree bit for bit.
    const tokens = ['0', '-0', '1.', '.5', '+2.25', '1e3', '1E-3', '-7.0e+2', '0.000123456789012345', '123456789012345678',
      '3.4028234663852886e38', '1e-45', '2.5e-39', '0.30000000000000004', '1.00000000000000000001', '00012.50']
    let seed = 99
    for (let i = 0; i < 300; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      const x = (seed / 2147483648 - 0.5) * 10 ** ((seed % 13) - 6)
      tokens.push(String(x), x.toPrecision(7), x.toExponential(4))
    }
    while (tokens.length % 3) tokens.push('1')
    const lines: string[] = []
    for (let k = 0; k < tokens.length; k += 3) lines.push(`v ${tokens[k]} ${tokens[k + 1]} ${tokens[k + 2]}`)
    const fast = obj(lines.join('\n') + '\nf 1 2 3\n')
    const slow = obj(lines.map((l) => ' ' + l).join('\n') + '\n f 1 2 3\n')
    expect(fast.positions).toEqual(slow.positions)
    expect(fast.positions).toEqual(Float32Array.from(tokens, Number))
  })

  it('writes the shortest text that reads back exactly', () => {
    const text = writeObj({ positions: new Float32Array([0.1, 1, -2.5]), indices: new Uint32Array([0, 0, 0]) })
    expect(text).toContain('v 0.1 1 -2.5\n')
  })

  it('round-trips normals as v//vn faces', () => {
    const mesh: TriMesh = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) }
    const text = writeObj(mesh, { normals: computeVertexNormals(mesh) })
    expect(text).toContain('vn 0 0 1\n')
    expect(text).toContain('f 1//1 2//2 3//3\n')
    expect(obj(text).indices).toEqual(new Uint32Array([0, 1, 2]))
  })

  it('fan-triangulates polygons', () => {
    const m = obj('v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -1 0.5 0\nf 1 2 3 4\nf 1 3 4 5\n')
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 2, 3, 0, 2, 3, 0, 3, 4])
  })

  it('resolves negative (relative) indices against the vertices so far', () => {
    const m = obj('v 9 9 9\n' + triangle + 'f -3 -2 -1\nv 5 5 5\nf -4 -1 1\n')
    expect(Array.from(m.indices)).toEqual([1, 2, 3, 1, 4, 0])
    expect(m.positions.length).toBe(15)
  })

  it('accepts v/vt, v//vn and v/vt/vn faces, and ignores what it does not need', () => {
    const text = [
      '# a comment',
      'mtllib scene.mtl',
      'o thing',
      'g part',
      'v 0 0 0 1', // with w
      'v 1 0 0 0.5 0.2 0.1', // with a colour
      'v 0 1 0   # trailing comment',
      '',
      '   ',
      'vt 0 0',
      'vt 1 0',
      'vt 0 1',
      'vn 0 0 1',
      'vp 0.5',
      'usemtl red',
      's off',
      'f 1/1 2/2 3/3',
      'f 1//1 2//1 3//1',
      'f 1/1/1 2/2/1 3/3/1',
      'f -3/-3/-1 -2/-2/-1 -1/-1/-1',
      'l 1 2',
      'p 3',
    ].join('\r\n')
    const m = obj(text)
    expect(m.positions).toEqual(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
  })

  it('joins lines continued with a backslash and accepts faces before their vertices', () => {
    const m = obj('f 1 2 \\\n 3\n' + triangle)
    expect(Array.from(m.indices)).toEqual([0, 1, 2])
  })

  it('reads the Stanford bunny with the package counts', () => {
    const m = obj(bunnyObjText())
    expect(m.positions.length / 3).toBe(BUNNY_VERTEX_COUNT)
    expect(m.indices.length / 3).toBe(BUNNY_TRIANGLE_COUNT)
    expect(BUNNY_VERTEX_COUNT).toBe(1839)
    expect(BUNNY_TRIANGLE_COUNT).toBe(3674)
    const ref = bunnyMesh()
    expect(m.positions).toEqual(ref.positions)
    expect(m.indices).toEqual(ref.indices)
  })

  describe('errors name the file and line', () => {
    it('unknown statement', () => expectError(triangle + 'f 1 2 3\nfoo 1 2\n', /"test\.obj" line 5: unknown statement "foo"/))
    it('free-form geometry', () => expectError(triangle + 'cstype bspline\n', /line 4: free-form geometry \("cstype"\)/))
    it('vertex with too few coordinates', () => expectError('v 0 0 0\nv 1 2\n', /line 2: a vertex needs 3 coordinates, found 2/))
    it('non-number coordinate', () =>
      expectError(triangle + '\n'.repeat(8) + 'v 1 abc 2\n', /"test\.obj" line 12: vertex coordinate "abc" is not a number/))
    it('hex is not a number either', () => expectError('v 0x10 0 0\n', /line 1: vertex coordinate "0x10" is not a number/))
    it('non-finite coordinate names the vertex', () => expectError(triangle + 'v 1 nan 2\n', /line 4: vertex 4 has a non-finite coordinate "nan"/))
    it('index 0', () => expectError(triangle + 'f 0 1 2\n', /line 4: vertex index 0 is invalid/))
    it('index past the last vertex', () =>
      expectError(triangle + 'f 1 2 4\n', /line 4: face refers to vertex 4 but the file defines only 3 vertices/))
    it('relative index before the first vertex', () => expectError(triangle + 'f -1 -2 -4\n', /line 4: relative vertex index -4/))
    it('texture coordinate out of range', () => expectError(triangle + 'vt 0 0\nf 1/1 2/2 3/1\n', /line 5: texture coordinate 2 does not exist/))
    it('non-integer index', () => expectError(triangle + 'f 1 2 3.5\n', /line 4: vertex index "3.5" is not a whole number/))
    it('malformed face vertex', () => expectError(triangle + 'f 1/ 2 3\n', /line 4: face vertex "1\/" is not of the form/))
    it('face with two vertices', () => expectError(triangle + 'f 1 2\n', /line 4: a face needs at least 3 vertices, found 2/))
    it('no faces', () => expectError(triangle + 'l 1 2\n', /"test\.obj" contains no faces/))
    it('empty text', () => expectError('', /contains no faces/))
    it('binary with a NUL byte', () => {
      expect(() => parseObj(new Uint8Array([118, 32, 49, 0, 50]), 'x.obj')).toThrow(/"x\.obj" is not a text OBJ file/)
    })
    it('binary noise without NUL', () => {
      const bytes = new Uint8Array(4096)
      let s = 7
      for (let i = 0; i < bytes.length; i++) {
        s = (s * 1103515245 + 12345) % 2147483648
        bytes[i] = 1 + (s % 255)
      }
      expect(() => parseObj(bytes, 'noise.obj')).toThrow(/is not a text OBJ file/)
    })
  })

  it('accepts UTF-8 names in comments and groups', () => {
    const m = obj('# modèle façade ✓\ng café\n' + triangle + 'f 1 2 3\n')
    expect(m.indices.length).toBe(3)
  })
})

// STL, binary and ASCII. STL stores every triangle with its own three corners, so vertices are
// welded by exact position to give the indexed mesh the rest of Eddy expects (and to make
// the surface connected for the voxeliser's inside/outside test).
import { EddyError } from '../api/errors'
import { MAX_TRIANGLES, type TriMesh } from '../geometry/triMesh'
import { forEachLine, looksLikeText, parseDecimal, tokenize } from './textBytes'

const HEADER = 84 // 80-byte comment + uint32 triangle count
const RECORD = 50 // normal, 3 vertices (12 float32), uint16 attribute

export function parseStl(bytes: Uint8Array, name: string): TriMesh {
  // Many binary exporters start the free-form header with "solid", so the keyword alone
  // proves nothing: a file whose size fits the binary layout exactly is binary.
  if (bytes.length >= HEADER) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true)
    if (HEADER + RECORD * count === bytes.length) return parseBinary(bytes, count, name)
  }
  if (startsWithSolid(bytes) && looksLikeText(bytes)) return parseAscii(bytes, name)
  if (bytes.length < HEADER) {
    throw new EddyError('MESH_PARSE', `"${name}" is too short (${bytes.length} bytes) to be an STL file`)
  }
  const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true)
  throw new EddyError(
    'MESH_PARSE',
    `"${name}" declares ${count} triangles but holds ${bytes.length} bytes (a binary STL with ${count} triangles is ${HEADER + RECORD * count} bytes)`,
    { declared: count, bytes: bytes.length },
  )
}

function startsWithSolid(bytes: Uint8Array): boolean {
  let i = 0
  while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++
  const word = 'solid'
  for (let k = 0; k < word.length; k++) {
    // case-insensitive: some CAD tools shout "SOLID"
    if (i + k >= bytes.length || (bytes[i + k] | 0x20) !== word.charCodeAt(k)) return false
  }
  return true
}

function parseBinary(bytes: Uint8Array, count: number, name: string): TriMesh {
  if (count > MAX_TRIANGLES) {
    throw new EddyError('MESH_PARSE', `"${name}" is too large: ${count} triangles (Eddy imports at most ${MAX_TRIANGLES})`)
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const soup = new Float32Array(count * 9)
  for (let t = 0; t < count; t++) {
    const base = HEADER + RECORD * t + 12 // skip the facet normal: recomputed from the winding
    for (let k = 0; k < 9; k++) soup[9 * t + k] = view.getFloat32(base + 4 * k, true)
  }
  return weldVertices(soup)
}

function parseAscii(bytes: Uint8Array, name: string): TriMesh {
  const soup: number[] = []
  // Grammar, token by token; `expect` is what must come next.
  type State = 'solid' | 'facet' | 'outer' | 'vertex' | 'endloop' | 'endfacet'
  let state: State = 'solid'
  let corners = 0
  let solids = 0
  const fail = (line: number, message: string): never => {
    throw new EddyError('MESH_PARSE', `"${name}" line ${line}: ${message}`, { line })
  }
  const numbers = (tokens: string[], from: number, line: number, what: string, finite: boolean): number[] => {
    if (tokens.length !== from + 3) fail(line, `${what} needs 3 numbers, found ${tokens.length - from}`)
    const out: number[] = []
    for (let k = from; k < from + 3; k++) {
      const x = parseDecimal(tokens[k])
      if (x === undefined) fail(line, `${what} value "${tokens[k]}" is not a number`)
      if (finite && !Number.isFinite(x)) fail(line, `${what} value "${tokens[k]}" is not finite`)
      out.push(x as number)
    }
    return out
  }
  let lastLine = 0
  forEachLine(bytes, (text, line) => {
    lastLine = line
    const tokens = tokenize(text)
    if (tokens.length === 0) return
    const key = tokens[0].toLowerCase()
    switch (state) {
      case 'solid':
        // Between solids only "solid <name>" may appear (files may hold several solids).
        if (key !== 'solid') fail(line, `expected "solid", found "${tokens[0]}"`)
        solids++
        state = 'facet'
        return
      case 'facet':
        if (key === 'endsolid') {
          state = 'solid'
          return
        }
        if (key !== 'facet') fail(line, `expected "facet" or "endsolid", found "${tokens[0]}"`)
        // The facet normal is checked for form but not used (it is recomputed); exporters
        // write "nan" here for degenerate facets, so non-finite values are tolerated.
        if (tokens.length < 2 || tokens[1].toLowerCase() !== 'normal') fail(line, 'expected "facet normal nx ny nz"')
        numbers(tokens, 2, line, 'facet normal', false)
        state = 'outer'
        return
      case 'outer':
        if (key !== 'outer' || tokens.length !== 2 || tokens[1].toLowerCase() !== 'loop') fail(line, `expected "outer loop", found "${text.trim()}"`)
        corners = 0
        state = 'vertex'
        return
      case 'vertex':
        if (key === 'endloop') {
          if (corners !== 3) fail(line, `a facet has ${corners} vertices; STL facets are triangles`)
          state = 'endfacet'
          return
        }
        if (key !== 'vertex') fail(line, `expected "vertex" or "endloop", found "${tokens[0]}"`)
        if (corners === 3) fail(line, 'a facet has more than 3 vertices; STL facets are triangles')
        soup.push(...numbers(tokens, 1, line, 'vertex', true))
        corners++
        return
      case 'endfacet':
        if (key !== 'endfacet') fail(line, `expected "endfacet", found "${tokens[0]}"`)
        state = 'facet'
        return
      default:
        return
    }
  })
  if (state !== 'solid') fail(lastLine, 'the file ends inside a solid (missing "endsolid")')
  if (solids === 0) throw new EddyError('MESH_PARSE', `"${name}" contains no solid`)
  if (soup.length / 9 > MAX_TRIANGLES) {
    throw new EddyError('MESH_PARSE', `"${name}" is too large: ${soup.length / 9} triangles (Eddy imports at most ${MAX_TRIANGLES})`)
  }
  return weldVertices(Float32Array.from(soup))
}

/**
 * Triangle soup (9 floats per triangle) to an indexed mesh, merging corners whose float32
 * bits are identical (-0 and 0 count as equal). Open-addressing hash on the raw bits: no
 * strings, no per-vertex objects.
 */
export function weldVertices(soup: Float32Array): TriMesh {
  const n = soup.length / 3 // corners
  const bits = new Uint32Array(n * 3)
  const f = new Float32Array(bits.buffer)
  for (let i = 0; i < soup.length; i++) f[i] = soup[i] + 0 // +0 folds -0 into 0
  let size = 16
  while (size < n * 2) size *= 2
  const mask = size - 1
  const table = new Int32Array(size).fill(-1) // slot -> welded vertex id
  const firstCorner = new Uint32Array(n) // welded vertex id -> a corner holding its bits
  const indices = new Uint32Array(n)
  let unique = 0
  for (let c = 0; c < n; c++) {
    const x = bits[3 * c], y = bits[3 * c + 1], z = bits[3 * c + 2]
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)
    h ^= h >>> 15
    let slot = h & mask
    for (;;) {
      const id = table[slot]
      if (id === -1) {
        table[slot] = unique
        firstCorner[unique] = c
        indices[c] = unique++
        break
      }
      const o = 3 * firstCorner[id]
      if (bits[o] === x && bits[o + 1] === y && bits[o + 2] === z) {
        indices[c] = id
        break
      }
      slot = (slot + 1) & mask
    }
  }
  const positions = new Float32Array(unique * 3)
  for (let v = 0; v < unique; v++) {
    const o = 3 * firstCorner[v]
    positions[3 * v] = f[o]
    positions[3 * v + 1] = f[o + 1]
    positions[3 * v + 2] = f[o + 2]
  }
  return { positions, indices }
}

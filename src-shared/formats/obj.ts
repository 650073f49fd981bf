// Wavefront OBJ, read strictly: a typo in a hand-edited file should be reported with its line
// rather than silently turning into a missing triangle. Only polygonal geometry is used;
// texture coordinates, normals, groups and materials are accepted and ignored.
//
// Two paths: plain "v x y z" and "f a b c" lines (nearly all of a big file) are scanned as
// bytes with no strings allocated; every other line, and any v/f line the scanner finds
// unusual, is decoded and handled by the general path, which owns all error messages.
import { EddyError } from '../api/errors'
import type { TriMesh } from '../geometry/triMesh'
import { decodeUtf8, forEachLineRange, looksLikeText, parseDecimal, scanDecimal, tokenize } from './textBytes'

// Statements that are valid OBJ but carry nothing a fluid obstacle needs.
const IGNORED = new Set([
  'vt', 'vn', 'vp', 'l', 'p', 'o', 'g', 's', 'mg', 'usemtl', 'mtllib',
  'usemap', 'maplib', 'lod', 'bevel', 'c_interp', 'd_interp', 'shadow_obj', 'trace_obj',
])
// Free-form curves and surfaces: valid OBJ, but ignoring them would silently drop geometry.
const FREE_FORM = new Set([
  'cstype', 'deg', 'bmat', 'step', 'curv', 'curv2', 'surf', 'parm', 'trim', 'hole', 'scrv', 'sp', 'end', 'con', 'ctech', 'stech',
])
const INTEGER = /^[+-]?\d+$/
const SPACE = 32, TAB = 9, HASH = 35, SLASH = 47, BACKSLASH = 92

/** Parses OBJ bytes into a fan-triangulated mesh. Throws MESH_PARSE naming `name` and the line. */
export function parseObj(bytes: Uint8Array, name: string): TriMesh {
  if (!looksLikeText(bytes)) throw new EddyError('MESH_PARSE', `"${name}" is not a text OBJ file`)

  let pos = new Float32Array(3 * 1024)
  let nPos = 0 // floats used
  let idx = new Uint32Array(3 * 1024)
  let nIdx = 0
  let vCount = 0, vtCount = 0, vnCount = 0
  // Positive indices may refer forward (some writers emit faces first), so the largest one
  // is checked once all vertices are known; its line is kept for the message.
  let maxIndex = 0, maxIndexLine = 0
  let faceCount = 0
  const face: number[] = [] // resolved vertex indices of the face being read
  const refs: number[] = [] // v, vt, vn per face vertex (NaN = absent), before resolving
  const num = [0]
  let pending = '' // text of a line continued with a trailing backslash
  let pendingLine = 0

  const fail = (line: number, message: string): never => {
    throw new EddyError('MESH_PARSE', `"${name}" line ${line}: ${message}`, { line })
  }

  // Turns one 1-based or negative (relative) index into a 0-based one, given `count`
  // elements defined so far.
  const resolve = (i: number, count: number, what: string, line: number): number => {
    if (i === 0) fail(line, `${what} index 0 is invalid (OBJ counts from 1)`)
    if (i < 0) {
      if (-i > count) fail(line, `relative ${what} index ${i} reaches before the first ${what} (only ${count} so far)`)
      return count + i
    }
    return i - 1
  }

  const pushVertexCoord = (x: number): void => {
    if (nPos === pos.length) pos = grow(pos)
    pos[nPos++] = x
  }

  // Resolves and checks the face vertices in `refs`, then fan-triangulates them.
  const addFace = (line: number): void => {
    face.length = 0
    for (let k = 0; k < refs.length; k += 3) {
      const v = resolve(refs[k], vCount, 'vertex', line)
      if (v >= maxIndex) {
        maxIndex = v + 1
        maxIndexLine = line
      }
      if (!Number.isNaN(refs[k + 1])) {
        const t = resolve(refs[k + 1], vtCount, 'texture coordinate', line)
        if (t >= vtCount) fail(line, `texture coordinate ${t + 1} does not exist (only ${vtCount} so far)`)
      }
      if (!Number.isNaN(refs[k + 2])) {
        const n = resolve(refs[k + 2], vnCount, 'normal', line)
        if (n >= vnCount) fail(line, `normal ${n + 1} does not exist (only ${vnCount} so far)`)
      }
      face.push(v)
    }
    if (face.length < 3) fail(line, `a face needs at least 3 vertices, found ${face.length}`)
    faceCount++
    // Fan from the first corner: exact for convex polygons, which is what exporters write.
    for (let k = 1; k + 1 < face.length; k++) {
      if (nIdx + 3 > idx.length) idx = grow(idx)
      idx[nIdx++] = face[0]
      idx[nIdx++] = face[k]
      idx[nIdx++] = face[k + 1]
    }
  }

  // Byte-level path for plain "v" and "f" lines. Returns false, having changed nothing,
  // for anything it does not fully understand.
  const fastStatement = (s: number, e: number, line: number): boolean => {
    if (e - s < 2 || (bytes[s + 1] !== SPACE && bytes[s + 1] !== TAB) || bytes[e - 1] === BACKSLASH) return false
    const key = bytes[s]
    let i = s + 2
    if (key === 118 /* v */) {
      const start = nPos
      let n = 0
      for (;;) {
        while (i < e && (bytes[i] === SPACE || bytes[i] === TAB)) i++
        if (i === e || bytes[i] === HASH) break
        i = scanDecimal(bytes, i, e, num)
        if (i < 0) break
        if (n < 3) pushVertexCoord(num[0]) // w and colours are checked, not kept
        n++
      }
      if (i < 0 || n < 3) {
        nPos = start
        return false
      }
      vCount++
      return true
    }
    if (key === 102 /* f */) {
      refs.length = 0
      for (;;) {
        while (i < e && (bytes[i] === SPACE || bytes[i] === TAB)) i++
        if (i === e || bytes[i] === HASH) break
        i = scanFaceVertex(bytes, i, e, refs)
        if (i < 0) return false
      }
      addFace(line)
      return true
    }
    return false
  }

  // Only reached for a face vertex the scanner rejected: find the precise complaint.
  const explainBadFaceVertex = (token: string, line: number): never => {
    const parts = token.split('/')
    if (parts.length > 3 || parts[0] === '' || (parts.length === 2 && parts[1] === '')) {
      fail(line, `face vertex "${token}" is not of the form v, v/vt, v//vn or v/vt/vn`)
    }
    if (parts.length === 3 && parts[2] === '') fail(line, `face vertex "${token}" has an empty normal index`)
    const what = ['vertex', 'texture coordinate', 'normal']
    for (let k = 0; k < parts.length; k++) {
      if (parts[k] !== '' && !INTEGER.test(parts[k])) fail(line, `${what[k]} index "${parts[k]}" is not a whole number`)
    }
    return fail(line, `face vertex "${token}" is malformed`)
  }

  // General path: any statement, with a precise error for anything wrong.
  const statement = (text: string, line: number): void => {
    const hash = text.indexOf('#')
    const tokens = tokenize(hash >= 0 ? text.slice(0, hash) : text)
    if (tokens.length === 0) return
    const key = tokens[0]
    if (key === 'v') {
      if (tokens.length < 4) fail(line, `a vertex needs 3 coordinates, found ${tokens.length - 1}`)
      vCount++
      for (let k = 1; k < tokens.length; k++) {
        const x = parseDecimal(tokens[k])
        if (x === undefined) fail(line, `vertex coordinate "${tokens[k]}" is not a number`)
        if (!Number.isFinite(x)) fail(line, `vertex ${vCount} has a non-finite coordinate "${tokens[k]}"`)
        if (k <= 3) pushVertexCoord(x as number)
      }
    } else if (key === 'f') {
      refs.length = 0
      for (let k = 1; k < tokens.length; k++) {
        const t = tokens[k]
        // Reuse the byte scanner; non-Latin-1 characters become 255, which it rejects.
        const codes = new Uint8Array(t.length)
        for (let c = 0; c < t.length; c++) codes[c] = Math.min(t.charCodeAt(c), 255)
        if (scanFaceVertex(codes, 0, codes.length, refs) !== codes.length) explainBadFaceVertex(t, line)
      }
      addFace(line)
    } else if (key === 'vt') {
      vtCount++
    } else if (key === 'vn') {
      vnCount++
    } else if (IGNORED.has(key)) {
      // nothing to do
    } else if (FREE_FORM.has(key)) {
      fail(line, `free-form geometry ("${key}") is not supported; export the model as polygons`)
    } else {
      fail(line, `unknown statement "${key}"`)
    }
  }

  forEachLineRange(bytes, (s, e, line) => {
    if (pending === '' && fastStatement(s, e, line)) return
    const text = decodeUtf8(bytes, s, e)
    // A trailing backslash joins the next line (OBJ's line continuation).
    if (text.endsWith('\\')) {
      if (pending === '') pendingLine = line
      pending += text.slice(0, -1) + ' '
      return
    }
    if (pending !== '') {
      statement(pending + text, pendingLine)
      pending = ''
    } else {
      statement(text, line)
    }
  })
  if (pending !== '') statement(pending, pendingLine)

  if (faceCount === 0) throw new EddyError('MESH_PARSE', `"${name}" contains no faces`)
  if (maxIndex > vCount) {
    fail(maxIndexLine, `face refers to vertex ${maxIndex} but the file defines only ${vCount} vertices`)
  }
  return { positions: pos.slice(0, nPos), indices: idx.slice(0, nIdx) }
}

/**
 * Reads one face vertex at bytes[i] ("v", "v/vt", "v//vn" or "v/vt/vn", each an optionally
 * signed integer) and appends v, vt, vn to `out` (NaN for absent parts). Returns the index
 * after it (it ends at a space, tab, '#' or `end`), or -1 if malformed.
 */
function scanFaceVertex(bytes: Uint8Array, i: number, end: number, out: number[]): number {
  const at = out.length
  out.push(NaN, NaN, NaN)
  let field = 0
  for (;;) {
    const fieldStart = i
    if (i < end && (bytes[i] === 45 || bytes[i] === 43)) i++
    const neg = i > fieldStart && bytes[fieldStart] === 45
    const digits = i
    let v = 0
    while (i < end) {
      const d = bytes[i] - 48
      if (d < 0 || d > 9) break
      v = v * 10 + d
      i++
    }
    if (i > digits) out[at + field] = neg ? -v : v
    else if (digits > fieldStart) return -1 // a sign without digits
    if (i === end || bytes[i] === SPACE || bytes[i] === TAB || bytes[i] === HASH) break
    if (bytes[i] !== SLASH || field === 2) return -1 // not '/', or a fourth part
    field++
    i++
  }
  // v is required; "v/" is incomplete; "v/vt/" and "v//" lack the normal.
  const ok =
    !Number.isNaN(out[at]) && (field !== 1 || !Number.isNaN(out[at + 1])) && (field !== 2 || !Number.isNaN(out[at + 2]))
  return ok ? i : -1
}

function grow<T extends Float32Array | Uint32Array>(a: T): T {
  const b = new (a.constructor as { new (n: number): T })(a.length * 2)
  b.set(a)
  return b
}

/** One object of an OBJ file: its triangles, and optionally normals and vertex colours. */
export interface ObjObject {
  name: string
  mesh: TriMesh
  normals?: Float32Array
  /** RGB in [0, 1] per vertex, written as given after the coordinates (`v x y z r g b`). */
  colors?: Float32Array
}

/**
 * OBJ text for a triangle mesh. Coordinates are written with the fewest digits that read
 * back to the identical float32, so parseObj(writeObj(m)) reproduces m bit for bit.
 */
export function writeObj(mesh: TriMesh, opts: { normals?: Float32Array; colors?: Float32Array; header?: string } = {}): string {
  return writeObjObjects([{ name: '', mesh, normals: opts.normals, colors: opts.colors }], { header: opts.header })
}

/**
 * Several meshes in one OBJ file, each under its own `o <name>` line (an unnamed object gets
 * none), with faces numbered across the whole file as OBJ requires.
 */
export function writeObjObjects(objects: readonly ObjObject[], opts: { header?: string } = {}): string {
  const parts: string[] = []
  if (opts.header !== undefined) {
    for (const line of opts.header.split(/\r?\n/)) parts.push(`# ${line}\n`)
  }
  let vBase = 0
  let nBase = 0
  for (const o of objects) {
    // Line breaks would end the statement; the name is the rest of the line.
    if (o.name !== '') parts.push(`o ${o.name.replace(/[\r\n]+/g, ' ')}\n`)
    writeObject(o, vBase, nBase, parts)
    vBase += o.mesh.positions.length / 3
    if (o.normals) nBase += o.normals.length / 3
  }
  return parts.join('')
}

/** One object's v, vn and f lines; vBase and nBase count the vertices and normals before it. */
function writeObject(o: ObjObject, vBase: number, nBase: number, parts: string[]): void {
  const { positions: p, indices: idx } = o.mesh
  const { normals: nrm, colors: col } = o
  if (nrm && nrm.length !== p.length) throw new EddyError('INVALID_PARAM', `writeObj: ${nrm.length / 3} normals for ${p.length / 3} vertices`)
  if (col && col.length !== p.length) throw new EddyError('INVALID_PARAM', `writeObj: ${col.length / 3} colours for ${p.length / 3} vertices`)
  for (let i = 0; i + 2 < p.length; i += 3) {
    const v = `v ${f32(p[i])} ${f32(p[i + 1])} ${f32(p[i + 2])}`
    parts.push(col ? `${v} ${f32(col[i])} ${f32(col[i + 1])} ${f32(col[i + 2])}\n` : `${v}\n`)
  }
  if (nrm) for (let i = 0; i + 2 < nrm.length; i += 3) parts.push(`vn ${f32(nrm[i])} ${f32(nrm[i + 1])} ${f32(nrm[i + 2])}\n`)
  // One normal per vertex: a face corner's normal has the vertex's own index in the object.
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = idx[t] + 1, b = idx[t + 1] + 1, c = idx[t + 2] + 1
    parts.push(
      nrm
        ? `f ${a + vBase}//${a + nBase} ${b + vBase}//${b + nBase} ${c + vBase}//${c + nBase}\n`
        : `f ${a + vBase} ${b + vBase} ${c + vBase}\n`,
    )
  }
}

/** Shortest decimal (of at most 9 significant digits) that rounds back to the same float32. */
function f32(x: number): string {
  if (!Number.isFinite(x)) throw new EddyError('INVALID_PARAM', `writeObj: cannot write non-finite coordinate ${x}`)
  if (x === 0) return '0' // also turns -0 into 0
  for (let digits = 6; digits < 9; digits++) {
    const s = x.toPrecision(digits)
    // String(Number(s)) drops the trailing zeros toPrecision pads with.
    if (Math.fround(Number(s)) === x) return String(Number(s))
  }
  return String(Number(x.toPrecision(9)))
}

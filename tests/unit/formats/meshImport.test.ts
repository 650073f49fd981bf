import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Document, WebIO } from '@gltf-transform/core'
import { describe, expect, it } from 'vitest'
import { MAX_MESH_FILE_BYTES, importMeshFile } from '../../../src-shared/formats/meshImport'
import { BUNNY_TRIANGLE_COUNT, BUNNY_VERTEX_COUNT, bunnyObjText } from '../../fixtures/makeBunnyObj'

const enc = new TextEncoder()
const TRI_OBJ = enc.encode('v 0 0 0\nv 2 0 0\nv 0 3 -1\nf 1 2 3\n')

function asciiStlTriangle(): Uint8Array {
  return enc.encode('solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 2 0 0\nvertex 0 3 -1\nendloop\nendfacet\nendsolid t\n')
}

async function triangleGlb(): Promise<Uint8Array> {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const position = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 2, 0, 0, 0, 3, -1])).setBuffer(buffer)
  const mesh = doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('POSITION', position))
  doc.getRoot().setDefaultScene(doc.createScene().addChild(doc.createNode().setMesh(mesh)))
  return new WebIO().writeBinary(doc)
}

async function expectParseError(p: Promise<unknown>, pattern: RegExp) {
  let caught: unknown
  try {
    await p
  } catch (e) {
    caught = e
  }
  expect(caught).toMatchObject({ code: 'MESH_PARSE' })
  expect((caught as Error).message).toMatch(pattern)
}

describe('importMeshFile', () => {
  it('picks the parser by extension, case-insensitively', async () => {
    const bounds = { min: [0, 0, -1], max: [2, 3, 0] }
    const obj = await importMeshFile('Tri.OBJ', TRI_OBJ)
    expect(obj.format).toBe('obj')
    expect(obj.info).toEqual({ name: 'Tri', format: 'obj', vertexCount: 3, triangleCount: 1, bounds })

    const stl = await importMeshFile('/some/dir/part.v2.Stl', asciiStlTriangle())
    expect(stl.format).toBe('stl')
    expect(stl.info).toMatchObject({ name: 'part.v2', vertexCount: 3, triangleCount: 1, bounds })

    const glb = await triangleGlb()
    const asGlb = await importMeshFile('C:\\models\\tri.GLB', glb)
    expect(asGlb.info).toMatchObject({ name: 'tri', format: 'glb', triangleCount: 1, bounds })
    // A GLB saved as .gltf is still read (sniffed), reported as the extension says.
    const asGltf = await importMeshFile('tri.gltf', glb)
    expect(asGltf.format).toBe('gltf')
    expect(Array.from(asGltf.mesh.positions)).toEqual([0, 0, 0, 2, 0, 0, 0, 3, -1])
  })

  it('refuses unsupported extensions, empty and oversized files', async () => {
    await expectParseError(importMeshFile('cloud.xyz', TRI_OBJ), /^unsupported mesh format "\.xyz"; Eddy imports OBJ, STL, glTF and GLB$/)
    await expectParseError(importMeshFile('README', TRI_OBJ), /"README" has no file extension/)
    await expectParseError(importMeshFile('empty.obj', new Uint8Array(0)), /"empty\.obj" is empty/)
    // Only the length is looked at before parsing, so a stand-in avoids allocating 512 MiB.
    const huge = { length: MAX_MESH_FILE_BYTES + 1 } as Uint8Array
    await expectParseError(importMeshFile('huge.stl', huge), /"huge\.stl" is too large \(512 MiB\); Eddy imports mesh files up to 512 MiB/)
  })

  it('rejects a NaN coordinate, naming the vertex', async () => {
    await expectParseError(importMeshFile('nan.obj', enc.encode('v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n')), /line 2: vertex 2 has a non-finite coordinate "nan"/)
    // Binary STL NaNs are caught by validation, which also names the vertex.
    const bytes = new Uint8Array(84 + 50)
    const view = new DataView(bytes.buffer)
    view.setUint32(80, 1, true)
    const corners = [0, 0, 0, 1, 0, 0, 0, Number.NaN, 0]
    corners.forEach((x, i) => view.setFloat32(84 + 12 + 4 * i, x, true))
    await expectParseError(importMeshFile('nan.stl', bytes), /"nan\.stl": vertex 3 has a non-finite coordinate \(y = NaN\)/)
  })

  it('drops degenerate triangles, and fails if nothing is left', async () => {
    const r = await importMeshFile('deg.obj', enc.encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 1 2\nf 3 2 3\n'))
    expect(r.info.triangleCount).toBe(1)
    await expectParseError(importMeshFile('flat.obj', enc.encode('v 0 0 0\nv 1 0 0\nf 1 1 2\n')), /"flat\.obj": has no triangles/)
  })

  it('refuses a mesh whose every triangle has zero area (coincident or collinear corners)', async () => {
    // Distinct indices, so no triangle is dropped as degenerate; still no surface.
    const line = 'v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3\nf 2 3 4\n'
    await expectParseError(importMeshFile('line.obj', enc.encode(line)), /"line\.obj": has no surface: all 2 triangles have zero area/)
    const point = 'v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\n'
    await expectParseError(importMeshFile('point.obj', enc.encode(point)), /"point\.obj": has no surface: all 1 triangles have zero area/)
    // One real triangle among flat ones is a mesh.
    const r = await importMeshFile('ok.obj', enc.encode(`${line}v 0 1 0\nf 1 2 5\n`))
    expect(r.info.triangleCount).toBe(3)
  })

  it('imports the bunny from a file on disk and reports its bounds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eddy-bunny-'))
    try {
      const file = join(dir, 'bunny.obj')
      writeFileSync(file, bunnyObjText())
      const r = await importMeshFile(file, new Uint8Array(readFileSync(file)))
      expect(r.info.name).toBe('bunny')
      expect(r.info.vertexCount).toBe(BUNNY_VERTEX_COUNT)
      expect(r.info.triangleCount).toBe(BUNNY_TRIANGLE_COUNT)
      const { min, max } = r.info.bounds
      // Raw scan units, y up: about 9.9 wide, 9.7 tall, 7.5 deep.
      expect(min[0]).toBeCloseTo(-4.958475, 5)
      expect(max[0]).toBeCloseTo(4.94885, 5)
      expect(min[1]).toBeCloseTo(-0.003149, 5)
      expect(max[1]).toBeCloseTo(9.654748, 5)
      expect(min[2]).toBeCloseTo(-3.729833, 5)
      expect(max[2]).toBeCloseTo(3.810639, 5)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

// Mesh import through Add > Import Mesh: OBJ, binary STL and GLB files become mesh obstacles
// whose inspector shows the mesh; a malformed file is an error toast and changes nothing.
import { Document, NodeIO } from '@gltf-transform/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNNY_TRIANGLE_COUNT, bunnyObjText } from '../fixtures/makeBunnyObj'
import { artifactPath, startApp, type RunningApp } from './harness'
import { newProject, outlinerNames, tid } from './ui'

/** A binary STL of a unit cube: 12 triangles over 8 distinct corners. */
function cubeStl(): Buffer {
  const v = [
    [0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
    [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1],
  ]
  const quads = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [3, 7, 6, 2], [0, 4, 7, 3], [1, 2, 6, 5]]
  const tris = quads.flatMap(([a, b, c, d]) => [[a, b, c], [a, c, d]])
  const buf = Buffer.alloc(84 + tris.length * 50)
  buf.write('cube', 0, 'ascii')
  buf.writeUInt32LE(tris.length, 80)
  tris.forEach((t, i) => {
    const o = 84 + i * 50
    t.forEach((vi, k) => v[vi].forEach((c, j) => buf.writeFloatLE(c, o + 12 + k * 12 + j * 4)))
  })
  return buf
}

/** A GLB with one triangle. */
async function triangleGlb(): Promise<Buffer> {
  const doc = new Document()
  const buffer = doc.createBuffer()
  const position = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])).setBuffer(buffer)
  const indices = doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 1, 2])).setBuffer(buffer)
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices)
  const mesh = doc.createMesh('tri').addPrimitive(prim)
  const node = doc.createNode('tri').setMesh(mesh)
  doc.createScene('scene').addChild(node)
  return Buffer.from(await new NodeIO().writeBinary(doc))
}

describe('mesh import', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
    await newProject(app.page, 'Meshes')
  })
  afterAll(async () => {
    await app?.close()
  })

  async function importFile(name: string, buffer: Buffer): Promise<void> {
    await app.page.setInputFiles(tid('import-mesh-input'), { name, mimeType: 'application/octet-stream', buffer })
  }

  it('imports an OBJ (the Stanford bunny) as a selected mesh obstacle', async () => {
    const { page } = app
    // The menu item opens the (hidden) file input.
    expect(await page.getAttribute(tid('import-mesh-input'), 'accept')).toBe('.obj,.stl,.gltf,.glb')
    await importFile('bunny.obj', Buffer.from(bunnyObjText()))
    await page.waitForSelector(tid('mesh-info'))
    expect(await outlinerNames(page)).toEqual(['bunny'])
    expect(await page.inputValue(tid('param-shape'))).toBe('mesh')
    expect(await page.textContent(tid('mesh-name'))).toBe('bunny')
    expect(await page.textContent(tid('mesh-triangles'))).toBe(BUNNY_TRIANGLE_COUNT.toLocaleString('en-US'))
    expect(Number((await page.textContent(tid('mesh-vertices')))!.replace(/,/g, ''))).toBeGreaterThan(1000)
    await page.screenshot({ path: artifactPath('meshes-bunny.png') })
  })

  it('imports binary STL and GLB', async () => {
    const { page } = app
    await importFile('cube.stl', cubeStl())
    await expect.poll(() => page.textContent(tid('mesh-name'))).toBe('cube')
    expect(await page.textContent(tid('mesh-triangles'))).toBe('12')
    expect(await page.textContent(tid('mesh-vertices'))).toBe('8')

    await importFile('tri.glb', await triangleGlb())
    await expect.poll(() => page.textContent(tid('mesh-name'))).toBe('tri')
    expect(await page.textContent(tid('mesh-triangles'))).toBe('1')
    expect(await outlinerNames(page)).toEqual(['bunny', 'cube', 'tri'])
  })

  it('reports a malformed file in a dismissable toast and adds nothing', async () => {
    const { page } = app
    await importFile('broken.obj', Buffer.from('v 1 2\nf 1 2 3\n'))
    const toast = page.locator(tid('error-toast'))
    await toast.waitFor()
    expect(await page.textContent(tid('error-message'))).toMatch(/broken\.obj.*line 1/)
    expect(await toast.getAttribute('data-code')).toBe('MESH_PARSE')
    expect(await outlinerNames(page)).toEqual(['bunny', 'cube', 'tri'])
    await page.screenshot({ path: artifactPath('meshes-error-toast.png') })
    await page.click(tid('error-dismiss'))
    await expect.poll(() => toast.count()).toBe(0)

    await importFile('notes.txt', Buffer.from('hello'))
    await toast.waitFor()
    expect(await page.textContent(tid('error-message'))).toMatch(/OBJ, STL, glTF and GLB/)
    await page.click(tid('error-dismiss'))
  })

  it('undo removes an imported obstacle', async () => {
    const { page } = app
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('Control+z')
    await expect.poll(() => outlinerNames(page)).toEqual(['bunny', 'cube'])
    expect(app.pageErrors).toEqual([])
  })
})

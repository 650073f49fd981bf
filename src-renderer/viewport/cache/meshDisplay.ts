// A baked liquid surface (or any frame mesh, or a posed rigid body): positions, normals and
// vertex colours in updatable buffers with spare room, rewritten in place while the vertex
// count fits. Without colours a fixed material (glossy blue-grey liquid, or matte for rigid
// bodies); with colours one shared white-diffuse material that the vertex colours tint.
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial'
import { Color3 } from '@babylonjs/core/Maths/math.color'
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { SubMesh } from '@babylonjs/core/Meshes/subMesh'
import type { Scene } from '@babylonjs/core/scene'
import type { MeshDisplayData } from './displayData'
import { grownCapacity } from './capacity'
import { useCounterClockwiseFront } from '../shapes'

/** The cached-mesh materials of a scene, by name (each created on first use). */
export const CACHE_MATERIALS = ['cache:liquid', 'cache:rigid', 'cache:coloured'] as const
export type CacheMaterialName = (typeof CACHE_MATERIALS)[number]

/** One material of each kind for every cached mesh of a scene (created on first use, disposed with the display). */
export function cacheMaterial(scene: Scene, name: CacheMaterialName): StandardMaterial {
  const existing = scene.getMaterialByName(name)
  if (existing instanceof StandardMaterial) return existing
  const m = new StandardMaterial(name, scene)
  if (name === 'cache:liquid') {
    m.diffuseColor = new Color3(0.25, 0.45, 0.62)
    m.specularColor = new Color3(0.7, 0.75, 0.8)
    m.specularPower = 96
    m.emissiveColor = new Color3(0.02, 0.05, 0.08)
  } else if (name === 'cache:rigid') {
    // Matte warm grey: solid bodies read apart from the blue liquid around them.
    m.diffuseColor = new Color3(0.62, 0.55, 0.47)
    m.specularColor = new Color3(0.15, 0.15, 0.15)
  } else {
    // Vertex colours multiply the diffuse colour: white shows them as they are.
    m.diffuseColor = new Color3(1, 1, 1)
    m.specularColor = new Color3(0.3, 0.3, 0.3)
    m.specularPower = 64
  }
  // Surfaces from marching cubes and the like are not reliably wound; light both sides.
  m.backFaceCulling = false
  m.twoSidedLighting = true
  return m
}

export class MeshDisplay {
  private readonly scene: Scene
  private readonly mesh: Mesh
  private capacity = 0
  private vertices = 0
  private indexCount = 0
  private visible = true
  private coloured = false

  constructor(
    scene: Scene,
    name = 'cache:mesh',
    private readonly plainMaterial: CacheMaterialName = 'cache:liquid',
  ) {
    this.scene = scene
    this.mesh = new Mesh(name, scene)
    // Frame meshes and posed bodies are counter-clockwise seen from outside (the liquid
    // surfacer, rigid tessellate.ts): their outside is the front, or two-sided lighting
    // lights it from the inside (a dark body under the sun).
    useCounterClockwiseFront(this.mesh)
    this.mesh.isPickable = false
    // Bounds change every frame and are not recomputed on the CPU; the mesh is never culled.
    this.mesh.alwaysSelectAsActiveMesh = true
    this.mesh.material = cacheMaterial(scene, plainMaterial)
    this.mesh.setEnabled(false)
  }

  /** Whether the last frame drew vertex colours. */
  get hasColors(): boolean {
    return this.coloured
  }

  get node(): Mesh {
    return this.mesh
  }

  /** Vertices and indices drawn, and the vertex room in the GPU buffers. */
  get drawn(): { vertices: number; indices: number; capacity: number } {
    return { vertices: this.vertices, indices: this.indexCount, capacity: this.capacity }
  }

  update(m: MeshDisplayData | null): void {
    const vertices = m ? Math.floor(m.positions.length / 3) : 0
    const indices = m ? m.indices.length - (m.indices.length % 3) : 0
    this.vertices = vertices
    this.indexCount = indices
    if (!m || vertices === 0 || indices === 0) {
      this.syncEnabled()
      return
    }
    if (vertices > this.capacity) this.allocate(grownCapacity(this.capacity, vertices))
    this.mesh.getVertexBuffer(VertexBuffer.PositionKind)?.updateDirectly(m.positions.subarray(0, vertices * 3), 0)
    this.mesh.getVertexBuffer(VertexBuffer.NormalKind)?.updateDirectly(m.normals.subarray(0, vertices * 3), 0)
    this.setColors(m.colors && m.colors.length >= vertices * 4 ? m.colors.subarray(0, vertices * 4) : null)
    // The index buffer is re-specified at its new length (Babylon uploads it whole).
    this.mesh.updateIndices(m.indices.subarray(0, indices), 0, true)
    this.mesh.releaseSubMeshes()
    new SubMesh(0, 0, vertices, 0, indices, this.mesh, undefined, false)
    this.syncEnabled()
  }

  setVisible(v: boolean): void {
    this.visible = v
    this.syncEnabled()
  }

  dispose(): void {
    // The shared material stays for the other cached meshes.
    this.mesh.dispose(false, false)
  }

  /** Colours on: upload them and use the white material; off: the plain material, no colour buffer read. */
  private setColors(colors: Float32Array | null): void {
    this.coloured = colors !== null
    this.mesh.useVertexColors = this.coloured
    this.mesh.material = cacheMaterial(this.scene, this.coloured ? 'cache:coloured' : this.plainMaterial)
    if (colors) this.mesh.getVertexBuffer(VertexBuffer.ColorKind)?.updateDirectly(colors, 0)
  }

  private allocate(capacity: number): void {
    this.capacity = capacity
    const engine = this.scene.getEngine()
    this.mesh.setVerticesBuffer(new VertexBuffer(engine, new Float32Array(capacity * 3), VertexBuffer.PositionKind, true, false, 3))
    this.mesh.setVerticesBuffer(new VertexBuffer(engine, new Float32Array(capacity * 3), VertexBuffer.NormalKind, true, false, 3))
    // RGBA: Babylon's vertex colour layout. Always present, so colouring on and off never reallocates.
    this.mesh.setVerticesBuffer(new VertexBuffer(engine, new Float32Array(capacity * 4), VertexBuffer.ColorKind, true, false, 4))
    // 32-bit indices from the start: a Uint32Array stays 32-bit on WebGL2.
    this.mesh.setIndices(new Uint32Array(3), capacity, true)
  }

  private syncEnabled(): void {
    this.mesh.setEnabled(this.visible && this.vertices > 0 && this.indexCount > 0)
  }
}

// A baked liquid surface (or any frame mesh): positions and normals in updatable vertex
// buffers with spare room, rewritten in place while the vertex count fits, and a glossy
// blue-grey material that reads as liquid without hiding the shape.
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial'
import { Color3 } from '@babylonjs/core/Maths/math.color'
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { SubMesh } from '@babylonjs/core/Meshes/subMesh'
import type { Scene } from '@babylonjs/core/scene'
import type { MeshDisplayData } from './displayData'
import { grownCapacity } from './capacity'

/** One material for every cached mesh of a scene (created on first use, disposed with the scene). */
export function liquidMaterial(scene: Scene): StandardMaterial {
  const existing = scene.getMaterialByName('cache:liquid')
  if (existing instanceof StandardMaterial) return existing
  const m = new StandardMaterial('cache:liquid', scene)
  m.diffuseColor = new Color3(0.25, 0.45, 0.62)
  m.specularColor = new Color3(0.7, 0.75, 0.8)
  m.specularPower = 96
  m.emissiveColor = new Color3(0.02, 0.05, 0.08)
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

  constructor(scene: Scene, name = 'cache:mesh') {
    this.scene = scene
    this.mesh = new Mesh(name, scene)
    this.mesh.isPickable = false
    // Bounds change every frame and are not recomputed on the CPU; the mesh is never culled.
    this.mesh.alwaysSelectAsActiveMesh = true
    this.mesh.material = liquidMaterial(scene)
    this.mesh.setEnabled(false)
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

  private allocate(capacity: number): void {
    this.capacity = capacity
    const engine = this.scene.getEngine()
    this.mesh.setVerticesBuffer(new VertexBuffer(engine, new Float32Array(capacity * 3), VertexBuffer.PositionKind, true, false, 3))
    this.mesh.setVerticesBuffer(new VertexBuffer(engine, new Float32Array(capacity * 3), VertexBuffer.NormalKind, true, false, 3))
    // 32-bit indices from the start: a Uint32Array stays 32-bit on WebGL2.
    this.mesh.setIndices(new Uint32Array(3), capacity, true)
  }

  private syncEnabled(): void {
    this.mesh.setEnabled(this.visible && this.vertices > 0 && this.indexCount > 0)
  }
}

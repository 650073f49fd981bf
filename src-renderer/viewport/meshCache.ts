// Triangle data of imported meshes, fetched once per meshId with 'mesh.data' and kept for
// the life of the viewport (meshes are immutable once imported; a re-import gets a new id).
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData'

export interface TriMeshData {
  positions: Float32Array
  indices: Uint32Array
  normals: Float32Array
}

export type MeshFetcher = (meshId: string) => Promise<{ positions: string; indices: string } | undefined>

type Entry = { state: 'loading' } | { state: 'ready'; data: TriMeshData } | { state: 'failed' }

function decodeBase64(b64: string): ArrayBuffer {
  const bin = atob(b64)
  const bytes = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
  return bytes.buffer
}

export class MeshCache {
  private readonly entries = new Map<string, Entry>()
  private disposed = false

  constructor(
    private readonly fetcher: MeshFetcher,
    /** Called when a mesh finished loading (or failed), so its users can be rebuilt. */
    private readonly onSettled: (meshId: string) => void,
  ) {}

  /** The data if loaded; otherwise starts loading (once) and returns undefined. */
  get(meshId: string): TriMeshData | undefined {
    const e = this.entries.get(meshId)
    if (e) return e.state === 'ready' ? e.data : undefined
    this.entries.set(meshId, { state: 'loading' })
    void this.load(meshId)
    return undefined
  }

  private async load(meshId: string): Promise<void> {
    let entry: Entry = { state: 'failed' }
    try {
      const raw = await this.fetcher(meshId)
      if (!raw) {
        // Not connected yet: forget the attempt so the next sync asks again.
        this.entries.delete(meshId)
        return
      }
      {
        const positions = new Float32Array(decodeBase64(raw.positions))
        const indices = new Uint32Array(decodeBase64(raw.indices))
        const normals = new Float32Array(positions.length)
        VertexData.ComputeNormals(positions, indices, normals, { useRightHandedSystem: true })
        entry = { state: 'ready', data: { positions, indices, normals } }
      }
    } catch (e) {
      console.warn(`viewport: could not load mesh ${meshId}`, e)
    }
    if (this.disposed) return
    this.entries.set(meshId, entry)
    this.onSettled(meshId)
  }

  dispose(): void {
    this.disposed = true
    this.entries.clear()
  }
}

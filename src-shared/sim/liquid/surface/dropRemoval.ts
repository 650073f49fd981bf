// Small-drop removal: the connected pieces of a closed mesh (union-find over vertices, one
// union per triangle edge) and the volume each encloses, by the divergence theorem
// V = 1/6 sum over triangles of a . (b x c), taken relative to one vertex of the piece so that
// far-from-origin coordinates do not cancel away the digits. Pieces enclosing less than a
// threshold are dropped and the survivors reindexed compactly, in place.
//
// The test is on |V|: a tiny enclosed air pocket (negative volume, its triangles face
// inward) is as much sub-grid noise as a tiny drop, while a large cavity is kept.
import type { MeshBuffers } from '../../../geometry/marchingCubes'

/** Keeps its scratch between frames. */
export class DropRemover {
  /** Per vertex: its component, 0..componentCount-1, after label(). */
  component = new Int32Array(0)
  /** Per component: enclosed signed volume, m^3, after label(). */
  volume = new Float64Array(0)
  componentCount = 0
  private parent = new Int32Array(0)
  private reference = new Int32Array(0) // per component: the vertex volumes are taken about

  /** Labels the connected components of triangles 0..triangleCount-1; returns how many. */
  label(positions: Float32Array, vertexCount: number, indices: Uint32Array, triangleCount: number): number {
    if (this.parent.length < vertexCount) {
      this.parent = new Int32Array(vertexCount)
      this.component = new Int32Array(vertexCount)
    }
    const parent = this.parent
    for (let v = 0; v < vertexCount; v++) parent[v] = v
    for (let t = 0; t < 3 * triangleCount; t += 3) {
      union(parent, indices[t], indices[t + 1])
      union(parent, indices[t + 1], indices[t + 2])
    }
    // Roots -> dense ids, in order of first vertex (deterministic).
    const comp = this.component
    let n = 0
    for (let v = 0; v < vertexCount; v++) {
      const r = find(parent, v)
      comp[v] = r === v ? n++ : -1
    }
    for (let v = 0; v < vertexCount; v++) if (comp[v] === -1) comp[v] = comp[find(parent, v)]
    this.componentCount = n
    if (this.volume.length < n) {
      this.volume = new Float64Array(n)
      this.reference = new Int32Array(n)
    }
    const vol = this.volume, ref = this.reference
    vol.fill(0, 0, n)
    for (let v = vertexCount - 1; v >= 0; v--) ref[comp[v]] = v
    const p = positions
    for (let t = 0; t < 3 * triangleCount; t += 3) {
      const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
      const c0 = comp[indices[t]], o = 3 * ref[c0]
      const ax = p[a] - p[o], ay = p[a + 1] - p[o + 1], az = p[a + 2] - p[o + 2]
      const bx = p[b] - p[o], by = p[b + 1] - p[o + 1], bz = p[b + 2] - p[o + 2]
      const cx = p[c] - p[o], cy = p[c + 1] - p[o + 1], cz = p[c + 2] - p[o + 2]
      vol[c0] += (ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6
    }
    return n
  }

  /** Drops components with |volume| < minVolume (m^3) from mesh, in place; returns how many went. */
  removeSmall(mesh: MeshBuffers, minVolume: number): number {
    const n = this.label(mesh.positions, mesh.vertexCount, mesh.indices, mesh.triangleCount)
    const comp = this.component, vol = this.volume
    let removed = 0
    for (let c = 0; c < n; c++) if (Math.abs(vol[c]) < minVolume) removed++
    if (removed === 0) return 0
    // New vertex ids, written over `parent` (no longer needed): -1 for dropped vertices.
    // Compaction in place is safe because a new index is never above the old one.
    const remap = this.parent, p = mesh.positions
    let nv = 0
    for (let v = 0; v < mesh.vertexCount; v++) {
      if (Math.abs(vol[comp[v]]) < minVolume) {
        remap[v] = -1
        continue
      }
      remap[v] = nv
      p[3 * nv] = p[3 * v]
      p[3 * nv + 1] = p[3 * v + 1]
      p[3 * nv + 2] = p[3 * v + 2]
      nv++
    }
    const idx = mesh.indices
    let nt = 0
    for (let t = 0; t < mesh.triangleCount; t++) {
      const a = remap[idx[3 * t]]
      if (a < 0) continue // a triangle's vertices share one component
      idx[3 * nt] = a
      idx[3 * nt + 1] = remap[idx[3 * t + 1]]
      idx[3 * nt + 2] = remap[idx[3 * t + 2]]
      nt++
    }
    mesh.vertexCount = nv
    mesh.triangleCount = nt
    return removed
  }
}

function find(parent: Int32Array, v: number): number {
  while (parent[v] !== v) {
    parent[v] = parent[parent[v]] // path halving
    v = parent[v]
  }
  return v
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a), rb = find(parent, b)
  // The smaller index becomes the root, so labels do not depend on triangle order.
  if (ra < rb) parent[rb] = ra
  else if (rb < ra) parent[ra] = rb
}

// Triangle meshes of the scene's primitive shapes for rigid bodies, centred on the origin
// (their centre of mass) in the shapes' local axes: each serves as the display mesh (with
// normals) and its vertices as the collision sample points of Guendelman, Bridson and
// Fedkiw 2003 (points of one body are tested against the other's signed
// distance). Point sampling only sees contact where there are points, so faces and edges
// are subdivided: a box resting on another box meets it with the points inside its faces
// and along its edges, not only at its 8 corners (two aligned boxes of equal size touch
// corner to corner, where the other box's distance is exactly zero), and two boxes crossing
// edge to edge meet through the points along those edges.
// Conventions as src-shared/geometry/primitiveSdf.ts: a box of edges s, an ellipsoid of
// semi-axes s/2, a cylinder along Y of height s_y and elliptic cross-section of semi-axes
// s_x/2, s_z/2. Triangles are counter-clockwise seen from outside. Seams (box edges, the
// cylinder's rims) duplicate vertices so normals stay sharp; the duplicates have bit-equal
// positions, so isClosedSurface still sees a closed surface.

export interface TessellatedMesh {
  positions: Float32Array
  indices: Uint32Array
  normals: Float32Array
}

class MeshBuilder {
  pos: number[] = []
  nrm: number[] = []
  idx: number[] = []
  vertex(x: number, y: number, z: number, nx: number, ny: number, nz: number): number {
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1
    this.pos.push(x, y, z)
    this.nrm.push(nx / l, ny / l, nz / l)
    return this.pos.length / 3 - 1
  }
  tri(a: number, b: number, c: number): void {
    this.idx.push(a, b, c)
  }
  build(): TessellatedMesh {
    return { positions: Float32Array.from(this.pos), indices: Uint32Array.from(this.idx), normals: Float32Array.from(this.nrm) }
  }
}

/**
 * Segments along each axis of a box of edges (sx, sy, sz): about 4 along the shortest edge
 * and the same spacing on the others (at most `maxSegments`), so sample points are evenly
 * spread whatever the box's proportions.
 */
export function boxSegments(sx: number, sy: number, sz: number, perShortEdge = 4, maxSegments = 24): [number, number, number] {
  const h = Math.min(sx, sy, sz) / perShortEdge
  const seg = (s: number) => Math.max(1, Math.min(maxSegments, Math.ceil(s / h - 1e-9)))
  return [seg(sx), seg(sy), seg(sz)]
}

/** Box |x| <= hx, |y| <= hy, |z| <= hz with each face split into a grid of quads. */
export function boxMesh(hx: number, hy: number, hz: number, seg: [number, number, number]): TessellatedMesh {
  const b = new MeshBuilder()
  const h = [hx, hy, hz]
  // Face of outward normal sign * e_axis, parametrised by axes (u, v) with e_u x e_v = normal,
  // so quads walked (i, j) -> (i+1, j) -> (i+1, j+1) -> (i, j+1) are counter-clockwise.
  const faces: [number, number, number, number][] = [
    [0, 1, 1, 2], [0, -1, 2, 1],
    [1, 1, 2, 0], [1, -1, 0, 2],
    [2, 1, 0, 1], [2, -1, 1, 0],
  ]
  const p = [0, 0, 0]
  for (const [axis, sign, u, v] of faces) {
    const nu = seg[u], nv = seg[v]
    const base = b.pos.length / 3
    for (let j = 0; j <= nv; j++) {
      for (let i = 0; i <= nu; i++) {
        p[axis] = sign * h[axis]
        // Bit-equal coordinates on shared edges: the same expression of (i, n) on every face.
        p[u] = -h[u] + (2 * h[u] * i) / nu
        p[v] = -h[v] + (2 * h[v] * j) / nv
        if (i === nu) p[u] = h[u]
        if (j === nv) p[v] = h[v]
        b.vertex(p[0], p[1], p[2], axis === 0 ? sign : 0, axis === 1 ? sign : 0, axis === 2 ? sign : 0)
      }
    }
    for (let j = 0; j < nv; j++) {
      for (let i = 0; i < nu; i++) {
        const a = base + i + (nu + 1) * j
        b.tri(a, a + 1, a + nu + 2)
        b.tri(a, a + nu + 2, a + nu + 1)
      }
    }
  }
  return b.build()
}

/**
 * Ellipsoid of semi-axes (a, b, c): an icosahedron whose triangles are split in 4 `levels`
 * times, vertices pushed onto the unit sphere, then scaled (level 3: 642 vertices, 1280
 * triangles, largest gap to the true sphere 0.3% of the radius).
 */
export function ellipsoidMesh(a: number, b: number, c: number, levels = 3): TessellatedMesh {
  const t = (1 + Math.sqrt(5)) / 2
  const pos: number[] = [
    -1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, 0,
    0, -1, t, 0, 1, t, 0, -1, -t, 0, 1, -t,
    t, 0, -1, t, 0, 1, -t, 0, -1, -t, 0, 1,
  ]
  let tri: number[] = [
    0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11,
    1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
    3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9,
    4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
  ]
  const normalise = (i: number) => {
    const l = Math.hypot(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2])
    pos[3 * i] /= l
    pos[3 * i + 1] /= l
    pos[3 * i + 2] /= l
  }
  for (let i = 0; i < pos.length / 3; i++) normalise(i)
  for (let l = 0; l < levels; l++) {
    const mid = new Map<number, number>()
    const nv = pos.length / 3
    const midpoint = (i: number, j: number): number => {
      const key = i < j ? i * nv + j : j * nv + i
      let m = mid.get(key)
      if (m === undefined) {
        m = pos.length / 3
        pos.push(0.5 * (pos[3 * i] + pos[3 * j]), 0.5 * (pos[3 * i + 1] + pos[3 * j + 1]), 0.5 * (pos[3 * i + 2] + pos[3 * j + 2]))
        normalise(m)
        mid.set(key, m)
      }
      return m
    }
    const next: number[] = []
    for (let k = 0; k < tri.length; k += 3) {
      const i = tri[k], j = tri[k + 1], m = tri[k + 2]
      const ij = midpoint(i, j), jm = midpoint(j, m), mi = midpoint(m, i)
      next.push(i, ij, mi, j, jm, ij, m, mi, jm, ij, jm, mi)
    }
    tri = next
  }
  const mb = new MeshBuilder()
  for (let i = 0; i < pos.length; i += 3) {
    const x = pos[i], y = pos[i + 1], z = pos[i + 2]
    // Normal of (x/a)^2 + (y/b)^2 + (z/c)^2 = 1 at (a x, b y, c z): (x/a, y/b, z/c).
    mb.vertex(a * x, b * y, c * z, x / a, y / b, z / c)
  }
  mb.idx = tri
  return mb.build()
}

/**
 * Cylinder along Y, |y| <= h, cross-section (x/a)^2 + (z/c)^2 <= 1: `radial` segments around,
 * side rings spaced about like the segments, caps as concentric rings (so a cylinder standing
 * on its cap has sample points all over the cap, not only on its rim).
 */
export function cylinderMesh(a: number, c: number, h: number, radial = 32): TessellatedMesh {
  const b = new MeshBuilder()
  const r = Math.max(a, c)
  const spacing = (2 * Math.PI * r) / radial
  const rows = Math.max(1, Math.min(64, Math.ceil((2 * h) / spacing - 1e-9)))
  const rings = Math.max(1, Math.min(32, Math.ceil(r / spacing - 1e-9)))
  const cs = new Float64Array(radial), sn = new Float64Array(radial)
  for (let k = 0; k < radial; k++) {
    cs[k] = Math.cos((2 * Math.PI * k) / radial)
    sn[k] = Math.sin((2 * Math.PI * k) / radial)
  }
  // Side: point(theta, y) = (a cos, y, c sin); d/dy x d/dtheta points outwards, so quads are
  // walked y first, then theta.
  const side = b.pos.length / 3
  for (let j = 0; j <= rows; j++) {
    const y = j === rows ? h : -h + (2 * h * j) / rows
    for (let k = 0; k < radial; k++) b.vertex(a * cs[k], y, c * sn[k], cs[k] / a, 0, sn[k] / c)
  }
  for (let j = 0; j < rows; j++) {
    for (let k = 0; k < radial; k++) {
      const k1 = (k + 1) % radial
      const p00 = side + k + radial * j, p01 = side + k + radial * (j + 1)
      const p10 = side + k1 + radial * j, p11 = side + k1 + radial * (j + 1)
      b.tri(p00, p01, p11)
      b.tri(p00, p11, p10)
    }
  }
  // Caps: centre plus `rings` rings; the outermost ring is bit-equal to the side's rim.
  for (const sign of [1, -1]) {
    const y = sign * h
    const centre = b.vertex(0, y, 0, 0, sign, 0)
    const first = b.pos.length / 3
    for (let q = 1; q <= rings; q++) {
      const f = q / rings
      for (let k = 0; k < radial; k++) {
        const x = q === rings ? a * cs[k] : f * a * cs[k]
        const z = q === rings ? c * sn[k] : f * c * sn[k]
        b.vertex(x, y, z, 0, sign, 0)
      }
    }
    // Seen from +y, theta increasing (x towards z) turns clockwise, so the top cap walks
    // theta backwards and the bottom cap forwards.
    const emit = (p: number, q: number, s: number) => (sign > 0 ? b.tri(p, s, q) : b.tri(p, q, s))
    for (let k = 0; k < radial; k++) emit(centre, first + k, first + ((k + 1) % radial))
    for (let q = 0; q + 1 < rings; q++) {
      for (let k = 0; k < radial; k++) {
        const k1 = (k + 1) % radial
        const i0 = first + k + radial * q, i1 = first + k1 + radial * q
        const o0 = first + k + radial * (q + 1), o1 = first + k1 + radial * (q + 1)
        emit(i0, o0, o1)
        emit(i0, o1, i1)
      }
    }
  }
  return b.build()
}

/**
 * Distinct vertex positions of a mesh (float64 xyz), in first-seen order: seams duplicate
 * vertices for their normals, and a sample point counted twice would weigh twice in the
 * contact solve.
 */
export function uniquePositions(positions: ArrayLike<number>): Float64Array {
  const seen = new Map<string, number>()
  const out: number[] = []
  for (let i = 0; i + 2 < positions.length; i += 3) {
    const key = `${positions[i]},${positions[i + 1]},${positions[i + 2]}`
    if (seen.has(key)) continue
    seen.set(key, out.length)
    out.push(positions[i], positions[i + 1], positions[i + 2])
  }
  return Float64Array.from(out)
}

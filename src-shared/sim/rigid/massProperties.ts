// Mass, centre of mass and inertia tensor of a rigid body of uniform density.
//
// Meshes: the closed form of Mirtich ("Fast and accurate computation of polyhedral mass
// properties", JGT 1996) in the simplified per-triangle form of Eberly ("Polyhedral Mass
// Properties (Revisited)", Geometric Tools 2002). By the divergence theorem every volume
// integral of 1, x, y, z, x^2, y^2, z^2, xy, yz, zx over the solid becomes a sum over the
// boundary triangles, each term a polynomial in the corner coordinates; the sums are exact
// for any closed, consistently oriented surface, convex or not (Carlson 2004, section 5.5:
// "the rigid bodies are polygonal objects, possibly concave, and their mass properties are
// computed directly from the polygonal representation [51]").
//
// Primitives: the scene's unit shapes (src-shared/geometry/primitiveSdf.ts), scaled per axis:
// a box of edges s, an ellipsoid of semi-axes s/2 (the sphere of diameter 1 m), an elliptic
// cylinder along local Y of semi-axes s_x/2, s_z/2 and height s_y. Their centre of mass is
// the origin and their inertia tensors are diagonal (textbook integrals, listed below).
//
// Inertia tensors are about the centre of mass, in the object's axes, 3x3 row-major.
import { EddyError } from '../../api/errors'
import { isClosedSurfaceRemembered } from '../../geometry/closedSurface'
import { MeshMemo } from '../../geometry/meshMemo'
import type { PrimitiveShape } from '../../geometry/primitiveSdf'
import { computeBounds, type TriMesh } from '../../geometry/triMesh'

/** meshVolumeIntegrals about the bounds' centre, remembered by content (meshMemo.ts): read, never written. */
const INTEGRALS = new MeshMemo<Float64Array>(8)

export interface MassProperties {
  /** m^3. */
  volume: number
  /** kg. */
  mass: number
  /** Object-local position of the centre of mass, m. */
  centerOfMass: Float64Array
  /** Inertia tensor about the centre of mass, object axes, kg m^2, row-major 3x3. */
  inertia: Float64Array
}

/** Names the object in refusals (the scene object's id and name). */
export interface MassObjectRef {
  id?: string
  name: string
}

function refuse(obj: MassObjectRef, field: string, message: string, value: unknown): never {
  throw new EddyError('INVALID_PARAM', `Rigid body "${obj.name}": ${message}`, { objectId: obj.id, field, value })
}

function checkDensity(density: number, obj: MassObjectRef): void {
  if (!(density > 0) || !Number.isFinite(density)) {
    refuse(obj, 'density', `density must be a positive finite number of kg/m^3, got ${density}`, density)
  }
}

/**
 * Volume integrals of a closed triangle mesh for density 1, about `ref` (Eberly 2002):
 * out = [V, Sx, Sy, Sz, Sxx, Syy, Szz, Sxy, Syz, Szx] with S_f = integral of f over the solid
 * in coordinates relative to ref. Subtracting a point near the mesh (the bounds' centre)
 * before the cubic products keeps round-off relative to the body's size, not its distance
 * from the origin. Triangles are taken counter-clockwise seen from outside.
 */
export function meshVolumeIntegrals(mesh: TriMesh, refX: number, refY: number, refZ: number, out: Float64Array = new Float64Array(10)): Float64Array {
  const p = mesh.positions, idx = mesh.indices
  let i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2]
    const x0 = p[a] - refX, y0 = p[a + 1] - refY, z0 = p[a + 2] - refZ
    const x1 = p[b] - refX, y1 = p[b + 1] - refY, z1 = p[b + 2] - refZ
    const x2 = p[c] - refX, y2 = p[c + 1] - refY, z2 = p[c + 2] - refZ
    // d = (p1 - p0) x (p2 - p0): twice the area-weighted outward normal.
    const ax = x1 - x0, ay = y1 - y0, az = z1 - z0
    const bx = x2 - x0, by = y2 - y0, bz = z2 - z0
    const d0 = ay * bz - az * by, d1 = az * bx - ax * bz, d2 = ax * by - ay * bx
    // Eberly's "Subexpressions" for each coordinate: f1 = sum, f2 = sum of degree-2
    // monomials, f3 = degree 3, g_i = f2 + w_i (f1 + w_i).
    let s0 = x0 + x1, s1 = x0 * x0, s2 = s1 + x1 * s0
    const f1x = s0 + x2, f2x = s2 + x2 * f1x, f3x = x0 * s1 + x1 * s2 + x2 * f2x
    const g0x = f2x + x0 * (f1x + x0), g1x = f2x + x1 * (f1x + x1), g2x = f2x + x2 * (f1x + x2)
    s0 = y0 + y1; s1 = y0 * y0; s2 = s1 + y1 * s0
    const f1y = s0 + y2, f2y = s2 + y2 * f1y, f3y = y0 * s1 + y1 * s2 + y2 * f2y
    const g0y = f2y + y0 * (f1y + y0), g1y = f2y + y1 * (f1y + y1), g2y = f2y + y2 * (f1y + y2)
    s0 = z0 + z1; s1 = z0 * z0; s2 = s1 + z1 * s0
    const f1z = s0 + z2, f2z = s2 + z2 * f1z, f3z = z0 * s1 + z1 * s2 + z2 * f2z
    const g0z = f2z + z0 * (f1z + z0), g1z = f2z + z1 * (f1z + z1), g2z = f2z + z2 * (f1z + z2)
    i0 += d0 * f1x
    i1 += d0 * f2x
    i2 += d1 * f2y
    i3 += d2 * f2z
    i4 += d0 * f3x
    i5 += d1 * f3y
    i6 += d2 * f3z
    i7 += d0 * (y0 * g0x + y1 * g1x + y2 * g2x)
    i8 += d1 * (z0 * g0y + z1 * g1y + z2 * g2y)
    i9 += d2 * (x0 * g0z + x1 * g1z + x2 * g2z)
  }
  out[0] = i0 / 6
  out[1] = i1 / 24
  out[2] = i2 / 24
  out[3] = i3 / 24
  out[4] = i4 / 60
  out[5] = i5 / 60
  out[6] = i6 / 60
  out[7] = i7 / 120
  out[8] = i8 / 120
  out[9] = i9 / 120
  return out
}

/**
 * Mass properties of the solid bounded by a closed, outward-oriented triangle mesh of
 * uniform `density` (kg/m^3), in the mesh's coordinates (m). Refuses (INVALID_PARAM, naming
 * the object) a mesh that is not a closed surface, a solid of zero or negative volume
 * (inside-out or flat), and a density that is not positive and finite.
 */
export function meshMassProperties(mesh: TriMesh, density: number, obj: MassObjectRef): MassProperties {
  checkDensity(density, obj)
  if (mesh.indices.length < 12 || !isClosedSurfaceRemembered(mesh)) {
    refuse(obj, 'mesh', 'its mesh is not closed (it has holes or open edges); a rigid body needs a watertight mesh to have a mass', null)
  }
  const p = mesh.positions
  for (let i = 0; i + 2 < p.length; i += 3) {
    if (!Number.isFinite(p[i]) || !Number.isFinite(p[i + 1]) || !Number.isFinite(p[i + 2])) refuse(obj, 'mesh', `its mesh has a non-finite coordinate at vertex ${i / 3 + 1}`, null)
  }
  const { min: [x0, y0, z0], max: [x1, y1, z1] } = computeBounds(p)
  const rx = 0.5 * (x0 + x1), ry = 0.5 * (y0 + y1), rz = 0.5 * (z0 + z1)
  // (By content: the reference point comes from the mesh itself.)
  const s = INTEGRALS.get(mesh, '', () => meshVolumeIntegrals(mesh, rx, ry, rz))
  const volume = s[0]
  const extent = Math.max(x1 - x0, y1 - y0, z1 - z0)
  // A closed surface has exactly zero signed volume when flat, up to round-off of ~1e-12 of
  // its bounding cube; anything that small (or negative: inside-out) has no usable mass.
  if (!(volume > 1e-12 * extent * extent * extent)) {
    const why = volume < 0 ? 'its mesh is inside out (its triangles face inwards), so it encloses a negative volume' : 'its mesh encloses no volume'
    refuse(obj, 'mesh', `${why}; a rigid body needs a closed mesh facing outwards`, volume)
  }
  const cx = s[1] / volume, cy = s[2] / volume, cz = s[3] / volume
  // Parallel-axis theorem moves the second moments from ref to the centre of mass.
  const sxx = s[4] - volume * cx * cx, syy = s[5] - volume * cy * cy, szz = s[6] - volume * cz * cz
  const sxy = s[7] - volume * cx * cy, syz = s[8] - volume * cy * cz, szx = s[9] - volume * cz * cx
  const inertia = new Float64Array(9)
  inertia[0] = density * (syy + szz)
  inertia[4] = density * (sxx + szz)
  inertia[8] = density * (sxx + syy)
  inertia[1] = inertia[3] = -density * sxy
  inertia[5] = inertia[7] = -density * syz
  inertia[2] = inertia[6] = -density * szx
  return {
    volume,
    mass: density * volume,
    centerOfMass: Float64Array.of(cx + rx, cy + ry, cz + rz),
    inertia,
  }
}

/**
 * Mass properties of a scaled unit primitive (see the file comment for the shapes):
 *   box, edges (a, b, c):          V = abc,          I = m/12 diag(b^2+c^2, a^2+c^2, a^2+b^2)
 *   ellipsoid, semi-axes (a, b, c): V = 4/3 pi abc,  I = m/5 diag(b^2+c^2, a^2+c^2, a^2+b^2)
 *   elliptic cylinder along Y, semi-axes a (x), c (z), height h:
 *                                  V = pi a c h,     I = m diag(c^2/4 + h^2/12, (a^2+c^2)/4, a^2/4 + h^2/12)
 * Refuses (INVALID_PARAM, naming the object) a scale that is not positive and finite on
 * every axis and a density that is not positive and finite.
 */
export function primitiveMassProperties(shape: PrimitiveShape, scale: ArrayLike<number>, density: number, obj: MassObjectRef): MassProperties {
  checkDensity(density, obj)
  const sx = scale[0], sy = scale[1], sz = scale[2]
  if (!(sx > 0 && sy > 0 && sz > 0) || !Number.isFinite(sx) || !Number.isFinite(sy) || !Number.isFinite(sz)) {
    refuse(obj, 'scale', `scale must be positive and finite on every axis, got [${sx}, ${sy}, ${sz}]`, [sx, sy, sz])
  }
  let volume: number, ixx: number, iyy: number, izz: number
  if (shape === 'box') {
    volume = sx * sy * sz
    ixx = (sy * sy + sz * sz) / 12
    iyy = (sx * sx + sz * sz) / 12
    izz = (sx * sx + sy * sy) / 12
  } else if (shape === 'sphere') {
    const a = 0.5 * sx, b = 0.5 * sy, c = 0.5 * sz
    volume = (4 / 3) * Math.PI * a * b * c
    ixx = (b * b + c * c) / 5
    iyy = (a * a + c * c) / 5
    izz = (a * a + b * b) / 5
  } else if (shape === 'cylinder') {
    const a = 0.5 * sx, c = 0.5 * sz, h = sy
    volume = Math.PI * a * c * h
    ixx = (c * c) / 4 + (h * h) / 12
    iyy = (a * a + c * c) / 4
    izz = (a * a) / 4 + (h * h) / 12
  } else {
    refuse(obj, 'shape', `unknown shape "${String(shape)}" (box, sphere, cylinder or mesh)`, shape)
  }
  const mass = density * volume
  const inertia = new Float64Array(9)
  inertia[0] = mass * ixx
  inertia[4] = mass * iyy
  inertia[8] = mass * izz
  return { volume, mass, centerOfMass: new Float64Array(3), inertia }
}

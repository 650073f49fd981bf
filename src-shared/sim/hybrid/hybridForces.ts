// Body forces on the hybrid mesh's face velocities (Feldman, O'Brien, Klingner 2005, seed 000
// section 3.2). Forces are computed per cell (buoyancy here, vorticity confinement in
// hybridVorticity.ts, vortex particles in hybridVortexParticles.ts) and put on the faces by
// eq. 5, the volume-weighted average of the two cells that share the face:
//   (n . a)_i = n . (V_a f_a + V_b f_b) / (rho (V_a + V_b)).
// "With cells of differing sizes care should be taken to prevent non-conservative behavior
// where small cells neighbor large ones": the volume weights make the momentum a face receives
// the integral of f over the two cells it couples. Between two equal boxes it is the plain mean
// of the grid smoke's addCellForceToFacesSlab. The forces here are accelerations (m/s^2, per
// unit mass, as the smoke family's: alpha rho is already m/s^2), so rho = 1.
// Boundaries: an open face takes its one cell's force (one-sided eq. 5, V_b = 0); a closed face
// (wall, obstacle) gets none, its normal velocity being the boundary's (0), which the projection
// keeps. (The grid smoke adds to border faces and lets the projection overwrite them; the
// result after projection is the same.)
//
// Buoyancy (Fedkiw, Stam, Jensen 2001, with their z-up written as y up, as core/forceKernels.ts):
//   f = (-alpha rho_smoke + beta (T - T_ambient)) y^
// per cell; through eq. 5 a horizontal face gets none and, between equal boxes, a vertical one
// the mean of its two cells, which is the grid smoke's addBuoyancySlab exactly.
import { EddyError } from '../../api/errors'
import type { BuoyancyParams } from '../core/forceKernels'
import { defineKernel, f64, float, i32, size, u8 } from '../core/kernelTable'
import { FACE_INTERIOR, FACE_OPEN, type HybridMesh } from './hybridMesh'

// Imported bindings used in the per-face loop are copied to module constants (an imported
// binding can cost a property load per use under the module runner; see liquid/heat.ts).
const INTERIOR = FACE_INTERIOR
const OPEN = FACE_OPEN

/** A per-cell scalar field (density, temperature), one value per cell. */
export type CellScalars = Float32Array | Float64Array

function checkLength(what: string, a: ArrayLike<number>, n: number): void {
  if (a.length < n) throw new EddyError('INVALID_PARAM', `hybrid forces: ${what} has ${a.length} values, needs ${n}`)
}

/**
 * Adds the buoyancy (-alpha rho + beta (T - T_ambient)) (m/s^2) to fy per cell. density or
 * temperature may be null (that term is skipped). Pass ambientTemperature in the precision of
 * the temperature array (Math.fround for a Float32Array), or air at rest feels the rounding.
 */
export function addCellBuoyancy(
  cellCount: number,
  density: CellScalars | null,
  temperature: CellScalars | null,
  params: BuoyancyParams,
  fy: Float64Array,
): void {
  const { alpha, beta, ambientTemperature } = params
  if (!Number.isFinite(alpha) || !Number.isFinite(beta) || !Number.isFinite(ambientTemperature)) {
    throw new EddyError('INVALID_PARAM', `hybrid forces: buoyancy alpha, beta and the ambient temperature must be finite (got ${alpha}, ${beta}, ${ambientTemperature})`)
  }
  checkLength('fy', fy, cellCount)
  if (density !== null) {
    checkLength('the density', density, cellCount)
    if (alpha !== 0) for (let c = 0; c < cellCount; c++) fy[c] -= alpha * density[c]
  }
  if (temperature !== null) {
    checkLength('the temperature', temperature, cellCount)
    if (beta !== 0) for (let c = 0; c < cellCount; c++) fy[c] += beta * (temperature[c] - ambientTemperature)
  }
}

/**
 * z += dt (n . a) on interior and open faces, a the eq. 5 average of the per-cell forces
 * (fx, fy, fz: m/s^2, one per cell); closed faces are left alone (see the file comment).
 */
export function addCellForcesToFaces(mesh: HybridMesh, fx: Float64Array, fy: Float64Array, fz: Float64Array, dt: number, z: Float64Array): void {
  if (!(Number.isFinite(dt) && dt >= 0)) throw new EddyError('INVALID_PARAM', `hybrid forces: the time step must be a finite number of seconds >= 0 (got ${dt})`)
  const n = mesh.cellCount
  checkLength('fx', fx, n); checkLength('fy', fy, n); checkLength('fz', fz, n)
  checkLength('the face velocity', z, mesh.faceCount)
  faceForceRows(mesh.faceKind, mesh.faceCellA, mesh.faceCellB, mesh.cellVolume, mesh.faceNormal, fx, fy, fz, dt, z, 0, mesh.faceCount)
}

/**
 * addCellForcesToFaces over faces [f0, f1) from flat arrays: the kernel row's reference
 * (HYBRID_FACE_FORCES; twin in wasm/assembly/hybridVorticity.ts).
 */
export function faceForceRows(
  faceKind: Uint8Array, faceCellA: Int32Array, faceCellB: Int32Array, cellVolume: Float64Array, faceNormal: Float64Array,
  fx: Float64Array, fy: Float64Array, fz: Float64Array, dt: number, z: Float64Array, f0: number, f1: number,
): void {
  for (let f = f0; f < f1; f++) {
    const kind = faceKind[f]
    const a = faceCellA[f]
    let ax: number, ay: number, az: number
    if (kind === INTERIOR) {
      const b = faceCellB[f]
      const va = cellVolume[a], vb = cellVolume[b]
      const s = 1 / (va + vb)
      ax = (va * fx[a] + vb * fx[b]) * s
      ay = (va * fy[a] + vb * fy[b]) * s
      az = (va * fz[a] + vb * fz[b]) * s
    } else if (kind === OPEN) {
      ax = fx[a]; ay = fy[a]; az = fz[a]
    } else continue
    z[f] += dt * (faceNormal[3 * f] * ax + faceNormal[3 * f + 1] * ay + faceNormal[3 * f + 2] * az)
  }
}

/** faceForceRows over faces [0, faces). Args: faceKind, faceCellA, faceCellB, cellVolume, faceNormal, fx, fy, fz, dt, z, faces. */
export const HYBRID_FACE_FORCES = defineKernel({
  name: 'hybridFaceForceRows',
  args: [u8('faceKind'), i32('faceCellA'), i32('faceCellB'), f64('cellVolume'), f64('faceNormal'), f64('fx'), f64('fy'), f64('fz'), float('dt'), f64('z'), size('faces')],
  split: 'rows',
  range: (a) => a[10] as number,
  work: (a) => 4 * (a[10] as number),
  ref: faceForceRows,
})

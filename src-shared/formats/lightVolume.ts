// How much of the key light reaches each cell of the smoke: the transmittance
// T = exp(-integral of sigma ds) from the cell toward the light, computed once per frame so the
// raymarcher lights every sample with one texture fetch instead of marching toward the light
// from each (single scattering with self-shadowing, as Blender's and EmberGen's viewports draw
// smoke). For the default key light it is computed at bake time and stored in the frame's
// preview (framePreview.ts), so a jump along the timeline does not wait for it; the decode
// worker computes it for any other direction.
//
// One sweep of slices across the grid, starting at the face the light enters: along the light's
// dominant axis, the optical depth of a cell is that of the point one slice toward the light
// (bilinear in the previous slice, clamped at the grid's side faces where the air is clear) plus
// sigma over the path through this slice. O(cells), no allocation per cell. Grids longer than
// LIGHT_MAX_CELLS along an axis are lit on a grid of half their resolution (shadows are soft;
// a 128^3 frame's light takes an eighth of the time), which the GPU's linear filter stretches back.

// 255 exp(-tau), rounded, for tau in steps of 1/TAU_STEPS up to TAU_MAX (beyond it, 0): a table
// instead of an exp per cell; the step is fine enough that the rounded byte never differs by more
// than one from the exact value.
const TAU_STEPS = 512
const TAU_MAX = 7 // 255 e^-7 < 0.25: rounds to 0
const EXP_TABLE = Uint8Array.from({ length: TAU_MAX * TAU_STEPS + 1 }, (_, i) => Math.round(255 * Math.exp(-i / TAU_STEPS)))

/** Past this, tau * TAU_STEPS rounds to beyond the table: transmittance byte 0. */
const TAU_SCALED_END = EXP_TABLE.length - 0.5

/**
 * EXP_TABLE[Math.round(tau * TAU_STEPS)], or 0 past the table, for tau >= 0, without Math.round
 * (a third of the sweep's time in V8): x + 0.5 truncated is round(x) except where the addition
 * itself rounds up to the next integer, which the check undoes.
 */
function transmittanceByte(tau: number): number {
  const x = tau * TAU_STEPS
  if (!(x < TAU_SCALED_END)) return 0
  let i = (x + 0.5) | 0
  if (i - 0.5 > x) i--
  return EXP_TABLE[i]
}

/** Above this many cells along an axis the light volume is computed at half resolution. */
export const LIGHT_MAX_CELLS = 64

/**
 * The light volume for the display texels: at full resolution, or at half (each cell the mean
 * extinction of the 2x2x2 cells it covers) for grids longer than LIGHT_MAX_CELLS.
 */
export function lightVolume(
  texels: Uint8Array,
  dims: readonly [number, number, number],
  densityMax: number,
  voxelSize: number,
  toLight: readonly [number, number, number],
): { data: Uint8Array; dims: [number, number, number] } {
  if (Math.max(...dims) <= LIGHT_MAX_CELLS) return { data: lightTransmittance(texels, dims, densityMax, voxelSize, toLight), dims: [dims[0], dims[1], dims[2]] }
  const [nx, ny, nz] = dims
  const half: [number, number, number] = [Math.ceil(nx / 2), Math.ceil(ny / 2), Math.ceil(nz / 2)]
  const [hx, hy, hz] = half
  // Mean of r^2 (extinction is linear in r^2) over the covered cells, stored back as r in RG8
  // layout. One pass over the texels in memory order, adding each r^2 into its coarse cell
  // (integers: exact in any order), then one over the coarse cells: a 128^3 frame's texels
  // are read once, front to back, instead of in 2x2x2 gathers. Two neighbouring cells along x
  // (R G R G) are read as one little-endian u32, and an empty pair, most of a smoke frame, costs
  // that one read.
  const sum = new Uint32Array(hx * hy * hz)
  const pairs = nx >> 1
  const words = texels.byteOffset % 4 === 0 ? new Uint32Array(texels.buffer, texels.byteOffset, texels.length >> 2) : null
  for (let c = 0; c < nz; c++)
    for (let b = 0; b < ny; b++) {
      const row = hx * ((b >> 1) + hy * (c >> 1))
      const fine = 2 * nx * (b + ny * c)
      if (words && fine % 4 === 0) {
        for (let i = 0, w = fine >> 2; i < pairs; i++, w++) {
          const two = words[w]
          if (two === 0) continue
          const r0 = two & 0xff
          const r1 = (two >>> 16) & 0xff
          sum[row + i] += r0 * r0 + r1 * r1
        }
      } else {
        for (let i = 0, f = fine; i < pairs; i++, f += 4) {
          const r0 = texels[f]
          const r1 = texels[f + 2]
          sum[row + i] += r0 * r0 + r1 * r1
        }
      }
      if (nx & 1) {
        const r = texels[fine + 2 * (nx - 1)]
        sum[row + pairs] += r * r
      }
    }
  const coarse = new Uint8Array(2 * hx * hy * hz)
  // A coarse cell covers two fine ones along an axis, or one at an odd length's last cell.
  const span = (i: number, n: number): number => (2 * i + 1 < n ? 2 : 1)
  for (let k = 0, cell = 0; k < hz; k++)
    for (let j = 0; j < hy; j++) {
      const covered = span(k, nz) * span(j, ny)
      for (let i = 0; i < hx; i++, cell++) {
        const s = sum[cell]
        if (s !== 0) coarse[2 * cell] = Math.round(Math.sqrt(s / (covered * span(i, nx))))
      }
    }
  return { data: lightTransmittance(coarse, half, densityMax, 2 * voxelSize, toLight), dims: half }
}

/** Extinction per unit density the volume is computed with; the shader rescales to the artist's setting. */
export const LIGHT_DENSITY_SCALE = 4

/**
 * `texels`: the RG8 display texels (R = 255 sqrt(density / densityMax)). `toLight`: unit vector
 * toward the light. Returns one byte per cell, 255 T, x fastest.
 */
export function lightTransmittance(
  texels: Uint8Array,
  dims: readonly [number, number, number],
  densityMax: number,
  voxelSize: number,
  toLight: readonly [number, number, number],
): Uint8Array {
  const [nx, ny, nz] = dims
  const n = nx * ny * nz
  const out = new Uint8Array(n)
  if (!(densityMax > 0)) return out.fill(255)
  // Axis order: d is the dominant axis of the light, u and v the other two.
  const abs = toLight.map(Math.abs)
  const d = abs[0] >= abs[1] && abs[0] >= abs[2] ? 0 : abs[1] >= abs[2] ? 1 : 2
  const u = d === 0 ? 1 : 0
  const v = d === 2 ? 1 : 2
  const size = [nx, ny, nz]
  const stride = [1, nx, nx * ny]
  const ld = toLight[d] || 1e-9
  // One slice toward the light moves (du, dv) cells in the other axes, along a path of ds metres.
  const du = toLight[u] / Math.abs(ld)
  const dv = toLight[v] / Math.abs(ld)
  const ds = (voxelSize * Math.hypot(toLight[0], toLight[1], toLight[2])) / Math.abs(ld)
  const sigmaPerByte2 = (densityMax * LIGHT_DENSITY_SCALE) / (255 * 255)
  const nu = size[u]
  const nv = size[v]
  let prev = new Float32Array(nu * nv)
  let cur = new Float32Array(nu * nv)
  // The step toward the light is the same for every cell: split it into whole cells and a
  // fraction once (clamping at the side faces is per index).
  const ou = Math.floor(du)
  const fu = du - ou
  const ov = Math.floor(dv)
  const fv = dv - ov
  const halfSigmaDs = 0.5 * sigmaPerByte2 * ds
  // The slice nearest the light first.
  const first = ld > 0 ? size[d] - 1 : 0
  const step = ld > 0 ? -1 : 1
  const su = stride[u]
  const sv = stride[v]
  for (let s = 0, k = first; s < size[d]; s++, k += step) {
    const sliceBase = k * stride[d]
    for (let b = 0; b < nv; b++) {
      const b0 = Math.min(nv - 1, Math.max(0, b + ov))
      const b1 = Math.min(nv - 1, Math.max(0, b + ov + 1))
      const row0 = nu * b0
      const row1 = nu * b1
      let cell = sliceBase + b * sv
      const rowOut = nu * b
      for (let a = 0; a < nu; a++, cell += su) {
        let upstream = 0
        if (s > 0) {
          // The previous slice (toward the light) at (a + du, b + dv), bilinear, clamped.
          let a0 = a + ou
          let a1 = a0 + 1
          a0 = a0 < 0 ? 0 : a0 >= nu ? nu - 1 : a0
          a1 = a1 < 0 ? 0 : a1 >= nu ? nu - 1 : a1
          upstream = (1 - fv) * ((1 - fu) * prev[row0 + a0] + fu * prev[row0 + a1]) + fv * ((1 - fu) * prev[row1 + a0] + fu * prev[row1 + a1])
        }
        const r = texels[2 * cell]
        // Half of this cell's own path lies between its centre and the light.
        const half = r * r * halfSigmaDs
        const tauHere = upstream + half
        out[cell] = transmittanceByte(tauHere)
        cur[rowOut + a] = tauHere + half
      }
    }
    const t = prev
    prev = cur
    cur = t
  }
  return out
}

/** The viewport's default key light: its sun's direction (engine.ts), 54 degrees up. */
export const DEFAULT_LIGHT_AZIMUTH = -56
export const DEFAULT_LIGHT_ELEVATION = 54

/**
 * A unit vector toward the light from its azimuth (degrees about +Y, from +X towards -Z, which is
 * Blender's +Y: counterclockwise seen from above, as Blender measures it) and its elevation
 * (degrees above the ground plane).
 */
export function lightDirection(azimuthDeg: number, elevationDeg: number): [number, number, number] {
  const az = (azimuthDeg * Math.PI) / 180
  const el = (elevationDeg * Math.PI) / 180
  return [Math.cos(el) * Math.cos(az), Math.sin(el), -Math.cos(el) * Math.sin(az)]
}

/** The key light's default direction (the one bake-time previews are lit for). */
export const DEFAULT_TO_LIGHT = lightDirection(DEFAULT_LIGHT_AZIMUTH, DEFAULT_LIGHT_ELEVATION)

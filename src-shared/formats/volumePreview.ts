// What the viewport raymarches for a smoke frame: density and temperature squeezed into two
// bytes per cell (an RG8 3D texture). Built in the renderer's decode worker from a frame, or
// once at bake time and stored next to the frame as a preview record (framePreview.ts), so
// scrubbing only inflates 2 bytes per cell instead of decoding three float volumes.
import type { Volume } from '../sim/frame'

export interface VolumeDisplayData {
  dims: [number, number, number]
  voxelSize: number
  /** World position of cell (0,0,0)'s minimum corner, m. */
  origin: [number, number, number]
  /**
   * Two bytes per cell, x-fastest (an RG8 3D texture). R = round(255 sqrt(density / densityMax)):
   * the square root spends the 8 bits where thin smoke needs them. G = round(255 (T - ambient) /
   * (temperatureMax - ambient)), clamped to [0, 255].
   */
  texels: Uint8Array
  /** Largest finite density of the frame (0 without smoke): the shader's density stays physical. */
  densityMax: number
  temperatureAmbient: number
  /** Hottest finite temperature, K; equals temperatureAmbient when nothing is hotter. */
  temperatureMax: number
  /**
   * One byte per cell of `lightDims` (the grid, or half of it for big grids): 255 times the key
   * light's transmittance from the cell toward the light (lightVolume.ts: stored in the
   * preview for the default light, computed by the viewport's decode for any other).
   */
  light?: Uint8Array
  lightDims?: [number, number, number]
}


/** Density and temperature on one grid as RG8 texels; null when the frame has no density (no smoke). */
export function volumeDisplay(density: Volume | undefined, temperature: Volume | undefined, ambient?: number): VolumeDisplayData | null {
  // Only smoke (a density volume) is raymarched; a liquid's temperature and level-set volumes
  // are shown through its particles (colour by temperature) and surface mesh instead.
  const grid = density
  if (!grid) return null
  const [nx, ny, nz] = grid.dims
  const cells = nx * ny * nz
  // A temperature on another grid cannot share the texture; smoke without glow beats a wrong glow.
  const temp = temperature && sameGrid(temperature, grid) && temperature.data.length >= cells ? temperature.data : null
  const dens = density && density.data.length >= cells ? density.data : null
  const texels = new Uint8Array(cells * 2)

  let densityMax = 0
  if (dens) {
    for (let i = 0; i < cells; i++) {
      const d = dens[i]
      if (d > densityMax && d !== Infinity) densityMax = d
    }
    const inv = densityMax > 0 ? 1 / densityMax : 0
    for (let i = 0; i < cells; i++) {
      const d = dens[i]
      // !(d > 0) also catches NaN; +Infinity saturates.
      if (!(d > 0)) continue
      const r = Math.sqrt(d * inv) * 255 + 0.5
      texels[2 * i] = r >= 255 ? 255 : r
    }
  }

  let tMin = Infinity
  let tMax = -Infinity
  if (temp) {
    for (let i = 0; i < cells; i++) {
      const t = temp[i]
      if (t < tMin && t !== -Infinity) tMin = t
      if (t > tMax && t !== Infinity) tMax = t
    }
  }
  const temperatureAmbient = ambient !== undefined && Number.isFinite(ambient) ? ambient : Number.isFinite(tMin) ? tMin : 0
  const temperatureMax = Number.isFinite(tMax) && tMax > temperatureAmbient ? tMax : temperatureAmbient
  if (temp && temperatureMax > temperatureAmbient) {
    const scale = 255 / (temperatureMax - temperatureAmbient)
    for (let i = 0; i < cells; i++) {
      const g = (temp[i] - temperatureAmbient) * scale + 0.5
      // NaN fails both tests and stays 0.
      if (g >= 255) texels[2 * i + 1] = 255
      else if (g >= 1) texels[2 * i + 1] = g
    }
  }
  return {
    dims: [nx, ny, nz],
    voxelSize: grid.voxelSize,
    origin: [grid.origin[0], grid.origin[1], grid.origin[2]],
    texels,
    densityMax,
    temperatureAmbient,
    temperatureMax,
  }
}

function sameGrid(a: Volume, b: Volume): boolean {
  return (
    a.dims[0] === b.dims[0] &&
    a.dims[1] === b.dims[1] &&
    a.dims[2] === b.dims[2] &&
    a.voxelSize === b.voxelSize &&
    a.origin[0] === b.origin[0] &&
    a.origin[1] === b.origin[1] &&
    a.origin[2] === b.origin[2]
  )
}


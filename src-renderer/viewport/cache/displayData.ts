// Baked frame -> what the viewport uploads: one RG8 3D texture payload for the smoke, point
// positions with one colour value each, triangle meshes with normals (and per-vertex colours
// from a chosen attribute), and each rigid body's mesh posed for the frame. Pure code over typed
// arrays, no Babylon and no DOM, so it runs in the decode worker (decodeWorker.ts), on the
// main thread as a fallback, and in Node tests and benchmarks.
import { EddyError } from '../../../src-shared/api/errors'
import { type ByteAllocator, decodePreview, parsePreview, PREVIEW_DEFLATE } from '../../../src-shared/formats/framePreview'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { posedMesh } from '../../../src-shared/formats/rigidBodyPose'
import { areaWeightedNormals } from '../../../src-shared/geometry/triMesh'
import type { FrameData, FrameMesh, ParticleSet, Quat, RigidBodyState } from '../../../src-shared/sim/frame'
import type { Vec3 } from '../../../src-shared/scene/types'
import { type VolumeDisplayData, volumeDisplay } from '../../../src-shared/formats/volumePreview'
import { meshColors } from './meshColors'
import { DEFAULT_TO_LIGHT, lightVolume } from '../../../src-shared/formats/lightVolume'

export { type VolumeDisplayData, volumeDisplay }

/** The volumes the raymarcher draws when the options name none: the smoke solver's. */
export const DEFAULT_DENSITY_VOLUME = 'density'
export const DEFAULT_EMISSION_VOLUME = 'temperature'

/**
 * The only volumes a display decode inflates (the raymarcher's density and emission fields);
 * velocity and any other field stay deflated in the record.
 */
export function displayVolumeNames(opts: DisplayOptions = {}): string[] {
  return [opts.densityVolume ?? DEFAULT_DENSITY_VOLUME, opts.emissionVolume ?? DEFAULT_EMISSION_VOLUME]
}

/** Attributes tried, in order, when no particle colour attribute is chosen. */
const DEFAULT_COLOR_ATTRIBUTES = ['velocity', 'vorticity', 'strength', 'temperature']

export interface DisplayOptions {
  /**
   * Temperature of the surrounding air, K: emission starts above it. Default: the frame's
   * coldest cell (the smoke solver fills the domain with ambient air, so that is ambient).
   */
  ambientTemperature?: number
  /** Particle attribute to colour by (vector attributes by magnitude); null for none. */
  particleColorBy?: string | null
  /**
   * Mesh attribute to colour by (vector attributes by magnitude through viridis; 'color' as
   * the RGB it holds); null for none; undefined: the mesh's 'color' attribute if it has one.
   */
  meshColorBy?: string | null
  /** Name of the 1-component volume drawn as smoke density. Default 'density'. */
  densityVolume?: string
  /**
   * Name of the 1-component volume drawn as emission (a temperature in K: it glows above
   * ambientTemperature). Default 'temperature'.
   */
  emissionVolume?: string
  /** Unit vector toward the key light, for the smoke's light volume. Default DEFAULT_TO_LIGHT. */
  toLight?: [number, number, number]
}

export { DEFAULT_TO_LIGHT }

/**
 * The smoke volume with its light transmittance added (null stays null; a volume from a preview
 * that stored the light for this direction already has it).
 */
function lit(v: VolumeDisplayData | null, opts: DisplayOptions): VolumeDisplayData | null {
  if (!v || v.light) return v
  const light = lightVolume(v.texels, v.dims, v.densityMax, v.voxelSize, opts.toLight ?? DEFAULT_TO_LIGHT)
  return { ...v, light: light.data, lightDims: light.dims }
}

const volumeBytes = (v: VolumeDisplayData | null): number => (v ? v.texels.byteLength + (v.light?.byteLength ?? 0) : 0)

export interface ParticleDisplayData {
  name: string
  count: number
  /** xyz per particle, m. */
  positions: Float32Array
  /** The attribute the values come from, or null (one colour for all). */
  colorBy: string | null
  /** One value per particle (vector attributes: magnitude), or null. */
  values: Float32Array | null
  valueMin: number
  valueMax: number
  /** Every attribute the set has, for the colour-by menu. */
  attributes: string[]
}

export interface MeshDisplayData {
  name: string
  positions: Float32Array
  indices: Uint32Array
  /** Given by the solver, or area-weighted vertex normals computed here. */
  normals: Float32Array
  /** Linear RGBA per vertex from the attribute `colorBy`, or null (the plain material). */
  colors: Float32Array | null
  colorBy: string | null
  /** Range of the attribute's values behind the viridis colours (0, 0 for RGB or none). */
  valueMin: number
  valueMax: number
  /** Every per-vertex attribute the mesh has, for a colour-by menu. */
  attributes: string[]
}

/** A rigid body's mesh already placed at the frame's pose (world space), with the pose. */
export interface RigidBodyDisplayData extends MeshDisplayData {
  id: string
  position: Vec3
  orientation: Quat
}

export interface DisplayFrame {
  frame: number
  time: number
  volume: VolumeDisplayData | null
  particles: ParticleDisplayData[]
  meshes: MeshDisplayData[]
  rigidBodies: RigidBodyDisplayData[]
  /** Bytes held by the arrays above (what the read-ahead buffer's memory cap counts). */
  bytes: number
}

/** Splits a 'cache.display' answer: u32 preview length, the preview, then the frame record. */
export function splitDisplayBundle(bytes: Uint8Array): { preview: Uint8Array | null; record: Uint8Array } | null {
  // A bare frame record starts with 'EDFR'; as a preview length that would be 1.4 GB, which no
  // preview reaches (2 bytes per cell of at most 4096^3... capped far lower by memory).
  if (bytes.length >= 4 && bytes[0] === 0x45 && bytes[1] === 0x44 && bytes[2] === 0x46 && bytes[3] === 0x52) return null
  if (bytes.length < 4) throw new EddyError('PROJECT_FORMAT', 'Cached frame data is truncated')
  const n = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true)
  if (4 + n > bytes.length) throw new EddyError('PROJECT_FORMAT', 'Cached frame data is truncated: the preview runs past the end')
  return { preview: n > 0 ? bytes.subarray(4, 4 + n) : null, record: bytes.subarray(4 + n) }
}

/**
 * A cached frame (a frame record, or a 'cache.display' bundle of preview + record) straight
 * to display data. With a preview, no volume of the record is inflated at all: the smoke's
 * texels come ready-made from the bake (framePreview.ts); without one, only the volumes drawn.
 * `alloc`: where the preview's texels and light go (the decode worker's reused buffers).
 */
export function decodeForDisplay(bytes: Uint8Array, opts: DisplayOptions = {}, alloc: ByteAllocator | null = null): DisplayFrame {
  const split = splitDisplayBundle(bytes)
  const record = split ? split.record : bytes
  if (!split?.preview) return displayFromFrame(decodeFrame(record, { volumes: displayVolumeNames(opts) }), opts)
  const shown = displayFromFrame(decodeFrame(record, { volumes: [] }), opts)
  const volume = lit(decodePreview(split.preview, opts.toLight ?? DEFAULT_TO_LIGHT, alloc), opts)
  return { ...shown, volume, bytes: shown.bytes + volumeBytes(volume) }
}

/**
 * decodeForDisplay with a deflated (version 1) preview's texels inflated by the platform's
 * native zlib (DecompressionStream), when there is one: in Chromium's workers it is several
 * times faster than fflate for the 4 MiB of texels of a 128^3 frame.
 */
export async function decodeForDisplayNative(bytes: Uint8Array, opts: DisplayOptions = {}, alloc: ByteAllocator | null = null): Promise<DisplayFrame> {
  const DS = (globalThis as { DecompressionStream?: new (format: 'deflate-raw') => TransformStream<Uint8Array, Uint8Array> }).DecompressionStream
  const split = splitDisplayBundle(bytes)
  if (typeof DS !== 'function' || !split?.preview) return decodeForDisplay(bytes, opts, alloc)
  const { meta, packed, cells, version } = parsePreview(split.preview)
  // Zero-run coded texels (bakes since version 2) decode faster in JavaScript than any inflate.
  if (version !== PREVIEW_DEFLATE) return decodeForDisplay(bytes, opts, alloc)
  let texels: Uint8Array
  try {
    const stream = new Blob([packed as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DS('deflate-raw'))
    texels = new Uint8Array(await new Response(stream).arrayBuffer())
  } catch {
    throw new EddyError('PROJECT_FORMAT', 'Cached frame preview is corrupt: texels do not inflate')
  }
  if (texels.length !== 2 * cells) throw new EddyError('PROJECT_FORMAT', `Cached frame preview is corrupt: texels inflate to ${texels.length} bytes, expected ${2 * cells}`)
  const shown = displayFromFrame(decodeFrame(split.record, { volumes: [] }), opts)
  const volume = lit({ ...meta, texels }, opts)
  return { ...shown, volume, bytes: shown.bytes + volumeBytes(volume) }
}

export function displayFromFrame(frame: FrameData, opts: DisplayOptions = {}): DisplayFrame {
  const [densityName, emissionName] = displayVolumeNames(opts)
  const volume = lit(
    volumeDisplay(
      frame.volumes.find((v) => v.name === densityName && v.components === 1),
      frame.volumes.find((v) => v.name === emissionName && v.components === 1),
      opts.ambientTemperature,
    ),
    opts,
  )
  const particles = frame.particles.map((p) => particleDisplay(p, opts.particleColorBy))
  const meshes = frame.meshes.map((m) => meshDisplay(m, opts.meshColorBy))
  const rigidBodies = (frame.rigidBodies ?? []).map((b) => rigidBodyDisplay(b, opts.meshColorBy))
  let bytes = volumeBytes(volume)
  for (const p of particles) bytes += p.positions.byteLength + (p.values ? p.values.byteLength : 0)
  for (const m of [...meshes, ...rigidBodies]) bytes += m.positions.byteLength + m.indices.byteLength + m.normals.byteLength + (m.colors ? m.colors.byteLength : 0)
  return { frame: frame.frame, time: frame.time, volume, particles, meshes, rigidBodies, bytes }
}

/**
 * The buffers of a display frame, each once: the worker's postMessage transfer list. Mesh
 * arrays can be the input frame's own (displayFromFrame copies nothing it need not), so only
 * transfer frames built from a record decoded for the purpose.
 */
export function displayTransferables(f: DisplayFrame): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>()
  const add = (a: ArrayBufferView | null): void => {
    if (a && a.buffer instanceof ArrayBuffer) out.add(a.buffer)
  }
  if (f.volume) {
    add(f.volume.texels)
    add(f.volume.light ?? null)
  }
  for (const p of f.particles) {
    add(p.positions)
    add(p.values)
  }
  for (const m of [...f.meshes, ...f.rigidBodies]) {
    add(m.positions)
    add(m.indices)
    add(m.normals)
    add(m.colors)
  }
  return [...out]
}

// ---------- volumes ----------

// ---------- particles ----------

export function particleDisplay(set: ParticleSet, colorBy?: string | null): ParticleDisplayData {
  const count = Math.min(set.count, Math.floor(set.positions.length / 3))
  const attributes = Object.keys(set.attributes)
  const name = colorBy === undefined ? DEFAULT_COLOR_ATTRIBUTES.find((a) => a in set.attributes) ?? null : colorBy
  const attr = name !== null ? set.attributes[name] : undefined
  // A copy, not a view: the positions are transferred to the render thread on their own.
  const positions = set.positions.slice(0, count * 3)
  if (!attr || !(attr.components >= 1) || attr.data.length < count * attr.components) {
    return { name: set.name, count, positions, colorBy: null, values: null, valueMin: 0, valueMax: 0, attributes }
  }
  const c = attr.components
  const src = attr.data
  const values = new Float32Array(count)
  let lo = Infinity
  let hi = -Infinity
  for (let p = 0; p < count; p++) {
    let v: number
    if (c === 1) v = src[p]
    else {
      let s = 0
      for (let k = p * c, e = k + c; k < e; k++) s += src[k] * src[k]
      v = Math.sqrt(s)
    }
    values[p] = v
    if (v < lo) lo = v
    if (v > hi) hi = v
  }
  if (!(lo <= hi)) {
    lo = 0
    hi = 0
  }
  return { name: set.name, count, positions, colorBy: name, values, valueMin: lo, valueMax: hi, attributes }
}

// ---------- meshes ----------

export function meshDisplay(m: FrameMesh, colorBy?: string | null): MeshDisplayData {
  const vertices = Math.floor(m.positions.length / 3)
  const positions = m.positions.length === vertices * 3 ? m.positions : m.positions.slice(0, vertices * 3)
  const indices = validTriangles(m.indices, vertices)
  const normals = m.normals && m.normals.length === vertices * 3 ? m.normals : vertexNormals(positions, indices)
  return { name: m.name, positions, indices, normals, ...meshColors(m, vertices, colorBy), attributes: Object.keys(m.attributes ?? {}) }
}

/**
 * The body's local mesh posed for this frame (world = position + rotate(orientation, local),
 * normals turned with it), drawn like any other mesh. Posing on the CPU here keeps the
 * display stateless: every frame's data is complete in itself, and the pose of a frame
 * skipped while scrubbing never matters.
 */
export function rigidBodyDisplay(b: RigidBodyState, colorBy?: string | null): RigidBodyDisplayData {
  return { ...meshDisplay(posedMesh(b), colorBy), id: b.id, position: b.position, orientation: b.orientation }
}

/** The triangles whose three indices name existing vertices (a record's CRC cannot vouch for that). */
function validTriangles(indices: Uint32Array, vertices: number): Uint32Array {
  const n = indices.length - (indices.length % 3)
  let ok = n === indices.length
  for (let i = 0; i < n && ok; i++) if (indices[i] >= vertices) ok = false
  if (ok) return indices
  const out = new Uint32Array(n)
  let o = 0
  for (let t = 0; t < n; t += 3) {
    const a = indices[t]
    const b = indices[t + 1]
    const c = indices[t + 2]
    if (a < vertices && b < vertices && c < vertices) {
      out[o++] = a
      out[o++] = b
      out[o++] = c
    }
  }
  return out.slice(0, o)
}

/**
 * Area-weighted vertex normals: each triangle adds its unnormalised cross product (twice its
 * area along its normal) to its corners, so a sliver barely tilts its neighbours. Counter-
 * clockwise triangles seen from outside give outward normals. A vertex on no triangle gets +Y.
 */
export function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const n = positions.length / 3
  const out = new Float32Array(positions.length)
  areaWeightedNormals(positions, n, indices, Math.floor(indices.length / 3), out, new Float64Array(positions.length))
  // A vertex with no face area points up rather than black-shading with a zero normal.
  for (let v = 0; v < out.length; v += 3) if (out[v] === 0 && out[v + 1] === 0 && out[v + 2] === 0) out[v + 1] = 1
  return out
}

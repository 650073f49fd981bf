// The record's JSON header: its shape, and the checks that turn any malformed header into a
// PROJECT_FORMAT error naming the field before a single section is trusted.
import { decodeUtf8 } from '../textBytes'
import { corrupt } from './corrupt'

export type FramePrecision = 'float32' | 'float16' | 'uint8'

/** Upper bound on the values of one array: far beyond any frame, below what would overflow. */
export const MAX_ELEMENTS = 2 ** 30

export type Num = number | string // non-finite numbers and -0 travel as strings in JSON

export interface VolumeHeader {
  name: string
  components: 1 | 3
  dims: [number, number, number]
  voxelSize: Num
  origin: [Num, Num, Num]
  precision: FramePrecision
  tiles: number // stored (non-background) tiles
  /** Float32 bit pattern of the background per component; absent = all +0 (version 1). */
  background?: number[]
  raw: number
  packed: number
}
export interface AttributeHeader {
  name: string
  components: number
  length: number
}
export interface MeshHeader {
  name: string
  positions: number
  indices: number
  normals: number | null
  /** Per-vertex attributes in section order; absent before version 3 (= none). */
  attributes?: AttributeHeader[]
  raw: number
  packed: number
}
export interface ParticleHeader {
  name: string
  count: number
  positions: number
  attributes: AttributeHeader[]
  raw: number
  packed: number
}
/** A rigid body's pose lives in the header; its local mesh is its section. */
export interface RigidBodyHeader {
  id: string
  name: string
  position: Num[]
  orientation: Num[]
  linearVelocity: Num[]
  angularVelocity: Num[]
  mesh: MeshHeader
}
/** A stack of same-sized images (version 4): the float32 values are its section. */
export interface TextureHeader {
  name: string
  width: number
  height: number
  layers: number
  components: 1 | 3
  raw: number
  packed: number
}
export interface Header {
  time: Num
  frame: Num
  precision: FramePrecision
  stats: [string, Num][]
  volumes: VolumeHeader[]
  meshes: MeshHeader[]
  particles: ParticleHeader[]
  /** Absent before version 3 (= none). */
  rigidBodies?: RigidBodyHeader[]
  /** Absent before version 4 (= none). */
  textures?: TextureHeader[]
}

export function encNum(v: number): Num {
  if (Object.is(v, -0)) return '-0'
  return Number.isFinite(v) ? v : String(v)
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}
function count(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > MAX_ELEMENTS * 4) throw corrupt(`${what} is not a valid count`)
  return x
}
export function num(x: unknown, what: string): number {
  if (typeof x === 'number') return x
  if (x === '-0') return -0
  if (x === 'NaN') return NaN
  if (x === 'Infinity') return Infinity
  if (x === '-Infinity') return -Infinity
  throw corrupt(`${what} is not a number`)
}
function str(x: unknown, what: string): string {
  if (typeof x !== 'string') throw corrupt(`${what} is not a string`)
  return x
}
function arr(x: unknown, what: string): unknown[] {
  if (!Array.isArray(x)) throw corrupt(`${what} is not a list`)
  return x
}
function precisionOf(x: unknown, what: string): FramePrecision {
  if (x !== 'float32' && x !== 'float16' && x !== 'uint8') throw corrupt(`${what} is not a known precision`)
  return x
}

function backgroundBits(v: unknown, components: number, i: number): number[] {
  if (!Array.isArray(v) || v.length !== components || !v.every((b) => Number.isInteger(b) && b >= 0 && b <= 0xffffffff)) {
    throw corrupt(`volume ${i} background is malformed`)
  }
  return v as number[]
}

function attributeHeaders(x: unknown, what: string): AttributeHeader[] {
  return arr(x, `${what} attributes`).map((a, j) => {
    if (!isObj(a)) throw corrupt(`${what} attribute ${j} is not an object`)
    return {
      name: str(a.name, `${what} attribute ${j} name`),
      components: count(a.components, `${what} attribute ${j} components`),
      length: count(a.length, `${what} attribute ${j} length`),
    }
  })
}

function meshHeader(x: unknown, what: string): MeshHeader {
  if (!isObj(x)) throw corrupt(`${what} header is not an object`)
  return {
    name: str(x.name, `${what} name`),
    positions: count(x.positions, `${what} positions`),
    indices: count(x.indices, `${what} indices`),
    normals: x.normals === null ? null : count(x.normals, `${what} normals`),
    ...(x.attributes === undefined ? {} : { attributes: attributeHeaders(x.attributes, what) }),
    raw: count(x.raw, `${what} size`),
    packed: count(x.packed, `${what} packed size`),
  }
}

function vector(x: unknown, n: number, what: string): number[] {
  const a = arr(x, what)
  if (a.length !== n) throw corrupt(`${what} is malformed`)
  return a.map((v) => num(v, what))
}

function rigidBodyHeader(x: unknown, i: number): RigidBodyHeader {
  const what = `rigid body ${i}`
  if (!isObj(x)) throw corrupt(`${what} header is not an object`)
  return {
    id: str(x.id, `${what} id`),
    name: str(x.name, `${what} name`),
    position: vector(x.position, 3, `${what} position`),
    orientation: vector(x.orientation, 4, `${what} orientation`),
    linearVelocity: vector(x.linearVelocity, 3, `${what} linear velocity`),
    angularVelocity: vector(x.angularVelocity, 3, `${what} angular velocity`),
    mesh: meshHeader(x.mesh, `${what} mesh`),
  }
}

function textureHeader(x: unknown, i: number): TextureHeader {
  const what = `texture ${i}`
  if (!isObj(x)) throw corrupt(`${what} header is not an object`)
  const components = x.components
  if (components !== 1 && components !== 3) throw corrupt(`${what} has ${String(components)} components`)
  const width = count(x.width, `${what} width`)
  const height = count(x.height, `${what} height`)
  const layers = count(x.layers, `${what} layers`)
  if (components * width * height * layers > MAX_ELEMENTS) throw corrupt(`${what} is impossibly large`)
  const raw = count(x.raw, `${what} size`)
  if (raw !== 4 * components * width * height * layers) throw corrupt(`${what} size disagrees with its dimensions`)
  return { name: str(x.name, `${what} name`), width, height, layers, components, raw, packed: count(x.packed, `${what} packed size`) }
}

/** The header of a record of `version` (fields a version did not have must be absent). */
export function parseHeader(bytes: Uint8Array, version: number): Header {
  let h: unknown
  try {
    h = JSON.parse(decodeUtf8(bytes))
  } catch {
    throw corrupt('header is not valid JSON')
  }
  if (!isObj(h)) throw corrupt('header is not an object')
  const stats = arr(h.stats, 'stats').map((e, i) => {
    const pair = arr(e, `stat ${i}`)
    if (pair.length !== 2) throw corrupt(`stat ${i} is malformed`)
    return [str(pair[0], `stat ${i} name`), num(pair[1], `stat ${i}`)] as [string, number]
  })
  const volumes = arr(h.volumes, 'volumes').map((x, i): VolumeHeader => {
    if (!isObj(x)) throw corrupt(`volume ${i} header is not an object`)
    const components = x.components
    if (components !== 1 && components !== 3) throw corrupt(`volume ${i} has ${String(components)} components`)
    const d = arr(x.dims, `volume ${i} dims`)
    if (d.length !== 3) throw corrupt(`volume ${i} dims are malformed`)
    const dims: [number, number, number] = [count(d[0], `volume ${i} dims`), count(d[1], `volume ${i} dims`), count(d[2], `volume ${i} dims`)]
    if (dims[0] * dims[1] * dims[2] * components > MAX_ELEMENTS) throw corrupt(`volume ${i} is impossibly large`)
    const or = arr(x.origin, `volume ${i} origin`)
    if (or.length !== 3) throw corrupt(`volume ${i} origin is malformed`)
    return {
      name: str(x.name, `volume ${i} name`),
      components,
      dims,
      voxelSize: num(x.voxelSize, `volume ${i} voxel size`),
      origin: [num(or[0], `volume ${i} origin`), num(or[1], `volume ${i} origin`), num(or[2], `volume ${i} origin`)],
      precision: precisionOf(x.precision, `volume ${i} precision`),
      tiles: count(x.tiles, `volume ${i} tile count`),
      ...(x.background === undefined ? {} : { background: backgroundBits(x.background, components, i) }),
      raw: count(x.raw, `volume ${i} size`),
      packed: count(x.packed, `volume ${i} packed size`),
    }
  })
  const meshes = arr(h.meshes, 'meshes').map((x, i) => meshHeader(x, `mesh ${i}`))
  const particles = arr(h.particles, 'particles').map((x, i): ParticleHeader => {
    if (!isObj(x)) throw corrupt(`particle set ${i} header is not an object`)
    return {
      name: str(x.name, `particle set ${i} name`),
      count: count(x.count, `particle set ${i} count`),
      positions: count(x.positions, `particle set ${i} positions`),
      attributes: attributeHeaders(x.attributes, `particle set ${i}`),
      raw: count(x.raw, `particle set ${i} size`),
      packed: count(x.packed, `particle set ${i} packed size`),
    }
  })
  // Fields a version did not have are refused rather than read: a version 2 reader would
  // have skipped them, so their presence means the version field was tampered with.
  if (version < 3 && (h.rigidBodies !== undefined || meshes.some((m) => m.attributes !== undefined))) {
    throw corrupt(`a version ${version} header has version 3 fields`)
  }
  const rigidBodies = version < 3 ? [] : arr(h.rigidBodies, 'rigid bodies').map(rigidBodyHeader)
  if (version < 4 && h.textures !== undefined) throw corrupt(`a version ${version} header has version 4 fields`)
  const textures = version < 4 ? [] : arr(h.textures, 'textures').map(textureHeader)
  return {
    time: num(h.time, 'time'),
    frame: num(h.frame, 'frame number'),
    precision: precisionOf(h.precision, 'precision'),
    stats,
    volumes,
    meshes,
    particles,
    rigidBodies,
    textures,
  }
}

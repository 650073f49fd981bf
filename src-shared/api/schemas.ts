// Runtime schemas for everything that crosses the renderer/main boundary.
// Structural checks only (shapes, finite numbers, sizes); range checks against the
// parameter specs happen in the service (scene/validate.ts) so the message names the spec.
import { z } from 'zod'
import { ERROR_CODES } from './errors'
import { INTERPOLATIONS, MESH_FORMATS, OBJECT_KINDS } from '../scene/types'

export const finite = z.number().refine(Number.isFinite, { message: 'must be a finite number (not NaN or infinite)' })
export const vec3 = z.tuple([finite, finite, finite])
export const paramValue = z.union([finite, z.string().max(200), z.boolean(), vec3])
export const objectId = z.string().min(1).max(64)
export const objectKind = z.enum(OBJECT_KINDS)
export const interpolation = z.enum(INTERPOLATIONS)
/** Channel path: a parameter key, optionally with a vector component: "rate", "position.1". */
export const trackPath = z.string().regex(/^[A-Za-z][A-Za-z0-9]*(\.[0-2])?$/, 'must be a parameter key, optionally followed by .0, .1 or .2')
/** A lone UTF-16 surrogate: no file system can hold it (it has no UTF-8 form). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
/** Absolute on POSIX (/...), or on Windows (C:\..., \\server\share). */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/

/**
 * A path from the renderer: absolute (a relative one would resolve against whatever folder
 * the host runs in), without NUL bytes or lone surrogates (no file name can hold them).
 */
export const filePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => ABSOLUTE.test(p), { message: 'must be an absolute path (relative paths would resolve against the folder Eddy runs in)' })
  .refine((p) => !p.includes('\0'), { message: 'must not contain a NUL character' })
  .refine((p) => !LONE_SURROGATE.test(p), { message: 'must not contain a lone UTF-16 surrogate (no file system can store that name)' })

/**
 * Key and range frames stay within a million frames of 0 (11 hours at 24 fps): beyond that
 * the interpolation's arithmetic loses every digit (1e308 gives NaN), and no scene needs it.
 */
export const FRAME_LIMIT = 1_000_000
export const frameTime = finite.refine((v) => Math.abs(v) <= FRAME_LIMIT, { message: `must be a frame from -${FRAME_LIMIT.toLocaleString('en')} to ${FRAME_LIMIT.toLocaleString('en')}` })
/** Keyed values: finite and far below where Bezier arithmetic overflows (1e15). */
export const keyValue = finite.refine((v) => Math.abs(v) <= 1e15, { message: 'must be a value between -1e15 and 1e15' })
const frameNumberInRange = z.number().int().min(-FRAME_LIMIT).max(FRAME_LIMIT)

export const cageGeometry = z.object({
  positions: z.array(finite).max(3 * 200_000),
  faces: z.array(z.array(z.number().int().nonnegative()).min(3).max(64)).max(200_000),
})

/** A wedged channel: a list of values or a start/stop/count (sim/wedge.ts checks them against the specs). */
export const wedgeParameter = z
  .object({
    objectId,
    path: trackPath,
    values: z.array(finite).max(256).optional(),
    range: z.object({ start: finite, stop: finite, count: z.number().int().min(1).max(256) }).strict().optional(),
  })
  .strict()

/** Wedge ids become part of bake keys and file names: letters, digits, - and _. */
export const wedge = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, - or _'),
    name: z.string().trim().min(1, 'name must not be empty').max(64),
    parameters: z.array(wedgeParameter).max(8),
    subset: z.array(z.number().int().min(1).max(1_000_000)).max(256).optional(),
  })
  .strict()

export const sceneObject = z.object({
  id: objectId,
  kind: objectKind,
  name: z.string().min(1).max(200),
  params: z.record(z.string(), paramValue),
  cage: cageGeometry.optional(),
  meshId: z.string().optional(),
  hidden: z.boolean().optional(),
  wedges: z.array(wedge).max(32).optional(),
})

export const keyframe = z.object({
  frame: frameTime,
  value: keyValue,
  interp: interpolation,
  handleLeft: z.tuple([frameTime, keyValue]).optional(),
  handleRight: z.tuple([frameTime, keyValue]).optional(),
})

export const track = z.object({ objectId, path: trackPath, keys: z.array(keyframe) })

export const projectMeta = z.object({
  name: z.string().min(1).max(200),
  fps: finite,
  frameStart: frameNumberInRange,
  frameEnd: frameNumberInRange,
})

export const meshInfo = z.object({
  id: z.string(),
  name: z.string(),
  format: z.enum(MESH_FORMATS),
  vertexCount: z.number().int(),
  triangleCount: z.number().int(),
  bounds: z.object({ min: vec3, max: vec3 }),
})

export const sceneDocument = z.object({
  meta: projectMeta,
  objects: z.array(sceneObject),
  tracks: z.array(track),
  meshes: z.array(meshInfo),
})

/** What the renderer sees of an open project after every request that changes it. */
export const projectState = z.object({
  path: z.string(),
  document: sceneDocument,
  canUndo: z.boolean(),
  canRedo: z.boolean(),
  undoLabel: z.string().optional(),
  redoLabel: z.string().optional(),
})

export const recentProject = z.object({ path: z.string(), name: z.string(), openedAt: z.string() })

export const apiError = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})

/** Base64 text; 64 MiB of text at most (48 MiB of binary). */
export const base64 = z.string().max(64 * 1024 * 1024).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')

// Semantic checks against the specs: ranges, integers, enum options, cage topology,
// project settings. The zod schemas only check shapes; these produce the sentences the
// artist reads, so every message names the parameter and the offending value.
import { copyValue } from './defaults'
import { parseChannel } from './keyframes'
import { KIND_SPECS, kindLabel, specFor, type ParamSpec } from './specs'
import type { CageGeometry, ObjectKind, ParamValue, ProjectMeta } from './types'

export interface ValidationIssue {
  /** The parameter key ("rate"), field ("fps") or element ("faces[3]") at fault. */
  path: string
  message: string
}

const AXES = ['x', 'y', 'z'] as const

/** Vortex directions shorter than this cannot be normalised meaningfully. */
const MIN_DIRECTION_LENGTH = 1e-6

const META_FRAME_MIN = -100000
const META_FRAME_MAX = 1000000

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`
  if (value === undefined) return 'nothing'
  return String(value)
}

function withUnit(n: number, unit: string): string {
  return unit ? `${n} ${unit}` : String(n)
}

/** Check one number: finite, integer when asked, within [min, max]. */
function checkNumber(label: string, value: unknown, opts: { min?: number; max?: number; unit?: string; integer?: boolean }): string | null {
  const unit = opts.unit ?? ''
  if (typeof value !== 'number') return `${label} must be a number (got ${show(value)})`
  if (!Number.isFinite(value)) return `${label} must be a finite number (got ${value})`
  if (opts.integer && !Number.isInteger(value)) return `${label} must be a whole number (got ${value})`
  const { min, max } = opts
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    if (min !== undefined && max !== undefined) return `${label} must be between ${min} and ${withUnit(max, unit)} (got ${value})`
    if (min !== undefined) return `${label} must be at least ${withUnit(min, unit)} (got ${value})`
    return `${label} must be at most ${withUnit(max as number, unit)} (got ${value})`
  }
  return null
}

/** null when `value` is acceptable for `spec`, else a sentence naming the parameter. */
export function validateParam(spec: ParamSpec, value: unknown): string | null {
  const range = { min: spec.min, max: spec.max, unit: spec.unit }
  switch (spec.type) {
    case 'float':
      return checkNumber(spec.label, value, range)
    case 'int':
      return checkNumber(spec.label, value, { ...range, integer: true })
    case 'bool':
      return typeof value === 'boolean' ? null : `${spec.label} must be true or false (got ${show(value)})`
    case 'enum': {
      const options = spec.options ?? []
      if (typeof value === 'string' && options.includes(value)) return null
      return `${spec.label} must be one of ${options.join(', ')} (got ${show(value)})`
    }
    case 'vec3': {
      if (!Array.isArray(value) || value.length !== 3) return `${spec.label} must be a list of 3 numbers (got ${show(value)})`
      for (let i = 0; i < 3; i++) {
        const problem = checkNumber(`${spec.label} ${AXES[i]}`, value[i], range)
        if (problem) return problem
      }
      return null
    }
  }
}

/**
 * Issues with a whole params record of a kind. With `partial`, missing keys are fine
 * (a patch of a few parameters); cross-field rules then apply only when both fields are given.
 */
export function validateParams(kind: ObjectKind, params: Record<string, unknown>, opts: { partial?: boolean } = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const specs = KIND_SPECS[kind].params
  for (const key of Object.keys(params)) {
    if (!specs.some((s) => s.key === key)) issues.push({ path: key, message: `${kindLabel(kind)} has no parameter "${key}"` })
  }
  for (const spec of specs) {
    if (!Object.hasOwn(params, spec.key)) {
      if (!opts.partial) issues.push({ path: spec.key, message: `${spec.label} (${spec.key}) is missing` })
      continue
    }
    const problem = validateParam(spec, params[spec.key])
    if (problem) issues.push({ path: spec.key, message: problem })
  }
  // Cross-field rules only look at values that passed the checks above.
  const valid = (key: string) => Object.hasOwn(params, key) && !issues.some((issue) => issue.path === key)

  if (kind === 'domain' && valid('minSubsteps') && valid('maxSubsteps')) {
    const min = params.minSubsteps as number
    const max = params.maxSubsteps as number
    if (min > max) issues.push({ path: 'minSubsteps', message: `Min substeps (${min}) must not exceed Max substeps (${max})` })
  }
  if (kind === 'vortexSeed' && valid('direction')) {
    const [x, y, z] = params.direction as number[]
    if (Math.hypot(x, y, z) < MIN_DIRECTION_LENGTH) issues.push({ path: 'direction', message: `Direction must not be the zero vector (got ${show(params.direction)})` })
  }
  return issues
}

/**
 * Topology and geometry of a Catmull-Clark cage: finite positions, in-range indices,
 * non-degenerate faces, manifold edges (at most two faces each), no duplicate faces.
 */
export function validateCage(cage: CageGeometry): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const { positions, faces } = cage
  if (positions.length % 3 !== 0) issues.push({ path: 'positions', message: `Cage positions must hold x, y, z per vertex (length ${positions.length} is not a multiple of 3)` })
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i])) issues.push({ path: `positions[${i}]`, message: `Cage vertex ${Math.floor(i / 3)} ${AXES[i % 3]} must be a finite number (got ${positions[i]})` })
  }
  const vertexCount = Math.floor(positions.length / 3)
  if (vertexCount < 4) issues.push({ path: 'positions', message: `A cage needs at least 4 vertices (got ${vertexCount})` })
  if (faces.length < 1) issues.push({ path: 'faces', message: 'A cage needs at least 1 face (got 0)' })

  // Edge "a-b" (a < b) -> faces using it; face vertex set -> first face with it.
  const edgeFaces = new Map<string, number[]>()
  const faceBySet = new Map<string, number>()
  faces.forEach((face, f) => {
    const path = `faces[${f}]`
    if (face.length < 3) {
      issues.push({ path, message: `Cage face ${f} needs at least 3 vertices (got ${face.length})` })
      return
    }
    const bad = face.find((v) => !Number.isInteger(v) || v < 0 || v >= vertexCount)
    if (bad !== undefined) {
      issues.push({ path, message: `Cage face ${f} uses vertex index ${bad}, which is out of range (the cage has ${vertexCount} vertices)` })
      return
    }
    const repeated = face.find((v, i) => face.indexOf(v) !== i)
    if (repeated !== undefined) {
      issues.push({ path, message: `Cage face ${f} is degenerate: it uses vertex ${repeated} more than once` })
      return
    }
    const setKey = [...face].sort((a, b) => a - b).join(',')
    const twin = faceBySet.get(setKey)
    if (twin !== undefined) {
      issues.push({ path, message: `Cage face ${f} duplicates face ${twin}` })
      return
    }
    faceBySet.set(setKey, f)
    for (let i = 0; i < face.length; i++) {
      const a = face[i]
      const b = face[(i + 1) % face.length]
      const edge = a < b ? `${a}-${b}` : `${b}-${a}`
      const users = edgeFaces.get(edge)
      if (users) users.push(f)
      else edgeFaces.set(edge, [f])
    }
  })
  for (const [edge, users] of edgeFaces) {
    if (users.length > 2) {
      issues.push({ path: `faces[${users[2]}]`, message: `Cage edge ${edge} is shared by ${users.length} faces (${users.join(', ')}); an edge may border at most 2 faces` })
    }
  }
  return issues
}

export function validateMeta(meta: ProjectMeta): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const add = (path: string, problem: string | null) => {
    if (problem) issues.push({ path, message: problem })
  }
  if (typeof meta.name !== 'string' || meta.name.trim() === '') add('name', 'Project name must not be empty')
  add('fps', checkNumber('Frame rate', meta.fps, { min: 1, max: 1000, unit: 'fps' }))
  add('frameStart', checkNumber('Start frame', meta.frameStart, { min: META_FRAME_MIN, max: META_FRAME_MAX, integer: true }))
  add('frameEnd', checkNumber('End frame', meta.frameEnd, { min: META_FRAME_MIN, max: META_FRAME_MAX, integer: true }))
  if (issues.length === 0 && meta.frameStart > meta.frameEnd) {
    add('frameStart', `Start frame (${meta.frameStart}) must not be after End frame (${meta.frameEnd})`)
  }
  return issues
}

/**
 * null when `value` may be keyed on channel `path` of a `kind` object. Only numeric,
 * keyframable parameters can be animated; a vec3 is animated per component.
 * Note: a single component cannot reveal a zero vortex direction; the caller must
 * re-check the evaluated params (validateParams) for that.
 */
export function validateChannel(kind: ObjectKind, path: string, value: number): string | null {
  const { key, component } = parseChannel(path)
  const spec = specFor(kind, key)
  if (!spec) return `${kindLabel(kind)} has no parameter "${key}" to animate`
  if (!spec.keyframable) return `${spec.label} (${spec.key}) cannot be animated`
  if (spec.type === 'vec3') {
    if (component === null) return `${spec.label} is a vector: animate one component (${key}.0, ${key}.1 or ${key}.2)`
    return checkNumber(`${spec.label} ${AXES[component]}`, value, { min: spec.min, max: spec.max, unit: spec.unit })
  }
  if (component !== null) return `${spec.label} is not a vector, so "${path}" has no component ${component}`
  return checkNumber(spec.label, value, { min: spec.min, max: spec.max, unit: spec.unit, integer: spec.type === 'int' })
}

/** Params with every missing key filled from the kind's defaults (older files, partial creates). */
export function normalizeParams(kind: ObjectKind, params: Record<string, ParamValue>): Record<string, ParamValue> {
  const result = { ...params }
  for (const spec of KIND_SPECS[kind].params) {
    if (!Object.hasOwn(result, spec.key)) result[spec.key] = copyValue(spec.default)
  }
  return result
}

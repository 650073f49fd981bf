// What an export is asked to do, checked and completed with defaults before anything touches
// the disk, so a typo in a field fails in a millisecond instead of after a hundred frames.
import { compactRanges } from '../../src-shared/compactRanges'
import * as nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import type { UpAxis } from '../../src-shared/formats/upAxis'
import type { FrameData } from '../../src-shared/sim/frame'
import { sanitizeName } from '../../src-shared/safeFileName'

/** 'png': per-patch textures of a surface flow as PNG atlases (textureAtlas.ts). */
export type ExportFormat = 'vdb' | 'obj' | 'ply' | 'gltf' | 'glb' | 'png'
export const EXPORT_FORMATS: readonly ExportFormat[] = ['vdb', 'obj', 'ply', 'gltf', 'glb', 'png']

/** The cached frames of one simulation. */
export interface ExportSource {
  simName: string
  fps: number
  /** Cached frames, ascending. */
  frames: number[]
  /** May throw an EddyError (e.g. PROJECT_FORMAT for a damaged record). */
  read(frame: number): Promise<FrameData> | FrameData
}

export interface ExportOptions {
  format: ExportFormat
  /** Absolute path; created (with its parents) when missing. */
  outDir: string
  /** Default: the first cached frame. */
  frameStart?: number
  /** Default: the last cached frame. */
  frameEnd?: number
  /** Minimum digits of the frame number in file names, 1..8. Default 4 (0001). */
  padding?: number
  /**
   * Default 'z' for vdb and ply, whose Blender importers take coordinates as they are (and
   * Blender is Z up); 'y' for obj, whose importers convert from Y up by default. glTF is Y up
   * by specification (importers convert), so gltf/glb accept only 'y'. png ignores it (an
   * atlas of patch textures has no world axes): either value is accepted, default 'y', and
   * the manifest records it as given.
   */
  upAxis?: UpAxis
  /** Default: the simulation's name with anything but letters, digits, '.', '-', '_' replaced. */
  baseName?: string
  /**
   * Farm export chunks: each writes `<base>_<format>_<tag>_manifest.json`, so chunks of one
   * sequence running side by side into one folder never overwrite each other's manifest.
   */
  manifestTag?: string
  /** vdb only: store values as 16-bit halves (half the size; ignored by other formats). */
  vdbHalf?: boolean
}

export interface ResolvedExport {
  format: ExportFormat
  outDir: string
  frames: number[]
  padding: number
  upAxis: UpAxis
  baseName: string
  vdbHalf: boolean
}

// Far beyond any real bake; stops a typo (frameEnd 1e9) from looping for minutes.
const MAX_FRAMES = 1_000_000
const BASE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

const invalid = (field: string, message: string): EddyError => new EddyError('INVALID_PARAM', message, { field })

export function resolveExportOptions(source: ExportSource, o: ExportOptions): ResolvedExport {
  if (!EXPORT_FORMATS.includes(o.format)) throw invalid('format', `Unknown export format "${String(o.format)}" (expected ${EXPORT_FORMATS.join(', ')})`)
  if (typeof o.outDir !== 'string' || o.outDir.trim() === '' || o.outDir.includes('\0')) throw invalid('outDir', 'The export folder (outDir) must be a folder path')
  if (!nodePath.isAbsolute(o.outDir)) throw invalid('outDir', `The export folder (outDir) must be an absolute path, not "${o.outDir}"`)

  const padding = o.padding ?? 4
  if (!Number.isInteger(padding) || padding < 1 || padding > 8) throw invalid('padding', `padding must be a whole number from 1 to 8, not ${padding}`)

  const gltf = o.format === 'gltf' || o.format === 'glb'
  const upAxis = o.upAxis ?? (o.format === 'vdb' || o.format === 'ply' ? 'z' : 'y')
  if (upAxis !== 'y' && upAxis !== 'z') throw invalid('upAxis', `upAxis must be "y" or "z", not "${String(upAxis)}"`)
  if (gltf && upAxis === 'z') throw invalid('upAxis', 'glTF is Y up by specification (importers such as Blender convert it), so upAxis must be "y" for gltf and glb')

  if (o.vdbHalf !== undefined && typeof o.vdbHalf !== 'boolean') throw invalid('vdbHalf', 'vdbHalf must be true or false')
  if (o.baseName !== undefined && (typeof o.baseName !== 'string' || !BASE_NAME.test(o.baseName))) {
    throw invalid('baseName', `baseName "${String(o.baseName)}" must start with a letter or digit and use only letters, digits, ".", "-" and "_" (at most 100)`)
  }
  const baseName = o.baseName ?? sanitizeName(source.simName, 'eddy')

  if (!Number.isFinite(source.fps) || source.fps <= 0) throw invalid('fps', `The simulation's frame rate must be positive, not ${source.fps}`)
  const cached = [...new Set(source.frames)].sort((a, b) => a - b)
  if (cached.length === 0) throw new EddyError('NOT_FOUND', `Nothing of "${source.simName}" is cached yet: bake it before exporting`)
  const start = o.frameStart ?? cached[0]
  const end = o.frameEnd ?? cached[cached.length - 1]
  if (!Number.isInteger(start)) throw invalid('frameStart', `frameStart must be a whole frame number, not ${start}`)
  if (!Number.isInteger(end)) throw invalid('frameEnd', `frameEnd must be a whole frame number, not ${end}`)
  if (end < start) throw invalid('frameEnd', `frameEnd (${end}) comes before frameStart (${start})`)
  if (end - start >= MAX_FRAMES) throw invalid('frameEnd', `A range of ${end - start + 1} frames is more than an export handles (${MAX_FRAMES})`)

  const have = new Set(cached)
  const frames: number[] = []
  const missing: number[] = []
  for (let f = start; f <= end; f++) (have.has(f) ? frames : missing).push(f)
  if (missing.length > 0) {
    throw new EddyError('NOT_FOUND', `${describeFrames(missing)} of "${source.simName}" ${missing.length === 1 ? 'is' : 'are'} not cached: bake ${missing.length === 1 ? 'it' : 'them'} first or export a smaller range`, { missing: compactRanges(missing) })
  }
  return { format: o.format, outDir: nodePath.resolve(o.outDir), frames, padding, upAxis, baseName, vdbHalf: o.vdbHalf ?? false }
}

export { compactRanges }

/** "frame 7", "frames 12-15", "frames 3, 7-9 and 12"; long lists are cut after six runs. */
export function describeFrames(frames: readonly number[]): string {
  const runs = compactRanges(frames)
  const noun = frames.length === 1 ? 'Frame' : 'Frames'
  if (runs.length > 6) return `${noun} ${runs.slice(0, 6).join(', ')} and ${runs.length - 6} more ranges`
  if (runs.length === 1) return `${noun} ${runs[0]}`
  return `${noun} ${runs.slice(0, -1).join(', ')} and ${runs[runs.length - 1]}`
}

export { sanitizeName }

// Export jobs: cached simulation frames -> files other tools read.
//
// What is written, per exported frame (all in `outDir`, created when missing):
//   vdb   `<base>_<frame>.vdb`: every volume of the frame as an OpenVDB grid (density,
//         temperature: float; velocity: vec3s), ZIP-compressed, true voxel size and placement.
//   obj   one `.obj` per mesh, with normals.
//   ply   binary PLY: one per particle set (x y z, every attribute: vx vy vz, id as uint, ...)
//         and one per mesh.
//   gltf / glb   one self-contained file with all of the frame's meshes (positions, normals,
//         indices, COLOR_0 and `_<name>` vertex attributes) and a node per rigid body posed
//         at that frame; and, when the simulation has rigid bodies, ONE more file
//         `<base>_rigid_bodies.<ext>` animating every body over the range (rigidAnimation.ts).
//   Rigid bodies in obj: one file per frame with an object per body; in ply: one file per
//         body per frame; both in world space (posed), since neither format has transforms.
//   Mesh attributes: ply writes all of them as vertex properties, obj only 'color' (v x y z r g b).
//   png   one 8-bit RGBA atlas per per-patch texture (surface flows): the patches' images
//         tiled in a near-square grid, v up in each tile; 3-component textures sRGB-encoded,
//         scalars as grey over their min..max (textureAtlas.ts); the manifest entry holds
//         the tile layout (and min, max). Frames without textures write nothing; upAxis is
//         ignored.
// Names: `<base>_<frame>.<ext>` when the first frame of the range yields one file, otherwise
// `<base>_<item>_<frame>.<ext>` (see fileNames.ts); <frame> is zero-padded to `padding` and is
// always the last digits before the extension, so Blender and Houdini see a sequence.
// Finally `<base>_<format>_manifest.json` lists format, up axis, fps, frame range, padding and every
// file with its frame, kind, name and counts (manifest.ts); the same object is returned.
//
// Each file is written to a hidden temporary sibling and renamed into place (atomicFile.ts),
// so no final name ever holds a partial file. Cancelling (the AbortSignal is checked before
// every frame and every file) or a failure stops the job: files already finished stay, the
// manifest is not written (a stale one from an earlier export is deleted first), so a folder
// without a manifest is an unfinished export.
//
// Every file-system call has a deadline and stops waiting on Cancel (atomicFile.ts `guarded`):
// a folder on a disk that never answers fails the job with IO_ERROR instead of leaving it
// "running" forever, and Cancel ends the job at once even while a call is stuck.
import * as nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import type { FrameData } from '../../src-shared/sim/frame'
import { guarded, writeFileAtomic, nodeExportFs, type ExportFs, type FsGuard } from './atomicFile'
import { throwIfCancelled } from './cancelled'
import { resolveExportOptions, type ExportOptions, type ExportSource } from './exportOptions'
import { manifestFileName, SequenceNamer } from './fileNames'
import { EXTENSIONS, frameOutputs, nothingToWrite } from './frameOutputs'
import { exportFolderError, exportIoError } from './fsErrors'
import type { ExportManifest } from './manifest'
import { RigidAnimationExport } from './rigidAnimation'

export type { ExportFormat, ExportOptions, ExportSource } from './exportOptions'
export type { ExportManifest, ManifestFile, ManifestCounts, ManifestGrid, ManifestFileKind } from './manifest'
export { ExportCancelledError, isExportCancelled } from './cancelled'

export interface ExportProgress {
  /** Frames completely written. */
  done: number
  /** Frames in the range. */
  total: number
  /** The frame the file just written belongs to. */
  frame: number
  /** The file just written, relative to outDir. */
  file: string
}

export interface ExportHooks {
  /** Called after every file written. */
  onProgress?: (p: ExportProgress) => void
  signal?: AbortSignal
  /** File-system seam for tests (default: node:fs). */
  fs?: ExportFs
  /** Deadline of one file-system call (default EXPORT_FS_DEADLINE_MS, plus 1 s per MiB written). */
  fsDeadlineMs?: number
}

/**
 * Writes the cached frames of `source` as `options.format` files. Throws INVALID_PARAM (bad
 * option, or a format with nothing to write), NOT_FOUND (frames not cached), IO_ERROR (disk),
 * the read's own error with the frame added, or ExportCancelledError (code 'CANCELLED').
 */
export async function runExport(source: ExportSource, options: ExportOptions, hooks: ExportHooks = {}): Promise<ExportManifest> {
  const opts = resolveExportOptions(source, options)
  const fs = hooks.fs ?? nodeExportFs
  const { outDir, frames } = opts
  const manifestPath = nodePath.join(outDir, manifestFileName(options.manifestTag ? `${opts.baseName}_${options.manifestTag}` : opts.baseName, opts.format))
  throwIfCancelled(hooks.signal, 'before it started')
  const guard: FsGuard = { signal: hooks.signal, deadlineMs: hooks.fsDeadlineMs }

  try {
    await guarded(fs.mkdirp(outDir), guard, 'creating the export folder', outDir)
  } catch (e) {
    throw await exportFolderError(e, outDir, fs.checkWritable?.bind(fs))
  }
  try {
    await guarded(fs.remove(manifestPath), guard, 'removing the previous manifest', manifestPath)
  } catch (e) {
    throw exportIoError(e, outDir, outDir)
  }

  const manifest: ExportManifest = {
    manifestVersion: 1,
    generator: 'Eddy',
    simName: source.simName,
    format: opts.format,
    upAxis: opts.upAxis,
    fps: source.fps,
    frameStart: frames[0],
    frameEnd: frames[frames.length - 1],
    padding: opts.padding,
    baseName: opts.baseName,
    files: [],
  }
  let namer: SequenceNamer | undefined
  const animation = opts.format === 'gltf' || opts.format === 'glb' ? new RigidAnimationExport(opts, source.fps) : null
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]
    throwIfCancelled(hooks.signal, `before frame ${frame}`)
    const data = await readFrame(source, frame)
    animation?.add(data)
    const outputs = frameOutputs(data, opts)
    if (!namer) {
      if (outputs.length === 0) throw new EddyError('INVALID_PARAM', nothingToWrite(opts.format, source.simName, frame), { field: 'format' })
      namer = new SequenceNamer(opts.baseName, opts.padding, EXTENSIONS[opts.format], outputs)
    }
    for (let k = 0; k < outputs.length; k++) {
      const out = outputs[k]
      const file = namer.fileName(out, frame)
      throwIfCancelled(hooks.signal, `before writing ${file}`)
      const rendered = await out.render()
      await writeFileAtomic(fs, nodePath.join(outDir, file), rendered.bytes, guard)
      manifest.files.push({
        frame,
        path: file,
        kind: out.kind,
        name: out.name,
        counts: rendered.counts,
        ...(rendered.grids ? { grids: rendered.grids } : {}),
        ...(rendered.texture ? { texture: rendered.texture } : {}),
      })
      hooks.onProgress?.({ done: k === outputs.length - 1 ? i + 1 : i, total: frames.length, frame, file })
    }
  }

  if (animation?.hasBodies) {
    const file = animation.fileName
    throwIfCancelled(hooks.signal, `before writing ${file}`)
    const out = await animation.render()
    await writeFileAtomic(fs, nodePath.join(outDir, file), out.bytes, guard)
    manifest.files.push(out.entry)
    hooks.onProgress?.({ done: frames.length, total: frames.length, frame: frames[frames.length - 1], file })
  }

  throwIfCancelled(hooks.signal, 'before writing the manifest')
  await writeFileAtomic(fs, manifestPath, new TextEncoder().encode(JSON.stringify(manifest, null, 2) + '\n'), guard)
  return manifest
}

/** source.read, with the frame number added to its errors and the frame checked. */
async function readFrame(source: ExportSource, frame: number): Promise<FrameData> {
  let data: FrameData
  try {
    data = await source.read(frame)
  } catch (e) {
    if (e instanceof EddyError) throw new EddyError(e.code, `Frame ${frame} of "${source.simName}": ${e.message}`, { ...e.details, frame })
    throw e
  }
  // A cache that hands back the wrong frame would silently shift the whole sequence.
  if (data.frame !== frame) throw new EddyError('INTERNAL', `Reading frame ${frame} of "${source.simName}" returned frame ${data.frame}`, { frame })
  return data
}

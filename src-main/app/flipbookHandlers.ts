// The host's side of the viewport flipbook: PNG frames written atomically into the folder the
// artist chose, and an optional MP4 from them by ffmpeg (only where it is installed; the
// flipbook says so otherwise).
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import type { Handlers } from '../../src-shared/api/dispatch'
import { nodeExportFs, writeFileAtomic } from '../export/atomicFile'
import { checkPathParam } from '../store/pathNames'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** ffmpeg on PATH, or null. */
export function findFfmpeg(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'ffmpeg')
    if (dir && existsSync(p)) return p
  }
  return null
}

export function makeFlipbookHandlers(): Pick<Handlers, 'flipbook.writeFrame' | 'flipbook.encodeMovie'> {
  return {
    'flipbook.writeFrame': async ({ outDir, name, png }) => {
      const dir = resolve(outDir)
      checkPathParam(dir, 'outDir')
      const bytes = new Uint8Array(Buffer.from(png, 'base64'))
      if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) {
        throw new EddyError('INVALID_PARAM', `Flipbook frame ${name} is not a PNG image`, { field: 'png' })
      }
      await nodeExportFs.mkdirp(dir)
      const path = join(dir, name)
      await writeFileAtomic(nodeExportFs, path, bytes)
      return { path, bytes: bytes.length }
    },

    'flipbook.encodeMovie': async ({ outDir, baseName, padding, frameStart, fps }) => {
      const dir = resolve(outDir)
      checkPathParam(dir, 'outDir')
      const ffmpeg = findFfmpeg()
      if (!ffmpeg) return { path: null, note: 'No MP4: ffmpeg is not installed (the PNG frames are written).' }
      const out = join(dir, `${baseName}.mp4`)
      const args = ['-y', '-loglevel', 'error', '-framerate', String(fps), '-start_number', String(frameStart), '-i', join(dir, `${baseName}_%0${padding}d.png`), '-pix_fmt', 'yuv420p', '-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2', out]
      await new Promise<void>((res, rej) =>
        execFile(ffmpeg, args, { timeout: 10 * 60_000 }, (err, _stdout, stderr) =>
          err ? rej(new EddyError('IO_ERROR', `ffmpeg could not make ${out}: ${String(stderr).trim() || err.message}`, { file: out })) : res(),
        ),
      )
      return { path: out, note: `Wrote ${out}` }
    },
  }
}

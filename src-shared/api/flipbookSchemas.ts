// Requests of the viewport flipbook (src-renderer/panels/FlipbookDialog.svelte): the renderer
// draws each frame and hands the host its PNG to write; the host may then join them into an
// MP4 with ffmpeg, where ffmpeg is installed.
import { z } from 'zod'
import { base64, filePath } from './schemas'

/** A flipbook file name: a plain name ending in .png (no folders, no hidden files). */
const pngName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.png$/, 'must be a plain file name ending in .png')

export const flipbookRequests = {
  /** Writes one rendered frame, replacing a file of that name; the bytes must be a PNG. */
  'flipbook.writeFrame': {
    params: z.object({ outDir: filePath, name: pngName, png: base64 }).strict(),
    result: z.object({ path: z.string(), bytes: z.number() }),
  },
  /** Joins NAME_0001.png ... into NAME.mp4 with ffmpeg; `path` is null (and `note` says why) without ffmpeg. */
  'flipbook.encodeMovie': {
    params: z
      .object({
        outDir: filePath,
        baseName: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'must be a plain name'),
        padding: z.number().int().min(1).max(8),
        frameStart: z.number().int().min(-1_000_000).max(1_000_000),
        fps: z.number().positive().max(1000),
      })
      .strict(),
    result: z.object({ path: z.string().nullable(), note: z.string() }),
  },
} as const

// `eddy export project.eddy --sim NAME --format vdb|obj|ply|gltf|glb|png --out
// DIR [--frames A-B] [--padding 4] [--up y|z]`: the UI's export (png: a surface flow's
// per-patch textures as PNG atlases; --up does not apply), with a progress bar on the
// terminal. Ctrl-C cancels between files (finished files stay; no manifest is written).
// --wedge NAME --variant K exports a wedge variant (file names carry the variant);
// --cache-file FILE reads a farm task's cache file; --chunk K --chunk-size N exports the K-th
// run of N frames of the scene (a farm export task), with a manifest of its own.
import { resolve } from 'node:path'
import { runExport, type ExportFormat } from '../export/exportJob'
import { cacheExportSource } from '../export/cacheSource'
import { ProjectStore } from '../store/projectStore'
import { parseOptions, UsageError } from './args'
import { findSim, parseFrameRange, wedgeKeys } from './bakeCommand'
import { openCacheFile } from '../store/cacheFile'
import { progressLine } from './progressBar'

export async function exportCommand(args: string[], out: NodeJS.WriteStream): Promise<number> {
  const [file, ...rest] = args
  if (!file || file.startsWith('--')) throw new UsageError('eddy export needs a project file')
  const o = parseOptions(rest, {
    sim: { type: 'string' },
    format: { type: 'string', choices: ['vdb', 'obj', 'ply', 'gltf', 'glb', 'png'] },
    out: { type: 'string' },
    frames: { type: 'string' },
    padding: { type: 'int', min: 1, max: 8 },
    up: { type: 'string', choices: ['y', 'z'] },
    wedge: { type: 'string' },
    variant: { type: 'int', min: 1, max: 1_000_000 },
    'cache-file': { type: 'string' },
    chunk: { type: 'int', min: 1, max: 1_000_000 },
    'chunk-size': { type: 'int', min: 1, max: 1_000_000 },
  })
  if (!o.sim) throw new UsageError('eddy export needs --sim NAME')
  if (!o.format) throw new UsageError('eddy export needs --format vdb|obj|ply|gltf|glb|png')
  if (!o.out) throw new UsageError('eddy export needs --out DIR')
  const projectPath = resolve(file)
  // With --cache-file (a farm task) the project is a scene copy, read and never written.
  const readOnly = o['cache-file'] !== undefined
  const sim = findSim(projectPath, o.sim, readOnly)
  if (o.wedge !== undefined && o.variant === undefined) throw new UsageError('eddy export exports one variant: give --variant K with --wedge')
  const { keys } = wedgeKeys(projectPath, sim.id, o.wedge, o.variant, readOnly)
  if ((o.chunk === undefined) !== (o['chunk-size'] === undefined)) throw new UsageError('--chunk K and --chunk-size N go together')
  if (o.chunk !== undefined && o.frames) throw new UsageError('Give --frames or --chunk, not both')
  let range = o.frames ? parseFrameRange(o.frames) : undefined
  if (o.chunk !== undefined && o['chunk-size'] !== undefined) {
    const [s0, e0] = sim.sceneFrames
    const a = s0 + (o.chunk - 1) * o['chunk-size']
    if (a > e0) throw new UsageError(`--chunk ${o.chunk} starts at frame ${a}, after the scene's last frame ${e0}`)
    range = [a, Math.min(e0, a + o['chunk-size'] - 1)]
  }
  const cacheFile = o['cache-file'] ? openCacheFile(resolve(o['cache-file']), { create: false }) : null
  const abort = new AbortController()
  const onSigint = (): void => abort.abort()
  process.on('SIGINT', onSigint)
  const store = readOnly ? ProjectStore.openReadOnly(projectPath) : ProjectStore.open(projectPath)
  const tty = out.isTTY === true
  try {
    const options = {
      format: o.format as ExportFormat,
      outDir: resolve(o.out),
      ...(range ? { frameStart: range[0], frameEnd: range[1] } : {}),
      ...(o.padding ? { padding: o.padding } : {}),
      ...(o.up ? { upAxis: o.up as 'y' | 'z' } : {}),
      ...(o.chunk !== undefined && range ? { manifestTag: `frames${range[0]}-${range[1]}` } : {}),
    }
    const source = cacheExportSource(store, keys[0], options, cacheFile?.cache ?? store.cache)
    const manifest = await runExport(source, options, {
      signal: abort.signal,
      onProgress: (p) => {
        const line = progressLine(p.done, p.total, `frame ${p.frame}  ${p.file}`)
        out.write(tty ? `\r${line}` : `${line}\n`)
      },
    })
    if (tty) out.write('\n')
    out.write(`Exported ${manifest.files.length} files for frames ${manifest.frameStart}-${manifest.frameEnd} to ${options.outDir}\n`)
    out.write(`EDDY_EXPORT ${JSON.stringify({ files: manifest.files.length, frameStart: manifest.frameStart, frameEnd: manifest.frameEnd, outDir: options.outDir })}\n`)
    return 0
  } finally {
    process.off('SIGINT', onSigint)
    cacheFile?.close()
    store.close()
  }
}

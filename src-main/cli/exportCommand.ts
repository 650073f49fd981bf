// `eddy export project.eddy --sim NAME --format vdb|obj|ply|gltf|glb|png --out
// DIR [--frames A-B] [--padding 4] [--up y|z]`: the UI's export (png: a surface flow's
// per-patch textures as PNG atlases; --up does not apply), with a progress bar on the
// terminal. Ctrl-C cancels between files (finished files stay; no manifest is written).
import { resolve } from 'node:path'
import { runExport, type ExportFormat } from '../export/exportJob'
import { cacheExportSource } from '../export/cacheSource'
import { ProjectStore } from '../store/projectStore'
import { parseOptions, UsageError } from './args'
import { findSim, parseFrameRange } from './bakeCommand'
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
  })
  if (!o.sim) throw new UsageError('eddy export needs --sim NAME')
  if (!o.format) throw new UsageError('eddy export needs --format vdb|obj|ply|gltf|glb|png')
  if (!o.out) throw new UsageError('eddy export needs --out DIR')
  const projectPath = resolve(file)
  const sim = findSim(projectPath, o.sim)
  const range = o.frames ? parseFrameRange(o.frames) : undefined
  const abort = new AbortController()
  const onSigint = (): void => abort.abort()
  process.on('SIGINT', onSigint)
  const store = ProjectStore.open(projectPath)
  const tty = out.isTTY === true
  try {
    const options = {
      format: o.format as ExportFormat,
      outDir: resolve(o.out),
      ...(range ? { frameStart: range[0], frameEnd: range[1] } : {}),
      ...(o.padding ? { padding: o.padding } : {}),
      ...(o.up ? { upAxis: o.up as 'y' | 'z' } : {}),
    }
    const source = cacheExportSource(store, sim.id, options)
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
    store.close()
  }
}

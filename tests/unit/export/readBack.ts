// Readers for what the export tests check: binary little-endian PLY (header + typed columns:
// float, uint, uchar),
// the export folder's listing, and one shared Blender runner.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

export interface Ply {
  header: string[]
  elements: { name: string; count: number; props: { name: string; type: string }[] }[]
  /** Vertex properties by name. */
  vertex: Record<string, number[]>
  faces: number[][]
}

export function readPly(bytes: Uint8Array): Ply {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 8192)))
  const end = text.indexOf('end_header\n') + 'end_header\n'.length
  const header = text.slice(0, end).trim().split('\n')
  if (header[1] !== 'format binary_little_endian 1.0') throw new Error(`not binary LE PLY: ${header[1]}`)
  const elements: Ply['elements'] = []
  for (const line of header) {
    const t = line.split(' ')
    if (t[0] === 'element') elements.push({ name: t[1], count: Number(t[2]), props: [] })
    else if (t[0] === 'property') elements[elements.length - 1].props.push(t[1] === 'list' ? { name: t[4], type: 'list' } : { name: t[2], type: t[1] })
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let o = end
  const vertex: Record<string, number[]> = {}
  const faces: number[][] = []
  for (const el of elements) {
    for (let r = 0; r < el.count; r++) {
      for (const p of el.props) {
        if (p.type === 'list') {
          const n = view.getUint8(o)
          o += 1
          const f: number[] = []
          for (let k = 0; k < n; k++, o += 4) f.push(view.getUint32(o, true))
          faces.push(f)
        } else {
          const v = p.type === 'float' ? view.getFloat32(o, true) : p.type === 'uchar' ? view.getUint8(o) : view.getUint32(o, true)
          o += p.type === 'uchar' ? 1 : 4
          if (el.name === 'vertex') (vertex[p.name] ??= []).push(v)
        }
      }
    }
  }
  if (o !== bytes.length) throw new Error(`PLY has ${bytes.length - o} bytes after its elements`)
  return { header, elements, vertex, faces }
}

export const listDir = (dir: string): string[] => readdirSync(dir).sort()

/** A program on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, program)
    if (dir && existsSync(p)) return p
  }
  return undefined
}

/**
 * Runs a Python script in background Blender (factory settings) and returns the object it
 * printed as one line `EDDY_JSON {...}`. Blender's own chatter goes to the same stdout.
 */
export function runBlenderJson(blender: string, script: string, timeoutMs = 240_000): unknown {
  const out = execFileSync(blender, ['-b', '--factory-startup', '--python-exit-code', '1', '--python-expr', script], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 })
  const line = out.split('\n').find((l) => l.startsWith('EDDY_JSON '))
  if (!line) throw new Error(`Blender printed no EDDY_JSON line:\n${out.slice(-4000)}`)
  return JSON.parse(line.slice('EDDY_JSON '.length))
}

const created: string[] = []
/** A fresh folder under the OS temp dir, removed by removeTempDirs(). */
export function tempDir(prefix = 'eddy-export-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  created.push(dir)
  return dir
}
/** For afterAll: tests leave nothing behind on a shared machine. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) {
    try {
      chmodSync(dir, 0o700)
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true })
  }
}

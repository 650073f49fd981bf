// The layering rules of DESIGN.md, checked on the source: shared code imports nothing outside
// src-shared (and no Node or DOM modules), the renderer never imports the main side, and
// only src-main/electron imports 'electron' (so everything else runs without its binary).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

function sources(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) {
      if (name !== 'generated' && name !== 'assembly') out.push(...sources(p))
    } else if (/\.(ts|svelte)$/.test(name)) out.push(p)
  }
  return out
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2])
}

function resolvesInto(file: string, spec: string, folder: string): boolean {
  return spec.startsWith('.') && resolve(dirname(file), spec).startsWith(join(ROOT, folder) + '/')
}

describe('architecture', () => {
  it('src-shared imports only src-shared and pure packages', () => {
    const bad: string[] = []
    for (const f of sources(join(ROOT, 'src-shared'))) {
      for (const s of imports(f)) {
        if (s.startsWith('node:') || s === 'electron' || (s.startsWith('.') && !resolvesInto(f, s, 'src-shared'))) bad.push(`${relative(ROOT, f)} -> ${s}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('src-renderer never imports src-main or Node modules', () => {
    const bad: string[] = []
    for (const f of sources(join(ROOT, 'src-renderer'))) {
      for (const s of imports(f)) if (s.startsWith('node:') || s === 'electron' || resolvesInto(f, s, 'src-main')) bad.push(`${relative(ROOT, f)} -> ${s}`)
    }
    expect(bad).toEqual([])
  })

  it("only src-main/electron imports 'electron'", () => {
    const bad: string[] = []
    for (const dir of ['src-main', 'src-shared', 'src-renderer', 'tests']) {
      for (const f of sources(join(ROOT, dir))) {
        if (f.startsWith(join(ROOT, 'src-main/electron') + '/')) continue
        if (imports(f).includes('electron')) bad.push(relative(ROOT, f))
      }
    }
    expect(bad).toEqual([])
    // And the Electron code really is there and imports it.
    expect(imports(join(ROOT, 'src-main/electron/main.ts'))).toContain('electron')
  })

  it('the Electron window is isolated, sandboxed and without Node', () => {
    const win = readFileSync(join(ROOT, 'src-main/electron/window.ts'), 'utf8')
    expect(win).toMatch(/contextIsolation:\s*true/)
    expect(win).toMatch(/sandbox:\s*true/)
    expect(win).toMatch(/nodeIntegration:\s*false/)
    const html = readFileSync(join(ROOT, 'src-renderer/index.html'), 'utf8')
    expect(html).toMatch(/http-equiv="Content-Security-Policy"[^>]*default-src 'self'/)
  })

  it('inside src-shared: no import cycles, core imports no method folder, method folders import no other', () => {
    const shared = join(ROOT, 'src-shared')
    const files = sources(shared).filter((f) => !f.endsWith('.d.ts'))
    const graph = new Map<string, string[]>()
    const resolveFile = (from: string, spec: string): string | null => {
      if (!spec.startsWith('.')) return null
      const p = resolve(dirname(from), spec)
      for (const c of [p, `${p}.ts`, `${p}.svelte`, join(p, 'index.ts')]) if (files.includes(c)) return c
      return null
    }
    for (const f of files) graph.set(f, imports(f).map((s) => resolveFile(f, s)).filter((x): x is string => x !== null))
    // Folders of src-shared/sim every family may use; every other subfolder is a method folder.
    const infra = new Set(['core', 'parallel', 'wasm', 'sparse', 'rigid'])
    const sim = join(shared, 'sim')
    const methodOf = (f: string): string | null => {
      const r = relative(sim, f)
      if (r.startsWith('..') || !r.includes('/')) return null
      const top = r.split('/')[0]
      return infra.has(top) ? null : top
    }
    const bad: string[] = []
    for (const [f, deps] of graph) {
      for (const d of deps) {
        const a = methodOf(f), b = methodOf(d)
        if (relative(sim, f).startsWith('core/') && b) bad.push(`core imports a method folder: ${relative(ROOT, f)} -> ${relative(ROOT, d)}`)
        if (a && b && a !== b) bad.push(`method folders import each other: ${relative(ROOT, f)} -> ${relative(ROOT, d)}`)
      }
    }
    // Cycles: Tarjan's strongly connected components.
    let index = 0
    const stack: string[] = [], on = new Set<string>(), idx = new Map<string, number>(), low = new Map<string, number>()
    const visit = (v: string): void => {
      idx.set(v, index), low.set(v, index), index++, stack.push(v), on.add(v)
      for (const w of graph.get(v) ?? []) {
        if (!idx.has(w)) visit(w), low.set(v, Math.min(low.get(v)!, low.get(w)!))
        else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
      }
      if (low.get(v) === idx.get(v)) {
        const scc: string[] = []
        let w: string
        do (w = stack.pop()!), on.delete(w), scc.push(relative(ROOT, w))
        while (w !== v)
        if (scc.length > 1) bad.push(`cycle: ${scc.sort().join(' <-> ')}`)
      }
    }
    for (const v of graph.keys()) if (!idx.has(v)) visit(v)
    expect(bad).toEqual([])
  })

  it('every program registers the solver families before it reads a parameter spec', () => {
    const entries = ['src-main/electron/main.ts', 'src-main/host/main.ts', 'src-main/cli/main.ts', 'src-main/bake/bakeWorker.ts', 'src-renderer/main.ts']
    for (const e of entries) {
      const first = readFileSync(join(ROOT, e), 'utf8').match(/^import\s.*$/m)?.[0]
      expect(first, e).toMatch(/^import '(\.\.\/)+src-shared\/sim\/registry'$/)
    }
  })
})

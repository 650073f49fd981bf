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
})

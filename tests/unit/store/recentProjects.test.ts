import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_RECENT_PROJECTS, RECENT_PROJECTS_FILE, RecentProjects } from '../../../src-main/store/recentProjects'

let dir: string
let dataDir: string
let projectsDir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-recent-'))
  dataDir = path.join(dir, 'data', 'eddy') // does not exist yet: created on first write
  projectsDir = path.join(dir, 'projects')
  fs.mkdirSync(projectsDir)
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** A project file that exists on disk. */
function project(name: string): string {
  const p = path.join(projectsDir, `${name}.eddy`)
  fs.writeFileSync(p, '')
  return p
}

describe('RecentProjects', () => {
  it('starts empty without creating anything', () => {
    expect(new RecentProjects(dataDir).list()).toEqual([])
    expect(fs.existsSync(dataDir)).toBe(false)
  })

  it('lists newest first and moves a reopened project to the front without duplicating it', () => {
    const recent = new RecentProjects(dataDir)
    const [a, b, c] = [project('a'), project('b'), project('c')]
    recent.add(a, 'A')
    recent.add(b, 'B')
    recent.add(c, 'C')
    expect(recent.list().map((p) => p.name)).toEqual(['C', 'B', 'A'])

    // Same file reached through a different spelling of its path; renamed meanwhile.
    recent.add(path.join(projectsDir, '.', 'x', '..', 'a.eddy'), 'A renamed')
    const list = recent.list()
    expect(list.map((p) => [p.path, p.name])).toEqual([
      [a, 'A renamed'],
      [c, 'C'],
      [b, 'B'],
    ])
    expect(Number.isNaN(Date.parse(list[0].openedAt))).toBe(false)
    expect(Date.parse(list[0].openedAt)).toBeGreaterThanOrEqual(Date.parse(list[1].openedAt))

    // A second instance (next app start) reads the same list from disk.
    expect(new RecentProjects(dataDir).list()).toEqual(list)
    expect(fs.existsSync(path.join(dataDir, RECENT_PROJECTS_FILE))).toBe(true)
  })

  it('keeps at most 12 entries, dropping the oldest', () => {
    const recent = new RecentProjects(dataDir)
    for (let i = 0; i < 15; i++) recent.add(project(`p${i}`), `P${i}`)
    const names = recent.list().map((p) => p.name)
    expect(MAX_RECENT_PROJECTS).toBe(12)
    expect(names).toHaveLength(12)
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `P${14 - i}`))
  })

  it('hides projects whose file no longer exists', () => {
    const recent = new RecentProjects(dataDir)
    const [a, b] = [project('a'), project('b')]
    recent.add(a, 'A')
    recent.add(b, 'B')
    fs.rmSync(a)
    expect(recent.list().map((p) => p.name)).toEqual(['B'])
    // Back again (e.g. the drive was plugged in again): listed again.
    fs.writeFileSync(a, '')
    expect(recent.list().map((p) => p.name)).toEqual(['B', 'A'])
  })

  it('removes entries', () => {
    const recent = new RecentProjects(dataDir)
    const [a, b] = [project('a'), project('b')]
    recent.add(a, 'A')
    recent.add(b, 'B')
    recent.remove(a)
    recent.remove(path.join(projectsDir, 'never-added.eddy'))
    expect(recent.list().map((p) => p.name)).toEqual(['B'])
    expect(new RecentProjects(dataDir).list().map((p) => p.name)).toEqual(['B'])
  })

  it('treats a corrupt or malformed file as empty and rewrites it on the next add', () => {
    fs.mkdirSync(dataDir, { recursive: true })
    const file = path.join(dataDir, RECENT_PROJECTS_FILE)
    const recent = new RecentProjects(dataDir)
    for (const garbage of ['{"projects": [', '\u0000\u0001binary', 'null', '42', '{"projects": "nope"}', '']) {
      fs.writeFileSync(file, garbage)
      expect(recent.list()).toEqual([])
    }
    // Valid entries survive next to malformed ones.
    const a = project('a')
    fs.writeFileSync(file, JSON.stringify({ version: 1, projects: [{ path: a, name: 'A', openedAt: '2024-01-01T00:00:00.000Z' }, { path: 3 }, null] }))
    expect(recent.list().map((p) => p.name)).toEqual(['A'])

    fs.writeFileSync(file, '{ truncated')
    const b = project('b')
    recent.add(b, 'B')
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).projects.map((p: { name: string }) => p.name)).toEqual(['B'])
    expect(recent.list().map((p) => p.name)).toEqual(['B'])
  })

  it('writes atomically, leaving no temporary files', () => {
    const recent = new RecentProjects(dataDir)
    for (let i = 0; i < 20; i++) recent.add(project(`p${i % 5}`), `P${i}`)
    recent.remove(path.join(projectsDir, 'p0.eddy'))
    expect(fs.readdirSync(dataDir)).toEqual([RECENT_PROJECTS_FILE])
  })

  it('reports an unwritable data folder as IO_ERROR instead of crashing', () => {
    // A file where the folder should be: mkdir fails whatever the user's privileges.
    const blocked = path.join(dir, 'blocked')
    fs.writeFileSync(blocked, '')
    const recent = new RecentProjects(path.join(blocked, 'eddy'))
    expect(recent.list()).toEqual([])
    expect(() => recent.add(project('a'), 'A')).toThrow(expect.objectContaining({ code: 'IO_ERROR' }))
  })
})

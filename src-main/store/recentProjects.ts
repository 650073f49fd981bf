// The "recent projects" list shown on the start screen, kept as a small JSON file in the
// user's app data folder. It is a convenience: a damaged file must never stop Eddy from
// starting, so unreadable content is treated as an empty list.
import fs from 'node:fs'
import nodePath from 'node:path'
import { randomBytes } from 'node:crypto'
import { EddyError } from '../../src-shared/api/errors'

export interface RecentProject {
  path: string
  name: string
  /** ISO 8601 time of the last open. */
  openedAt: string
}

export const RECENT_PROJECTS_FILE = 'recent-projects.json'
export const MAX_RECENT_PROJECTS = 12

interface RecentFile {
  version: 1
  projects: RecentProject[]
}

export class RecentProjects {
  private readonly file: string

  constructor(private readonly dataDir: string) {
    this.file = nodePath.join(dataDir, RECENT_PROJECTS_FILE)
  }

  /**
   * Newest first, without entries whose file is gone. Missing entries are only hidden, not
   * forgotten: a project on an unplugged drive comes back when the drive does.
   */
  list(): RecentProject[] {
    return this.read().filter((p) => fs.existsSync(p.path))
  }

  /** Records an open: moves (or adds) the project to the front, keeping at most 12. */
  add(path: string, name: string): void {
    const key = nodePath.resolve(path)
    const entry: RecentProject = { path: key, name, openedAt: new Date().toISOString() }
    this.write([entry, ...this.read().filter((p) => p.path !== key)].slice(0, MAX_RECENT_PROJECTS))
  }

  remove(path: string): void {
    const key = nodePath.resolve(path)
    const before = this.read()
    const after = before.filter((p) => p.path !== key)
    if (after.length !== before.length) this.write(after)
  }

  /** Whatever valid entries the file holds; a missing or corrupt file reads as empty. */
  private read(): RecentProject[] {
    let parsed: unknown
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'))
    } catch {
      return []
    }
    const projects = (parsed as Partial<RecentFile> | null)?.projects
    if (!Array.isArray(projects)) return []
    return projects.filter(
      (p): p is RecentProject =>
        typeof p === 'object' && p !== null && typeof p.path === 'string' && typeof p.name === 'string' && typeof p.openedAt === 'string',
    )
  }

  /** Temp file + fsync + rename: a crash leaves either the old list or the new one. */
  private write(projects: RecentProject[]): void {
    const content: RecentFile = { version: 1, projects }
    const tmp = `${this.file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`
    try {
      fs.mkdirSync(this.dataDir, { recursive: true })
      const fd = fs.openSync(tmp, 'w')
      try {
        fs.writeFileSync(fd, JSON.stringify(content, null, 2) + '\n')
        fs.fsyncSync(fd)
      } finally {
        fs.closeSync(fd)
      }
      fs.renameSync(tmp, this.file)
    } catch (e) {
      try {
        fs.rmSync(tmp, { force: true })
      } catch {
        // Cleanup is best effort; the original failure is what the caller needs to hear.
      }
      throw new EddyError('IO_ERROR', `Cannot save the recent projects list in ${this.dataDir}: ${(e as Error).message}`, {
        path: this.file,
      })
    }
  }
}

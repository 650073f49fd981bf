// Where a farm submission lives: a folder beside the project, `<project>.farm/<id>/`, on the
// same shared storage, holding what the tasks write and what the studio reads back:
//   submission.json          what was submitted (the plan and the scheduler's ids)
//   scene.eddy               the scene as submitted, which every task bakes
//   caches/<variant>.eddycache   one cache file per variant (cacheFile.ts), merged on open
//   logs/, rc/               each task's log and exit code
//   export/                  the export tasks' files, one folder per variant
import fs from 'node:fs'
import nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import type { SubmittedArray } from './engine'

export interface SubmissionArray extends SubmittedArray {
  role: 'bake' | 'export'
  /** Export arrays: the variant they export (their tasks are chunks). */
  variant?: number
}

export interface Submission {
  id: string
  engine: string
  projectPath: string
  /**
   * The scene the tasks bake: a copy of the project's scene made at submission (no cached
   * frames), so edits made in the studio afterwards never reach half of a running sweep.
   */
  scenePath: string
  hostId: string
  simName: string
  wedgeId: string | null
  wedgeName: string | null
  /** Variant numbers baked (one entry, 1, for a simulation without a wedge). */
  variants: number[]
  partition: string | null
  /** Frames per export task; null without exports. */
  chunk: number | null
  export: { format: string; outDir: string } | null
  createdAt: string
  /** Every array submitted for it, the resumes' after the first's. */
  arrays: SubmissionArray[]
}

export function farmRoot(projectPath: string): string {
  return `${projectPath}.farm`
}

export function submissionDir(projectPath: string, id: string): string {
  return nodePath.join(farmRoot(projectPath), id)
}

/** The cache file of one variant of a submission (variant 1 stands for a simulation without a wedge). */
export function variantCacheFile(dir: string, variant: number | '{TASK}'): string {
  return nodePath.join(dir, 'caches', `variant-${variant}.eddycache`)
}

export function writeSubmission(s: Submission): void {
  const dir = submissionDir(s.projectPath, s.id)
  const tmp = nodePath.join(dir, `.submission-${process.pid}.json`)
  fs.writeFileSync(tmp, JSON.stringify(s, null, 2) + '\n')
  fs.renameSync(tmp, nodePath.join(dir, 'submission.json'))
}

/** The project's submissions, oldest first; unreadable folders are skipped (named in `problems`). */
export function listSubmissions(projectPath: string): { submissions: Submission[]; problems: string[] } {
  const root = farmRoot(projectPath)
  const submissions: Submission[] = []
  const problems: string[] = []
  if (!fs.existsSync(root)) return { submissions, problems }
  for (const name of fs.readdirSync(root).sort()) {
    const file = nodePath.join(root, name, 'submission.json')
    if (!fs.existsSync(file)) continue
    try {
      submissions.push(JSON.parse(fs.readFileSync(file, 'utf8')) as Submission)
    } catch (e) {
      problems.push(`${file} is unreadable (${e instanceof Error ? e.message : String(e)})`)
    }
  }
  return { submissions, problems }
}

export function findSubmission(projectPath: string, id?: string): Submission {
  const { submissions } = listSubmissions(projectPath)
  if (submissions.length === 0) throw new EddyError('NOT_FOUND', `Nothing of ${nodePath.basename(projectPath)} was submitted to a farm (no ${farmRoot(projectPath)})`)
  if (id === undefined) return submissions[submissions.length - 1]
  const s = submissions.find((x) => x.id === id)
  if (!s) throw new EddyError('NOT_FOUND', `No farm submission "${id}" (submissions: ${submissions.map((x) => x.id).join(', ')})`)
  return s
}

/** A new submission id: time-ordered, readable, a valid folder name. */
export function newSubmissionId(what: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')
  return `${stamp}-${what.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40)}`
}

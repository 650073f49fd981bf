// The studio's side of the farm: when it opens a project, the bakes the farm's tasks finished
// into their own cache files are copied into the project's cache (cacheFile.ts merges each
// bake whole, and only when it is newer than the project's). A damaged or half-written file
// is named in the report and left alone; it never stops the project from opening.
import fs from 'node:fs'
import { isEddyError } from '../../src-shared/api/errors'
import type { ProjectStore } from '../store/projectStore'
import { listSubmissions, submissionDir, variantCacheFile } from './submissions'

export interface FarmMergeReport {
  /** Bakes copied into the project: their keys and frame counts. */
  merged: { key: string; frames: number; submission: string }[]
  /** One sentence per bake or file left out, and why. */
  notes: string[]
}

/** `busy`: keys the studio is baking itself, left in their files for now. */
export function mergeFarmCaches(store: ProjectStore, busy?: (key: string) => boolean): FarmMergeReport {
  const report: FarmMergeReport = { merged: [], notes: [] }
  const { submissions, problems } = listSubmissions(store.path)
  report.notes.push(...problems)
  for (const s of submissions) {
    const dir = submissionDir(store.path, s.id)
    for (const v of s.variants) {
      const file = variantCacheFile(dir, v)
      if (!fs.existsSync(file)) continue
      try {
        for (const m of store.mergeCacheFile(file, busy)) {
          if (m.skipped === null) report.merged.push({ key: m.key, frames: m.frames, submission: s.id })
          else if (m.skipped !== 'already merged' && !m.skipped.startsWith('still baking')) report.notes.push(`${s.id} variant ${v}: not merged, ${m.skipped}`)
        }
      } catch (e) {
        report.notes.push(`${s.id} variant ${v}: ${file} could not be merged (${isEddyError(e) || e instanceof Error ? e.message : String(e)})`)
      }
    }
  }
  return report
}

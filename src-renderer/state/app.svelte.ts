// The renderer's state: the open project (as last returned by the services), selection,
// time, edit modes and user-facing errors. The document itself is owned by the main side:
// every edit is a request whose answer is the new project state, and undo/redo live there
// too (one history for the menu, the keyboard and the in-app buttons).
import type { ApiClient } from '../bridge/client'
import { isEddyError } from '../../src-shared/api/errors'
import type { RequestParams, RequestResult, RequestType } from '../../src-shared/api/contract'
import type { ParamValue, SceneObject, Track } from '../../src-shared/scene/types'
import { evaluateObject } from '../../src-shared/scene/keyframes'

type ProjectState = RequestResult<'project.get'> extends infer S ? Exclude<S, null> : never

export interface UserError {
  message: string
  code?: string
  /** Increments so the same message twice still re-shows the toast. */
  seq: number
}

export type TransformMode = 'translate' | 'rotate' | 'scale'
export type EditMode = 'object' | 'cage'

class AppState {
  api: ApiClient | null = null
  mode = $state<'electron' | 'headless'>('headless')
  projectsDir = $state('')
  version = $state('')
  connectionLost = $state<string | null>(null)

  project = $state<ProjectState | null>(null)
  selection = $state<string[]>([])
  /** The channel the timeline's keyframe controls act on ('rate', 'position.1', ...). */
  selectedChannel = $state<string | null>(null)
  frame = $state(1)
  playing = $state(false)
  transformMode = $state<TransformMode>('translate')
  /**
   * Blender's auto-keying (the record button in the timeline): while on, changing an animated
   * parameter sets a key at the current frame; while off, only a key already at this frame can
   * change, and the field says how to key a new value.
   */
  autoKey = $state(false)
  editMode = $state<EditMode>('object')
  selectedCageVertex = $state<number | null>(null)
  error = $state<UserError | null>(null)
  busy = $state(false)
  /** Dialogs owned by the panels; here so menus and keys can open them. */
  dialog = $state<'none' | 'new' | 'open' | 'saveAs' | 'about' | 'shortcuts' | 'example' | 'flipbook'>('none')
  /** The example the Open Example dialog asks about (it was opened before). */
  examplePrompt = $state<{ id: string; title: string; copies: { path: string; name: string; modified: string }[] } | null>(null)
  /** The last frame the viewport finished with (its cached data shown, or an error shown). */
  cacheSettledFrame = $state<number | null>(null)
  /** Bumped to ask the viewport to frame the selection (F key, menu). */
  frameRequest = $state(0)

  private errorSeq = 0

  get document() {
    return this.project?.document ?? null
  }
  get objects(): SceneObject[] {
    return this.project?.document.objects ?? []
  }
  get tracks(): Track[] {
    return this.project?.document.tracks ?? []
  }
  get selected(): SceneObject | null {
    const id = this.selection[0]
    return id ? (this.objects.find((o) => o.id === id) ?? null) : null
  }
  /** Parameter values of an object at the current frame (keyframes applied). */
  valuesAt(obj: SceneObject, frame = this.frame): Record<string, ParamValue> {
    return evaluateObject(obj, this.tracks, frame)
  }
  tracksOf(objectId: string): Track[] {
    return this.tracks.filter((t) => t.objectId === objectId)
  }

  showError(e: unknown): void {
    const message = isEddyError(e) ? e.message : e instanceof Error ? e.message : String(e)
    const code = isEddyError(e) ? e.code : undefined
    this.error = { message, code, seq: ++this.errorSeq }
  }
  clearError(): void {
    this.error = null
  }

  /**
   * Calls the services; on failure shows the error to the artist and returns undefined.
   * Results that carry a project state replace ours, so the UI always shows what was saved.
   */
  async run<K extends RequestType>(type: K, params: RequestParams<K>): Promise<RequestResult<K> | undefined> {
    if (!this.api) return undefined
    try {
      const result = await this.api.call(type, params)
      this.adopt(result)
      return result
    } catch (e) {
      this.showError(e)
      return undefined
    }
  }

  private adopt(result: unknown): void {
    if (!result || typeof result !== 'object') return
    const r = result as Record<string, unknown>
    if ('document' in r && 'path' in r) this.setProject(r as unknown as ProjectState)
    else if ('state' in r && r.state && typeof r.state === 'object') this.setProject(r.state as ProjectState)
  }

  /** Called after every project change (the bake state re-reads its cache ranges). */
  onProjectSet: (() => void) | null = null

  setProject(p: ProjectState | null): void {
    const wasPath = this.project?.path
    this.project = p
    this.onProjectSet?.()
    if (!p) {
      this.selection = []
      this.selectedChannel = null
      this.editMode = 'object'
      this.playing = false
      return
    }
    if (p.path !== wasPath) {
      this.selection = []
      this.selectedChannel = null
      this.frame = p.document.meta.frameStart
    }
    // Drop selections of objects that no longer exist (deleted, undone).
    const ids = new Set(p.document.objects.map((o) => o.id))
    const kept = this.selection.filter((id) => ids.has(id))
    if (kept.length !== this.selection.length) this.selection = kept
    if (!this.selected || this.selected.kind !== 'ccCage') {
      this.editMode = 'object'
      this.selectedCageVertex = null
    }
  }

  select(id: string | null): void {
    this.selection = id ? [id] : []
    this.selectedChannel = null
    this.selectedCageVertex = null
    if (!id || this.selected?.kind !== 'ccCage') this.editMode = 'object'
  }

  setFrame(f: number): void {
    const meta = this.document?.meta
    if (!meta) return
    this.frame = Math.min(meta.frameEnd, Math.max(meta.frameStart, Math.round(f)))
  }

  async deleteSelected(): Promise<void> {
    if (this.selection.length === 0) return
    await this.run('object.delete', { ids: [...this.selection] })
  }
  async updateParams(id: string, params: Record<string, ParamValue>): Promise<boolean> {
    return (await this.run('object.update', { id, patch: { params } })) !== undefined
  }
  async undo(): Promise<void> {
    if (this.project?.canUndo) await this.run('edit.undo', {})
  }
  async redo(): Promise<void> {
    if (this.project?.canRedo) await this.run('edit.redo', {})
  }
}

export const app = new AppState()
export type { ProjectState }

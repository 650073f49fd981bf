// The service facade: every API request lands here, whichever transport carried it
// (Electron IPC or the headless host's WebSocket). It owns the open project's store and
// its undo history, and runs requests one at a time so edits never interleave.
// File-system work that may hang on a dead disk runs off that queue's thread: exports in the
// background (every call with a deadline, Cancel immediate), Save As in a worker thread with
// a deadline, and project.list with async calls and a deadline. project.list and
// export.cancel do not wait in the queue at all (QUEUE_FREE), so they answer while a request
// ahead of them waits for a disk.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, promises as fsp, statSync } from 'node:fs'
import { basename, extname, join, resolve } from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import { dispatch, type Handlers } from '../../src-shared/api/dispatch'
import type { EventEnvelope, ResponseEnvelope } from '../../src-shared/api/contract'
import { BakeManager, type BakeDelta, type BakeJobView } from '../bake/bakeManager'
import { BakeUpdates } from '../bake/bakeUpdates'
import { makeBakeHandlers } from './bakeHandlers'
import { makeFlipbookHandlers } from './flipbookHandlers'
import { makeFarmHandlers } from './farmHandlers'
import { promoteVariantEdit } from './wedgeEdits'
import { bakeKey, findWedge, orphanVariantKeys } from '../../src-shared/sim/wedge'
import { findHost } from '../../src-shared/sim/registry'
import { ExportJobs } from '../export/exportJobs'
import type { ExportFs } from '../export/atomicFile'
import { DeadlineError, describeMs, withDeadline } from '../export/deadline'
import { checkPathParam } from '../store/pathNames'
import type { ParamValue, SceneDocument } from '../../src-shared/scene/types'
import { positionAtCursor } from '../../src-shared/scene/placement'
import { importMeshFile } from '../../src-shared/formats/meshImport'
import { mergeFarmCaches } from '../farm/mergeFarm'
import { ProjectStore } from '../store/projectStore'
import { createExampleProject, unknownExampleError } from '../store/exampleProject'
import { EXAMPLES, findExample } from '../../src-shared/scene/examples'
import { RecentProjects } from '../store/recentProjects'
import { History } from './history'
import { addObjectEdit, deleteKeyEdit, deleteObjectsEdit, setHandlesEdit, setInterpEdit, setKeyEdit, setMetaEdit, updateObjectEdit, type Edit } from './edits'

export interface ServiceOptions {
  mode: 'electron' | 'headless'
  version: string
  dataDir: string
  projectsDir: string
  /** The built bake worker entry (out/main/bakeWorker.js), resolved by the entry point. */
  bakeWorker: URL | string
  /** Tests: the file system exports write through, and the deadline of each call. */
  exportFs?: ExportFs
  exportFsDeadlineMs?: number
  /** Deadline of project.list (default LIST_DEADLINE_MS) and of Save As (default: saveCopy's). */
  listDeadlineMs?: number
  saveAsDeadlineMs?: number
}

/** How long project.list waits for a folder's disk. */
export const LIST_DEADLINE_MS = 10_000

/** Requests that need no project state: they answer at once, not after the queue. */
const QUEUE_FREE = new Set(['export.cancel', 'project.list'])

/** The type of a request, when it is small enough to peek at; queue-free types always are. */
function peekType(raw: unknown): unknown {
  let msg = raw
  if (typeof raw === 'string') {
    if (raw.length > 4096) return undefined
    try {
      msg = JSON.parse(raw)
    } catch {
      return undefined
    }
  }
  return typeof msg === 'object' && msg !== null ? (msg as { type?: unknown }).type : undefined
}

/** errno code of a Node error. */
const errCode = (e: unknown): unknown => (e as { code?: unknown } | null)?.code

/**
 * A folder parameter: exists and is a folder (the default one is created). Typed errors
 * naming the path instead of ENOTDIR/ENOENT surfacing as INTERNAL.
 */
function requireFolder(folder: string, isDefault: boolean): void {
  if (isDefault) {
    try {
      mkdirSync(folder, { recursive: true })
    } catch (e) {
      throw new EddyError('IO_ERROR', `Cannot create the projects folder ${folder}: ${errCode(e) === 'EEXIST' || errCode(e) === 'ENOTDIR' ? 'a file is in the way' : (e as Error).message}`, { path: 'dir', file: folder })
    }
  }
  let isDir: boolean
  try {
    isDir = statSync(folder).isDirectory()
  } catch (e) {
    if (errCode(e) === 'ENOTDIR') throw new EddyError('INVALID_PARAM', `"${folder}" is not a folder: part of it is a file`, { path: 'dir', field: 'dir', file: folder })
    throw new EddyError('IO_ERROR', `Folder "${folder}" does not exist`, { path: 'dir', file: folder })
  }
  if (!isDir) throw new EddyError('INVALID_PARAM', `"${folder}" is a file, not a folder`, { path: 'dir', field: 'dir', file: folder })
}

export interface ProjectStateData {
  path: string
  document: SceneDocument
  canUndo: boolean
  canRedo: boolean
  undoLabel?: string
  redoLabel?: string
}

const newId = (): string => randomBytes(8).toString('hex')

/** A file name for a project name: keeps letters, digits, space, dot, dash, underscore. */
function fileNameFor(name: string): string {
  const cleaned = name.replace(/[^\p{L}\p{N} ._-]+/gu, '_').replace(/^\.+/, '').trim()
  return (cleaned || 'Untitled').slice(0, 120)
}

function withExtension(path: string): string {
  return extname(path).toLowerCase() === '.eddy' ? path : `${path}.eddy`
}

export class EddyService {
  readonly handlers: Handlers
  private store: ProjectStore | null = null
  private doc: SceneDocument | null = null
  private readonly history = new History()
  private readonly recent: RecentProjects
  private queue: Promise<unknown> = Promise.resolve()
  /** Called after any request that changed the open project (for other windows). */
  onProjectChanged: ((state: ProjectStateData | null) => void) | null = null
  /** Bake progress and other pushed events, for the transports to broadcast. */
  onEvent: ((ev: EventEnvelope) => void) | null = null
  readonly bakes: BakeManager
  readonly exports: ExportJobs

  constructor(private readonly opts: ServiceOptions) {
    this.exports = new ExportJobs({ fs: opts.exportFs, fsDeadlineMs: opts.exportFsDeadlineMs })
    this.recent = new RecentProjects(opts.dataDir)
    this.bakes = new BakeManager({ workerUrl: opts.bakeWorker })
    const bakeUpdates = new BakeUpdates()
    this.bakes.onUpdate = (job, delta) => this.bakeUpdated(bakeUpdates, job, delta)
    this.exports.onUpdate = (job) => this.onEvent?.({ event: 'export.update', payload: { job } })
    this.handlers = this.makeHandlers()
  }

  /** Validates and runs one raw message; answers are always envelopes, never throws. */
  handle(raw: unknown): Promise<ResponseEnvelope> {
    const type = peekType(raw)
    if (typeof type === 'string' && QUEUE_FREE.has(type)) return dispatch(this.handlers, raw)
    const run = this.queue.then(() => dispatch(this.handlers, raw))
    this.queue = run.catch(() => undefined)
    return run
  }

  get projectPath(): string | null {
    return this.store?.path ?? null
  }

  /** Stops every bake (waiting for the workers) and closes the project. */
  async close(): Promise<void> {
    await Promise.all([this.bakes.cancelAll(), this.exports.cancelAll()])
    this.closeProject()
  }

  /** Whole status on start and end, increments (coalesced by the BakeManager) in between. */
  private bakeUpdated(updates: BakeUpdates, job: BakeJobView, delta: BakeDelta): void {
    const open = this.store && this.doc ? { path: this.store.path, cache: this.store.cache, doc: this.doc } : null
    const payload = updates.payload(job, delta, open, this.bakes.isBaking(job.domainId))
    this.onEvent?.({ event: 'bake.update', payload })
  }

  /** Bakes write into the open file: stop them before it is closed or replaced. */
  private async stopBakes(): Promise<void> {
    if (this.store) await Promise.all([this.bakes.cancelAll(this.store.path), this.exports.cancelAll()])
  }

  state(): ProjectStateData | null {
    if (!this.store || !this.doc) return null
    return {
      path: this.store.path,
      document: this.doc,
      canUndo: this.history.undoLabel !== undefined,
      canRedo: this.history.redoLabel !== undefined,
      ...(this.history.undoLabel ? { undoLabel: this.history.undoLabel } : {}),
      ...(this.history.redoLabel ? { redoLabel: this.history.redoLabel } : {}),
    }
  }

  private requireState(): ProjectStateData {
    const s = this.state()
    if (!s) throw new EddyError('NO_PROJECT', 'No project is open')
    return s
  }

  private requireStore(): { store: ProjectStore; doc: SceneDocument } {
    if (!this.store || !this.doc) throw new EddyError('NO_PROJECT', 'No project is open')
    return { store: this.store, doc: this.doc }
  }

  /** Writes an edit in one transaction, records it for undo, and re-reads what was saved. */
  private commit(edit: Edit): ProjectStateData {
    const { store } = this.requireStore()
    store.apply(edit.forward)
    this.history.push(edit)
    this.doc = store.readDocument()
    return this.requireState()
  }

  private adopt(store: ProjectStore, keepHistory = false): ProjectStateData {
    this.closeProject(keepHistory)
    this.store = store
    // Meshes no object uses are left over from undone imports of an earlier session
    // (kept while the history could still redo them).
    if (!keepHistory) store.deleteUnusedMeshes()
    this.doc = store.readDocument()
    // Variants of wedges deleted in an earlier session (an undo could no longer bring them back).
    if (!keepHistory) for (const key of orphanVariantKeys(this.doc, store.cache.bakes().map((b) => b.domainId))) store.cache.deleteBake(key)
    this.recent.add(store.path, this.doc.meta.name)
    return this.requireState()
  }

  private closeProject(keepHistory = false): boolean {
    if (!this.store) return false
    try {
      if (!keepHistory) this.store.deleteUnusedMeshes()
    } finally {
      this.store.close()
      this.store = null
      this.doc = null
      if (!keepHistory) this.history.clear()
    }
    return true
  }

  private changed(): void {
    this.onProjectChanged?.(this.state())
  }

  private makeHandlers(): Handlers {
    return {
      ...makeBakeHandlers({ requireStore: () => this.requireStore(), bakes: this.bakes, exports: this.exports }),
      ...makeFlipbookHandlers(),
      ...makeFarmHandlers({ requireStore: () => this.requireStore(), isBaking: (key) => this.bakes.isBaking(key) }),

      'wedge.promote': ({ domainId, wedgeId, variant }) => {
        const { store, doc } = this.requireStore()
        const key = bakeKey(domainId, findWedge(findHost(doc, domainId), wedgeId).id, variant)
        if (this.bakes.isBaking(domainId) || this.bakes.isBaking(key)) throw new EddyError('INVALID_PARAM', 'Cancel the bake of this simulation or of the variant before promoting', { field: 'domainId' })
        if (!store.cache.bake(key)) throw new EddyError('NOT_FOUND', 'This variant has not been baked yet; bake it before promoting it', { field: 'variant' })
        const state = this.commit(promoteVariantEdit(doc, domainId, wedgeId, variant))
        store.cache.copyBake(key, domainId)
        this.bakes.forget(domainId)
        return state
      },
      'app.info': () => ({ version: this.opts.version, mode: this.opts.mode, projectsDir: this.opts.projectsDir, platform: process.platform }),

      'project.create': async ({ name, dir }) => {
        await this.stopBakes()
        const folder = resolve(dir ?? this.opts.projectsDir)
        checkPathParam(folder, 'dir')
        requireFolder(folder, !dir)
        const path = join(folder, `${fileNameFor(name)}.eddy`)
        if (existsSync(path)) throw new EddyError('IO_ERROR', `A project file already exists at ${path}; choose another name`, { path: 'name' })
        return this.adopt(ProjectStore.create(path, { name, fps: 24, frameStart: 1, frameEnd: 120 }))
      },

      'project.examples': async () => {
        // Copies are named "Title.eddy", "Title 2.eddy", ... (project.createExample). A folder
        // that cannot be listed just means no copies to offer.
        const files = await this.listProjects(resolve(this.opts.projectsDir)).then(
          (l) => l.files,
          () => [],
        )
        return EXAMPLES.map(({ id, title, description }) => {
          const base = fileNameFor(title)
          const copies = files.filter((f) => f.name === base || (f.name.startsWith(`${base} `) && /^\d+$/.test(f.name.slice(base.length + 1))))
          return { id, title, description, copies }
        })
      },

      'project.createExample': async ({ id, dir }) => {
        const example = findExample(id)
        if (!example) throw unknownExampleError(id)
        const folder = resolve(dir ?? this.opts.projectsDir)
        checkPathParam(folder, 'dir')
        requireFolder(folder, !dir)
        // "Melting bunny.eddy", then "Melting bunny 2.eddy", ...: an example never overwrites.
        let path = join(folder, `${fileNameFor(example.title)}.eddy`)
        for (let n = 2; existsSync(path); n++) path = join(folder, `${fileNameFor(example.title)} ${n}.eddy`)
        createExampleProject(id, path)
        await this.stopBakes()
        return this.adopt(ProjectStore.open(path))
      },

      'project.open': async ({ path }) => {
        // Open and check every row of the new file before closing the current one, so a bad
        // file loses nothing: the open project and its history stay as they were.
        const { store } = ProjectStore.openChecked(resolve(path))
        try {
          await this.stopBakes()
          // Bakes a farm finished into cache files of their own join the project's cache.
          const farm = mergeFarmCaches(store)
          for (const m of farm.merged) console.log(`eddy: merged ${m.frames} frames of ${m.key} from farm submission ${m.submission}`)
          for (const n of farm.notes) console.warn(`eddy: farm: ${n}`)
        } catch (e) {
          store.close()
          throw e
        }
        return this.adopt(store)
      },

      'project.close': async () => {
        await this.stopBakes()
        return { closed: this.closeProject() }
      },

      'project.saveAs': async ({ path }) => {
        await this.stopBakes()
        const { store } = this.requireStore()
        const target = withExtension(resolve(path))
        checkPathParam(target, 'path')
        // Folder checks, copy and rename run in a worker thread against a deadline.
        const copy = await store.saveAsOffThread(target, this.opts.saveAsDeadlineMs !== undefined ? { deadlineMs: this.opts.saveAsDeadlineMs } : {})
        // The undo history describes edits by object id, so it stays valid for the copy.
        return this.adopt(copy, true)
      },

      'project.get': () => this.state(),

      'project.recent': () => this.recent.list(),

      'project.list': ({ dir }) => this.listProjects(resolve(dir ?? this.opts.projectsDir)),

      'project.setMeta': ({ patch }) => this.commit(setMetaEdit(this.requireStore().doc, patch)),

      'object.add': ({ kind, name, params, cage }) => {
        const id = newId()
        const state = this.commit(addObjectEdit(this.requireStore().doc, id, kind, { name, params, cage }))
        return { state, id }
      },

      'object.update': ({ id, patch, frame }) => this.commit(updateObjectEdit(this.requireStore().doc, id, patch, frame)),

      'object.delete': ({ ids }) => {
        const { store, doc } = this.requireStore()
        return this.commit(deleteObjectsEdit(doc, ids, store.objectOrders()))
      },

      'key.set': ({ objectId, path, frame, value, interp }) => this.commit(setKeyEdit(this.requireStore().doc, objectId, path, frame, value, interp)),

      'key.delete': ({ objectId, path, frame }) => this.commit(deleteKeyEdit(this.requireStore().doc, objectId, path, frame)),

      'key.setInterp': ({ objectId, path, frame, interp }) => this.commit(setInterpEdit(this.requireStore().doc, objectId, path, frame, interp)),

      'key.setHandles': ({ objectId, path, frame, handleLeft, handleRight }) => this.commit(setHandlesEdit(this.requireStore().doc, objectId, path, frame, handleLeft, handleRight)),

      'mesh.import': async ({ fileName, data, at }) => {
        this.requireStore()
        const bytes = new Uint8Array(Buffer.from(data, 'base64'))
        const { mesh, info } = await importMeshFile(fileName, bytes)
        const { store, doc } = this.requireStore()
        const meshId = newId()
        const id = newId()
        // Parse and validate fully before writing anything: a bad file leaves the project as it was.
        const params: Record<string, ParamValue> = { shape: 'mesh' }
        if (at) params.position = positionAtCursor('obstacle', params, at, info.bounds)
        const edit = addObjectEdit(doc, id, 'obstacle', { name: info.name, params, meshId })
        store.insertMesh({ ...info, id: meshId }, mesh.positions, mesh.indices)
        edit.label = `Import ${fileName}`
        return { state: this.commit(edit), id }
      },

      'mesh.data': ({ meshId }) => {
        const { store } = this.requireStore()
        const m = store.readMesh(meshId)
        const b64 = (a: Float32Array | Uint32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')
        return { positions: b64(m.positions), indices: b64(m.indices) }
      },

      'edit.undo': () => {
        const { store } = this.requireStore()
        const e = this.history.takeUndo()
        if (!e) throw new EddyError('NOTHING_TO_UNDO', 'Nothing to undo')
        try {
          store.apply(e.backward)
        } catch (err) {
          this.history.restoreUndo(e)
          throw err
        }
        this.doc = store.readDocument()
        return this.requireState()
      },

      'edit.redo': () => {
        const { store } = this.requireStore()
        const e = this.history.takeRedo()
        if (!e) throw new EddyError('NOTHING_TO_UNDO', 'Nothing to redo')
        try {
          store.apply(e.forward)
        } catch (err) {
          this.history.restoreRedo(e)
          throw err
        }
        this.doc = store.readDocument()
        return this.requireState()
      },
    }
  }

  /** project.list: async calls against one deadline, so a dead share fails only this request. */
  private async listProjects(folder: string): Promise<{ dir: string; files: { path: string; name: string; modified: string }[] }> {
    checkPathParam(folder, 'dir')
    const ms = this.opts.listDeadlineMs ?? LIST_DEADLINE_MS
    const list = async (): Promise<{ path: string; name: string; modified: string }[] | null> => {
      let names: string[]
      try {
        names = await fsp.readdir(folder)
      } catch (e) {
        switch (errCode(e)) {
          case 'ENOENT':
            return null
          case 'ENOTDIR':
            throw new EddyError('INVALID_PARAM', `"${folder}" is a file, not a folder`, { path: 'dir', field: 'dir', file: folder })
          case 'EACCES':
          case 'EPERM':
            throw new EddyError('IO_ERROR', `Cannot list the folder "${folder}": permission denied`, { path: 'dir', file: folder, cause: errCode(e) })
          default:
            throw new EddyError('IO_ERROR', `Cannot list the folder "${folder}": ${(e as Error).message}`, { path: 'dir', file: folder, cause: errCode(e) })
        }
      }
      const entries = await Promise.all(
        names
          .filter((f) => f.toLowerCase().endsWith('.eddy'))
          .map(async (f) => {
            const p = join(folder, f)
            // A file that vanished meanwhile, or a dangling link, is simply not listed.
            const st = await fsp.stat(p).catch(() => null)
            return st?.isFile() ? { path: p, name: basename(f, extname(f)), modified: st.mtime.toISOString() } : null
          }),
      )
      return entries.filter((x) => x !== null).sort((a, b) => b.modified.localeCompare(a.modified))
    }
    let files: { path: string; name: string; modified: string }[] | null
    try {
      files = await withDeadline(list(), ms)
    } catch (e) {
      if (e instanceof DeadlineError) throw new EddyError('IO_ERROR', `The disk holding "${folder}" did not answer within ${describeMs(ms)}`, { path: 'dir', file: folder, cause: 'ETIMEDOUT' })
      throw e
    }
    if (files === null) {
      // The default folder appears with the first project; until then it is just empty.
      if (folder !== resolve(this.opts.projectsDir)) throw new EddyError('NOT_FOUND', `Folder "${folder}" does not exist`, { path: 'dir' })
      return { dir: folder, files: [] }
    }
    return { dir: folder, files }
  }

  /** For transports: run a request and tell other windows when the project changed. */
  async request(raw: unknown): Promise<ResponseEnvelope> {
    const before = this.store?.path ?? null
    const resp = await this.handle(raw)
    let msg = raw
    if (typeof raw === 'string') {
      try {
        msg = JSON.parse(raw)
      } catch {
        msg = null
      }
    }
    const type = (msg as { type?: unknown } | null)?.type
    const mutating = typeof type === 'string' && !/^(app\.info|project\.(get|recent|list|examples)|mesh\.data|bake\.\w+|cache\.\w+|export\.\w+|farm\.\w+)$/.test(type)
    if (resp.ok && (mutating || before !== (this.store?.path ?? null))) this.changed()
    return resp
  }
}

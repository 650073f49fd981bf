// Commands shared by the in-app menu bar, the keyboard shortcuts and the Electron
// application menu ('menu.command' events), so all three do exactly the same thing.
import type { MenuCommand, RequestParams, RequestResult, RequestType } from '../../src-shared/api/contract'
import type { ObjectKind } from '../../src-shared/scene/types'
import { app } from '../state/app.svelte'
import { isTyping } from './typing'
import { view } from '../state/view.svelte'
import { positionAtCursor } from '../../src-shared/scene/placement'

/**
 * Like app.run, but throws instead of toasting, for forms that show errors next to the
 * field. A returned project state is adopted all the same.
 */
export async function request<K extends RequestType>(type: K, params: RequestParams<K>): Promise<RequestResult<K>> {
  if (!app.api) throw new Error('Not connected to the Eddy services')
  const result = await app.api.call(type, params)
  if (result && typeof result === 'object') {
    const r = result as Record<string, unknown>
    if ('document' in r && 'path' in r) app.setProject(r as never)
    else if ('state' in r && r.state && typeof r.state === 'object') app.setProject(r.state as never)
  }
  return result
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

export async function openProject(path: string): Promise<boolean> {
  return (await app.run('project.open', { path })) !== undefined
}

export type ExampleEntry = RequestResult<'project.examples'>[number]

/**
 * Opens an example: a fresh copy when none was made before; otherwise the artist chooses between
 * the existing copy (with their edits) and a fresh one (the Open Example dialog).
 */
export async function openExample(id: string): Promise<void> {
  let list: ExampleEntry[]
  try {
    list = await request('project.examples', {})
  } catch (e) {
    app.showError(e)
    return
  }
  const ex = list.find((x) => x.id === id)
  if (!ex) return
  if (ex.copies.length === 0) {
    await app.run('project.createExample', { id })
    return
  }
  app.examplePrompt = ex
  app.dialog = 'example'
}

export async function closeProject(): Promise<void> {
  const r = await app.run('project.close', {})
  if (r) app.setProject(null)
}

export async function saveProjectAs(path: string): Promise<boolean> {
  return (await app.run('project.saveAs', { path })) !== undefined
}

/** Adds an object at the 3D cursor (standing on the ground plane when the cursor is on it) and selects it. */
export async function addObject(kind: ObjectKind, params: Record<string, string> = {}): Promise<void> {
  const position = positionAtCursor(kind, params, view.cursor)
  const r = await app.run('object.add', { kind, params: { ...params, position } })
  if (r) app.select(r.id)
}

export function runMenuCommand(command: MenuCommand, path?: string): void {
  switch (command) {
    case 'file.new':
      app.dialog = 'new'
      break
    case 'file.open':
      if (path) void openProject(path)
      else app.dialog = 'open'
      break
    case 'file.saveAs':
      if (!app.project) break
      if (path) void saveProjectAs(path)
      else app.dialog = 'saveAs'
      break
    case 'file.close':
      if (app.project) void closeProject()
      break
    // The Electron menu's Ctrl+Z reaches us even while a field has the focus: undo the typing there.
    case 'edit.undo':
      if (isTyping(document.activeElement)) document.execCommand('undo')
      else void app.undo()
      break
    case 'edit.redo':
      if (isTyping(document.activeElement)) document.execCommand('redo')
      else void app.redo()
      break
    case 'help.about':
      app.dialog = 'about'
      break
    case 'help.shortcuts':
      app.dialog = 'shortcuts'
      break
  }
}

/** Sets (or replaces) a key on one channel of an object at the current frame, with its current value. */
export async function insertKey(objectId: string, path: string, value: number): Promise<void> {
  await app.run('key.set', { objectId, path, frame: app.frame, value })
}

/** Encodes binary data as base64 in chunks, so large meshes never hit argument-count limits. */
export function toBase64(bytes: Uint8Array): string {
  const CHUNK = 3 * 0x2000 // a multiple of 3, so chunk encodings concatenate without padding
  const parts: string[] = []
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const slice = bytes.subarray(i, i + CHUNK)
    let bin = ''
    for (let j = 0; j < slice.length; j++) bin += String.fromCharCode(slice[j])
    parts.push(btoa(bin))
  }
  return parts.join('')
}

export async function importMesh(file: File): Promise<void> {
  let data: string
  try {
    data = toBase64(new Uint8Array(await file.arrayBuffer()))
  } catch (e) {
    app.showError(e)
    return
  }
  const r = await app.run('mesh.import', { fileName: file.name, data, at: view.cursor })
  if (r) app.select(r.id)
}

/** Joins a folder and a file name with the folder's own separator. */
export function joinPath(dir: string, name: string): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/'
  return dir.endsWith(sep) ? dir + name : dir + sep + name
}

export function withExtension(name: string): string {
  return /\.eddy$/i.test(name) ? name : name + '.eddy'
}

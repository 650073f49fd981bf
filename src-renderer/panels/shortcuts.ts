// Keyboard shortcuts (Blender-like). Ignored while typing in a field, so text editing
// keeps its own Ctrl+Z, Delete and letters.
import { readChannel } from '../../src-shared/scene/keyframes'
import { app } from '../state/app.svelte'
import { insertKey, runMenuCommand } from './commands'
import { isTyping } from './typing'

/** Inserts a key on the selected channel of the selected object at the current frame. */
export function insertKeyOnSelectedChannel(): void {
  const obj = app.selected
  const path = app.selectedChannel
  if (!obj || !path) {
    app.showError(new Error('No channel selected: click a parameter label in the inspector first.'))
    return
  }
  const value = readChannel(app.valuesAt(obj), path)
  if (value === undefined) return
  void insertKey(obj.id, path, value)
}

export function handleKey(e: KeyboardEvent): void {
  if (e.defaultPrevented) return
  const ctrl = e.ctrlKey || e.metaKey
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key

  if (key === 'Escape') {
    // In a field, Escape reverts the field (its own handler); outside, it backs out one level.
    if (app.dialog === 'none' && isTyping(e.target)) return
    if (app.dialog !== 'none') app.dialog = 'none'
    else if (app.editMode === 'cage' && app.selectedCageVertex !== null) app.selectedCageVertex = null
    else if (app.editMode === 'cage') app.editMode = 'object'
    else app.select(null)
    e.preventDefault()
    return
  }
  if (isTyping(e.target)) return

  if (ctrl && key === 'n') return done(e, () => (app.dialog = 'new'))
  if (ctrl && key === 'o') return done(e, () => (app.dialog = 'open'))
  if (app.dialog !== 'none' || !app.project) return

  if (ctrl && !e.shiftKey && key === 'z') return done(e, () => void app.undo())
  if ((ctrl && e.shiftKey && key === 'z') || (ctrl && key === 'y')) return done(e, () => void app.redo())
  if (ctrl && e.shiftKey && key === 's') return done(e, () => runMenuCommand('file.saveAs'))
  if (ctrl || e.altKey) return

  switch (key) {
    case 'Delete':
    case 'x':
      return done(e, () => void app.deleteSelected())
    case 'f':
      return done(e, () => app.frameRequest++)
    case ' ':
      return done(e, () => (app.playing = !app.playing))
    case 'g':
      return done(e, () => (app.transformMode = 'translate'))
    case 'r':
      return done(e, () => (app.transformMode = 'rotate'))
    case 's':
      return done(e, () => (app.transformMode = 'scale'))
    case 'Tab':
      if (app.selected?.kind !== 'ccCage') return
      return done(e, () => {
        app.editMode = app.editMode === 'cage' ? 'object' : 'cage'
        app.selectedCageVertex = null
      })
    case 'i':
      return done(e, insertKeyOnSelectedChannel)
    case 'Home':
      return done(e, () => app.setFrame(app.document!.meta.frameStart))
    case 'End':
      return done(e, () => app.setFrame(app.document!.meta.frameEnd))
  }
}

function done(e: KeyboardEvent, fn: () => void): void {
  e.preventDefault()
  fn()
}

export function installShortcuts(): () => void {
  window.addEventListener('keydown', handleKey)
  return () => window.removeEventListener('keydown', handleKey)
}

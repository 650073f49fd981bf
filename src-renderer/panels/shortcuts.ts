// Keyboard shortcuts (Blender-like). Ignored while typing in a field, so text editing
// keeps its own Ctrl+Z, Delete and letters.
import { readChannel } from '../../src-shared/scene/keyframes'
import { app } from '../state/app.svelte'
import { insertKey, runMenuCommand } from './commands'
import { isTyping } from './typing'
import { view } from '../state/view.svelte'
import { ORBIT_STEP, type ViewCommand } from '../viewport/navigation'

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

/** H: hides the selection in the viewport (the outliner's eye shows it again). */
async function hideSelected(): Promise<void> {
  for (const id of app.selection) {
    const obj = app.objects.find((o) => o.id === id)
    if (obj && !obj.hidden) await app.run('object.update', { id, patch: { hidden: true } })
  }
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
  // By code, not key: with Num Lock off numpad 7 arrives as "Home" and numpad 1 as "End".
  const viewCmd = numpadView(e.code, ctrl)
  if (viewCmd) return done(e, () => view.run(viewCmd))
  if (e.code === 'NumpadDecimal') return done(e, () => app.frameRequest++)
  if (ctrl || e.altKey) return
  // Blender's Shift+C: the cursor back to the origin, and everything in view.
  if (e.shiftKey && key === 'c')
    return done(e, () => {
      view.cursor = [0, 0, 0]
      view.run({ type: 'frameAll' })
    })
  if (e.shiftKey && key === 'ArrowLeft') return done(e, () => app.setFrame(app.document!.meta.frameStart))
  if (e.shiftKey && key === 'ArrowRight') return done(e, () => app.setFrame(app.document!.meta.frameEnd))

  switch (key) {
    case 'Delete':
    case 'x':
      return done(e, () => void app.deleteSelected())
    case 'f':
      return done(e, () => app.frameRequest++)
    case ' ':
      return done(e, () => (app.playing = !app.playing))
    // The gizmo's mode, and with the mouse over the view Blender's modal move / rotate / scale.
    case 'g':
      return done(e, () => ((app.transformMode = 'translate'), view.startModal('translate')))
    case 'r':
      return done(e, () => ((app.transformMode = 'rotate'), view.startModal('rotate')))
    case 's':
      return done(e, () => ((app.transformMode = 'scale'), view.startModal('scale')))
    case 'Tab':
      if (app.selected?.kind !== 'ccCage') return
      return done(e, () => {
        app.editMode = app.editMode === 'cage' ? 'object' : 'cage'
        app.selectedCageVertex = null
      })
    case 'i':
      return done(e, insertKeyOnSelectedChannel)
    case 'h':
      return done(e, () => void hideSelected())
    case 'Home':
      return done(e, () => view.run({ type: 'frameAll' }))
    case 'ArrowLeft':
      return done(e, () => app.setFrame(app.frame - 1))
    case 'ArrowRight':
      return done(e, () => app.setFrame(app.frame + 1))
  }
}

/** Blender's numpad: 1/3/7 front/right/top (Ctrl: back/left/bottom), 9 the other side, 2/4/6/8 orbit, 5 ortho. */
function numpadView(code: string, ctrl: boolean): ViewCommand | null {
  switch (code) {
    case 'Numpad1':
      return { type: 'axis', view: ctrl ? 'back' : 'front' }
    case 'Numpad3':
      return { type: 'axis', view: ctrl ? 'left' : 'right' }
    case 'Numpad7':
      return { type: 'axis', view: ctrl ? 'bottom' : 'top' }
    case 'Numpad9':
      return { type: 'opposite' }
    case 'Numpad5':
      return { type: 'toggleOrtho' }
    case 'Numpad4':
      return { type: 'orbit', yaw: -ORBIT_STEP, pitch: 0 }
    case 'Numpad6':
      return { type: 'orbit', yaw: ORBIT_STEP, pitch: 0 }
    case 'Numpad8':
      return { type: 'orbit', yaw: 0, pitch: -ORBIT_STEP }
    case 'Numpad2':
      return { type: 'orbit', yaw: 0, pitch: ORBIT_STEP }
  }
  return null
}

function done(e: KeyboardEvent, fn: () => void): void {
  e.preventDefault()
  fn()
}

export function installShortcuts(): () => void {
  window.addEventListener('keydown', handleKey)
  return () => window.removeEventListener('keydown', handleKey)
}

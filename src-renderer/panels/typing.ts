/**
 * True when a keyboard event target (or the focused element) is a field the user types into.
 * A focused drop-down is not: the letters and Space are hotkeys there too (as in Blender, whose
 * menus never hold the keyboard); its own arrow-key stepping still works (only Left/Right are
 * hotkeys, and a closed select steps with Up/Down).
 */
export function isTyping(target: EventTarget | Element | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA') return true
  if (tag !== 'INPUT') return false
  const type = (target as HTMLInputElement).type
  return !['checkbox', 'radio', 'button', 'submit', 'range', 'file'].includes(type)
}

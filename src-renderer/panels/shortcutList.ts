// Every keyboard and mouse binding, as Help > Keyboard and Mouse lists them. The handlers are
// in shortcuts.ts (keys), viewport/navigation.ts (mouse) and the fields themselves; this table
// is what the artist reads, so a binding added there is added here.
import type { NavigationStyle } from '../viewport/navigation'

export interface ShortcutGroup {
  title: string
  items: { action: string; keys: string }[]
}

export function shortcutGroups(style: NavigationStyle): ShortcutGroup[] {
  const mouse =
    style === 'blender'
      ? [
          { action: 'Orbit', keys: 'Middle-drag (Alt + left-drag)' },
          { action: 'Pan', keys: 'Shift + middle-drag, right-drag (Alt + Shift + left-drag)' },
        ]
      : [
          { action: 'Orbit', keys: 'Left-drag' },
          { action: 'Pan', keys: 'Middle-drag, right-drag, Ctrl + left-drag' },
        ]
  return [
    {
      title: 'Viewport mouse',
      items: [
        ...mouse,
        { action: 'Zoom', keys: 'Wheel' },
        { action: 'Select', keys: 'Left-click (in the view or the outliner)' },
        { action: 'Place the 3D cursor (new objects go there)', keys: 'Shift + right-click' },
        { action: 'Orbit with the left button instead', keys: 'View > Orbit with Left Button' },
      ],
    },
    {
      title: 'Views',
      items: [
        { action: 'Frame all', keys: 'Home' },
        { action: 'Frame selected', keys: 'F, Numpad .' },
        { action: 'Front / right / top view', keys: 'Numpad 1 / 3 / 7' },
        { action: 'Back / left / bottom view', keys: 'Ctrl + Numpad 1 / 3 / 7' },
        { action: 'View from the other side', keys: 'Numpad 9' },
        { action: 'Orbit by 15 degrees', keys: 'Numpad 4 / 6 / 8 / 2' },
        { action: 'Perspective / orthographic', keys: 'Numpad 5' },
        { action: 'Cursor to the origin and frame all', keys: 'Shift + C' },
      ],
    },
    {
      title: 'Objects',
      items: [
        { action: 'Move / rotate / scale (the gizmo; with the mouse over the view, the object follows it)', keys: 'G / R / S' },
        { action: 'While moving: constrain to an axis, type a value, snap', keys: 'X / Y / Z, digits, hold Ctrl' },
        { action: 'While moving: confirm / cancel', keys: 'Enter or click / Esc or right-click' },
        { action: 'Delete', keys: 'X, Delete' },
        { action: 'Hide the selection in the viewport (the eye in the outliner shows it)', keys: 'H' },
        { action: 'Deselect, leave edit mode, close a dialog', keys: 'Escape' },
        { action: 'Edit a Catmull-Clark cage', keys: 'Tab' },
        { action: 'Key the selected channel at this frame', keys: 'I' },
      ],
    },
    {
      title: 'Timeline',
      items: [
        { action: 'Play / pause', keys: 'Space' },
        { action: 'Previous / next frame', keys: 'Left / Right arrow' },
        { action: 'First / last frame', keys: 'Shift + Left / Right arrow' },
        { action: 'Auto-key: edits to animated parameters set keys', keys: '● in the timeline' },
      ],
    },
    {
      title: 'Project',
      items: [
        { action: 'New project', keys: 'Ctrl + N' },
        { action: 'Open project', keys: 'Ctrl + O' },
        { action: 'Save as', keys: 'Ctrl + Shift + S' },
        { action: 'Undo', keys: 'Ctrl + Z' },
        { action: 'Redo', keys: 'Ctrl + Shift + Z, Ctrl + Y' },
      ],
    },
    {
      title: 'Fields',
      items: [
        { action: 'Commit (the keys go back to the view)', keys: 'Enter' },
        { action: 'Revert', keys: 'Escape' },
        { action: 'Step the value (ten steps with Shift)', keys: 'Up / Down arrow' },
      ],
    },
  ]
}

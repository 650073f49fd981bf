// Human names for animation channels ("position.1" -> "Position Y").
import { parseChannel } from '../../src-shared/scene/keyframes'
import { specFor } from '../../src-shared/scene/specs'
import type { ObjectKind } from '../../src-shared/scene/types'

const AXES = ['X', 'Y', 'Z'] as const

export function channelLabel(kind: ObjectKind, path: string): string {
  const { key, component } = parseChannel(path)
  const label = specFor(kind, key)?.label ?? key
  return component === null ? label : `${label} ${AXES[component]}`
}

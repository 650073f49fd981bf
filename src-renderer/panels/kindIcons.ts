// Short badges for object kinds in the outliner.
import type { ObjectKind } from '../../src-shared/scene/types'

export const KIND_BADGE: Record<ObjectKind, { short: string; color: string }> = {
  domain: { short: 'DOM', color: '#6f93c9' },
  obstacle: { short: 'OBS', color: '#a0a0a0' },
  emitter: { short: 'EMI', color: '#5fb0a8' },
  vortexSeed: { short: 'VOR', color: '#b48ad6' },
  ccCage: { short: 'CC', color: '#d69a5a' },
  heatSource: { short: 'HEAT', color: '#d66a5a' },
  rigidBody: { short: 'RB', color: '#c08a52' },
}

// The one place that maps an object kind to its visual class.
import type { ObjectKind } from '../../../src-shared/scene/types'
import type { ObjectVisual, VisualContext } from '../objectVisuals'
import { CcCageVisual } from './ccCage'
import { DomainVisual } from './domain'
import { EmitterVisual } from './emitter'
import { HeatSourceVisual } from './heatSource'
import { ObstacleVisual } from './obstacle'
import { RigidBodyVisual } from './rigidBody'
import { VortexSeedVisual } from './vortexSeed'

/** null for a kind this viewport does not know (a newer file): it is simply not drawn. */
export function createVisual(kind: ObjectKind, id: string, ctx: VisualContext): ObjectVisual | null {
  switch (kind) {
    case 'domain':
      return new DomainVisual(id, ctx)
    case 'obstacle':
      return new ObstacleVisual(id, ctx)
    case 'emitter':
      return new EmitterVisual(id, ctx)
    case 'vortexSeed':
      return new VortexSeedVisual(id, ctx)
    case 'ccCage':
      return new CcCageVisual(id, ctx)
    case 'heatSource':
      return new HeatSourceVisual(id, ctx)
    case 'rigidBody':
      return new RigidBodyVisual(id, ctx)
    default:
      return null
  }
}

export { CcCageVisual }

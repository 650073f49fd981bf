// Which scene objects' simulated rigid bodies the cache display draws right now, so the
// viewport can keep the authored bodies of the same ids out of their way (visuals/rigidBody.ts
// draws them as a faint wireframe meanwhile). Framework-free: CacheDisplay feeds it on every
// frame shown (or cleared) and every change of its visibility; sceneSync listens.
import type { RigidBodyDisplayData } from './displayData'

export type ShownBodiesListener = (ids: ReadonlySet<string>) => void

/**
 * Ids of the bodies a display frame draws: those with at least one whole triangle (what
 * MeshDisplay enables), none at all while the cache display is hidden.
 */
export function drawnBodyIds(bodies: readonly Pick<RigidBodyDisplayData, 'id' | 'positions' | 'indices'>[], visible: boolean): Set<string> {
  const out = new Set<string>()
  if (!visible) return out
  for (const b of bodies) if (b.positions.length >= 3 && b.indices.length >= 3) out.add(b.id)
  return out
}

export function sameIds(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false
  for (const id of a) if (!b.has(id)) return false
  return true
}

/** The ids shown, and listeners told of each change (not of every frame: scrubbing stays cheap). */
export class ShownBodies {
  private current: ReadonlySet<string> = new Set()
  private readonly listeners = new Set<ShownBodiesListener>()

  get ids(): ReadonlySet<string> {
    return this.current
  }

  /** Sets the ids drawn now; listeners hear only of a change. Returns whether it changed. */
  set(next: ReadonlySet<string>): boolean {
    if (sameIds(this.current, next)) return false
    this.current = new Set(next)
    for (const fn of [...this.listeners]) fn(this.current)
    return true
  }

  /** Calls `fn` now with the current ids and then on every change; returns the unsubscribe. */
  subscribe(fn: ShownBodiesListener): () => void {
    this.listeners.add(fn)
    fn(this.current)
    return () => {
      this.listeners.delete(fn)
    }
  }

  /** Drops the listeners without telling them anything (their owner goes away too). */
  dispose(): void {
    this.listeners.clear()
    this.current = new Set()
  }
}

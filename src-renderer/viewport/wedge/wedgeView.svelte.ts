// Whether the viewport shows a wedge side by side, and which: the artist's choice (a host and
// a wedge of it), kept only for the session. The grid is up while that choice is still
// possible: the host is the active simulation and its wedge still has two baked variants;
// otherwise the viewport shows the single view again without forgetting the choice.
import { app } from '../../state/app.svelte'
import { bakes } from '../../state/bakes.svelte'
import { wedgeChoices, type WedgeChoice } from './wedgeChoices'

class WedgeView {
  /** The artist's pick; null: the single view. */
  picked = $state<{ hostId: string; wedgeId: string } | null>(null)

  /** The active simulation's wedges with at least two baked variants. */
  readonly choices: WedgeChoice[] = $derived.by(() => {
    const host = bakes.activeDomain
    const doc = app.document
    return host && doc ? wedgeChoices(doc, host, bakes.caches) : []
  })

  /** The wedge on screen side by side, or null. */
  readonly current: WedgeChoice | null = $derived.by(() => {
    const p = this.picked
    if (!p || p.hostId !== bakes.activeDomain?.id) return null
    return this.choices.find((c) => c.wedge.id === p.wedgeId) ?? null
  })

  /** Shows wedge `wedgeId` of the active simulation side by side. */
  show(wedgeId: string): void {
    const host = bakes.activeDomain
    if (host) this.picked = { hostId: host.id, wedgeId }
  }

  /** Back to the single view. */
  leave(): void {
    this.picked = null
  }
}

export const wedgeView = new WedgeView()

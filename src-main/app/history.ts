// Undo/redo as pairs of change sets. Every edit the service makes is recorded as what it
// wrote (forward) and what it replaced (backward); undo writes the backward set, redo the
// forward one, each through the same transactional store path as the edit itself.
import type { ChangeSet } from '../store/projectStore'

export interface HistoryEntry {
  label: string
  forward: ChangeSet
  backward: ChangeSet
}

export class History {
  private done: HistoryEntry[] = []
  private undone: HistoryEntry[] = []
  constructor(private readonly limit = 500) {}

  push(entry: HistoryEntry): void {
    this.done.push(entry)
    if (this.done.length > this.limit) this.done.shift()
    this.undone = []
  }
  /** The entry to undo, moved to the redo stack; the caller applies its backward set. */
  takeUndo(): HistoryEntry | undefined {
    const e = this.done.pop()
    if (e) this.undone.push(e)
    return e
  }
  takeRedo(): HistoryEntry | undefined {
    const e = this.undone.pop()
    if (e) this.done.push(e)
    return e
  }
  /** Puts an entry back where it was when applying it failed, so history matches the file. */
  restoreUndo(e: HistoryEntry): void {
    this.undone.pop()
    this.done.push(e)
  }
  restoreRedo(e: HistoryEntry): void {
    this.done.pop()
    this.undone.push(e)
  }
  clear(): void {
    this.done = []
    this.undone = []
  }
  get undoLabel(): string | undefined {
    return this.done.at(-1)?.label
  }
  get redoLabel(): string | undefined {
    return this.undone.at(-1)?.label
  }
}

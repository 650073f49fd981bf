// GPU buffer sizing for per-frame data whose size changes every frame (particles, liquid
// surfaces): allocate with room to spare, double when outgrown, never shrink, so a buffer is
// rewritten in place on almost every frame instead of reallocated.

const MIN_CAPACITY = 1024

/** Capacity for `needed` elements: `current` doubled as often as necessary, at least 1024. */
export function grownCapacity(current: number, needed: number): number {
  let c = Math.max(current, MIN_CAPACITY)
  while (c < needed) c *= 2
  return c
}

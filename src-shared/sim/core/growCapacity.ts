// Arrays reused from one setup to the next, whose needed length varies a little (a liquid's
// unknowns, a factor's entries, a band's cells): a kernel arena cannot free a block, so a
// reused array is replaced only when it is too small, and then by one half again as large, so
// a slowly growing need costs few replacements.

/** The length a replacement gets: the need, or half again the current length when larger. */
export function grownCapacity(current: number, needed: number): number {
  return Math.max(needed, Math.ceil(current * 1.5))
}

/** list when it holds `needed` entries, else make(grownCapacity) (the old contents are not kept). */
export function reuseOrGrow<T extends { readonly length: number }>(list: T, needed: number, make: (length: number) => T): T {
  return list.length >= needed ? list : make(grownCapacity(list.length, needed))
}

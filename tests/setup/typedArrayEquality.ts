// toEqual on typed arrays, element by element with Object.is (as vitest's own equality:
// NaN equals NaN, 0 and -0 differ, and arrays of different types or lengths differ), without
// vitest's generic path, which iterates the values and then compares Object.entries of both
// (an array of [key, value] pairs per element): comparing two graded lattices' tables took 21 s
// of tests/unit/geometry/tetmesh.test.ts, nearly all of it in that comparison and its garbage.
import { expect } from 'vitest'

type Numbers = ArrayLike<number | bigint>

function typedArrayEquality(a: unknown, b: unknown): boolean | undefined {
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a instanceof DataView || b instanceof DataView) return undefined
  if (a.constructor !== b.constructor) return false
  const x = a as unknown as Numbers, y = b as unknown as Numbers
  if (x.length !== y.length) return false
  for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false
  return true
}

expect.addEqualityTesters([typedArrayEquality])

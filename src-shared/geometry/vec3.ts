// A point or vector in 3-D (x, y, z). Lives in geometry, the lowest layer, so geometry does not
// depend on the scene document; scene/types.ts re-exports it.
export type Vec3 = [number, number, number]

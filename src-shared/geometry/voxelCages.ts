// Closed all-quad cages of any genus, built as the boundary of a set of unit cubes: one cube is
// sphere-like (genus 0), a ring of eight a torus (genus 1), a 5 x 3 slab with two holes a
// double torus (genus 2). After Catmull-Clark subdivision they are smooth surfaces whose
// corners give extraordinary vertices of valence 3, 5 and 6: the cages the surface-flow
// validation and benchmark run on (Stam 2003 shows flows on such surfaces of any topology).
import type { PolyMesh } from './catmullClark'

/**
 * The boundary of the union of unit cubes at integer cells, scaled by `size` and centred on
 * the origin: one quad per cube face not shared with another cube, counterclockwise seen from
 * outside, corners shared. Cells must not touch along an edge or corner only (the boundary
 * would not be a manifold).
 */
export function voxelCage(cells: readonly (readonly [number, number, number])[], size = 1): PolyMesh {
  const filled = new Set(cells.map((c) => c.join(',')))
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
  for (const c of cells) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], c[a]); hi[a] = Math.max(hi[a], c[a] + 1) }
  const centre = lo.map((l, a) => (l + hi[a]) / 2)
  const index = new Map<string, number>()
  const positions: number[] = []
  const vertex = (p: number[]): number => {
    const key = p.join(',')
    let v = index.get(key)
    if (v === undefined) {
      v = positions.length / 3
      index.set(key, v)
      positions.push((p[0] - centre[0]) * size, (p[1] - centre[1]) * size, (p[2] - centre[2]) * size)
    }
    return v
  }
  const faces: number[][] = []
  for (const c of cells) {
    for (let a = 0; a < 3; a++) {
      for (const s of [1, -1]) {
        const nb = [c[0], c[1], c[2]]
        nb[a] += s
        if (filled.has(nb.join(','))) continue
        const b = (a + 1) % 3, d = (a + 2) % 3
        const corner = (db: number, dd: number): number => {
          const p = [c[0], c[1], c[2]]
          if (s > 0) p[a] += 1
          p[b] += db
          p[d] += dd
          return vertex(p)
        }
        // e_b x e_d = e_a: this order faces +a; reversed for the -a side.
        const q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)]
        faces.push(s > 0 ? q : [q[0], q[3], q[2], q[1]])
      }
    }
  }
  return { positions, faces }
}

/** One cube: a sphere-like closed surface (genus 0). */
export function sphereLikeCage(size = 1): PolyMesh {
  return voxelCage([[0, 0, 0]], size)
}

/** A 3 x 3 ring of cubes around a hole: genus 1. */
export function torusCage(size = 1): PolyMesh {
  const cells: [number, number, number][] = []
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) if (!(i === 1 && k === 1)) cells.push([i, 0, k])
  return voxelCage(cells, size)
}

/** A 5 x 3 slab of cubes with two holes: genus 2. */
export function doubleTorusCage(size = 1): PolyMesh {
  const cells: [number, number, number][] = []
  for (let i = 0; i < 5; i++) for (let k = 0; k < 3; k++) if (!(k === 1 && (i === 1 || i === 3))) cells.push([i, 0, k])
  return voxelCage(cells, size)
}

// The surface grid's ghost fills as kernel rows (surfaceGhostKernels.ts, SurfaceGrid.useKernels):
// a scalar's and a flux field's ghosts are the grid's own loops' bits on TypeScript and on 1-3
// WebAssembly threads, on a torus cage (turned edges: faces arrive as the other component, with a
// sign) and a sphere-like cage (valence-3 corners); the real samples are left alone.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, torusCage } from '../../../../src-shared/geometry/voxelCages'
import { SurfaceGrid } from '../../../../src-shared/sim/surface/surfaceGrid'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

describe('surface ghost fills on the kernels', () => {
  const backends = everyBackendOfFile()

  it.each(backends)('are the grid loops bit for bit: %s', (_name, k) => {
    for (const [cage, N] of [[torusCage(), 5], [sphereLikeCage(), 6]] as const) {
      const S = buildLimitSurface(cage)
      const atlas = buildPatchAtlas(S.faces)
      const plain = new SurfaceGrid(atlas, N)
      const onKernels = new SurfaceGrid(atlas, N)
      onKernels.useKernels(k)
      const r = rng(N)
      const s = plain.newCells(), fx = plain.newXFaces(), fy = plain.newYFaces()
      for (const a of [s, fx, fy]) for (let t = 0; t < a.length; t++) a[t] = r() - 0.5
      const s2 = k.f64(s.length), fx2 = k.f64(fx.length), fy2 = k.f64(fy.length)
      s2.set(s)
      fx2.set(fx)
      fy2.set(fy)
      plain.fillScalar(s)
      onKernels.fillScalar(s2)
      expect(sameBits(s2, s)).toBe(true)
      plain.fillVector(fx, fy)
      onKernels.fillVector(fx2, fy2)
      expect(sameBits(fx2, fx)).toBe(true)
      expect(sameBits(fy2, fy)).toBe(true)
      // The fills wrote something: a ghost now equals its source, which it did not before.
      const { dst, src } = plain.cellGhosts
      expect(s2[dst[0]]).toBe(s2[src[0]])
    }
  })
})

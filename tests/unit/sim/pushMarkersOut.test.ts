// Markers a rigid body swept over go back to its surface (rigidFluid.ts pushMarkersOut). The
// solver skips the markers of cells that cannot hold a point inside any body (a box test for
// every body, and for a wet one its cell-centre distance); this checks the skip against the
// plain rule applied to every marker and every body: the same markers move, to the same
// places, on Carlson's gears and bunnies (meshes, concave, overlapping boxes), on the
// TypeScript kernels and on the WebAssembly ones (the mesh bodies' pass, meshBodyKernels.ts).
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import type { WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'
import { gearsAndBunniesScene } from '../../../src-shared/scene/examples/gearsAndBunnies'
import { compileLiquidScene } from '../../../src-shared/sim/liquid/compileLiquid'
import { MarkerParticles } from '../../../src-shared/sim/liquid/markers'
import { RigidFluid } from '../../../src-shared/sim/liquid/rigidFluid'
import { LIQUID } from '../../../src-shared/sim/liquid/viscosity'

/** The rule without any skipping: every marker against every body, in body order. */
function pushAll(rigid: RigidFluid, p: MarkerParticles, dx: number): number {
  const bodies = (rigid as unknown as { world: { bodies: { phi(x: number, y: number, z: number): number }[] } }).world.bodies
  const eps = 0.05 * dx, e = 0.25 * dx
  let moved = 0
  for (let q = 0; q < p.count; q++) {
    for (const body of bodies) {
      const x = p.px[q], y = p.py[q], z = p.pz[q]
      const d = body.phi(x, y, z)
      if (!(d < 0)) continue
      let gx = body.phi(x + e, y, z) - body.phi(x - e, y, z)
      let gy = body.phi(x, y + e, z) - body.phi(x, y - e, z)
      let gz = body.phi(x, y, z + e) - body.phi(x, y, z - e)
      const len = Math.sqrt(gx * gx + gy * gy + gz * gz)
      if (!(len > 0)) continue
      gx /= len; gy /= len; gz /= len
      p.px[q] = x + (-d + eps) * gx
      p.py[q] = y + (-d + eps) * gy
      p.pz[q] = z + (-d + eps) * gz
      moved++
    }
  }
  return moved
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('markers pushed out of rigid bodies', () => {
  it.each(['ts', 'wasm'] as const)('moves exactly the markers the plain rule moves, to the same places (gears and bunnies at 32 cells, 200k markers, wet and dry bodies; %s kernels)', (kernelKind) => {
    const kernels = kernelKind === 'ts' ? TS_KERNELS : createKernelBackend('wasm', { threads: 2, strict: true, initialBytes: 1 << 24 })
    backends.push(kernels)
    const { doc, meshes } = gearsAndBunniesScene({ resolution: 32 })
    const domain = doc.objects.find((o) => o.kind === 'domain')!
    const { setup } = compileLiquidScene(doc, domain.id, { resolveMesh: (id) => meshes.find((m) => m.id === id) })
    const { grid } = setup
    const rigid = new RigidFluid(setup.rigidBodies!, grid, setup.sides, setup.gravity, new Float32Array(grid.nx * grid.ny * grid.nz).fill(1), kernels)
    // The lower half of the domain is liquid: the bodies there are wet (rasterised), the rest dry.
    const kind = new Uint8Array(grid.nx * grid.ny * grid.nz)
    for (let k = 0; k < grid.nz; k++) for (let j = 0; j < grid.ny / 2; j++) for (let i = 0; i < grid.nx; i++) kind[i + grid.nx * (j + grid.ny * k)] = LIQUID
    rigid.advance(1 / 240, 0, 1, [], kind, new Int32Array(kind.length))
    // Markers everywhere, a few outside the grid (they are tested against every body).
    let seed = 12345
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    const n = 200_000
    const a = new MarkerParticles(n, n, false, kernels), b = new MarkerParticles(n, n)
    const lo = grid.origin, size = [grid.nx * grid.dx, grid.ny * grid.dx, grid.nz * grid.dx]
    for (let q = 0; q < n; q++) {
      const x = lo[0] + (rand() * 1.02 - 0.01) * size[0], y = lo[1] + (rand() * 1.02 - 0.01) * size[1], z = lo[2] + (rand() * 1.02 - 0.01) * size[2]
      a.add(x, y, z, 0, 0, 0, 0)
      b.add(x, y, z, 0, 0, 0, 0)
    }
    rigid.pushMarkersOut(a)
    const expected = pushAll(rigid, b, grid.dx)
    expect(expected, 'markers inside a body').toBeGreaterThan(1000)
    if (kernelKind === 'wasm') expect((kernels as WasmKernelBackend).fallbacks).toBe(0)
    const bytes = (f: Float32Array) => Buffer.from(f.buffer, f.byteOffset, 4 * n)
    for (const axis of ['px', 'py', 'pz'] as const) expect(bytes(a[axis]).equals(bytes(b[axis])), axis).toBe(true)
  })
})

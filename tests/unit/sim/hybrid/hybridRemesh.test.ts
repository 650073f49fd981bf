// A keyframed obstacle remeshes the hybrid band every substep (hybridSolver.ts placeObstacles).
// The new mesh's fields run on the bake's kernels like the first mesh's: the replaced mesh's
// kernel memory goes back first (KernelBackend.mark / release), so a bake on the WebAssembly
// kernels gives the TypeScript reference's checkpoints bit for bit and holds the same memory
// from frame to frame, and a bake resumed from a checkpoint mid-motion continues it to the bit. The carry onto the new mesh (HybridFields.carryOnto) keeps the values of
// faces and cells that did not change and reproduces a linear flow everywhere else the old
// mesh reached.
import { createHash } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'
import { sceneObject } from '../../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../../src-shared/scene/types'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { compileHybridScene } from '../../../../src-shared/sim/hybrid/compileHybrid'
import { HybridFields } from '../../../../src-shared/sim/hybrid/hybridFields'
import { buildHybridMesh, CELL_HEX } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { HybridObstacles } from '../../../../src-shared/sim/hybrid/hybridObstacles'
import { createBakeSolver } from '../../../../src-shared/sim/registry'
import type { ObstacleInput } from '../../../../src-shared/sim/solver'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { grid, sampleFaces } from './hybridFixtures'

const wasm = createKernelBackend('wasm', { threads: 2, minParallelWork: 0 }) as WasmKernelBackend
afterAll(() => wasm.dispose())

/** A sphere keyframed across a channel (1 m/s) with a jet behind it, so smoke and flow meet the band. */
function movingSphere(): SceneDocument {
  return {
    meta: { name: 'Moving sphere', fps: 24, frameStart: 1, frameEnd: 12 },
    objects: [
      sceneObject('domain', 'domain', 'Channel', { solver: 'hybrid', position: [1, 0.6, 0.6], size: [2, 1.2, 1.2], resolution: 20, hybridBand: 1, openXMin: true, openXMax: true, maxSubsteps: 2 }),
      sceneObject('ball', 'obstacle', 'Ball', { shape: 'sphere', position: [0.6, 0.6, 0.6], scale: [0.4, 0.4, 0.4] }),
      sceneObject('jet', 'emitter', 'Jet', { shape: 'sphere', fluid: 'gas', position: [0.25, 0.6, 0.6], scale: [0.2, 0.2, 0.2], density: 1, temperature: 320, velocity: [1.5, 0, 0], rate: 24 }),
    ],
    tracks: [{ objectId: 'ball', path: 'position.0', keys: [{ frame: 1, value: 0.6, interp: 'linear' }, { frame: 25, value: 1.6, interp: 'linear' }] }],
    meshes: [],
  }
}

/** sha256 of the checkpoint after each frame; the arena's bytes in use after each (wasm). */
function bake(options: Parameters<typeof createBakeSolver>[2], frames: number): { hashes: string[]; used: number[]; tets: number[] } {
  const solver = createBakeSolver(movingSphere(), 'domain', options)
  const hashes: string[] = [], used: number[] = [], tets: number[] = []
  for (let f = 1; f <= frames; f++) {
    solver.stepFrame(f)
    hashes.push(createHash('sha256').update(solver.checkpoint()).digest('hex').slice(0, 16))
    used.push(wasm.kernels.arena.used)
    tets.push(solver.frame().stats.tetrahedra as number)
  }
  return { hashes, used, tets }
}

function obstacleAt(x: number): HybridObstacles {
  const ball: ObstacleInput = {
    id: 'ball', name: 'Ball', shape: 'sphere', position: [x, 0.45, 0.5], rotation: [0, 0, 0], scale: [0.44, 0.44, 0.44],
    positionRate: [1, 0, 0], rotationRate: [0, 0, 0], scaleRate: [0, 0, 0], linearVelocity: [1, 0, 0], angularVelocity: [0, 0, 0], mesh: null, meshId: null,
  }
  return new HybridObstacles([ball], 0)
}

describe('the hybrid band remeshed around a moving obstacle', () => {
  it('bakes on the WebAssembly kernels to the TypeScript reference\'s checkpoints, frame by frame, in the same kernel memory every frame', () => {
    const frames = 4
    const reference = bake({}, frames)
    const onWasm = bake({ kernels: wasm, shared: true }, frames)
    expect(onWasm.hashes).toEqual(reference.hashes)
    // The band moved (the sphere crosses a cell a frame): every frame is a new mesh.
    expect(new Set(onWasm.tets).size).toBeGreaterThan(1)
    // Each remesh gave the last mesh's memory back before taking its own: what the arena holds
    // after a frame is one mesh's fields, the same amount every frame (the band's size barely changes).
    const perFrame = onWasm.used.slice(1)
    expect(Math.max(...perFrame) - Math.min(...perFrame)).toBeLessThan(0.05 * Math.min(...perFrame))
    expect(wasm.fallbacks).toBe(0)
  }, 120_000)

  it('resumes from a checkpoint mid-motion to the uninterrupted bake\'s checkpoints (the same mesh rebuilt, the same multigrid chosen)', () => {
    const doc = movingSphere()
    expect(compileHybridScene(doc, 'domain').keyframedObstacles).toBe(true)
    expect(compileHybridScene({ ...doc, tracks: [] }, 'domain').keyframedObstacles).toBe(false)
    const whole = createBakeSolver(doc, 'domain', { kernels: wasm, shared: true })
    const saved: Uint8Array[] = []
    for (let f = 1; f <= 4; f++) {
      whole.stepFrame(f)
      saved.push(whole.checkpoint())
    }
    const resumed = createBakeSolver(doc, 'domain', { kernels: wasm, shared: true })
    resumed.restore(saved[1])
    for (let f = 3; f <= 4; f++) {
      resumed.stepFrame(f)
      expect(Buffer.from(resumed.checkpoint()).equals(Buffer.from(saved[f - 1])), `frame ${f}`).toBe(true)
    }
  }, 120_000)

  it('carries a linear flow and a constant smoke onto the moved band exactly, and keeps unchanged faces and cells as they were', () => {
    const g = grid(16)
    const before = obstacleAt(0.5), after = obstacleAt(0.5 + 0.4 * g.dx)
    const old = buildHybridMesh({ grid: g, obstacle: before.field(), mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
    const mesh = buildHybridMesh({ grid: g, obstacle: after.field(), mode: 'hybrid', bandCells: 1, sides: CLOSED_BOX })
    const fields = new HybridFields(old, 293.15, before)
    // u = A x + b: the linear fits, the staggered trilinear and the cell copies all reproduce it.
    const u = (x: number, y: number, z: number, out: number[]) => {
      out[0] = 0.3 + 0.5 * y - 0.2 * z; out[1] = -0.1 + 0.4 * x + 0.1 * z; out[2] = 0.2 - 0.3 * x + 0.6 * y
    }
    fields.z.set(sampleFaces(old, u))
    fields.density.fill(0.7)
    fields.temperature.fill(300)
    const carried = fields.carryOnto(mesh, after, 293.15)
    const exact = sampleFaces(mesh, u)
    const phi = before.field()!
    let checked = 0, copied = 0, worst = 0
    for (let f = 0; f < mesh.faceCount; f++) {
      const c = 3 * f
      // Faces the old obstacle covered are read beside it (pushed out), not at their centres.
      if (phi(mesh.faceCentre[c], mesh.faceCentre[c + 1], mesh.faceCentre[c + 2]) < 0.5 * g.dx) continue
      worst = Math.max(worst, Math.abs(carried.z[f] - exact[f]))
      checked++
    }
    for (let f = 0; f < old.faceCount; f++) {
      const gf = old.faceGridFace[f]
      if (gf < 0 || old.cellKind[old.faceCellA[f]] !== CELL_HEX) continue
      const s = mesh.gridFaceStart[gf]
      if (mesh.gridFaceStart[gf + 1] - s !== 1) continue
      const nf = mesh.gridFaces[s]
      if (mesh.cellKind[mesh.faceCellA[nf]] === CELL_HEX && (mesh.faceCellB[nf] < 0 || mesh.cellKind[mesh.faceCellB[nf]] === CELL_HEX) && (old.faceCellB[f] < 0 || old.cellKind[old.faceCellB[f]] === CELL_HEX)) {
        expect(carried.z[nf]).toBe(fields.z[f])
        copied++
      }
    }
    expect(checked).toBeGreaterThan(0.8 * mesh.faceCount)
    expect(copied).toBeGreaterThan(0.25 * mesh.faceCount)
    expect(worst, 'largest |carried - exact| normal velocity, m/s').toBeLessThan(1e-9)
    for (let c = 0; c < mesh.cellCount; c++) {
      if (phi(mesh.cellCentre[3 * c], mesh.cellCentre[3 * c + 1], mesh.cellCentre[3 * c + 2]) < 0) continue
      expect(Math.abs(carried.density[c] - 0.7)).toBeLessThan(1e-12)
      expect(Math.abs(carried.temperature[c] - 300)).toBeLessThan(1e-9)
    }
  })
})

// Small scenes and measurements shared by the smoke validation tests.
import type { CompileOptions } from '../../../src-shared/sim/compile'
import { compileSmokeInput as compileInput, compileSmokeScene as compileScene, type SmokeSetup } from '../../../src-shared/sim/smoke/compileSmoke'
import type { FrameData } from '../../../src-shared/sim/frame'
import { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'
import { defaultParams } from '../../../src-shared/scene/defaults'
import type { ObjectKind, ParamValue, SceneDocument, SceneObject, Track } from '../../../src-shared/scene/types'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

export const FPS = 24

export function obj(id: string, kind: ObjectKind, params: Record<string, ParamValue> = {}, extra: Partial<SceneObject> = {}): SceneObject {
  return { id, kind, name: id, params: { ...defaultParams(kind), ...params }, ...extra }
}

/** A closed 1 m box centred at (0, 0.5, 0) with `res` cells per side plus the given objects. */
export function boxScene(res: number, domainParams: Record<string, ParamValue>, objects: SceneObject[] = [], tracks: Track[] = []): SceneDocument {
  return {
    meta: { name: 'test', fps: FPS, frameStart: 1, frameEnd: 100 },
    objects: [obj('domain', 'domain', { position: [0, 0.5, 0], size: [1, 1, 1], resolution: res, solver: 'smoke', ...domainParams }), ...objects],
    tracks,
    meshes: [],
  }
}

export interface Run {
  setup: SmokeSetup
  solver: SmokeSolver
  frames: FrameData[]
}

/** Compiles `doc` and runs frames [from, to) (frame index f covers t = f / fps). */
export function runFrames(doc: SceneDocument, count: number, opts: CompileOptions = {}, solver?: SmokeSolver, from = 0): Run {
  const setup = solver?.setup ?? compileScene(doc, 'domain', opts)
  const s = solver ?? new SmokeSolver(setup)
  const frames: FrameData[] = []
  for (let f = from; f < from + count; f++) {
    const input = compileInput(doc, 'domain', f / FPS, FPS, { meshes: setup.meshes })
    s.step(input.frameDt, input)
    frames.push(s.frame())
  }
  return { setup, solver: s, frames }
}

/** Total kinetic energy 1/2 sum u^2 dx^3 over all faces (unit density). */
export function kineticEnergy(solver: SmokeSolver): number {
  const { u, v, w } = solver.velocity
  const dx = solver.setup.grid.dx
  let e = 0
  for (const a of [u, v, w]) for (let i = 0; i < a.length; i++) e += a[i] * a[i]
  return 0.5 * e * dx * dx * dx
}

export function bytesEqual(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
  return true
}

/** Every volume and particle array of two frames is bitwise the same. */
export function framesIdentical(a: FrameData, b: FrameData): boolean {
  if (a.volumes.length !== b.volumes.length || a.particles.length !== b.particles.length) return false
  for (let i = 0; i < a.volumes.length; i++) if (!bytesEqual(a.volumes[i].data, b.volumes[i].data)) return false
  for (let i = 0; i < a.particles.length; i++) {
    const p = a.particles[i], q = b.particles[i]
    if (p.count !== q.count || !bytesEqual(p.positions, q.positions)) return false
    for (const key of Object.keys(p.attributes)) if (!bytesEqual(p.attributes[key].data, q.attributes[key].data)) return false
  }
  return true
}

/** The kernel backends every end-to-end smoke measurement runs on. */
export type KernelKindName = 'ts' | 'wasm'

const backends = new Map<KernelKindName, KernelBackend>()
/**
 * Compile options selecting the TypeScript reference kernels or the WebAssembly ones, on the
 * default threads (every core; 1 under npm test, which runs a test file per core: the bits do
 * not depend on the thread count, tests/unit/sim/workerPool.test.ts).
 */
export function kernelOptions(kind: KernelKindName): CompileOptions {
  if (kind === 'ts') return {}
  let b = backends.get(kind)
  if (b === undefined) backends.set(kind, (b = createKernelBackend('wasm')))
  return { kernels: b }
}

/**
 * Disposes the backends kernelOptions made and forgets them: files share a process (the unit
 * project does not isolate them), so a file that disposed a backend still in the cache would
 * hand the next file a backend whose workers are gone.
 */
export async function disposeKernelBackends(): Promise<void> {
  const all = [...backends.values()]
  backends.clear()
  for (const b of all) await b.dispose()
}

// Scene document -> hybrid-mesh smoke setup and per-frame input:
//   compileHybridScene: the domain's grid, its boundary, the mesh mode and band width, read at
//     the bake's first frame and validated once (every object, every mesh);
//   compileHybridInput: the common input (clock, substeps, obstacles, emitters) with the gas
//     settings it shares with the grid smoke as its payload.
import { evaluateObject } from '../../scene/keyframes'
import type { ParamValue, SceneDocument, SceneObject } from '../../scene/types'
import { checkClock, type CompileOptions, compileCommonInput, compileEmitterVortex, compileGasForces, compileVortexSeed, domainGrid, domainSides, fail, findDomain, type InputOptions, MeshSdfCache, num, str, vec } from '../compile'
import type { EmitterInput } from '../solver'
import type { HybridMeshMode } from './hybridMesh'
import { buildHybridMesh, MAX_HYBRID_CELLS } from './hybridMesh'
import { HybridObstacles } from './hybridObstacles'
import type { HybridEmitterInput, HybridPayload, HybridSetup, HybridSimInput } from './hybridInput'

/** Cells a 'tetrahedra' mesh would have at most: 12 per cube (the hybrid and hexahedral meshes have fewer). */
export function maxHybridCells(nCubes: number, mode: HybridMeshMode): number {
  return mode === 'hexahedra' ? nCubes : 12 * nCubes
}

export function compileHybridScene(doc: SceneDocument, domainId: string, opts: CompileOptions = {}): HybridSetup {
  const domain = findDomain(doc, domainId)
  const p = evaluateObject(domain, doc.tracks, doc.meta.frameStart)
  const solver = str(domain, p, 'solver')
  if (solver !== 'hybrid') fail(domain, 'solver', `Solver is "${solver}"; the hybrid-mesh smoke needs "hybrid"`, solver)
  const grid = domainGrid(vec(domain, p, 'position'), vec(domain, p, 'size'), num(domain, p, 'resolution'))
  const mode = str(domain, p, 'hybridMesh') as HybridMeshMode
  const cubes = grid.nx * grid.ny * grid.nz
  if (cubes > MAX_HYBRID_CELLS || (mode === 'tetrahedra' && maxHybridCells(cubes, mode) > MAX_HYBRID_CELLS)) {
    fail(domain, 'resolution', `Resolution ${num(domain, p, 'resolution')} gives ${grid.nx}x${grid.ny}x${grid.nz} cubes${mode === 'tetrahedra' ? ' (12 tetrahedra each)' : ''}, more than the ${MAX_HYBRID_CELLS} cells the hybrid mesh allows`, p.resolution)
  }
  const setup: Omit<HybridSetup, 'initial' | 'keyframedObstacles'> = {
    domainId,
    domainName: domain.name,
    grid,
    sides: domainSides(domain, p),
    mode,
    bandCells: num(domain, p, 'hybridBand'),
    seed: num(domain, p, 'seed'),
    maxParticles: opts.maxParticles ?? 1_000_000,
    meshes: new MeshSdfCache(opts.resolveMesh),
    ...(opts.kernels ? { kernels: opts.kernels } : {}),
  }
  // Every object, every parameter, every mesh once, so errors surface before the bake; the
  // first frame's mesh from the obstacles there.
  const input = compileHybridInput(doc, domainId, (doc.meta.frameStart - 1) / doc.meta.fps, doc.meta.fps, { meshes: setup.meshes })
  const obstacles = new HybridObstacles(input.obstacles, 0)
  const mesh = buildHybridMesh({ grid, obstacle: obstacles.field(), mode, bandCells: setup.bandCells, sides: setup.sides })
  const ids = new Set(input.obstacles.map((o) => o.id))
  const keyframedObstacles = doc.tracks.some((t) => ids.has(t.objectId) && /^(position|rotation|scale)(\.|$)/.test(t.path))
  return { ...setup, keyframedObstacles, initial: { mesh, obstacles } }
}

/** The mesh in words for the bake's log: its cells and the tetrahedra's dihedral angles. */
export function hybridLayout(setup: HybridSetup): string {
  const { grid, mode, bandCells, initial } = setup
  const m = initial.mesh
  const n = (x: number) => x.toLocaleString('en-US')
  const tets = m.tetCount > 0 ? `${n(m.tetCount)} tetrahedra (dihedral angles ${m.quality!.minDihedral.toFixed(1)}-${m.quality!.maxDihedral.toFixed(1)} degrees)` : ''
  const hexes = m.hexCount > 0 ? `${n(m.hexCount)} hexahedra` : ''
  const what = mode === 'hybrid' ? `hybrid mesh, band ${bandCells} cells` : mode === 'tetrahedra' ? 'all-tetrahedral mesh' : 'all-hexahedral mesh'
  return `${grid.nx}x${grid.ny}x${grid.nz} ${what}: ${[tets, hexes].filter((s) => s).join(' and ')}`
}

function hybridEmitter(obj: SceneObject, p: Record<string, ParamValue>, base: EmitterInput): HybridEmitterInput {
  return { ...base, vortex: compileEmitterVortex(obj, p), trackerRate: num(obj, p, 'trackerRate') }
}

/** Everything time dependent for the hybrid-mesh smoke at animation time `timeSeconds`. */
export function compileHybridInput(doc: SceneDocument, domainId: string, timeSeconds: number, fps: number, opts: InputOptions = {}): HybridSimInput {
  checkClock(timeSeconds, fps)
  const domain = findDomain(doc, domainId)
  const frame = 1 + timeSeconds * fps
  const p = evaluateObject(domain, doc.tracks, frame)
  const family: HybridPayload = {
    ...compileGasForces(domain, p),
    vortex: { confinement: num(domain, p, 'vortexConfinement'), radiusCells: num(domain, p, 'vortexRadius') },
    vortexSeeds: [],
    tolerance: num(domain, p, 'pressureTolerance'),
  }
  const input = compileCommonInput(doc, domainId, timeSeconds, fps, opts, family, hybridEmitter)
  for (const obj of doc.objects) {
    if (obj.kind === 'vortexSeed') family.vortexSeeds.push(compileVortexSeed(obj, evaluateObject(obj, doc.tracks, frame)))
  }
  return input
}

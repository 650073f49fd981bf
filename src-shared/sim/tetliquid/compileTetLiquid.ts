// Scene document -> tetrahedral-liquid setup and per-frame input:
//   compileTetLiquidScene: the domain box and its contouring grid, the mesh mode, the solve
//     tolerance, and the initial volumes (liquid emitters whose behaviour is Initial volume: a
//     primitive or a closed imported mesh), read at the bake's first frame;
//   compileTetLiquidInput: the common input (obstacles, inflow emitters, clock, substeps) with
//     gravity and the thickening settings as its family payload.
import { EddyError } from '../../api/errors'
import { PlacedSdf } from '../../geometry/placedSdf'
import { PrimitiveSdf, type PrimitiveShape } from '../../geometry/primitiveSdf'
import { evaluateObject } from '../../scene/keyframes'
import type { SceneDocument } from '../../scene/types'
import { bool, type CompileOptions, compileCommonInput, domainGrid, domainSides, fail, findDomain, initialVolumeMesh, isInitialVolume, MeshSdfCache, num, plainEmitter, str, vec } from '../compile'
import { DEFAULT_MAX_GRID_BYTES } from '../core/grid'
import type { TetLiquidInput, TetLiquidSetup, TetLiquidVolume } from './tetLiquidSetup'

export interface TetLiquidCompiled {
  setup: TetLiquidSetup
  meshes: MeshSdfCache
}

/**
 * Peak bytes of a bake at `nodes` contouring nodes and `tets` tetrahedra: the grid (two
 * distances, the traced flags) and per tetrahedron its mesh, topology, geometry, two meshes
 * alive across a step, the pressure system and the multigrid hierarchy (measured: about 1.1 KB).
 */
export function tetLiquidBytes(nodes: number, tets: number): number {
  return nodes * 12 + tets * 1100
}

/** Tetrahedra a uniform mesh of the whole box would have: 12 per lattice cube (the upper bound). */
export function maxTetCount(setup: Pick<TetLiquidSetup, 'box' | 'spacing'>): number {
  const { box, spacing } = setup
  let cubes = 1
  for (let a = 0; a < 3; a++) cubes *= Math.ceil((box.max[a] - box.min[a]) / spacing) + 1
  return 12 * cubes
}

export function compileTetLiquidScene(doc: SceneDocument, domainId: string, opts: CompileOptions = {}, frame = doc.meta.frameStart): TetLiquidCompiled {
  const domain = findDomain(doc, domainId)
  const p = evaluateObject(domain, doc.tracks, frame)
  const solver = str(domain, p, 'solver')
  if (solver !== 'tetliquid') fail(domain, 'solver', `Solver is "${solver}"; the tetrahedral liquid needs "tetliquid"`, solver)
  const resolution = num(domain, p, 'resolution')
  const g = domainGrid(vec(domain, p, 'position'), vec(domain, p, 'size'), resolution)
  const box = {
    min: [g.origin[0], g.origin[1], g.origin[2]] as [number, number, number],
    max: [g.origin[0] + g.nx * g.dx, g.origin[1] + g.ny * g.dx, g.origin[2] + g.nz * g.dx] as [number, number, number],
  }
  const meshes = new MeshSdfCache(opts.resolveMesh)
  const volumes: TetLiquidVolume[] = []
  for (const o of doc.objects) {
    if (o.kind !== 'emitter') continue
    const q = evaluateObject(o, doc.tracks, frame)
    if (!isInitialVolume(o, q)) continue
    const shape = str(o, q, 'shape') as PrimitiveShape | 'mesh'
    const position = vec(o, q, 'position'), rotation = vec(o, q, 'rotation'), scale = vec(o, q, 'scale')
    let field
    if (shape === 'mesh') {
      const placed = new PlacedSdf(initialVolumeMesh(o, meshes, opts))
      placed.place(position[0], position[1], position[2], rotation[0], rotation[1], rotation[2], scale[0], scale[1], scale[2])
      field = placed
    } else field = new PrimitiveSdf(shape, { position, rotation, scale })
    volumes.push({ name: o.name, field, velocity: vec(o, q, 'velocity') })
  }
  const setup: TetLiquidSetup = {
    domainId,
    domainName: domain.name,
    box,
    contourSpacing: g.dx,
    spacing: 2 * g.dx,
    mesh: str(domain, p, 'tetMesh') === 'uniform' ? 'uniform' : 'graded',
    sides: domainSides(domain, p),
    volumes,
    tolerance: num(domain, p, 'tetTolerance'),
    maxIterations: 500,
    thickening: bool(domain, p, 'thickening'),
    volumeCorrection: bool(domain, p, 'volumeCorrection'),
    ...(opts.kernels ? { kernels: opts.kernels } : {}),
  }
  const bytes = tetLiquidBytes((g.nx + 3) * (g.ny + 3) * (g.nz + 3), maxTetCount(setup))
  const limit = opts.maxBytes ?? DEFAULT_MAX_GRID_BYTES
  if (bytes > limit) {
    fail(domain, 'resolution', `Resolution ${resolution} could need ${(bytes / 1024 ** 3).toFixed(1)} GiB for a domain full of tetrahedra, more than the ${(limit / 1024 ** 3).toFixed(1)} GiB allowed; lower it`, resolution)
  }
  // Every object and parameter once, so errors surface before the bake.
  compileTetLiquidInput(doc, domainId, (frame - 1) / doc.meta.fps, doc.meta.fps, meshes)
  if (!Number.isFinite(setup.spacing) || setup.spacing <= 0) throw new EddyError('INVALID_PARAM', `Domain "${domain.name}": no usable spacing`, { objectId: domainId })
  return { setup, meshes }
}

/** Everything time dependent for the tetrahedral liquid at animation time `timeSeconds`. */
export function compileTetLiquidInput(doc: SceneDocument, domainId: string, timeSeconds: number, fps: number, meshes: MeshSdfCache): TetLiquidInput {
  const domain = findDomain(doc, domainId)
  const p = evaluateObject(domain, doc.tracks, 1 + timeSeconds * fps)
  return compileCommonInput(doc, domainId, timeSeconds, fps, { meshes }, {
    gravity: vec(domain, p, 'gravity'),
    thinness: num(domain, p, 'thinness'),
    breakUp: num(domain, p, 'breakUp'),
    thinSplit: num(domain, p, 'thinSplit'),
    growThick: num(domain, p, 'growThick'),
    growThin: num(domain, p, 'growThin'),
    meshThickness: num(domain, p, 'meshThickness'),
    meshThickeningRadius: num(domain, p, 'meshThickeningRadius'),
  }, plainEmitter)
}

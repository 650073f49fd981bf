// The solver families Eddy knows: one line each. Importing this module registers their
// parameters with the spec table (scene/specs.ts), so every program imports it before it
// reads a spec: the host, the CLI, the bake worker, the renderer and the tests' setup file.
import { EddyError } from '../api/errors'
import { evaluateObject } from '../scene/keyframes'
import { kindLabel, registerFamilySpecs } from '../scene/specs'
import type { ObjectKind, ParamValue, SceneDocument, SceneObject } from '../scene/types'
import type { CompileOptions } from './compile'
import type { BakeSolver, SolverFamily } from './family'
import { hybridFamily } from './hybrid/family'
import { liquidFamily } from './liquid/family'
import { smokeFamily } from './smoke/family'
import { surfaceFamily } from './surface/family'
import { tetLiquidFamily } from './tetliquid/family'

const families: SolverFamily[] = []

/** Adds a family: its parameters join the spec table, its id the Solver menu. */
export function registerFamily(family: SolverFamily): void {
  if (families.some((f) => f.id === family.id)) return
  registerFamilySpecs(family)
  families.push(family)
}

// One line per family.
registerFamily(smokeFamily)
registerFamily(liquidFamily)
registerFamily(surfaceFamily)
registerFamily(tetLiquidFamily)
registerFamily(hybridFamily)

/** The registered families, in registration order (the Solver menu's order). */
export const FAMILIES: readonly SolverFamily[] = families

/** A registered family by id, or undefined. */
export function familyById(id: string): SolverFamily | undefined {
  return FAMILIES.find((f) => f.id === id)
}

/** Whether objects of this kind can host a simulation (they get a Bake panel). */
export function hostsSimulations(kind: ObjectKind): boolean {
  return FAMILIES.some((f) => f.hosts.includes(kind))
}

/**
 * The family an object's simulation belongs to, from its evaluated parameters: a host kind
 * with a Solver menu names it; a kind hosting exactly one family needs none. Null when the
 * object hosts no simulation.
 */
export function familyOfValues(kind: ObjectKind, values: Record<string, ParamValue>): SolverFamily | null {
  const candidates = FAMILIES.filter((f) => f.hosts.includes(kind))
  if (candidates.length === 0) return null
  const named = values.solver
  if (typeof named === 'string') return candidates.find((f) => f.id === named) ?? null
  return candidates.length === 1 ? candidates[0] : null
}

/** The host object of a simulation, or a typed error naming what is wrong. */
export function findHost(doc: SceneDocument, hostId: string): SceneObject {
  const host = doc.objects.find((o) => o.id === hostId)
  if (!host) throw new EddyError('NOT_FOUND', `There is no simulation domain with id ${hostId}`, { field: 'domainId', value: hostId })
  if (!hostsSimulations(host.kind)) {
    throw new EddyError('INVALID_PARAM', `"${host.name}" is a ${kindLabel(host.kind)}, which hosts no simulation`, { objectId: hostId, field: 'domainId' })
  }
  return host
}

/** The family that bakes a host, read where the bake reads its fixed settings. */
export function familyOf(doc: SceneDocument, hostId: string, frame = doc.meta.frameStart): SolverFamily {
  const host = findHost(doc, hostId)
  const values = evaluateObject(host, doc.tracks, frame)
  const family = familyOfValues(host.kind, values)
  if (!family) {
    throw new EddyError('INVALID_PARAM', `${kindLabel(host.kind)} "${host.name}" has no known solver (got ${String(values.solver)})`, { objectId: hostId, field: 'solver' })
  }
  return family
}

/** Builds a host's solver from the scene at the bake's first frame; throws on bad scenes. */
export function createBakeSolver(doc: SceneDocument, hostId: string, opts: CompileOptions = {}): BakeSolver {
  const family = familyOf(doc, hostId)
  const setup = family.compileSetup(doc, hostId, opts)
  const solver = family.create(setup)
  return {
    family: family.id,
    layout: family.layout(setup),
    stepFrame(frame, control) {
      const input = family.compileInput(doc, hostId, setup, frame)
      return solver.step(input.frameDt, input, control)
    },
    frame: (opts) => solver.frame(opts),
    checkpoint: () => solver.checkpoint(),
    restore: (bytes) => solver.restore(bytes),
  }
}

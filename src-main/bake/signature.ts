// Which cached frames are still valid: every frame is stored with a signature, a hash chain
// over everything the solver read to reach it,
//   sig(S-1) = H(version, solver, frameStart S, fps)
//   sig(f)   = H(sig(f-1), inputs(f))
// where inputs(f) are the evaluated parameters of the host and of every object of a kind its
// family reads (SolverFamily.reads) at frames f and f+1 (compileInput finite-differences
// transforms over one frame), with their kinds, meshes and cages, sorted by id; names are left
// out (renaming changes nothing), and so are objects the solver never reads (a Catmull-Clark
// cage added beside a smoke domain leaves its cache valid).
// A cached frame is stale when its stored sig differs from the scene's current sig(f). A
// simulation is causal, so changing a key at frame 50 leaves frames before 50 valid and
// makes 50 onwards stale, with no bookkeeping of which parameter a frame "depends" on.
import { createHash } from 'node:crypto'
import { evaluateObject } from '../../src-shared/scene/keyframes'
import type { SceneDocument, SceneObject } from '../../src-shared/scene/types'
import { familyById } from '../../src-shared/sim/registry'

/** Bump when a solver change makes old caches wrong, to mark every frame stale. */
const SIGNATURE_VERSION = 'eddy-bake-1'

/** Domain settings that change how frames are stored, not what they hold. */
const STORAGE_KEYS = ['checkpointEvery', 'cachePrecision']

function withoutStorage(params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params }
  for (const k of STORAGE_KEYS) delete out[k]
  return out
}

/** Each object's evaluated parameters at one frame (storage settings left out). */
function evaluateAll(objects: readonly SceneObject[], doc: SceneDocument, frame: number): Record<string, unknown>[] {
  return objects.map((o) => withoutStorage(evaluateObject(o, doc.tracks, frame)))
}

/** The hashed inputs of frame f: every object with its parameters at f (p0) and f + 1 (p1). */
function inputsAt(objects: readonly SceneObject[], p0: Record<string, unknown>[], p1: Record<string, unknown>[]): string {
  const parts = objects.map((o, i) => ({
    id: o.id,
    kind: o.kind,
    meshId: o.meshId ?? null,
    cage: o.cage ?? null,
    p0: p0[i],
    p1: p1[i],
  }))
  return JSON.stringify(parts)
}

/**
 * The objects a simulation reads: its host and the kinds its family reads. A bake whose solver
 * is not registered (a family since removed) keeps the old rule, every object but domains, so
 * its frames read as they were baked.
 */
function relevantObjects(doc: SceneDocument, domainId: string, solver: string): SceneObject[] {
  const reads = familyById(solver)?.reads
  const read = (o: SceneObject) => (reads ? reads.includes(o.kind) : o.kind !== 'domain')
  return doc.objects.filter((o) => o.id === domainId || read(o)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/**
 * Signatures of frames frameStart..last (index f - frameStart). `solver` names the solver
 * that bakes it, so switching a domain's solver invalidates everything.
 */
export function frameSignatures(doc: SceneDocument, domainId: string, frameStart: number, last: number, solver: string): string[] {
  const out: string[] = []
  extendChain(doc, domainId, frameStart, solver, out, last)
  return out
}

/** Appends the signatures of frames frameStart + out.length .. last to `out` (a chain prefix). */
function extendChain(doc: SceneDocument, domainId: string, frameStart: number, solver: string, out: string[], last: number): void {
  const objects = relevantObjects(doc, domainId, solver)
  const from = frameStart + out.length
  if (from > last) return
  let sig = out.length ? out[out.length - 1] : createHash('sha1').update(`${SIGNATURE_VERSION}|${solver}|${frameStart}|${doc.meta.fps}`).digest('hex')
  // Frame f hashes the parameters at f and f + 1; each frame's are evaluated once and reused.
  let at = evaluateAll(objects, doc, from)
  for (let f = from; f <= last; f++) {
    const next = evaluateAll(objects, doc, f + 1)
    sig = createHash('sha1').update(sig).update(inputsAt(objects, at, next)).digest('hex')
    out.push(sig)
    at = next
  }
}

/**
 * Chains already computed, per document version: the service replaces its document object on
 * every edit (and never changes one in place), so a document object is a version. Weak keys:
 * a replaced document's chains go with it.
 */
const chains = new WeakMap<SceneDocument, Map<string, string[]>>()

/**
 * frameSignatures, computed once per document version, domain, first frame and solver (and
 * extended when a later frame is asked for): the cache status of every bake update and
 * request reads it instead of re-hashing the whole range. `doc` must not be changed after
 * it is passed here (pass a new object instead). The result is shared: do not modify it.
 */
export function cachedFrameSignatures(doc: SceneDocument, domainId: string, frameStart: number, last: number, solver: string): readonly string[] {
  let byKey = chains.get(doc)
  if (!byKey) chains.set(doc, (byKey = new Map()))
  const key = `${domainId}|${frameStart}|${solver}`
  let chain = byKey.get(key)
  if (!chain) byKey.set(key, (chain = []))
  if (frameStart + chain.length - 1 < last) extendChain(doc, domainId, frameStart, solver, chain, last)
  return chain
}

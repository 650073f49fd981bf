// The one contract between renderer and main: every request with its params and result
// schema, every event, and the envelopes they travel in. Both transports (Electron IPC
// and the headless host's WebSocket) carry exactly these envelopes.
import { z } from 'zod'
import {
  apiError,
  base64,
  cageGeometry,
  filePath,
  finite,
  frameTime,
  keyValue,
  interpolation,
  objectId,
  objectKind,
  paramValue,
  projectMeta,
  projectState,
  recentProject,
  sceneObject,
  trackPath,
  vec3,
  wedge,
} from './schemas'
import { bakeEvents, bakeRequests } from './bakeSchemas'
import { flipbookRequests } from './flipbookSchemas'
import { farmRequests } from './farmSchemas'

const nothing = z.object({}).strict()
const stateResult = projectState
const objectPatch = z
  .object({
    name: z.string().trim().min(1, 'name must not be empty').max(200).optional(),
    params: z.record(z.string(), paramValue).optional(),
    cage: cageGeometry.optional(),
    /** The imported mesh a mesh-shaped obstacle, emitter or rigid body uses. */
    meshId: z.string().min(1).max(64).optional(),
    /** Hidden in the viewport (the outliner's eye). */
    hidden: z.boolean().optional(),
    /** A simulation host's wedges, the whole list (an empty list removes them). */
    wedges: z.array(wedge).max(32).optional(),
  })
  .strict()

export const requests = {
  'app.info': {
    params: nothing,
    result: z.object({ version: z.string(), mode: z.enum(['electron', 'headless']), projectsDir: z.string(), platform: z.string() }),
  },
  'project.create': {
    params: z.object({ name: z.string().trim().min(1, 'name must not be empty').max(200), dir: filePath.optional() }).strict(),
    result: stateResult,
  },
  'project.open': { params: z.object({ path: filePath }).strict(), result: stateResult },
  'project.close': { params: nothing, result: z.object({ closed: z.boolean() }) },
  'project.saveAs': { params: z.object({ path: filePath }).strict(), result: stateResult },
  'project.get': { params: nothing, result: stateResult.nullable() },
  'project.recent': { params: nothing, result: z.array(recentProject) },
  'project.list': {
    params: z.object({ dir: filePath.optional() }).strict(),
    result: z.object({ dir: z.string(), files: z.array(z.object({ path: z.string(), name: z.string(), modified: z.string() })) }),
  },
  /**
   * The example scenes shipped with Eddy (src-shared/scene/examples), each with the copies made
   * of it before in the projects folder (newest first), so the UI can offer to reopen one.
   */
  'project.examples': {
    params: nothing,
    result: z.array(z.object({ id: z.string(), title: z.string(), description: z.string(), copies: z.array(z.object({ path: z.string(), name: z.string(), modified: z.string() })) })),
  },
  /** A new project from an example, in `dir` (default: the projects folder), and opens it. */
  'project.createExample': { params: z.object({ id: z.string().min(1).max(64), dir: filePath.optional() }).strict(), result: stateResult },
  'project.setMeta': { params: z.object({ patch: projectMeta.partial().strict() }).strict(), result: stateResult },
  'object.add': {
    params: z
      .object({ kind: objectKind, name: z.string().min(1).max(200).optional(), params: z.record(z.string(), paramValue).optional(), cage: cageGeometry.optional() })
      .strict(),
    result: z.object({ state: stateResult, id: objectId }),
  },
  /**
   * With `frame`, parameters that are animated get a key at that frame instead of a static
   * value (Blender's behaviour for animated properties), so a gizmo drag on a keyframed
   * object sticks.
   */
  'object.update': { params: z.object({ id: objectId, patch: objectPatch, frame: frameTime.optional() }).strict(), result: stateResult },
  'object.delete': { params: z.object({ ids: z.array(objectId).min(1).max(10_000) }).strict(), result: stateResult },
  'key.set': {
    params: z.object({ objectId, path: trackPath, frame: frameTime, value: keyValue.optional(), interp: interpolation.optional() }).strict(),
    result: stateResult,
  },
  'key.delete': { params: z.object({ objectId, path: trackPath, frame: frameTime }).strict(), result: stateResult },
  'key.setInterp': { params: z.object({ objectId, path: trackPath, frame: frameTime, interp: interpolation }).strict(), result: stateResult },
  /**
   * Bezier handles of one key as absolute (frame, value) points (the curve editor); null puts a
   * handle back to automatic. The left one may not lie after the key, the right one not before.
   */
  'key.setHandles': {
    params: z
      .object({ objectId, path: trackPath, frame: frameTime, handleLeft: z.tuple([frameTime, keyValue]).nullable(), handleRight: z.tuple([frameTime, keyValue]).nullable() })
      .strict(),
    result: stateResult,
  },
  /** `at`: the 3D cursor; the obstacle goes there, lifted onto the ground plane if it would reach below it. */
  'mesh.import': {
    params: z.object({ fileName: z.string().min(1).max(1024), data: base64, at: vec3.optional() }).strict(),
    result: z.object({ state: stateResult, id: objectId }),
  },
  'mesh.data': {
    params: z.object({ meshId: z.string().min(1).max(64) }).strict(),
    result: z.object({ positions: base64, indices: base64 }),
  },
  'edit.undo': { params: nothing, result: stateResult },
  'edit.redo': { params: nothing, result: stateResult },
  ...bakeRequests,
  ...flipbookRequests,
  ...farmRequests,
} as const

export type RequestType = keyof typeof requests
export type RequestParams<K extends RequestType> = z.input<(typeof requests)[K]['params']>
export type RequestResult<K extends RequestType> = z.output<(typeof requests)[K]['result']>
export const REQUEST_TYPES = Object.keys(requests) as RequestType[]

export const requestEnvelope = z.object({
  id: z.number().int().nonnegative(),
  type: z.string().max(64),
  params: z.unknown(),
})
export type RequestEnvelope = z.infer<typeof requestEnvelope>

export const responseEnvelope = z.union([
  z.object({ id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: apiError }),
])
export type ResponseEnvelope = z.infer<typeof responseEnvelope>

/** Menu commands the Electron application menu sends to the renderer (the in-app menu bar calls them directly). */
export const MENU_COMMANDS = ['file.new', 'file.open', 'file.saveAs', 'file.close', 'edit.undo', 'edit.redo', 'help.shortcuts', 'help.about'] as const
export const menuCommand = z.enum(MENU_COMMANDS)
export type MenuCommand = z.infer<typeof menuCommand>

export const events = {
  /** The open project changed outside the renderer's own request (another window, the menu, undo from the menu). */
  'project.changed': z.object({ state: stateResult.nullable() }),
  'menu.command': z.object({ command: menuCommand, path: z.string().optional() }),
  ...bakeEvents,
} as const
export type EventType = keyof typeof events
export type EventPayload<K extends EventType> = z.output<(typeof events)[K]>

export const eventEnvelope = z.object({ event: z.enum(Object.keys(events) as [EventType, ...EventType[]]), payload: z.unknown() })
export type EventEnvelope = z.infer<typeof eventEnvelope>

export { sceneObject }

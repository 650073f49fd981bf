// One spec per parameter of every object kind: the single source of truth for
// labels, units, ranges and defaults. The inspector builds its widgets from these,
// validate.ts checks values against them and defaults.ts fills new objects from them.
//
// Solver families (src-shared/sim/registry.ts) add their own parameters to the kinds that
// host them or that they read (registerFamilySpecs), and the domain's Solver menu lists the
// registered families. The registry registers at import, so every program imports it before
// it reads a spec (tests/unit/architecture.test.ts checks the entry points).
import { EddyError } from '../api/errors'
import type { ObjectKind, ParamValue } from './types'

export type ParamType = 'float' | 'int' | 'enum' | 'bool' | 'vec3'

export interface ParamSpec {
  key: string
  label: string
  type: ParamType
  /** SI unit shown next to the value ('' for dimensionless). */
  unit: string
  /** Hard limits: values outside are rejected. For vec3 they apply per component. */
  min?: number
  max?: number
  default: ParamValue
  options?: readonly string[]
  /** Human labels for `options`, same order. */
  optionLabels?: readonly string[]
  keyframable: boolean
  /** Drag/spin increment for the inspector. */
  step?: number
  group: string
  help: string
  /** Suggested slider range; values outside are legal but unusual (slow, huge, ...). */
  softMin?: number
  softMax?: number
  /**
   * Shown (and read by a solver) only while another parameter of the object has one of these
   * values, e.g. smoke settings while the domain's solver is 'smoke'. Hidden values are kept.
   */
  visibleWhen?: { key: string; values: readonly string[] }
}

/** Whether a spec applies to an object with these (evaluated) parameter values. */
export function specVisible(spec: ParamSpec, values: Record<string, ParamValue>, kind: ObjectKind): boolean {
  const w = spec.visibleWhen
  if (!w) return true
  const v = Object.hasOwn(values, w.key) ? values[w.key] : specFor(kind, w.key)?.default
  return typeof v === 'string' && w.values.includes(v)
}

export interface KindSpec {
  kind: ObjectKind
  label: string
  params: ParamSpec[]
}

const TRANSFORM = 'Transform'

function position(defaultValue: ParamValue = [0, 0, 0], help = 'Location of the object centre in world space.'): ParamSpec {
  return { key: 'position', label: 'Position', type: 'vec3', unit: 'm', min: -1000, max: 1000, default: defaultValue, keyframable: true, step: 0.1, group: TRANSFORM, help }
}

const rotation: ParamSpec = {
  key: 'rotation', label: 'Rotation', type: 'vec3', unit: 'deg', min: -36000, max: 36000, default: [0, 0, 0],
  keyframable: true, step: 1, group: TRANSFORM, help: 'XYZ Euler rotation in degrees, applied X first, then Y, then Z.',
}

const scale: ParamSpec = {
  key: 'scale', label: 'Scale', type: 'vec3', unit: '', min: 0.001, max: 1000, default: [1, 1, 1],
  keyframable: true, step: 0.1, group: TRANSFORM, help: 'Size factor along each local axis.',
}

/** Fresh transform specs per kind so no two kinds share (and could mutate) one default array. */
function transform(): ParamSpec[] {
  return [position(), { ...rotation, default: [0, 0, 0] }, { ...scale, default: [1, 1, 1] }]
}

function side(key: string, label: string): ParamSpec {
  return {
    key, label, type: 'bool', unit: '', default: false, keyframable: false, group: 'Boundary',
    help: `${label} side lets fluid flow out (pressure 0 beyond it); closed is a wall.`,
  }
}

/** The domain's Solver menu: its options are the registered families that domains host. */
const SOLVER_SPEC: ParamSpec & { options: string[]; optionLabels: string[] } = {
  key: 'solver', label: 'Solver', type: 'enum', unit: '', default: '', options: [], optionLabels: [],
  keyframable: false, group: 'Solver', help: 'Simulation method used inside this domain.',
}

const domain: KindSpec = {
  kind: 'domain',
  label: 'Domain',
  params: [
    // Simulation grids are axis aligned, so a domain has a size instead of rotation/scale;
    // y = 1 puts the default 2 m box on the ground plane.
    position([0, 1, 0], 'Centre of the simulation box in world space.'),
    { key: 'size', label: 'Size', type: 'vec3', unit: 'm', min: 0.01, max: 1000, default: [2, 2, 2], keyframable: true, step: 0.1, group: TRANSFORM, help: 'Edge lengths of the axis-aligned simulation box.' },
    SOLVER_SPEC,
    { key: 'resolution', label: 'Resolution', type: 'int', unit: 'cells', min: 8, max: 1024, default: 64, softMin: 16, softMax: 256, keyframable: true, step: 8, group: 'Solver', help: 'Number of grid cells along the longest side of the domain.' },
    { key: 'cfl', label: 'CFL number', type: 'float', unit: '', min: 0.1, max: 16, default: 4, keyframable: true, step: 0.1, group: 'Time', help: 'Largest distance, in cells, fluid may travel in one substep; higher is faster but less accurate.' },
    { key: 'minSubsteps', label: 'Min substeps', type: 'int', unit: '', min: 1, max: 100, default: 1, keyframable: true, step: 1, group: 'Time', help: 'Fewest solver steps per frame.' },
    { key: 'maxSubsteps', label: 'Max substeps', type: 'int', unit: '', min: 1, max: 100, default: 4, keyframable: true, step: 1, group: 'Time', help: 'Most solver steps per frame; caps the cost of fast motion.' },
    { key: 'timeScale', label: 'Time scale', type: 'float', unit: '', min: 0, max: 100, default: 1, softMax: 4, keyframable: true, step: 0.05, group: 'Time', help: 'Simulated seconds per real second; below 1 gives slow motion.' },
    { key: 'checkpointEvery', label: 'Checkpoint every', type: 'int', unit: 'frames', min: 1, max: 10000, default: 10, softMax: 50, keyframable: true, step: 1, group: 'Cache', help: 'Frames between solver checkpoints: Resume restarts from the newest one (more often costs disk, less often re-simulates more).' },
    {
      key: 'cachePrecision', label: 'Volume precision', type: 'enum', unit: '', default: 'float16', options: ['float16', 'float32', 'uint8'],
      optionLabels: ['Half float (relative error 2^-11)', 'Full float (exact)', '8-bit per tile (error range/510)'], keyframable: false, group: 'Cache',
      help: 'How cached volumes are stored: half floats are a third of full floats at a 128^3 frame; 8-bit is smaller still with a per-tile error.',
    },
    { key: 'ambientTemperature', label: 'Ambient temperature', type: 'float', unit: 'K', min: 1, max: 10000, default: 293.15, step: 1, keyframable: true, group: 'Environment', help: 'Temperature of the surrounding air; hotter gas rises, colder sinks.' },
    { key: 'seed', label: 'Random seed', type: 'int', unit: '', min: 0, max: 2147483647, default: 1, step: 1, keyframable: true, group: 'Solver', help: 'Seed of the random numbers that place particles; same seed, same result.' },
    side('openXMin', '-X'),
    side('openXMax', '+X'),
    side('openYMin', '-Y (bottom)'),
    side('openYMax', '+Y (top)'),
    side('openZMin', '-Z'),
    side('openZMax', '+Z'),
  ],
}

const obstacle: KindSpec = {
  kind: 'obstacle',
  label: 'Obstacle',
  params: [
    ...transform(),
    {
      key: 'shape', label: 'Shape', type: 'enum', unit: '', default: 'box',
      options: ['box', 'sphere', 'cylinder', 'mesh'], optionLabels: ['Box', 'Sphere', 'Cylinder', 'Mesh'],
      keyframable: false, group: 'Obstacle', help: 'Collision shape: a 1 m box, sphere or cylinder sized by Scale, or an imported mesh.',
    },
  ],
}

const emitter: KindSpec = {
  kind: 'emitter',
  label: 'Emitter',
  params: [
    ...transform(),
    {
      key: 'shape', label: 'Shape', type: 'enum', unit: '', default: 'sphere',
      options: ['box', 'sphere', 'cylinder', 'mesh'], optionLabels: ['Box', 'Sphere', 'Cylinder', 'Mesh'],
      keyframable: false, group: 'Emission', help: 'Volume fluid is emitted from: a 1 m shape sized by Scale, or a closed imported mesh.',
    },
    {
      key: 'fluid', label: 'Fluid', type: 'enum', unit: '', default: 'gas',
      options: ['gas', 'liquid'], optionLabels: ['Gas', 'Liquid'],
      keyframable: false, group: 'Emission', help: 'Kind of fluid this emitter adds.',
    },
    { key: 'density', label: 'Density', type: 'float', unit: '', min: 0, max: 100, default: 1, softMax: 10, keyframable: true, step: 0.1, group: 'Emission', help: 'Relative density (smoke opacity) of emitted fluid.', visibleWhen: { key: 'fluid', values: ['gas'] } },
    { key: 'temperature', label: 'Temperature', type: 'float', unit: 'K', min: 0, max: 10000, default: 600, softMin: 200, softMax: 2000, keyframable: true, step: 10, group: 'Emission', help: 'Temperature of emitted fluid: hotter gas rises faster; a liquid below its melting point is solid.' },
    { key: 'velocity', label: 'Velocity', type: 'vec3', unit: 'm/s', min: -1000, max: 1000, default: [0, 1, 0], keyframable: true, step: 0.1, group: 'Emission', help: 'Initial velocity of emitted fluid in world space.' },
    { key: 'rate', label: 'Rate', type: 'float', unit: '1/s', min: 0, max: 1000, default: 1, softMax: 10, keyframable: true, step: 0.1, group: 'Emission', help: 'How many times per second the emitter volume is refilled.' },
  ],
}

const vortexSeed: KindSpec = {
  kind: 'vortexSeed',
  label: 'Vortex seed',
  params: [
    position(),
    { key: 'radius', label: 'Radius', type: 'float', unit: 'm', min: 0.001, max: 100, default: 0.1, softMax: 2, keyframable: true, step: 0.01, group: 'Vortex', help: 'Radius of the vortex core.' },
    { key: 'direction', label: 'Direction', type: 'vec3', unit: '', min: -1, max: 1, default: [0, 1, 0], keyframable: true, step: 0.05, group: 'Vortex', help: 'Spin axis (right-hand rule); normalised when used, must not be zero.' },
    { key: 'strength', label: 'Strength', type: 'float', unit: '1/s', min: 0, max: 100000, default: 10, softMax: 1000, keyframable: true, step: 1, group: 'Vortex', help: 'Vorticity magnitude at the core.' },
    { key: 'particleCount', label: 'Particle count', type: 'int', unit: '', min: 1, max: 1000000, default: 100, softMax: 10000, keyframable: true, step: 10, group: 'Vortex', help: 'Number of vortex particles seeded.' },
  ],
}

const ccCage: KindSpec = {
  kind: 'ccCage',
  label: 'Catmull-Clark cage',
  params: [
    ...transform(),
    { key: 'level', label: 'Subdivision level', type: 'int', unit: '', min: 1, max: 4, default: 2, keyframable: true, step: 1, group: 'Display', help: 'Catmull-Clark subdivisions used for display.' },
  ],
}

const heatSource: KindSpec = {
  kind: 'heatSource',
  label: 'Heat source',
  params: [
    position(),
    { key: 'temperature', label: 'Temperature', type: 'float', unit: 'K', min: 0, max: 10000, default: 800, softMin: 200, softMax: 2000, keyframable: true, step: 10, group: 'Heat', help: 'Temperature the source holds the surrounding fluid at.' },
    { key: 'radius', label: 'Radius', type: 'float', unit: 'm', min: 0.001, max: 100, default: 0.25, softMax: 5, keyframable: true, step: 0.01, group: 'Heat', help: 'Radius of the heated region.' },
    { key: 'rate', label: 'Heating rate', type: 'float', unit: '1/s', min: 0, max: 1000, default: 5, softMax: 50, keyframable: true, step: 0.5, group: 'Heat', help: 'How fast liquid inside the radius is pulled to the temperature (per second).' },
  ],
}

// A body the liquid moves and that moves the liquid (Carlson 2004 ch. 5, the rigid fluid
// method). Until "Active from frame" its transform is the keyframed one (a kinematic body the
// liquid feels but cannot push); from then on the simulation owns it, starting from the
// keyframed pose and the initial velocities below.
const rigidBody: KindSpec = {
  kind: 'rigidBody',
  label: 'Rigid body',
  params: [
    ...transform(),
    {
      key: 'shape', label: 'Shape', type: 'enum', unit: '', default: 'box',
      options: ['box', 'sphere', 'cylinder', 'mesh'], optionLabels: ['Box', 'Sphere', 'Cylinder', 'Mesh'],
      keyframable: false, group: 'Rigid body', help: 'Body shape: a 1 m box, sphere or cylinder sized by Scale, or a closed imported mesh (concave is fine).',
    },
    { key: 'relativeDensity', label: 'Relative density', type: 'float', unit: '', min: 0.1, max: 20, default: 0.6, keyframable: false, step: 0.05, group: 'Rigid body', help: 'Density relative to the liquid (water 1): below 1 floats, above 1 sinks; wood 0.6, stone 2.6, lead 11.' },
    { key: 'initialVelocity', label: 'Initial velocity', type: 'vec3', unit: 'm/s', min: -1000, max: 1000, default: [0, 0, 0], keyframable: false, step: 0.1, group: 'Rigid body', help: 'Velocity of the centre of mass when the body becomes active (world axes); a keyframed body takes its keyed motion instead.' },
    { key: 'initialSpin', label: 'Initial spin', type: 'vec3', unit: 'deg/s', min: -100000, max: 100000, default: [0, 0, 0], keyframable: false, step: 10, group: 'Rigid body', help: 'Angular velocity about world X, Y, Z when the body becomes active (right-hand rule; 360 deg/s is one turn a second).' },
    { key: 'restitution', label: 'Bounciness', type: 'float', unit: '', min: 0, max: 1, default: 0.3, keyframable: false, step: 0.05, group: 'Rigid body', help: 'Coefficient of restitution of collisions: 0 stops dead, 1 bounces back at full speed.' },
    { key: 'friction', label: 'Friction', type: 'float', unit: '', min: 0, max: 2, default: 0.5, keyframable: false, step: 0.05, group: 'Rigid body', help: 'Coulomb friction coefficient against other bodies, obstacles and the domain walls.' },
    { key: 'activeFrom', label: 'Active from frame', type: 'int', unit: 'frame', min: -1000000, max: 1000000, default: 1, keyframable: false, step: 1, group: 'Rigid body', help: 'Before this frame the body follows its keyframed transform (pushing the liquid); from this frame it is simulated.' },
  ],
}

export const KIND_SPECS: Record<ObjectKind, KindSpec> = { domain, obstacle, emitter, vortexSeed, ccCage, heatSource, rigidBody }

/** Kinds whose `shape` may be 'mesh' (they then name an imported mesh by meshId). */
export const MESH_SHAPED_KINDS: readonly ObjectKind[] = ['obstacle', 'emitter', 'rigidBody']

/** What a solver family adds to the spec table (SolverFamily in sim/family.ts has these fields). */
export interface FamilySpecs {
  id: string
  /** The Solver menu's label. */
  label: string
  /** Object kinds that host a simulation of this family (their Solver menu lists it). */
  hosts: readonly ObjectKind[]
  /** Parameters the family adds to each kind it reads. */
  params: Partial<Record<ObjectKind, readonly ParamSpec[]>>
}

const registered: FamilySpecs[] = []

/**
 * Adds a family's parameters and its Solver menu entry. A key that another family (or the
 * base kind) already declares is refused: two meanings for one stored value would corrupt
 * projects. Registering the same family twice is a no-op (hot reload, tests).
 */
export function registerFamilySpecs(f: FamilySpecs): void {
  if (registered.some((r) => r.id === f.id)) return
  for (const [kind, params] of Object.entries(f.params) as [ObjectKind, readonly ParamSpec[]][]) {
    const table = KIND_SPECS[kind].params
    for (const p of params) {
      if (table.some((q) => q.key === p.key)) throw new EddyError('INTERNAL', `Solver family "${f.id}" declares ${kind}.${p.key}, which is already declared`, { family: f.id, kind, key: p.key })
    }
    table.push(...params)
  }
  if (f.hosts.includes('domain')) {
    SOLVER_SPEC.options.push(f.id)
    SOLVER_SPEC.optionLabels.push(f.label)
    if (SOLVER_SPEC.default === '') SOLVER_SPEC.default = f.id
  }
  registered.push(f)
}

/** Families registered so far, in registration order. */
export function registeredFamilySpecs(): readonly FamilySpecs[] {
  return registered
}

export function specFor(kind: ObjectKind, key: string): ParamSpec | undefined {
  return KIND_SPECS[kind]?.params.find((p) => p.key === key)
}

export function kindLabel(kind: ObjectKind): string {
  return KIND_SPECS[kind]?.label ?? kind
}

// Parameters of the surface flow (Stam 2003) that a Catmull-Clark cage carries, and the one an
// emitter adds (the colour it paints on surfaces it touches); specs.ts appends them to those
// kinds. Like a domain's grid, the cage's shape, its scale and the cells per patch are read at
// the bake's first frame; forces, rates and colours are keyframable.
import type { ParamSpec } from '../../scene/specs'

const FLOW = 'Surface flow'
const FORCES = 'Surface forces'
const PATTERN = 'Reaction-diffusion'
const TIME = 'Time'
const CACHE = 'Cache'
const FLUID_ONLY = { key: 'flowMode', values: ['fluid'] } as const
const PATTERN_ONLY = { key: 'flowMode', values: ['reactionDiffusion'] } as const

export const SURFACE_CAGE_PARAMS: readonly ParamSpec[] = [
  {
    key: 'flowMode', label: 'Mode', type: 'enum', unit: '', default: 'fluid', options: ['fluid', 'reactionDiffusion'],
    optionLabels: ['Fluid (paint flows)', 'Reaction-diffusion (Gray-Scott patterns)'], keyframable: false, group: FLOW,
    help: 'What runs on the surface: an incompressible flow carrying coloured paint (Stam 2003), or Gray-Scott reaction-diffusion growing patterns (the paper\'s Figure 16).',
  },
  { key: 'cellsPerPatch', label: 'Cells per patch', type: 'int', unit: 'cells', min: 4, max: 128, default: 32, softMin: 16, softMax: 64, keyframable: true, step: 4, group: FLOW, help: 'Grid cells along each edge of every patch (a patch is one quad of the once-subdivided cage); the paper used 32.' },
  { key: 'colorDiffusion', label: 'Colour diffusion', type: 'float', unit: 'm²/s', min: 0, max: 10, default: 0, softMax: 0.01, step: 1e-4, keyframable: true, group: FLOW, help: 'How fast paint spreads on its own (implicit, with the surface\'s own Laplacian, eq. 18).', visibleWhen: FLUID_ONLY },
  { key: 'baseColor', label: 'Base colour', type: 'vec3', unit: '', min: 0, max: 1, default: [0.18, 0.18, 0.2], keyframable: true, step: 0.01, group: FLOW, help: 'Linear RGB of bare surface; paint adds to it.', visibleWhen: FLUID_ONLY },
  { key: 'surfaceGravity', label: 'Gravity', type: 'vec3', unit: 'm/s²', min: -1000, max: 1000, default: [0, -9.81, 0], keyframable: true, step: 0.1, group: FORCES, help: 'World acceleration felt by paint, made tangent to the surface and scaled by the paint\'s density (sec. 5: heavy paint runs down).', visibleWhen: FLUID_ONLY },
  { key: 'spinAxis', label: 'Spin axis', type: 'vec3', unit: '', min: -1, max: 1, default: [0, 1, 0], keyframable: true, step: 0.05, group: FORCES, help: 'World axis the surface turns about (normalised; right-hand rule), for the Coriolis force.', visibleWhen: FLUID_ONLY },
  { key: 'spinRate', label: 'Spin rate', type: 'float', unit: 'deg/s', min: -100000, max: 100000, default: 0, softMin: -720, softMax: 720, step: 5, keyframable: true, group: FORCES, help: 'How fast the surface turns about its spin axis: the flow feels the Coriolis force -2 Omega x u of a rotating frame (0: none).', visibleWhen: FLUID_ONLY },
  { key: 'surfaceDrag', label: 'Drag', type: 'float', unit: '1/s', min: 0, max: 1000, default: 0.5, softMax: 10, step: 0.05, keyframable: true, group: FORCES, help: 'How fast the flow slows on its own: velocity decays as exp(-drag t) (0: it keeps going forever).', visibleWhen: FLUID_ONLY },
  { key: 'surfaceVorticity', label: 'Vorticity', type: 'float', unit: '', min: 0, max: 100, default: 0, softMax: 2, step: 0.05, keyframable: true, group: FORCES, help: 'Vorticity confinement strength, with the curl taken on the surface: keeps small swirls alive (0: off).', visibleWhen: FLUID_ONLY },
  { key: 'feedRate', label: 'Feed', type: 'float', unit: '1/s', min: 0, max: 1, default: 0.037, step: 0.001, keyframable: true, group: PATTERN, help: 'Gray-Scott feed rate F: how fast u is replenished (spots near 0.03, stripes and mazes near 0.04-0.06 with matching kill).', visibleWhen: PATTERN_ONLY },
  { key: 'killRate', label: 'Kill', type: 'float', unit: '1/s', min: 0, max: 1, default: 0.06, step: 0.001, keyframable: true, group: PATTERN, help: 'Gray-Scott kill rate k: how fast v decays.', visibleWhen: PATTERN_ONLY },
  { key: 'diffusionU', label: 'Diffusion u', type: 'float', unit: 'm²/s', min: 0, max: 10, default: 2e-5, softMax: 2e-4, step: 1e-6, keyframable: true, group: PATTERN, help: 'Diffusion rate of u; the pattern\'s spacing grows as the square root of the rates.', visibleWhen: PATTERN_ONLY },
  { key: 'diffusionV', label: 'Diffusion v', type: 'float', unit: 'm²/s', min: 0, max: 10, default: 1e-5, softMax: 2e-4, step: 1e-6, keyframable: true, group: PATTERN, help: 'Diffusion rate of v (about half of u\'s for patterns to form).', visibleWhen: PATTERN_ONLY },
  { key: 'patternSeeds', label: 'Random seeds', type: 'int', unit: '', min: 0, max: 1000, default: 12, softMax: 100, step: 1, keyframable: true, group: PATTERN, help: 'Spots of v placed at random on the surface at the first frame (emitters touching the surface add more).', visibleWhen: PATTERN_ONLY },
  { key: 'seed', label: 'Random seed', type: 'int', unit: '', min: 0, max: 2147483647, default: 1, step: 1, keyframable: true, group: PATTERN, help: 'Seed of the random spots; same seed, same pattern.', visibleWhen: PATTERN_ONLY },
  { key: 'patternSpeed', label: 'Pattern speed', type: 'float', unit: '', min: 0, max: 100000, default: 600, softMax: 5000, step: 10, keyframable: true, group: PATTERN, help: 'Reaction time units per real second (the Gray-Scott rates are per unit): patterns take a few thousand units to form. Stepped in units of at most 1.', visibleWhen: PATTERN_ONLY },
  { key: 'timeScale', label: 'Time scale', type: 'float', unit: '', min: 0, max: 100, default: 1, softMax: 4, keyframable: true, step: 0.05, group: TIME, help: 'Simulated seconds per real second; below 1 gives slow motion.', visibleWhen: FLUID_ONLY },
  { key: 'cfl', label: 'CFL number', type: 'float', unit: '', min: 0.1, max: 16, default: 2, keyframable: true, step: 0.1, group: TIME, help: 'Largest distance, in cells, the flow may travel in one substep.', visibleWhen: FLUID_ONLY },
  { key: 'minSubsteps', label: 'Min substeps', type: 'int', unit: '', min: 1, max: 1000, default: 1, keyframable: true, step: 1, group: TIME, help: 'Fewest solver steps per frame.', visibleWhen: FLUID_ONLY },
  { key: 'maxSubsteps', label: 'Max substeps', type: 'int', unit: '', min: 1, max: 1000, default: 8, keyframable: true, step: 1, group: TIME, help: 'Most solver steps per frame.', visibleWhen: FLUID_ONLY },
  { key: 'checkpointEvery', label: 'Checkpoint every', type: 'int', unit: 'frames', min: 1, max: 10000, default: 10, softMax: 50, keyframable: true, step: 1, group: CACHE, help: 'Frames between solver checkpoints: Resume restarts from the newest one.' },
]

export const SURFACE_EMITTER_PARAMS: readonly ParamSpec[] = [
  { key: 'paintColor', label: 'Paint colour', type: 'vec3', unit: '', min: 0, max: 1, default: [0.9, 0.35, 0.08], keyframable: true, step: 0.01, group: 'Surface paint', help: 'Linear RGB this emitter paints on Catmull-Clark surface flows it touches (its Density scales the amount; its Velocity pushes the flow).' },
]

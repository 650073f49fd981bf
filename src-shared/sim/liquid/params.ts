// Parameters of the free-surface liquid solver (Carlson 2004: marker particles, implicit
// variable viscosity, heat and melting) that domains and emitters carry; specs.ts appends
// them to those kinds. Shown only while the domain's solver is 'liquid' (or, for emitters,
// while the fluid is 'liquid'). Like the grid resolution, the domain's settings are read at
// the bake's first frame (keys on them take effect from that frame's value).
import type { ParamSpec } from '../../scene/specs'

const LIQUID = 'Liquid'
const VISCOSITY = 'Viscosity'
const HEAT = 'Heat and melting'
const SURFACE = 'Surface mesh'
const LIQUID_ONLY = { key: 'solver', values: ['liquid'] } as const
/** Gravity is read by both liquids: this one and the tetrahedral one (sim/tetliquid). */
const ANY_LIQUID = { key: 'solver', values: ['liquid', 'tetliquid'] } as const
const TEMPERATURE_MODEL = { key: 'viscosityModel', values: ['temperature'] } as const

export const LIQUID_DOMAIN_PARAMS: readonly ParamSpec[] = [
  { key: 'gravity', label: 'Gravity', type: 'vec3', unit: 'm/s²', min: -1000, max: 1000, default: [0, -9.81, 0], keyframable: true, step: 0.1, group: LIQUID, help: 'Acceleration of gravity in world space (Y up).', visibleWhen: ANY_LIQUID },
  {
    key: 'velocityTransfer', label: 'Velocity transfer', type: 'enum', unit: '', default: 'apic', options: ['apic', 'flip'],
    optionLabels: ['APIC (swirly: keeps rotation)', 'FLIP/PIC blend (splashy)'], keyframable: false, group: LIQUID,
    help: 'How particles and grid exchange velocity. APIC (Jiang et al. 2015, Houdini\'s "Swirly", Blender\'s APIC) carries each particle\'s velocity gradient: rotation and vortices survive, angular momentum is conserved and the motion is noise free (the FLIP ratio is not used). The FLIP/PIC blend (Zhu and Bridson 2005) keeps more small splashes and sprays but loses spin every step (a spinning ball without viscosity keeps about 91% of its spin after 1 s at 4 substeps per frame; with APIC all of it).', visibleWhen: LIQUID_ONLY,
  },
  { key: 'flip', label: 'FLIP ratio', type: 'float', unit: '', min: 0, max: 1, default: 0.95, step: 0.01, keyframable: true, group: LIQUID, help: 'Share of FLIP in the particle velocity update: 0 is PIC (Carlson 2004, smooth and damped), near 1 keeps splashes lively (Blender and Houdini use about 0.95).', visibleWhen: LIQUID_ONLY },
  { key: 'particlesPerCell', label: 'Particles per cell', type: 'int', unit: '', min: 1, max: 64, default: 8, softMax: 27, step: 1, keyframable: true, group: LIQUID, help: 'Marker particles seeded in each liquid cell (8 is typical; more gives smoother surfaces at a higher cost).', visibleWhen: LIQUID_ONLY },
  { key: 'liquidTolerance', label: 'Solver tolerance', type: 'float', unit: '', min: 1e-12, max: 0.1, default: 1e-5, step: 1e-6, keyframable: true, group: LIQUID, help: 'Relative residual the pressure and viscosity solves stop at.', visibleWhen: LIQUID_ONLY },
  {
    key: 'viscosityModel', label: 'Viscosity model', type: 'enum', unit: '', default: 'constant', options: ['constant', 'temperature'],
    optionLabels: ['Constant', 'From temperature (melting)'], keyframable: false, group: VISCOSITY,
    help: 'One viscosity everywhere, or viscosity from each particle\'s temperature through the melting point (Carlson 2004, sec. 4.3).', visibleWhen: LIQUID_ONLY,
  },
  { key: 'viscosity', label: 'Viscosity', type: 'float', unit: 'm²/s', min: 0, max: 1e5, default: 0, softMax: 100, step: 0.01, keyframable: true, group: VISCOSITY, help: 'Kinematic viscosity: 1e-6 water, 0.1 honey-like, 100 and up pastes and wax (implicit, stable at any value up to 1e5).', visibleWhen: LIQUID_ONLY },
  {
    key: 'viscousStress', label: 'Viscous stress', type: 'enum', unit: '', default: 'carlson', options: ['carlson', 'full'],
    optionLabels: ['Carlson 2004 (per component)', 'Full stress (coils and buckles)'], keyframable: false, group: VISCOSITY,
    help: 'Carlson\'s div(ν ∇u) per velocity component (eq. 57/58), or the full div(ν (∇u + ∇uᵀ)) (Batty and Bridson 2008), which lets thick liquids coil and buckle. Carlson\'s form damps rotation at a free surface: a spinning thick blob stops within a frame (keeps about 5% of its spin at 10 m²/s), and a melt turning as it flows loses its swirl; the full stress keeps rigid rotation (use it for melting and thick liquids).', visibleWhen: LIQUID_ONLY,
  },
  {
    key: 'wallSlip', label: 'Walls', type: 'enum', unit: '', default: 'no', options: ['no', 'free'],
    optionLabels: ['Sticky (no slip)', 'Slippery (free slip)'], keyframable: false, group: VISCOSITY,
    help: 'Whether viscous liquid sticks to walls and obstacles or slides along them.', visibleWhen: LIQUID_ONLY,
  },
  { key: 'meltingPoint', label: 'Melting point', type: 'float', unit: 'K', min: 0, max: 10000, default: 330, softMin: 250, softMax: 600, step: 1, keyframable: true, group: HEAT, help: 'Centre of the transition between solid and melt viscosity.', visibleWhen: TEMPERATURE_MODEL },
  { key: 'meltingWidth', label: 'Transition width', type: 'float', unit: 'K', min: 0.01, max: 1000, default: 10, softMax: 100, step: 1, keyframable: true, group: HEAT, help: 'Temperature span over which the viscosity goes from solid to melt.', visibleWhen: TEMPERATURE_MODEL },
  {
    key: 'meltingRamp', label: 'Ramp', type: 'enum', unit: '', default: 'linear', options: ['linear', 'quadratic'], optionLabels: ['Linear', 'Quadratic'],
    keyframable: false, group: HEAT, help: 'Shape of the viscosity change across the transition.', visibleWhen: TEMPERATURE_MODEL,
  },
  { key: 'solidViscosity', label: 'Solid viscosity', type: 'float', unit: 'm²/s', min: 0, max: 1e5, default: 1e4, softMax: 1e5, step: 100, keyframable: true, group: HEAT, help: 'Viscosity below the melting range (a solid that barely moves).', visibleWhen: TEMPERATURE_MODEL },
  { key: 'meltViscosity', label: 'Melt viscosity', type: 'float', unit: 'm²/s', min: 0, max: 1e5, default: 0.01, softMax: 10, step: 0.01, keyframable: true, group: HEAT, help: 'Viscosity above the melting range.', visibleWhen: TEMPERATURE_MODEL },
  { key: 'heatDiffusion', label: 'Heat diffusion', type: 'float', unit: 'm²/s', min: 0, max: 10, default: 1e-4, softMax: 0.01, step: 1e-4, keyframable: true, group: HEAT, help: 'How fast heat spreads through the liquid (implicit, eq. 50-55).', visibleWhen: LIQUID_ONLY },
  { key: 'coolingRate', label: 'Ambient cooling', type: 'float', unit: '1/s', min: 0, max: 100, default: 0, softMax: 2, step: 0.01, keyframable: true, group: HEAT, help: 'How fast the liquid relaxes to the ambient temperature.', visibleWhen: LIQUID_ONLY },
  { key: 'meshSurface', label: 'Surface mesh', type: 'bool', unit: '', default: true, keyframable: false, group: SURFACE, help: 'Build a watertight triangle mesh of the liquid each frame (cached and exported with the particles).', visibleWhen: LIQUID_ONLY },
  { key: 'meshRefinement', label: 'Mesh resolution', type: 'int', unit: '× grid', min: 1, max: 4, default: 2, step: 1, keyframable: true, group: SURFACE, help: 'Mesh grid as a multiple of the simulation grid (2 matches Blender\'s default).', visibleWhen: LIQUID_ONLY },
  { key: 'meshSmoothing', label: 'Smoothing', type: 'int', unit: 'passes', min: 0, max: 8, default: 1, step: 1, keyframable: true, group: SURFACE, help: 'Smoothing passes over the level set before meshing (shrinks thin features slightly).', visibleWhen: LIQUID_ONLY },
  { key: 'minDropVolume', label: 'Remove drops below', type: 'float', unit: 'cells', min: 0, max: 1000, default: 0, softMax: 20, step: 0.5, keyframable: true, group: SURFACE, help: 'Drop mesh pieces smaller than this many grid cells in volume (0 keeps every drop).', visibleWhen: LIQUID_ONLY },
]

export const LIQUID_EMITTER_PARAMS: readonly ParamSpec[] = [
  {
    key: 'behavior', label: 'Behaviour', type: 'enum', unit: '', default: 'inflow', options: ['inflow', 'geometry'],
    optionLabels: ['Inflow (keeps adding)', 'Initial volume (liquid at the start)'], keyframable: false, group: 'Emission',
    help: 'Inflow adds liquid while its rate is above 0; Initial volume fills the shape with liquid at the first frame (Blender\'s Geometry flow).',
    visibleWhen: { key: 'fluid', values: ['liquid'] },
  },
]

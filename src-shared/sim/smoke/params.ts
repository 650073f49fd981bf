// Parameters of the smoke solver (Selle 2005 vortex particles on a MAC grid) that domains and
// emitters carry. The smoke family (family.ts) declares them; the registry appends them to
// those kinds' specs, so the inspector shows them and validation checks them like every other
// parameter. Settings every domain has (ambient temperature, seed, open sides) are in
// scene/specs.ts.
import type { ParamSpec } from '../../scene/specs'

const SMOKE = 'Smoke'
const VORTEX = 'Vortex particles'
/** Read by the smoke solver only; kept (not shown) while the domain is a liquid. */
const SMOKE_ONLY = { key: 'solver', values: ['smoke'] } as const
/** Read by both gases: the grid smoke and the hybrid-mesh smoke (sim/hybrid) share these settings. */
const ANY_GAS = { key: 'solver', values: ['smoke', 'hybrid'] } as const
const GAS_ONLY = { key: 'fluid', values: ['gas'] } as const

/**
 * Default of 'Max rotation per substep', degrees: none. With advection-reflection (the default)
 * the splitting's loss is second order, and extra substeps only add interpolation smoothing (a
 * 4 rev/s vortex at 64 cells kept 94.6% of its spin per second unlimited, 86.8% at 10 degrees);
 * without reflection 2 degrees kept 95% of a 0.5 rev/s vortex against 84% at one substep.
 */
export const MAX_ROTATION_DEFAULT = 0


export const SMOKE_DOMAIN_PARAMS: readonly ParamSpec[] = [
  { key: 'vorticity', label: 'Vorticity', type: 'float', unit: '', min: 0, max: 10, default: 0.1, softMax: 1, step: 0.01, keyframable: true, group: SMOKE, help: 'Vorticity confinement strength (Fedkiw 2001): restores small swirls lost to numerical smoothing.', visibleWhen: ANY_GAS },
  { key: 'buoyancyAlpha', label: 'Density weight', type: 'float', unit: 'm/s²', min: -100, max: 100, default: 0.1, softMin: 0, softMax: 2, step: 0.01, keyframable: true, group: SMOKE, help: 'Downward acceleration per unit smoke density (Fedkiw 2001 alpha).', visibleWhen: ANY_GAS },
  { key: 'buoyancyBeta', label: 'Heat lift', type: 'float', unit: 'm/(s²K)', min: -10, max: 10, default: 9.81 / 293.15, softMin: 0, softMax: 0.2, step: 0.001, keyframable: true, group: SMOKE, help: 'Upward acceleration per kelvin above ambient (Fedkiw 2001 beta); g / T_ambient is an ideal gas.', visibleWhen: ANY_GAS },
  { key: 'densityDissipation', label: 'Density dissipation', type: 'float', unit: '1/s', min: 0, max: 100, default: 0, softMax: 2, step: 0.01, keyframable: true, group: SMOKE, help: 'Rate at which smoke fades (exponential decay).', visibleWhen: ANY_GAS },
  { key: 'temperatureDissipation', label: 'Cooling', type: 'float', unit: '1/s', min: 0, max: 100, default: 0, softMax: 2, step: 0.01, keyframable: true, group: SMOKE, help: 'Rate at which gas cools towards the ambient temperature.', visibleWhen: ANY_GAS },
  {
    key: 'advection', label: 'Advection', type: 'enum', unit: '', default: 'maccormack', options: ['maccormack', 'semiLagrangian'],
    optionLabels: ['MacCormack (sharper)', 'Semi-Lagrangian (smoother)'], keyframable: false, group: SMOKE,
    help: 'How fields are carried by the flow.', visibleWhen: SMOKE_ONLY,
  },
  {
    key: 'reflection', label: 'Advection-reflection', type: 'bool', unit: '', default: true, keyframable: false, group: SMOKE, visibleWhen: SMOKE_ONLY,
    help: 'Reflect each substep\'s half-way pressure correction instead of discarding it (Zehnder 2018): swirls keep their speed (a 0.5 rev/s vortex keeps 99.6% of its spin per second at one substep a frame, 84% without) for a second pressure solve per substep.',
  },
  {
    key: 'pressureSolver', label: 'Pressure solver', type: 'enum', unit: '', default: 'multigrid', options: ['multigrid', 'mic0'],
    optionLabels: ['Multigrid PCG', 'MIC(0) PCG'], keyframable: false, group: SMOKE, help: 'Preconditioner of the pressure solve.', visibleWhen: SMOKE_ONLY,
  },
  {
    key: 'maxRotation', label: 'Max rotation per substep', type: 'float', unit: '°', min: 0, max: 90, default: MAX_ROTATION_DEFAULT, softMax: 20, step: 0.5, keyframable: true, group: 'Time',
    help: 'Largest angle the flow may turn its own velocity through in one substep; faster swirls get more substeps (up to Max substeps). 0 = no limit (the default). Useful without Advection-reflection, where each substep keeps only cos(angle) of a rotating flow\'s speed: 0.5 rev/s keeps 84% of its spin per second at one substep a frame (24 fps), 95% at four (2 degrees). With reflection it keeps 99.6% at one. (Projects saved before reflection existed keep the 2 degrees that were the default then: set 0 to drop the extra substeps.)',
    visibleWhen: SMOKE_ONLY,
  },
  { key: 'pressureTolerance', label: 'Pressure tolerance', type: 'float', unit: '', min: 1e-12, max: 0.1, default: 1e-6, step: 1e-6, keyframable: true, group: 'Solver', help: 'Relative residual the pressure solve stops at.', visibleWhen: ANY_GAS },
  {
    key: 'vortexMode', label: 'Vortex particle mode', type: 'enum', unit: '', default: 'force', options: ['force', 'strength'],
    optionLabels: ['Per-particle force', 'Confinement strength'], keyframable: false, group: VORTEX,
    help: 'Per-particle confinement force (Selle 2005), or particle vorticity raising the confinement strength locally (the paper\'s simpler mode).', visibleWhen: SMOKE_ONLY,
  },
  {
    key: 'vortexConfinement', label: 'Particle confinement', type: 'float', unit: '1/s', min: 0, max: 1000, default: 4, softMax: 20, step: 0.1, keyframable: true, group: VORTEX,
    help: 'Per-particle force mode: how fast vortex particles spin the flow up to their vorticity. The grid\'s vorticity at a particle\'s centre grows by 2 x this x the particle\'s peak vorticity per second, whatever the resolution, and the force fades out as it reaches that peak (Selle 2005). (Older projects: this used to be force = this x cell size x vorticity, so its effect halved with each doubling of resolution; the same value now adds about the circulation it did at 64 cells with a 4-cell particle radius.)',
    visibleWhen: ANY_GAS,
  },
  { key: 'vortexStrengthWeight', label: 'Particle strength weight', type: 'float', unit: 's', min: 0, max: 100, default: 0.02, softMax: 0.2, step: 0.005, keyframable: true, group: VORTEX, help: 'Confinement strength mode: confinement added per 1/s of particle vorticity (a particle of vorticity 10/s adds 0.2 at its centre by default).', visibleWhen: SMOKE_ONLY },
  { key: 'vortexRadius', label: 'Particle radius', type: 'float', unit: 'cells', min: 0.5, max: 64, default: 4, softMax: 16, step: 0.5, keyframable: true, group: VORTEX, help: 'Kernel radius of particles from vortex seeds, in grid cells (Selle 2005 used about 4).', visibleWhen: ANY_GAS },
]

export const SMOKE_EMITTER_PARAMS: readonly ParamSpec[] = [
  { key: 'vortexRate', label: 'Vortex particles', type: 'float', unit: '1/s', min: 0, max: 100000, default: 0, softMax: 2000, step: 10, keyframable: true, group: VORTEX, help: 'Vortex particles seeded inside the emitter per second.', visibleWhen: GAS_ONLY },
  { key: 'vortexStrength', label: 'Particle vorticity', type: 'float', unit: '1/s', min: 0, max: 100000, default: 10, softMax: 200, step: 1, keyframable: true, group: VORTEX, help: 'Peak vorticity of each seeded particle.', visibleWhen: GAS_ONLY },
  { key: 'vortexRadius', label: 'Particle radius', type: 'float', unit: 'cells', min: 0.5, max: 64, default: 4, softMax: 16, step: 0.5, keyframable: true, group: VORTEX, help: 'Kernel radius of each seeded particle, in grid cells.', visibleWhen: GAS_ONLY },
  {
    key: 'vortexDirection', label: 'Particle direction', type: 'enum', unit: '', default: 'cylinder', options: ['cylinder', 'random'],
    optionLabels: ['Around the source', 'Random'], keyframable: false, group: VORTEX,
    help: 'Spin axes tangent to an upright cylinder around the source (Selle 2005, fig. 2), or random.', visibleWhen: GAS_ONLY,
  },
]

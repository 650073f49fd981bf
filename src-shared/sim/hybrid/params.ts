// Parameters of the hybrid-mesh smoke (Feldman, O'Brien and Klingner 2005) that domains and
// emitters carry. The mesh settings are its own; buoyancy, dissipation, vorticity confinement,
// the vortex particles' confinement and radius and the pressure tolerance are the grid smoke's
// (smoke/params.ts shows them for both gases), so switching a domain between the two solvers
// keeps its look settings.
import type { ParamSpec } from '../../scene/specs'

const HYBRID = 'Hybrid mesh'
const ONLY = { key: 'solver', values: ['hybrid'] } as const
const GAS_ONLY = { key: 'fluid', values: ['gas'] } as const

export const HYBRID_DOMAIN_PARAMS: readonly ParamSpec[] = [
  {
    key: 'hybridMesh', label: 'Mesh', type: 'enum', unit: '', default: 'hybrid', options: ['hybrid', 'tetrahedra', 'hexahedra'],
    optionLabels: ['Hybrid (tetrahedra around obstacles)', 'All tetrahedra', 'All hexahedra (voxelised obstacles)'], keyframable: false, group: HYBRID,
    help: 'Hybrid: regular cells in open space and tetrahedra conforming to the obstacles in a band around them (the paper). All tetrahedra and all hexahedra are the band\'s two limits, for comparison (the paper\'s Table 1).', visibleWhen: ONLY,
  },
  { key: 'hybridBand', label: 'Band width', type: 'int', unit: 'cells', min: 1, max: 16, default: 2, step: 1, keyframable: true, group: HYBRID, help: 'Read at the bake\'s first frame. How far, in cells, the tetrahedra reach from the obstacles\' surfaces (Mesh: Hybrid). Wider bands follow the flow along walls further out, at about three times the cost per cell.', visibleWhen: ONLY },
]

export const HYBRID_EMITTER_PARAMS: readonly ParamSpec[] = [
  { key: 'trackerRate', label: 'Tracker particles', type: 'float', unit: '1/s', min: 0, max: 1000000, default: 0, softMax: 20000, step: 100, keyframable: true, group: 'Tracker particles', help: 'Massless particles seeded inside the emitter per second that the hybrid-mesh smoke carries with the flow and shows as points (the paper\'s desk toy, Figure 6). The grid smoke does not use them.', visibleWhen: GAS_ONLY },
]

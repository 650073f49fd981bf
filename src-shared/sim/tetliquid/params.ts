// Parameters of the tetrahedral liquid (Chentanez et al. 2007) that domains carry; shown only
// while the domain's solver is 'tetliquid'. The domain's Resolution is the contouring grid's
// (the surface's) cells along the longest side; the tetrahedra's finest edge is twice that
// spacing, as the paper sizes them. Gravity is the liquid family's parameter (liquid/params.ts
// shows it for both liquids). Read at the bake's first frame except the thickening amounts,
// which are read every frame.
import type { ParamSpec } from '../../scene/specs'

const TET = 'Tetrahedral liquid'
const THICKENING = 'Thickening'
const ONLY = { key: 'solver', values: ['tetliquid'] } as const

export const TET_LIQUID_DOMAIN_PARAMS: readonly ParamSpec[] = [
  {
    key: 'tetMesh', label: 'Mesh', type: 'enum', unit: '', default: 'graded', options: ['graded', 'uniform'],
    optionLabels: ['Graded (fine at the surface)', 'Uniform (one size)'], keyframable: false, group: TET,
    help: 'Isosurface stuffing into a graded octree (the paper: finest tetrahedra along the surface, coarser inside, far fewer of them) or one size everywhere.', visibleWhen: ONLY,
  },
  { key: 'tetTolerance', label: 'Solver tolerance', type: 'float', unit: '', min: 1e-12, max: 0.1, default: 1e-6, step: 1e-6, keyframable: true, group: TET, help: 'Relative residual the pressure solve (conjugate gradients with algebraic multigrid) stops at.', visibleWhen: ONLY },
  {
    key: 'volumeCorrection', label: 'Keep volume', type: 'bool', unit: '', default: true, keyframable: false, group: TET, visibleWhen: ONLY,
    help: 'Make up the volume the surface tracking loses each step by moving the free surface along its normals (at most a tenth of a cell a step), counting what emitters add and what leaves through open sides. Off: the paper\'s method alone, which loses volume at low resolutions.',
  },
  { key: 'thickening', label: 'Thickening', type: 'bool', unit: '', default: true, keyframable: false, group: THICKENING, help: 'Keep thin sheets and drops from vanishing below the mesh resolution (section 3.4): particles on the medial axis of thin parts thicken the surface and the mesh.', visibleWhen: ONLY },
  { key: 'thinness', label: 'Thinness', type: 'float', unit: '× cell', min: 0.1, max: 10, default: 1.2, step: 0.1, keyframable: true, group: THICKENING, help: 'Parts thinner than this many cells count as thin (the paper\'s gamma, 1.2 of the smallest cell).', visibleWhen: ONLY },
  { key: 'breakUp', label: 'Break-up distance', type: 'float', unit: '× cell', min: 0, max: 3, default: 1, step: 0.1, keyframable: true, group: THICKENING, help: 'How far the thinnest parts give their thickness to thicker neighbours (the paper\'s r_redis, 0 to 3 cells): larger breaks thin sheets into drops more readily.', visibleWhen: ONLY },
  { key: 'thinSplit', label: 'Thinnest share', type: 'float', unit: '× thinness', min: 0, max: 1, default: 0.5, step: 0.05, keyframable: true, group: THICKENING, help: 'Particles thinner than this share of the thinness give their thickness away; thicker ones receive it (the paper\'s beta, 0.5).', visibleWhen: ONLY },
  { key: 'growThick', label: 'Growth (thicker parts)', type: 'float', unit: '× cell', min: 0, max: 2, default: 0.25, step: 0.05, keyframable: true, group: THICKENING, help: 'How much the thicker thin parts grow each frame (the paper\'s r_ib, 0.25 of a cell a step, one step a frame).', visibleWhen: ONLY },
  { key: 'growThin', label: 'Growth (thinnest parts)', type: 'float', unit: '× cell', min: 0, max: 2, default: 0.15, step: 0.05, keyframable: true, group: THICKENING, help: 'How much the thinnest parts that found no thicker neighbour grow each frame (the paper\'s r_is, 0.15 of a cell a step, one step a frame).', visibleWhen: ONLY },
  { key: 'meshThickness', label: 'Mesh thickness', type: 'float', unit: '× tet', min: 0, max: 2, default: 0.6, step: 0.05, keyframable: true, group: THICKENING, help: 'The thickness the simulation mesh is padded to in thin parts so it covers the whole surface (the paper\'s gamma_mesh, 0.6 of the finest tetrahedron edge).', visibleWhen: ONLY },
  { key: 'meshThickeningRadius', label: 'Mesh padding radius', type: 'float', unit: '× tet', min: 0.5, max: 10, default: 4, step: 0.5, keyframable: true, group: THICKENING, help: 'How far each thin part\'s padding of the mesh reaches (the paper\'s kernel radius h, 4 finest tetrahedron edges).', visibleWhen: ONLY },
]

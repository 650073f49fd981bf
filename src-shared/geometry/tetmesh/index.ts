// Tetrahedral meshing by isosurface stuffing (Labelle and Shewchuk 2007) and mesh quality.
export {
  stuffIsosurface, ALPHA_LONG, ALPHA_SHORT, ALPHA_LONG_ALT, ALPHA_SHORT_ALT, DIHEDRAL_BOUNDS_DEG, DIHEDRAL_BOUNDS_ALT_DEG,
  type StuffingOptions, type StuffedMesh, type StuffingStats,
} from './stuffing'
export { SHAPE_FINEST_BCC, SHAPE_BCC, SHAPE_BISECTED, SHAPE_QUADRISECTED, SHAPE_HALF_PYRAMID } from './bccLattice'
export { tetVolume, tetDihedrals, tetMeshQuality, formatTetQuality, type TetQualityReport } from './tetQuality'
export type { ScalarField3 } from './cutPoints'
export { snapToObstacle, SNAP_FRACTION, type SnapResult } from './snapObstacle'
export { TetLocator } from './tetLocator'

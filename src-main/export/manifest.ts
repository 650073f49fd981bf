// The manifest written last by an export, `<base>_manifest.json`: what was exported, how
// (format, axes, frame range, naming) and, per file, what it holds. Its presence means the
// export finished; pipelines can load the listed files instead of globbing the folder.

import type { UpAxis } from '../../src-shared/formats/upAxis'
import type { ExportFormat } from './exportOptions'

export type ManifestFileKind = 'volume' | 'mesh' | 'particles'

export interface ManifestCounts {
  /** Active voxels over all grids of a VDB file. */
  voxels?: number
  vertices?: number
  triangles?: number
  particles?: number
}

export interface ManifestGrid {
  name: string
  type: 'float' | 'vec3s'
  voxels: number
  /** Voxel edge length, m. */
  voxelSize: number
}

export interface ManifestFile {
  frame: number
  /** Relative to the export folder, '/'-separated. */
  path: string
  kind: ManifestFileKind
  /** The mesh or particle set; for VDB and glTF files, their items' names joined by ", ". */
  name: string
  counts: ManifestCounts
  /** VDB files: one entry per grid. */
  grids?: ManifestGrid[]
}

export interface ExportManifest {
  manifestVersion: 1
  generator: 'Eddy'
  simName: string
  format: ExportFormat
  upAxis: UpAxis
  fps: number
  frameStart: number
  frameEnd: number
  padding: number
  baseName: string
  files: ManifestFile[]
}

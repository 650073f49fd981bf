// The manifest written last by an export, `<base>_manifest.json`: what was exported, how
// (format, axes, frame range, naming) and, per file, what it holds. Its presence means the
// export finished; pipelines can load the listed files instead of globbing the folder.

import type { UpAxis } from '../../src-shared/formats/upAxis'
import type { ExportFormat } from './exportOptions'

/**
 * 'rigidBodies': posed (world-space) rigid-body meshes of one frame (OBJ: all bodies, one
 * object each; PLY: one body). 'animation': the glTF/GLB file animating every rigid body
 * over the exported range (one per export, not per frame).
 */
export type ManifestFileKind = 'volume' | 'mesh' | 'particles' | 'rigidBodies' | 'animation'

export interface ManifestCounts {
  /** Active voxels over all grids of a VDB file. */
  voxels?: number
  vertices?: number
  triangles?: number
  particles?: number
  bodies?: number
  /** Animation files: keys over all bodies (one per body per frame it exists in). */
  keyframes?: number
}

export interface ManifestGrid {
  name: string
  type: 'float' | 'vec3s'
  voxels: number
  /** Voxel edge length, m. */
  voxelSize: number
}

export interface ManifestFile {
  /** The frame the file holds; for an animation file, the first frame of its range. */
  frame: number
  /** Animation files: the last frame of the range. */
  lastFrame?: number
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

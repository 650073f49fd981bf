// The manifest written last by an export, `<base>_<format>_manifest.json` (one per format):
// what was exported, how (format, axes, frame range, naming) and, per file, what it holds. Its
// presence means the export finished; pipelines can load the listed files instead of globbing
// the folder.

import type { UpAxis } from '../../src-shared/formats/upAxis'
import type { ExportFormat } from './exportOptions'

/**
 * 'rigidBodies': posed (world-space) rigid-body meshes of one frame (OBJ: all bodies, one
 * object each; PLY: one body). 'animation': the glTF/GLB file animating every rigid body
 * over the exported range (one per export, not per frame). 'texture': a PNG atlas of one
 * per-patch texture of a surface flow (its `texture` field says where each patch's tile is).
 */
export type ManifestFileKind = 'volume' | 'mesh' | 'particles' | 'rigidBodies' | 'animation' | 'texture'

export interface ManifestCounts {
  /** Active voxels over all grids of a VDB file. */
  voxels?: number
  vertices?: number
  triangles?: number
  particles?: number
  bodies?: number
  /** Animation files: keys over all bodies (one per body per frame it exists in). */
  keyframes?: number
  /** Texture atlases: patches (tiles in use). */
  layers?: number
}

export interface ManifestGrid {
  name: string
  type: 'float' | 'vec3s'
  voxels: number
  /** Voxel edge length, m. */
  voxelSize: number
}

/**
 * Where a PNG atlas keeps each patch: tile l (patch l) is the tileWidth x tileHeight block at
 * column l % cols and row floor(l / cols), counted from the image's top-left; inside a tile,
 * u runs right and v runs up (the texture's row j = 0 is the tile's bottom image row). Tiles
 * from `layers` to cols * rows - 1 are transparent (alpha 0). See textureAtlas.ts.
 */
export interface ManifestTexture {
  tileWidth: number
  tileHeight: number
  cols: number
  rows: number
  layers: number
  /** Components of the cached texture: 3 (linear RGB) or 1 (a scalar). */
  components: 1 | 3
  /**
   * 'srgb': linear RGB in [0, 1], sRGB-encoded, 8 bits. 'range': a scalar as grey,
   * value = min + (grey / 255) * (max - min) (a constant texture is grey 128, value min).
   */
  encoding: 'srgb' | 'range'
  /** 'range' only: the texture's smallest and largest finite value in this frame. */
  min?: number
  max?: number
}

export interface ManifestFile {
  /** The frame the file holds; for an animation file, the first frame of its range. */
  frame: number
  /** Animation files: the last frame of the range. */
  lastFrame?: number
  /** Relative to the export folder, '/'-separated. */
  path: string
  kind: ManifestFileKind
  /** The mesh, particle set or texture; for VDB and glTF files, their items' names joined by ", ". */
  name: string
  counts: ManifestCounts
  /** VDB files: one entry per grid. */
  grids?: ManifestGrid[]
  /** PNG texture atlases: the tile layout and how values became 8-bit texels. */
  texture?: ManifestTexture
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

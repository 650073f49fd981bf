// What one cached frame becomes in each format: a list of files to write, each rendered to
// bytes only when its turn comes (so a cancel between files skips the encoding as well).
// Axis conversion happens here, once per item, before any writer sees the data. Rigid bodies
// are posed into world space for OBJ and PLY (they have no transforms); glTF keeps each
// body's local mesh on a node placed at the frame's pose. PNG writes each per-patch texture
// (surface flows) as one atlas image (textureAtlas.ts); it has no axes to convert.
import { deflateSync } from 'node:zlib'
import { PNG } from 'pngjs'
import { writeGltfFrame } from '../../src-shared/formats/gltfSequence'
import { writeObj, writeObjObjects } from '../../src-shared/formats/obj'
import { vdbGridsFromVolumes, writeVdbWithSummary } from '../../src-shared/formats/openvdb'
import { writeMeshPly, writeParticlePly } from '../../src-shared/formats/ply'
import { posedMesh } from '../../src-shared/formats/rigidBodyPose'
import { meshToZUp, particlesToZUp } from '../../src-shared/formats/upAxis'
import { linearToSrgb, vertexColours } from '../../src-shared/formats/vertexColour'
import { type FrameData, type FrameMesh, type FrameTexture, isDisplayOnlyMesh } from '../../src-shared/sim/frame'
import type { ResolvedExport } from './exportOptions'
import type { NamedItem } from './fileNames'
import type { ManifestCounts, ManifestFileKind, ManifestGrid, ManifestTexture } from './manifest'
import { textureAtlas } from './textureAtlas'

export interface FrameOutput extends NamedItem {
  kind: ManifestFileKind
  render(): Promise<RenderedFile>
}

export interface RenderedFile {
  bytes: Uint8Array
  counts: ManifestCounts
  grids?: ManifestGrid[]
  texture?: ManifestTexture
}

export const EXTENSIONS = { vdb: 'vdb', obj: 'obj', ply: 'ply', gltf: 'gltf', glb: 'glb', png: 'png' } as const

const meshCounts = (m: FrameMesh): ManifestCounts => ({ vertices: m.positions.length / 3, triangles: m.indices.length / 3 })

function sumCounts(ms: readonly FrameMesh[]): ManifestCounts {
  let vertices = 0
  let triangles = 0
  for (const m of ms) (vertices += m.positions.length / 3), (triangles += m.indices.length / 3)
  return { vertices, triangles }
}

/** One texture as an 8-bit RGBA PNG atlas, with its layout for the manifest. */
function renderTextureAtlas(t: FrameTexture): RenderedFile {
  const atlas = textureAtlas(t)
  const png = new PNG({ width: atlas.width, height: atlas.height })
  png.data = Buffer.from(atlas.rgba.buffer, atlas.rgba.byteOffset, atlas.rgba.byteLength)
  // RGBA in, RGBA 8-bit out (colour type 6): unused tiles need the alpha.
  const bytes = PNG.sync.write(png, { colorType: 6, inputColorType: 6, inputHasAlpha: true, bitDepth: 8 })
  const range = atlas.encoding === 'range' ? { min: atlas.min ?? 0, max: atlas.max ?? 0 } : {}
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    counts: { layers: t.layers },
    texture: { ...atlas.layout, components: t.components, encoding: atlas.encoding, ...range },
  }
}

/** OBJ vertex colours: the mesh's linear 'color' attribute, sRGB-encoded as readers expect. */
function objColours(m: FrameMesh): Float32Array | undefined {
  const c = vertexColours(m)
  return c ? c.map(linearToSrgb) : undefined
}

export function frameOutputs(frame: FrameData, opts: ResolvedExport): FrameOutput[] {
  // Display-only meshes (a family's diagnostic views) are the viewport's, never exported.
  const data: FrameData = frame.meshes.some(isDisplayOnlyMesh) ? { ...frame, meshes: frame.meshes.filter((m) => !isDisplayOnlyMesh(m)) } : frame
  const zUp = opts.upAxis === 'z'
  const placeMesh = (m: FrameMesh): FrameMesh => (zUp ? meshToZUp(m) : m)
  const bodies = data.rigidBodies ?? []
  const axes = `${opts.upAxis.toUpperCase()} up`
  switch (opts.format) {
    case 'vdb': {
      if (data.volumes.length === 0) return []
      const names = data.volumes.map((v) => v.name)
      return [{
        key: 'volumes',
        name: names.join(', '),
        kind: 'volume',
        async render() {
          const grids = vdbGridsFromVolumes(data.volumes, { zUp, halfFloat: opts.vdbHalf })
          // ZIP is what Blender's and Houdini's own caches use; every OpenVDB build reads it.
          const { bytes, grids: summary } = writeVdbWithSummary(grids, { deflate: (raw) => deflateSync(raw) })
          const manifestGrids: ManifestGrid[] = summary.map((s, i) => ({ name: s.name, type: grids[i].type, voxels: s.activeVoxels, voxelSize: grids[i].voxelSize }))
          return { bytes, counts: { voxels: summary.reduce((n, s) => n + s.activeVoxels, 0) }, grids: manifestGrids }
        },
      }]
    }
    case 'obj':
      return [
        ...data.meshes.map((m) => ({
          key: `mesh:${m.name}`,
          name: m.name,
          kind: 'mesh' as const,
          async render() {
            const placed = placeMesh(m)
            const text = writeObj(placed, { normals: placed.normals, colors: objColours(placed), header: `Eddy mesh "${m.name}", frame ${data.frame}, ${axes}, metres` })
            return { bytes: new TextEncoder().encode(text), counts: meshCounts(m) }
          },
        })),
        // One file per frame, one object per body: a sequence importer sees them move together.
        ...(bodies.length === 0
          ? []
          : [{
              key: 'rigidBodies',
              name: 'rigid bodies',
              kind: 'rigidBodies' as const,
              async render() {
                const posed = bodies.map((b) => placeMesh(posedMesh(b)))
                const objects = posed.map((m) => ({ name: m.name, mesh: m, normals: m.normals, colors: objColours(m) }))
                const text = writeObjObjects(objects, { header: `Eddy rigid bodies, frame ${data.frame}, ${axes}, metres, world space` })
                return { bytes: new TextEncoder().encode(text), counts: { ...sumCounts(posed), bodies: bodies.length } }
              },
            }]),
      ]
    case 'ply':
      return [
        ...data.particles.map((p) => ({
          key: `particles:${p.name}`,
          name: p.name,
          kind: 'particles' as const,
          async render() {
            const placed = zUp ? particlesToZUp(p) : p
            return { bytes: writeParticlePly(placed, `Eddy particles "${p.name}", frame ${data.frame}, ${opts.upAxis.toUpperCase()} up`), counts: { particles: p.count } }
          },
        })),
        ...data.meshes.map((m) => ({
          key: `mesh:${m.name}`,
          name: m.name,
          kind: 'mesh' as const,
          async render() {
            return { bytes: writeMeshPly(placeMesh(m), `Eddy mesh "${m.name}", frame ${data.frame}, ${axes}`), counts: meshCounts(m) }
          },
        })),
        // PLY holds one mesh per file: one file per body, its triangles in world space.
        ...bodies.map((b) => ({
          key: `body:${b.id}`,
          name: b.name,
          kind: 'rigidBodies' as const,
          async render() {
            const posed = placeMesh(posedMesh(b))
            return { bytes: writeMeshPly(posed, `Eddy rigid body "${b.name}", frame ${data.frame}, ${axes}, world space`), counts: { ...meshCounts(posed), bodies: 1 } }
          },
        })),
      ]
    case 'gltf':
    case 'glb': {
      if (data.meshes.length === 0 && bodies.length === 0) return []
      return [{
        key: 'meshes',
        name: [...data.meshes, ...bodies].map((m) => m.name).join(', '),
        kind: 'mesh',
        async render() {
          const { bytes, summary } = await writeGltfFrame(data.meshes.map(placeMesh), { binary: opts.format === 'glb', frame: data.frame, time: data.time, rigidBodies: bodies })
          return { bytes, counts: { vertices: summary.vertices, triangles: summary.triangles } }
        },
      }]
    }
    case 'png':
      // One atlas per texture; a frame without textures (or with empty ones) writes nothing.
      return (data.textures ?? [])
        .filter((t) => t.width * t.height * t.layers > 0)
        .map((t) => ({
          key: `texture:${t.name}`,
          name: t.name,
          kind: 'texture' as const,
          async render() {
            return renderTextureAtlas(t)
          },
        }))
  }
}

/**
 * The sentence for a format that has nothing to write in this simulation. (Rigid bodies count
 * as meshes here: a frame that has any is never refused.)
 */
export function nothingToWrite(format: ResolvedExport['format'], simName: string, frame: number): string {
  const what = {
    vdb: 'has no volumes (density, temperature, velocity), so there is nothing to write as OpenVDB; export its meshes or particles instead',
    obj: 'has no meshes, so there is nothing to write as OBJ; a smoke simulation exports as VDB',
    ply: 'has neither particles nor meshes, so there is nothing to write as PLY; a smoke simulation exports as VDB',
    gltf: 'has no meshes, so there is nothing to write as glTF; a smoke simulation exports as VDB',
    glb: 'has no meshes, so there is nothing to write as GLB; a smoke simulation exports as VDB',
    png: 'has no per-patch textures to write as PNG; PNG atlases come from surface flows',
  }[format]
  return `"${simName}" ${what} (checked on frame ${frame}, the first of the range)`
}

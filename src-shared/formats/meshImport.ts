// One entry point for "the artist picked a mesh file": pick the parser by extension, clean and
// validate the result, and describe it for the scene document. Pure (bytes in, mesh out) so
// the host, the renderer and tests all share it.
import { EddyError } from '../api/errors'
import type { MeshFormat, MeshInfo } from '../scene/types'
import { computeBounds, dropDegenerateTriangles, validateTriMesh, type TriMesh } from '../geometry/triMesh'
import { parseGltf } from './gltf'
import { parseObj } from './obj'
import { parseStl } from './stl'

export const MAX_MESH_FILE_BYTES = 512 * 1024 * 1024

const FORMAT_BY_EXTENSION: Record<string, MeshFormat> = { '.obj': 'obj', '.stl': 'stl', '.gltf': 'gltf', '.glb': 'glb' }

export async function importMeshFile(
  fileName: string,
  bytes: Uint8Array,
): Promise<{ mesh: TriMesh; format: MeshFormat; info: Omit<MeshInfo, 'id'> }> {
  // Accept a path as well as a bare name; only the last component matters.
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1)
  const dot = base.lastIndexOf('.')
  const ext = dot > 0 ? base.slice(dot).toLowerCase() : ''
  const format = FORMAT_BY_EXTENSION[ext]
  if (!format) {
    const shown = ext === '' ? `"${base}" has no file extension` : `unsupported mesh format "${ext}"`
    throw new EddyError('MESH_PARSE', `${shown}; Eddy imports OBJ, STL, glTF and GLB`, { fileName: base })
  }
  if (bytes.length === 0) throw new EddyError('MESH_PARSE', `"${base}" is empty`)
  if (bytes.length > MAX_MESH_FILE_BYTES) {
    const mib = Math.round(bytes.length / (1024 * 1024))
    throw new EddyError('MESH_PARSE', `"${base}" is too large (${mib} MiB); Eddy imports mesh files up to 512 MiB`)
  }

  let mesh: TriMesh
  switch (format) {
    case 'obj':
      mesh = parseObj(bytes, base)
      break
    case 'stl':
      mesh = parseStl(bytes, base)
      break
    case 'gltf':
    case 'glb':
      mesh = await parseGltf(bytes, base, format === 'glb')
      break
  }
  mesh = dropDegenerateTriangles(mesh)
  validateTriMesh(mesh, `"${base}"`)
  return {
    mesh,
    format,
    info: {
      name: dot > 0 ? base.slice(0, dot) : base,
      format,
      vertexCount: mesh.positions.length / 3,
      triangleCount: mesh.indices.length / 3,
      bounds: computeBounds(mesh.positions),
    },
  }
}

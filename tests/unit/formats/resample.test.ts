// The rule for unstructured fields (frame.ts): resampleToVolume builds the regular grid the
// raymarcher and VDB export read, and requireRegularVolumes catches a frame without one. Also
// the rigid-body pose helper, which the viewport and the OBJ/PLY exporters share.
import { describe, expect, it } from 'vitest'
import { encodeFrame, decodeFrame } from '../../../src-shared/formats/frameRecord'
import { posedMesh, rotateTranslate, unitQuat } from '../../../src-shared/formats/rigidBodyPose'
import type { FrameData, Quat } from '../../../src-shared/sim/frame'
import { requireRegularVolumes, resampleToVolume } from '../../../src-shared/sim/resample'

describe('resampleToVolume', () => {
  it('samples the field at cell centres over the box, x fastest', () => {
    const seen: number[][] = []
    const v = resampleToVolume('density', { min: [-1, 0, 2], max: [-0.4, 0.4, 2.2] }, 0.2, (x, y, z) => {
      seen.push([x, y, z])
      return x * 100 + y * 10 + z
    })
    expect(v.dims).toEqual([3, 2, 1])
    expect(v.origin).toEqual([-1, 0, 2])
    expect(v.voxelSize).toBe(0.2)
    expect(v.components).toBe(1)
    expect(seen.length).toBe(6)
    const [nx, ny] = v.dims
    for (let k = 0; k < 1; k++)
      for (let j = 0; j < ny; j++)
        for (let i = 0; i < nx; i++) {
          const x = -1 + (i + 0.5) * 0.2, y = (j + 0.5) * 0.2, z = 2 + 0.1
          expect(v.data[i + nx * (j + ny * k)]).toBeCloseTo(x * 100 + y * 10 + z, 4)
        }
  })

  it('covers a box that is not a whole number of cells, stores non-finite samples as 0, refuses bad sizes', () => {
    const v = resampleToVolume('d', { min: [0, 0, 0], max: [0.25, 0.1, 0] }, 0.1, (x) => (x > 0.2 ? NaN : 1))
    expect(v.dims).toEqual([3, 1, 1])
    expect(Array.from(v.data)).toEqual([1, 1, 0])
    expect(() => resampleToVolume('d', { min: [0, 0, 0], max: [1, 1, 1] }, 0, () => 0)).toThrow(/voxel size/)
    expect(() => resampleToVolume('d', { min: [0, 0, 0], max: [-1, 1, 1] }, 0.1, () => 0)).toThrow(/axis x/)
    expect(() => resampleToVolume('d', { min: [0, 0, 0], max: [10, 10, 10] }, 0.001, () => 0)).toThrow(/cells/)
  })

  it('a resampled field of an unstructured family passes the rule and survives the cache', () => {
    // A "tetrahedral" field: a sphere of density 2 sampled onto a grid beside its native nodes.
    const density = resampleToVolume('density', { min: [-1, -1, -1], max: [1, 1, 1] }, 0.25, (x, y, z) => (x * x + y * y + z * z < 0.5 ? 2 : 0))
    const frame: FrameData = {
      time: 0,
      frame: 1,
      volumes: [density],
      meshes: [],
      particles: [{ name: 'nodes', count: 1, positions: new Float32Array([0, 0, 0]), attributes: { density: { components: 1, data: new Float32Array([2]) } } }],
      stats: {},
    }
    expect(() => requireRegularVolumes(frame, ['density'], 'FEM')).not.toThrow()
    expect(() => requireRegularVolumes(decodeFrame(encodeFrame(frame)), ['density'], 'FEM')).not.toThrow()
    expect(() => requireRegularVolumes({ ...frame, volumes: [] }, ['density'], 'FEM')).toThrow(/FEM frame 1 has no regular 'density' volume/)
    expect(() => requireRegularVolumes({ ...frame, volumes: [{ ...density, data: density.data.subarray(1) }] }, ['density'], 'FEM')).toThrow(/not a regular grid/)
  })
})

describe('rigid body pose', () => {
  it('rotates by the unit quaternion then translates (90 degrees about +y takes +x to -z)', () => {
    const s = Math.SQRT1_2
    const q: Quat = [0, s, 0, s]
    const out = rotateTranslate(new Float32Array([1, 0, 0, 0, 0, 1]), q, [10, 20, 30], new Float32Array(6))
    expect(Array.from(out).map((v) => Math.round(v * 1e5) / 1e5)).toEqual([10, 20, 29, 11, 20, 30])
  })

  it('normalises drifted or degenerate quaternions', () => {
    expect(unitQuat([0, 0, 0, 2])).toEqual([0, 0, 0, 1])
    expect(unitQuat([0, 0, 0, 0])).toEqual([0, 0, 0, 1])
    expect(unitQuat([NaN, 0, 0, 1])).toEqual([0, 0, 0, 1])
  })

  it('poses positions, turns normals and vector attributes, keeps colours and scalars', () => {
    const s = Math.SQRT1_2
    const mesh = {
      name: 'local',
      positions: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]),
      indices: new Uint32Array([0, 1, 2]),
      normals: new Float32Array([1, 0, 0, 1, 0, 0, 1, 0, 0]),
      attributes: { color: { components: 3 as const, data: new Float32Array([1, 0, 0, 1, 0, 0, 1, 0, 0]) }, velocity: { components: 3 as const, data: new Float32Array([1, 0, 0, 1, 0, 0, 1, 0, 0]) } },
    }
    // 90 degrees about +z: +x -> +y. Stored with length 2 to check the normalisation.
    const posed = posedMesh({ id: 'a', name: 'Crate', position: [1, 2, 3], orientation: [0, 0, 2 * s, 2 * s], linearVelocity: [0, 0, 0], angularVelocity: [0, 0, 0], mesh })
    const r = (a: Float32Array) => Array.from(a).map((v) => Math.round(v * 1e5) / 1e5 + 0)
    expect(posed.name).toBe('Crate')
    expect(r(posed.positions)).toEqual([1, 3, 3, 0, 2, 3, 1, 2, 4])
    expect(r(posed.normals!)).toEqual([0, 1, 0, 0, 1, 0, 0, 1, 0])
    expect(r(posed.attributes!.velocity.data)).toEqual([0, 1, 0, 0, 1, 0, 0, 1, 0])
    expect(posed.attributes!.color).toBe(mesh.attributes.color)
    expect(posed.indices).toBe(mesh.indices)
  })
})

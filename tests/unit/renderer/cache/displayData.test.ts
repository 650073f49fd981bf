// Display data from frames and records: the RG8 volume encoding, particle colour values, mesh
// normals, and that decoding a record for display skips velocity yet agrees with a full decode.
import { describe, expect, it } from 'vitest'
import { decodeFrame, encodeFrame } from '../../../../src-shared/formats/frameRecord'
import {
  decodeForDisplay,
  displayFromFrame,
  displayTransferables,
  meshDisplay,
  particleDisplay,
  vertexNormals,
  volumeDisplay,
} from '../../../../src-renderer/viewport/cache/displayData'
import { sampleFrame, vol } from './sampleFrames'

describe('volumeDisplay', () => {
  it('packs sqrt(density / max) into R and (T - ambient) / (max - ambient) into G', () => {
    const dims: [number, number, number] = [2, 2, 2]
    const d = vol('density', dims, [0, 0.5, 2, 8, -1, NaN, Infinity, 0.125])
    const t = vol('temperature', dims, [300, 350, 400, 500, 250, NaN, 300, 1000])
    const v = volumeDisplay(d, t, 300)
    expect(v).not.toBeNull()
    if (!v) return
    expect(v.dims).toEqual([2, 2, 2])
    expect(v.origin).toEqual([-1, 0, 2])
    expect(v.voxelSize).toBe(0.25)
    expect(v.densityMax).toBe(8) // +Infinity is not a maximum a shader can scale by
    const r = Array.from({ length: 8 }, (_, i) => v.texels[2 * i])
    const g = Array.from({ length: 8 }, (_, i) => v.texels[2 * i + 1])
    const R = (x: number) => Math.round(255 * Math.sqrt(x / 8))
    expect(r).toEqual([0, R(0.5), R(2), 255, 0, 0, 255, R(0.125)])
    expect(v.temperatureAmbient).toBe(300)
    expect(v.temperatureMax).toBe(1000)
    const G = (x: number) => Math.round((255 * (x - 300)) / 700)
    expect(g).toEqual([0, G(350), G(400), G(500), 0, 0, 0, 255])
  })

  it('takes the coldest cell as ambient when none is given; no heat means G = 0 and max = ambient', () => {
    const dims: [number, number, number] = [3, 1, 1]
    const v = volumeDisplay(vol('density', dims, [1, 1, 1]), vol('temperature', dims, [293.15, 293.15, 393.15]))
    expect(v?.temperatureAmbient).toBeCloseTo(293.15, 4)
    expect(v?.texels[5]).toBe(255)
    const flat = volumeDisplay(vol('density', dims, [0, 0, 0]), vol('temperature', dims, [293, 293, 293]))
    expect(flat?.densityMax).toBe(0)
    expect(flat?.temperatureMax).toBe(flat?.temperatureAmbient)
    expect(Array.from(flat?.texels ?? [])).toEqual([0, 0, 0, 0, 0, 0])
  })

  it('ignores a temperature on another grid and returns null without density or temperature', () => {
    const d = vol('density', [2, 1, 1], [1, 2])
    const t = { ...vol('temperature', [2, 1, 1], [400, 500]), voxelSize: 0.5 }
    const v = volumeDisplay(d, t, 300)
    expect(Array.from(v?.texels ?? [])).toEqual([Math.round(255 * Math.sqrt(0.5)), 0, 255, 0])
    expect(volumeDisplay(undefined, undefined)).toBeNull()
  })
})

describe('particleDisplay', () => {
  const set = sampleFrame().particles[0]
  it('colours vector attributes by magnitude and scalars directly, with their range', () => {
    const byVort = particleDisplay(set) // vorticity is a default choice
    expect(byVort.colorBy).toBe('vorticity')
    expect(Array.from(byVort.values ?? [])).toEqual([5, 0, 3])
    expect([byVort.valueMin, byVort.valueMax]).toEqual([0, 5])
    const byRadius = particleDisplay(set, 'radius')
    expect(Array.from(byRadius.values ?? [])).toEqual([0.1, 0.5, 0.2].map(Math.fround))
    expect(byRadius.valueMax).toBeCloseTo(0.5)
    expect(byRadius.attributes).toEqual(['vorticity', 'radius'])
    expect(Array.from(byRadius.positions)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('no colour for null, an unknown attribute or a short one', () => {
    expect(particleDisplay(set, null).values).toBeNull()
    expect(particleDisplay(set, 'age').colorBy).toBeNull()
    const short = { ...set, attributes: { speed: { components: 1, data: new Float32Array(2) } } }
    expect(particleDisplay(short, 'speed').values).toBeNull()
  })
})

describe('meshDisplay', () => {
  it('area-weighted vertex normals: a large face outweighs a small one', () => {
    // Vertex 0 is on a 2 m^2 triangle facing +Z and a 0.5 m^2 one facing -X: their cross
    // products are (0, 0, 4) and (-1, 0, 0), twice their areas.
    const positions = new Float32Array([0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, -1, 0, 1, 0])
    const indices = new Uint32Array([0, 1, 2, 0, 4, 3])
    const n = vertexNormals(positions, indices)
    const want = [-1, 0, 4]
    const len = Math.hypot(...want)
    expect(n[0]).toBeCloseTo(want[0] / len, 6)
    expect(n[1]).toBeCloseTo(0, 6)
    expect(n[2]).toBeCloseTo(want[2] / len, 6)
    expect(Array.from(n.subarray(3, 6))).toEqual([0, 0, 1]) // only on the large one
  })

  it('outward normals on a closed tetrahedron; given normals are kept; bad triangles dropped', () => {
    const m = sampleFrame().meshes[0]
    const d = meshDisplay(m)
    // Vertex 3 at (0,0,1): its normal points away from the centroid (0.25, 0.25, 0.25).
    expect(d.normals[11]).toBeGreaterThan(0.5)
    const normals = new Float32Array(12).fill(0.5)
    expect(meshDisplay({ ...m, normals }).normals).toBe(normals)
    const bad = meshDisplay({ ...m, indices: new Uint32Array([0, 1, 2, 0, 1, 9, 3]) })
    expect(Array.from(bad.indices)).toEqual([0, 1, 2])
  })
})

describe('decodeForDisplay', () => {
  for (const precision of ['float32', 'float16', 'uint8'] as const) {
    it(`a ${precision} record gives what a full decode gives`, () => {
      const record = encodeFrame(sampleFrame(), { precision })
      const fromRecord = decodeForDisplay(record, { ambientTemperature: 293, particleColorBy: 'radius' })
      const full = displayFromFrame(decodeFrame(record), { ambientTemperature: 293, particleColorBy: 'radius' })
      expect(fromRecord).toEqual(full)
      expect(fromRecord.frame).toBe(37)
      expect(fromRecord.volume?.dims).toEqual([12, 10, 9])
      // RG8 texels and the R8 light volume, then the points and the mesh.
      expect(fromRecord.volume?.light?.length).toBe(12 * 10 * 9)
      expect(fromRecord.bytes).toBe(12 * 10 * 9 * 3 + 4 * (9 + 3) + 4 * (12 + 12 + 12))
    })
  }

  it('lists every buffer once for transfer', () => {
    const f = displayFromFrame(sampleFrame())
    const t = displayTransferables(f)
    expect(new Set(t).size).toBe(t.length)
    expect(t).toContain(f.volume?.texels.buffer)
    expect(t).toContain(f.volume?.light?.buffer)
    expect(t).toContain(f.meshes[0].normals.buffer)
  })
})

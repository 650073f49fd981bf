// liquid/frameArrayKernel.ts interleaveMarkersSlab: the markers' per-axis arrays into the
// frame's x, y, z triples, four markers a step by lane shuffles (float32 bits copied, no
// arithmetic, so the same bits as the reference).

/** x, y, z (four markers each) as three vectors of interleaved triples at out. */
@inline function storeTriples(out: usize, x: v128, y: v128, z: v128): void {
  const xy01 = v128.shuffle<f32>(x, y, 0, 4, 1, 5) // x0 y0 x1 y1
  const xy23 = v128.shuffle<f32>(x, y, 2, 6, 3, 7) // x2 y2 x3 y3
  v128.store(out, v128.shuffle<f32>(xy01, z, 0, 1, 4, 2)) // x0 y0 z0 x1
  const yz = v128.shuffle<f32>(xy01, z, 3, 5, 3, 5) // y1 z1 y1 z1
  v128.store(out, v128.shuffle<f32>(yz, xy23, 0, 1, 4, 5), 16) // y1 z1 x2 y2
  v128.store(out, v128.shuffle<f32>(xy23, z, 6, 2, 3, 7), 32) // z2 x3 y3 z3
}

/** interleaveMarkersSlab over markers [q0, q1). */
export function interleaveMarkers(px: usize, py: usize, pz: usize, vx: usize, vy: usize, vz: usize, positions: usize, velocity: usize, q0: i32, q1: i32): void {
  let q = q0
  for (; q + 4 <= q1; q += 4) {
    const o = <usize>q << 2
    const t = <usize>(3 * q) << 2
    storeTriples(positions + t, v128.load(px + o), v128.load(py + o), v128.load(pz + o))
    storeTriples(velocity + t, v128.load(vx + o), v128.load(vy + o), v128.load(vz + o))
  }
  for (; q < q1; q++) {
    const o = <usize>q << 2
    const t = <usize>(3 * q) << 2
    store<f32>(positions + t, load<f32>(px + o))
    store<f32>(positions + t, load<f32>(py + o), 4)
    store<f32>(positions + t, load<f32>(pz + o), 8)
    store<f32>(velocity + t, load<f32>(vx + o))
    store<f32>(velocity + t, load<f32>(vy + o), 4)
    store<f32>(velocity + t, load<f32>(vz + o), 8)
  }
}

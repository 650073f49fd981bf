// Little-endian bulk conversion between typed arrays and record bytes. On little-endian hosts
// (every platform Eddy ships on) a typed array's own bytes are used without copying.

export const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

export function f32Bytes(a: Float32Array): Uint8Array {
  if (HOST_LE) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const out = new Uint8Array(a.length * 4)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) dv.setFloat32(i * 4, a[i], true)
  return out
}

export function u32Bytes(a: Uint32Array): Uint8Array {
  if (HOST_LE) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const out = new Uint8Array(a.length * 4)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) dv.setUint32(i * 4, a[i], true)
  return out
}

export function readF32(src: Uint8Array, offset: number, length: number): Float32Array {
  const out = new Float32Array(length)
  if (HOST_LE) new Uint8Array(out.buffer).set(src.subarray(offset, offset + length * 4))
  else {
    const dv = new DataView(src.buffer, src.byteOffset + offset, length * 4)
    for (let i = 0; i < length; i++) out[i] = dv.getFloat32(i * 4, true)
  }
  return out
}

export function readU32(src: Uint8Array, offset: number, length: number): Uint32Array {
  const out = new Uint32Array(length)
  if (HOST_LE) new Uint8Array(out.buffer).set(src.subarray(offset, offset + length * 4))
  else {
    const dv = new DataView(src.buffer, src.byteOffset + offset, length * 4)
    for (let i = 0; i < length; i++) out[i] = dv.getUint32(i * 4, true)
  }
  return out
}

export function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

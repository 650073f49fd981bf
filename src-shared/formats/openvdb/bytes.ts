// Little-endian growable byte buffer for the VDB writer (pure TS: no Buffer, no TextEncoder).

export class ByteWriter {
  private buf: Uint8Array
  private view: DataView
  length = 0

  constructor(initialCapacity = 1 << 16) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity))
    this.view = new DataView(this.buf.buffer)
  }

  private ensure(extra: number): void {
    const need = this.length + extra
    if (need <= this.buf.length) return
    let cap = this.buf.length * 2
    while (cap < need) cap *= 2
    const next = new Uint8Array(cap)
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
    this.view = new DataView(next.buffer)
  }

  u8(v: number): void {
    this.ensure(1)
    this.buf[this.length++] = v & 0xff
  }

  u32(v: number): void {
    this.ensure(4)
    this.view.setUint32(this.length, v >>> 0, true)
    this.length += 4
  }

  i32(v: number): void {
    this.ensure(4)
    this.view.setInt32(this.length, v | 0, true)
    this.length += 4
  }

  /** int64 from a JS number (exact below 2^53). */
  i64(v: number): void {
    this.ensure(8)
    this.view.setBigInt64(this.length, BigInt(Math.trunc(v)), true)
    this.length += 8
  }

  /** Overwrite an int64 already written at `at`. */
  patchI64(at: number, v: number): void {
    this.view.setBigInt64(at, BigInt(Math.trunc(v)), true)
  }

  f32(v: number): void {
    this.ensure(4)
    this.view.setFloat32(this.length, v, true)
    this.length += 4
  }

  f64(v: number): void {
    this.ensure(8)
    this.view.setFloat64(this.length, v, true)
    this.length += 8
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }

  /** Float32 values, little-endian, without per-value DataView calls when the host is LE. */
  f32s(a: Float32Array): void {
    this.ensure(a.length * 4)
    if (HOST_LITTLE_ENDIAN) {
      this.buf.set(new Uint8Array(a.buffer, a.byteOffset, a.length * 4), this.length)
      this.length += a.length * 4
    } else {
      for (let i = 0; i < a.length; i++) this.f32(a[i])
    }
  }

  /** Characters with no length prefix (UTF-8). */
  chars(s: string): void {
    this.bytes(encodeUtf8(s))
  }

  /** OpenVDB `writeString`: uint32 byte length, then the bytes (UTF-8, no terminator). */
  str(s: string): void {
    const b = encodeUtf8(s)
    this.u32(b.length)
    this.bytes(b)
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length)
  }
}

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

export function encodeUtf8(s: string): Uint8Array {
  const out: number[] = []
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0xfffd
    if (cp < 0x80) out.push(cp)
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63))
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63))
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63))
  }
  return new Uint8Array(out)
}

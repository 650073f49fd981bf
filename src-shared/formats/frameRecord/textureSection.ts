// Texture sections (version 4): a stack of same-sized images, its float32 values in data
// order (components interleaved, x-fastest, then rows, then layers), like a mesh's arrays.
import { EddyError } from '../../api/errors'
import type { FrameTexture } from '../../sim/frame'
import { f32Bytes, readF32 } from './bytes'
import type { TextureHeader } from './header'

/** The raw (not yet deflated) bytes of a texture and its header without the packed length. */
export function encodeTexture(t: FrameTexture, i: number): { raw: Uint8Array; header: Omit<TextureHeader, 'packed'> } {
  if (typeof t.name !== 'string') throw new EddyError('INVALID_PARAM', `Texture ${i} needs a string name`)
  const what = `Texture '${t.name}'`
  for (const k of ['width', 'height', 'layers'] as const) {
    if (!Number.isInteger(t[k]) || t[k] < 1) throw new EddyError('INVALID_PARAM', `${what} ${k} must be an integer >= 1, got ${String(t[k])}`)
  }
  if (t.components !== 1 && t.components !== 3) throw new EddyError('INVALID_PARAM', `${what} has ${String(t.components)} components (1 or 3)`)
  const want = t.components * t.width * t.height * t.layers
  if (!(t.data instanceof Float32Array) || t.data.length !== want) {
    const got = t.data instanceof Float32Array ? `${t.data.length} values` : 'no Float32Array'
    throw new EddyError('INVALID_PARAM', `${what} has ${got} for ${t.width}x${t.height}x${t.layers} texels x ${t.components} (${want})`)
  }
  const raw = f32Bytes(t.data)
  return { raw, header: { name: t.name, width: t.width, height: t.height, layers: t.layers, components: t.components, raw: raw.length } }
}

/** The texture from its header (checked by parseHeader) and its inflated section. */
export function decodeTexture(th: TextureHeader, raw: Uint8Array): FrameTexture {
  return {
    name: th.name,
    width: th.width,
    height: th.height,
    layers: th.layers,
    components: th.components,
    data: readF32(raw, 0, th.components * th.width * th.height * th.layers),
  }
}

// File names of an export: `<base>_<frame>.<ext>` when a frame produces one file, and
// `<base>_<item>_<frame>.<ext>` for each item when it produces several (several meshes,
// or particles and a mesh in PLY). The frame number is always the last digits before the
// extension: that is how Blender (volume and mesh sequences) and Houdini ($F) find the
// sequence. Numbers shorter than `padding` are zero-padded; longer ones keep every digit.
import { sanitizeName } from './exportOptions'

export function frameDigits(frame: number, padding: number): string {
  const digits = String(Math.abs(frame)).padStart(padding, '0')
  return frame < 0 ? `-${digits}` : digits
}

/**
 * One manifest per format (`<base>_<format>_manifest.json`): exports of several formats into
 * one folder (volumes as VDB, the surface as OBJ) each keep theirs.
 */
export const manifestFileName = (base: string, format: string): string => `${base}_${format}_manifest.json`

/** One thing a frame writes: `key` identifies it across frames, `name` is its own name. */
export interface NamedItem {
  key: string
  name: string
  kind: string
}

/**
 * Chooses the naming once, from the first exported frame, so every item keeps one name for
 * the whole sequence: the unqualified `<base>_<frame>` belongs to the first frame's item
 * when it was the only one; every other item is qualified by its name (made unique).
 */
export class SequenceNamer {
  private readonly solo: string | undefined
  private readonly qualifiers = new Map<string, string>()
  private readonly used = new Set<string>()

  constructor(
    private readonly base: string,
    private readonly padding: number,
    private readonly ext: string,
    firstFrameItems: readonly NamedItem[],
  ) {
    this.solo = firstFrameItems.length === 1 ? firstFrameItems[0].key : undefined
  }

  fileName(item: NamedItem, frame: number): string {
    const q = item.key === this.solo ? '' : `${this.qualifier(item)}_`
    return `${this.base}_${q}${frameDigits(frame, this.padding)}.${this.ext}`
  }

  private qualifier(item: NamedItem): string {
    const known = this.qualifiers.get(item.key)
    if (known !== undefined) return known
    // Two items whose names sanitize alike (or a PLY particle set and mesh of one name)
    // must not overwrite each other: add the kind, then a number.
    const plain = sanitizeName(item.name, item.kind)
    let q = plain
    if (this.used.has(q)) q = `${plain}_${item.kind}`
    for (let n = 2; this.used.has(q); n++) q = `${plain}_${item.kind}${n}`
    this.used.add(q)
    this.qualifiers.set(item.key, q)
    return q
  }
}

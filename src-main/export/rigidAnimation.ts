// The one animated glTF/GLB file of a glTF export with rigid bodies: frames add their bodies'
// poses as they are read (a few numbers per body per frame, the local mesh once per body),
// and after the last frame the file is written as `<base>_rigid_bodies.<ext>`. Key times are
// (frame - 1) / fps, Eddy's own clock (frame 1 is t = 0), so keys land on whole frames.
import { RigidTrackRecorder, writeGltfRigidAnimation } from '../../src-shared/formats/gltfRigidAnimation'
import type { FrameData } from '../../src-shared/sim/frame'
import type { ResolvedExport } from './exportOptions'
import type { ManifestFile } from './manifest'

export class RigidAnimationExport {
  private readonly recorder = new RigidTrackRecorder()
  private first: number | null = null
  private last: number | null = null

  constructor(
    private readonly opts: ResolvedExport,
    private readonly fps: number,
  ) {}

  add(data: FrameData): void {
    const bodies = data.rigidBodies ?? []
    if (bodies.length === 0) return
    this.first ??= data.frame
    this.last = data.frame
    this.recorder.add((data.frame - 1) / this.fps, bodies)
  }

  get hasBodies(): boolean {
    return this.first !== null
  }

  /** Not a sequence: no frame number, so Blender imports it as one animated scene. */
  get fileName(): string {
    return `${this.opts.baseName}_rigid_bodies.${this.opts.format === 'glb' ? 'glb' : 'gltf'}`
  }

  async render(): Promise<{ bytes: Uint8Array; entry: ManifestFile }> {
    const tracks = this.recorder.tracks
    const { bytes, summary } = await writeGltfRigidAnimation(tracks, { binary: this.opts.format === 'glb' })
    const entry: ManifestFile = {
      frame: this.first!,
      lastFrame: this.last!,
      path: this.fileName,
      kind: 'animation',
      name: tracks.map((t) => t.name).join(', '),
      counts: { bodies: summary.bodies, keyframes: summary.keyframes, vertices: summary.vertices, triangles: summary.triangles },
    }
    return { bytes, entry }
  }
}

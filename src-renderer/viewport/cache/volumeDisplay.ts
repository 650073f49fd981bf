// Baked smoke in the viewport: a box spanning the volume's world bounds whose material
// raymarches an RG8 3D texture (density, temperature; see volumeShader.ts) lit through an R8
// one (the key light's transmittance, lightVolume.ts). RG8 needs no
// float-texture extension, so it works on WebGL2 everywhere, SwiftShader included, and a
// 128^3 frame is a 4 MiB upload (float32 would be 16 MiB, plus a float-filtering extension).
import { Constants } from '@babylonjs/core/Engines/constants'
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial'
import { RawTexture3D } from '@babylonjs/core/Materials/Textures/rawTexture3D'
import { Texture } from '@babylonjs/core/Materials/Textures/texture'
import { Color3 } from '@babylonjs/core/Maths/math.color'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { Scene } from '@babylonjs/core/scene'
import type { VolumeDisplayData } from './displayData'
import { MAX_STEPS, VOLUME_FRAGMENT, VOLUME_VERTEX } from './volumeShader'
import { LIGHT_DENSITY_SCALE } from '../../../src-shared/formats/lightVolume'
import { nextStepScale } from './stepBudget'

export type VolumeQuality = 'low' | 'medium' | 'high'

/** Steps across the box diagonal, per preset (the lighting is the same in all: one light-volume fetch per step). */
export const QUALITY_STEPS: Record<VolumeQuality, { steps: number }> = {
  low: { steps: 64 },
  medium: { steps: 128 },
  high: { steps: 256 },
}

/** Extinction per unit density, 1/m: density 1 across 0.5 m lets through e^-2 of the light. */
export const DEFAULT_DENSITY_SCALE = 4


export class VolumeDisplay {
  private readonly scene: Scene
  private readonly mesh: Mesh
  private readonly material: ShaderMaterial
  private texture: RawTexture3D | null = null
  private lightTexture: RawTexture3D | null = null
  private lightDims: [number, number, number] = [0, 0, 0]
  /** The arrays last uploaded: Babylon keeps them to restore the textures after a lost GPU context. */
  private uploaded: { texels: Uint8Array | null; light: Uint8Array | null } = { texels: null, light: null }
  private dims: [number, number, number] = [0, 0, 0]
  private readonly boxMin = new Vector3()
  private readonly boxMax = new Vector3()
  private hasData = false
  private visible = true
  private emissionSpan: number | null = null
  private readonly beforeRender: Observer<Scene>
  /** Steps the preset asks for, and the fraction of them the frame-time budget allows now (stepBudget.ts). */
  private requestedSteps = 128
  private stepScale = 1

  constructor(scene: Scene) {
    this.scene = scene
    this.mesh = CreateBox('cache:volume', { size: 1 }, scene)
    this.mesh.isPickable = false
    this.mesh.setEnabled(false)
    this.material = new ShaderMaterial(
      'cache:volumeMaterial',
      scene,
      { vertexSource: VOLUME_VERTEX, fragmentSource: VOLUME_FRAGMENT },
      {
        attributes: ['position'],
        uniforms: [
          'world',
          'worldViewProjection',
          'cameraPosition',
          'boxMin',
          'boxMax',
          'densityMax',
          'densityScale',
          'tempSpan',
          'emissionSpan',
          'emissionStrength',
          'steps',
          'lightDensityScale',
          'shadowStrength',
          'smokeColor',
          'ambientLight',
          'sunLight',
        ],
        samplers: ['volumeTex', 'lightTex'],
        needAlphaBlending: true,
      },
    )
    this.material.alphaMode = Constants.ALPHA_PREMULTIPLIED
    this.material.disableDepthWrite = true
    this.material.backFaceCulling = true
    this.material.setFloat('lightDensityScale', LIGHT_DENSITY_SCALE)
    this.setLook([0.86, 0.86, 0.88], 1)
    this.material.setColor3('ambientLight', new Color3(0.45, 0.46, 0.5))
    this.material.setColor3('sunLight', new Color3(0.75, 0.72, 0.66))
    this.material.setFloat('emissionStrength', 3)
    this.setDensityScale(DEFAULT_DENSITY_SCALE)
    this.setQuality('medium')
    this.mesh.material = this.material
    // Outside the box its front faces start the rays (and objects in front of the smoke hide
    // it); from inside only the back faces are there to draw.
    this.beforeRender = scene.onBeforeRenderObservable.add(() => {
      this.chooseFaces()
      this.keepBudget()
    })
  }

  /** Whether the textures were last filled from `a` (an array of a frame's volume), so it must stay as it is. */
  holds(a: Uint8Array | null | undefined): boolean {
    return !!a && (a === this.uploaded.texels || a === this.uploaded.light)
  }

  /** Shows a frame's smoke; reuses the GPU texture when the grid size is unchanged. */
  update(v: VolumeDisplayData | null): void {
    if (!v || v.dims.some((d) => d < 1) || (v.densityMax <= 0 && v.temperatureMax <= v.temperatureAmbient)) {
      this.hasData = false
      this.syncEnabled()
      return
    }
    const [nx, ny, nz] = v.dims
    // Every cell fully lit (one texel) when the decode added no light volume (it always does;
    // a frame built elsewhere, e.g. a test, may not).
    const lightDims: [number, number, number] = v.light && v.lightDims ? v.lightDims : [1, 1, 1]
    const light = v.light && v.lightDims ? v.light : new Uint8Array([255])
    if (!this.texture || nx !== this.dims[0] || ny !== this.dims[1] || nz !== this.dims[2]) {
      this.texture?.dispose()
      this.texture = this.texture3D(v.texels, v.dims, Constants.TEXTUREFORMAT_RG)
      this.dims = [nx, ny, nz]
      this.material.setTexture('volumeTex', this.texture)
    } else this.texture.update(v.texels)
    if (!this.lightTexture || lightDims.some((d, a) => d !== this.lightDims[a])) {
      this.lightTexture?.dispose()
      this.lightTexture = this.texture3D(light, lightDims, Constants.TEXTUREFORMAT_R)
      this.lightDims = lightDims
      this.material.setTexture('lightTex', this.lightTexture)
    } else this.lightTexture.update(light)
    this.uploaded = { texels: v.texels, light }
    const h = v.voxelSize
    this.boxMin.set(v.origin[0], v.origin[1], v.origin[2])
    this.boxMax.set(v.origin[0] + nx * h, v.origin[1] + ny * h, v.origin[2] + nz * h)
    this.mesh.scaling.set(nx * h, ny * h, nz * h)
    this.mesh.position.set(v.origin[0] + (nx * h) / 2, v.origin[1] + (ny * h) / 2, v.origin[2] + (nz * h) / 2)
    this.material.setVector3('boxMin', this.boxMin)
    this.material.setVector3('boxMax', this.boxMax)
    this.material.setFloat('densityMax', v.densityMax)
    const span = v.temperatureMax - v.temperatureAmbient
    this.material.setFloat('tempSpan', span)
    // The ramp spans this frame's heat unless set: hot spots always reach yellow-white.
    this.material.setFloat('emissionSpan', this.emissionSpan ?? Math.max(span, 1e-6))
    this.hasData = true
    this.syncEnabled()
  }

  /** A clamped, linearly filtered 8-bit 3D texture of this volume's size. */
  private texture3D(data: Uint8Array, dims: readonly [number, number, number], format: number): RawTexture3D {
    const [nx, ny, nz] = dims
    const t = new RawTexture3D(data, nx, ny, nz, format, this.scene, false, false, Texture.BILINEAR_SAMPLINGMODE, Constants.TEXTURETYPE_UNSIGNED_BYTE)
    t.wrapU = Texture.CLAMP_ADDRESSMODE
    t.wrapV = Texture.CLAMP_ADDRESSMODE
    t.wrapR = Texture.CLAMP_ADDRESSMODE
    return t
  }

  /** Smoke albedo (linear RGB) and how dark its own shadows are (1: as the light volume says). */
  setLook(color: readonly [number, number, number], shadowStrength: number): void {
    this.material.setColor3('smokeColor', new Color3(color[0], color[1], color[2]))
    this.material.setFloat('shadowStrength', Number.isFinite(shadowStrength) && shadowStrength >= 0 ? shadowStrength : 1)
  }

  /** Kelvin above ambient that maps to the white end of the emission ramp; null: each frame's hottest. */
  setEmissionSpan(kelvin: number | null): void {
    this.emissionSpan = kelvin !== null && kelvin > 0 ? kelvin : null
    if (this.emissionSpan !== null) this.material.setFloat('emissionSpan', this.emissionSpan)
  }

  /** Emitted radiance per metre of the hottest gas, in display units. */
  setEmissionStrength(s: number): void {
    this.material.setFloat('emissionStrength', Math.max(0, s))
  }

  /** Extinction per unit density, 1/m (0 hides the smoke and keeps only its glow). */
  setDensityScale(s: number): void {
    this.material.setFloat('densityScale', Number.isFinite(s) && s > 0 ? s : 0)
  }

  /** A preset, or a number of steps across the box diagonal (the budget may march fewer). */
  setQuality(q: VolumeQuality | number): void {
    const steps = typeof q === 'number' ? q : QUALITY_STEPS[q].steps
    this.requestedSteps = Math.min(MAX_STEPS, Math.max(8, Math.round(steps)))
    this.stepScale = 1
    this.material.setFloat('steps', this.requestedSteps)
  }

  /** Steps marched now: the preset's, or fewer while frames run over budget. */
  get steps(): { requested: number; marched: number } {
    return { requested: this.requestedSteps, marched: Math.round(this.requestedSteps * this.stepScale) }
  }

  /** Shrinks the steps while smoke makes frames too slow, grows them back when there is room. */
  private keepBudget(): void {
    if (!this.hasData || !this.visible) return
    const next = nextStepScale(this.stepScale, this.scene.getEngine().getDeltaTime(), this.requestedSteps)
    if (next === this.stepScale) return
    this.stepScale = next
    this.material.setFloat('steps', Math.max(8, Math.round(this.requestedSteps * next)))
  }

  setVisible(v: boolean): void {
    this.visible = v
    this.syncEnabled()
  }

  /** The box mesh (for tests and bounds; not pickable). */
  get node(): Mesh {
    return this.mesh
  }

  dispose(): void {
    this.scene.onBeforeRenderObservable.remove(this.beforeRender)
    this.mesh.dispose()
    this.material.dispose()
    this.texture?.dispose()
    this.texture = null
    this.lightTexture?.dispose()
    this.lightTexture = null
  }

  private syncEnabled(): void {
    this.mesh.setEnabled(this.visible && this.hasData)
  }

  private chooseFaces(): void {
    const cam = this.scene.activeCamera
    if (!cam || !this.hasData) return
    const p = cam.globalPosition
    // Margin: the near plane can clip the front face before the eye is inside.
    const m = cam.minZ * 2
    const inside =
      p.x > this.boxMin.x - m && p.x < this.boxMax.x + m && p.y > this.boxMin.y - m && p.y < this.boxMax.y + m && p.z > this.boxMin.z - m && p.z < this.boxMax.z + m
    this.material.cullBackFaces = !inside
  }
}

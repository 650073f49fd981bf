// Everything of a baked frame in the viewport: the smoke volume, each particle set, each
// mesh, each rigid body (its mesh posed for the frame, in the rigid-body material).
// Framework-free: Viewport.svelte hands it the frames ReadAheadBuffer.onFrame delivers.
// `shownBodies` tells which scene objects' bodies are drawn, so the authored ones can step aside.
import { isDisplayOnlyMesh } from '../../../src-shared/sim/frame'
import { DEFAULT_LIGHT_AZIMUTH, DEFAULT_LIGHT_ELEVATION } from '../../../src-shared/formats/lightVolume'
import type { Scene } from '@babylonjs/core/scene'
import type { DisplayFrame } from './displayData'
import { CACHE_MATERIALS, MeshDisplay } from './meshDisplay'
import { ParticleDisplay } from './particleDisplay'
import { drawnBodyIds, ShownBodies } from './shownBodies'
import { DEFAULT_DENSITY_SCALE, VolumeDisplay, type VolumeQuality } from './volumeDisplay'

export interface CacheDisplaySettings {
  /** Extinction per unit density, 1/m. */
  densityScale: number
  quality: VolumeQuality | number
  /**
   * The particle attribute to colour by. The colour values are computed when a frame is
   * decoded, so a change needs DecodeClient.display.particleColorBy set and the read-ahead
   * buffer invalidated (setSettings says so). undefined: the first of velocity, vorticity,
   * strength, temperature the set has; null: one colour.
   */
  particleColorBy: string | null | undefined
  /**
   * The mesh (and rigid-body) attribute to colour by; like particleColorBy, computed at
   * decode (DecodeClient.display.meshColorBy). undefined: a 'color' attribute when the mesh
   * has one; null: the plain material.
   */
  meshColorBy: string | null | undefined
  /** Point diameter, px. */
  pointSize: number
  /** Emitted radiance per metre of the hottest gas. */
  emissionStrength: number
  visible: boolean
  /** "Points: Off": the particle sets are not drawn (the surface mesh and volumes still are). */
  showParticles: boolean
  /** Smoke albedo, linear RGB 0..1. */
  smokeColor: [number, number, number]
  /** Multiplies the smoke's own shadowing (0: no shadows, 1: physical, 2: twice as dark). */
  shadowStrength: number
  /** The key light: degrees about +Y from +X toward -Z, and above the ground. Changing it re-decodes. */
  lightAzimuth: number
  lightElevation: number
  /** Fire: temperature glows through the blackbody ramp; off, hot gas is plain smoke. */
  emission: boolean
  /**
   * The family's cut-away (FamilyDisplay.cutaway): its display-only meshes are drawn instead of
   * the frame's other meshes; off, they are hidden.
   */
  cutaway: boolean
}

export const DEFAULT_CACHE_DISPLAY: CacheDisplaySettings = {
  densityScale: DEFAULT_DENSITY_SCALE,
  quality: 'medium',
  particleColorBy: undefined,
  meshColorBy: undefined,
  pointSize: 4,
  emissionStrength: 3,
  visible: true,
  showParticles: true,
  smokeColor: [0.86, 0.86, 0.88],
  shadowStrength: 1,
  lightAzimuth: DEFAULT_LIGHT_AZIMUTH,
  lightElevation: DEFAULT_LIGHT_ELEVATION,
  emission: false,
  cutaway: false,
}

/** Babylon's layerMask of a new mesh (and of a new camera): every camera draws it. */
export const DEFAULT_LAYER_MASK = 0x0fffffff

export class CacheDisplay {
  private readonly scene: Scene
  private readonly volume: VolumeDisplay
  private readonly particles: ParticleDisplay[] = []
  private readonly meshes: MeshDisplay[] = []
  private readonly bodies: MeshDisplay[] = []
  private current: CacheDisplaySettings
  private frame: DisplayFrame | null = null
  /** Ids of the rigid bodies drawn now (scene object ids); subscribe to hear of changes. */
  readonly shownBodies = new ShownBodies()
  /**
   * The simulation's host while a frame of it with meshes is on screen (a Catmull-Clark cage
   * steps aside for its baked, painted surface; a domain ignores it), else empty.
   */
  readonly shownHost = new ShownBodies()
  /** The scene object whose cache is shown (set by CachePlayback with the source). */
  private hostId: string | null = null
  /** Cameras that draw this display's meshes (Babylon's default: every camera). */
  private layerMask = DEFAULT_LAYER_MASK

  constructor(scene: Scene, settings: Partial<CacheDisplaySettings> = {}) {
    this.scene = scene
    this.volume = new VolumeDisplay(scene)
    this.current = { ...DEFAULT_CACHE_DISPLAY }
    this.setSettings(settings)
  }

  get settings(): Readonly<CacheDisplaySettings> {
    return this.current
  }

  /** Whether the volume's textures were last filled from `f`'s arrays (VolumeDisplay.holds). */
  holds(f: DisplayFrame): boolean {
    return f.volume !== null && (this.volume.holds(f.volume.texels) || this.volume.holds(f.volume.light))
  }

  /** The frame number on screen, or null. */
  get shownFrame(): number | null {
    return this.frame ? this.frame.frame : null
  }

  /**
   * Draws a frame (null clears the display). Reuses GPU buffers; see the parts for details.
   * The same DisplayFrame object again is a no-op: a 128^3 volume is a 4 MiB upload.
   */
  show(f: DisplayFrame | null): void {
    if (f !== null && f === this.frame) return
    this.frame = f
    this.volume.update(f ? f.volume : null)
    const ps = f ? f.particles : []
    while (this.particles.length < ps.length) {
      const p = new ParticleDisplay(this.scene, `cache:particles:${this.particles.length}`)
      p.setPointSize(this.current.pointSize)
      p.setVisible(this.current.visible && this.current.showParticles)
      p.node.layerMask = this.layerMask
      this.particles.push(p)
    }
    this.particles.forEach((p, i) => p.update(ps[i] ?? null))
    const ms = f ? f.meshes : []
    while (this.meshes.length < ms.length) {
      const m = new MeshDisplay(this.scene, `cache:mesh:${this.meshes.length}`)
      m.setVisible(this.current.visible)
      m.node.layerMask = this.layerMask
      this.meshes.push(m)
    }
    this.meshes.forEach((m, i) => {
      m.update(ms[i] ?? null)
      m.setVisible(this.meshVisible(i))
    })
    const bs = f ? f.rigidBodies : []
    while (this.bodies.length < bs.length) {
      const b = new MeshDisplay(this.scene, `cache:rigid:${this.bodies.length}`, 'cache:rigid')
      b.setVisible(this.current.visible)
      b.node.layerMask = this.layerMask
      this.bodies.push(b)
    }
    this.bodies.forEach((b, i) => b.update(bs[i] ?? null))
    this.shownBodies.set(drawnBodyIds(bs, this.current.visible))
    this.shownHost.set(this.drawnHost())
  }

  /**
   * Which cameras draw this display (a mesh is drawn by a camera when their layerMasks share a
   * bit): the side-by-side wedge view gives each variant's display its own cell's bit, and
   * the main display 0 (no camera) while the grid is up.
   */
  setLayerMask(mask: number): void {
    this.layerMask = mask
    this.volume.node.layerMask = mask
    for (const p of this.particles) p.node.layerMask = mask
    for (const m of [...this.meshes, ...this.bodies]) m.node.layerMask = mask
  }

  /** Sets the simulation the frames belong to (null: none). */
  setHost(id: string | null): void {
    this.hostId = id
    this.shownHost.set(this.drawnHost())
  }

  private drawnHost(): Set<string> {
    const ids = new Set<string>()
    if (this.hostId !== null && this.frame !== null && this.current.visible && this.frame.meshes.length > 0) ids.add(this.hostId)
    return ids
  }

  /** Applies the given settings; `redecode` is true when decoded frames no longer match them. */
  setSettings(s: Partial<CacheDisplaySettings>): { redecode: boolean } {
    const before = this.current
    const next = { ...before, ...s }
    this.current = next
    this.volume.setDensityScale(next.densityScale)
    this.volume.setQuality(next.quality)
    this.volume.setEmissionStrength(next.emission ? next.emissionStrength : 0)
    this.volume.setLook(next.smokeColor, next.shadowStrength)
    this.volume.setVisible(next.visible)
    for (const p of this.particles) {
      p.setPointSize(next.pointSize)
      p.setVisible(next.visible && next.showParticles)
    }
    this.meshes.forEach((m, i) => m.setVisible(this.meshVisible(i)))
    for (const b of this.bodies) b.setVisible(next.visible)
    this.shownBodies.set(drawnBodyIds(this.frame?.rigidBodies ?? [], next.visible))
    this.shownHost.set(this.drawnHost())
    const changed = (k: 'particleColorBy' | 'meshColorBy' | 'lightAzimuth' | 'lightElevation') => k in s && s[k] !== before[k]
    return { redecode: changed('particleColorBy') || changed('meshColorBy') || changed('lightAzimuth') || changed('lightElevation') }
  }

  /** Whether frame mesh i is drawn: display-only meshes with the cut-away on, the others with it off (or when there is none). */
  private meshVisible(i: number): boolean {
    const ms = this.frame?.meshes ?? []
    if (!this.current.visible || i >= ms.length) return this.current.visible
    if (isDisplayOnlyMesh(ms[i])) return this.current.cutaway
    return !(this.current.cutaway && ms.some(isDisplayOnlyMesh))
  }

  /** Pose of each rigid body drawn now (test hooks). */
  bodyPoses(): { id: string; position: [number, number, number]; orientation: [number, number, number, number] }[] {
    const ids = this.shownBodies.ids
    return (this.frame?.rigidBodies ?? [])
      .filter((b) => ids.has(b.id))
      .map((b) => ({ id: b.id, position: [b.position[0], b.position[1], b.position[2]], orientation: [b.orientation[0], b.orientation[1], b.orientation[2], b.orientation[3]] }))
  }

  /** The parts, for the viewport's test hooks. */
  get parts(): { volume: VolumeDisplay; particles: readonly ParticleDisplay[]; meshes: readonly MeshDisplay[]; rigidBodies: readonly MeshDisplay[] } {
    return { volume: this.volume, particles: this.particles, meshes: this.meshes, rigidBodies: this.bodies }
  }

  dispose(): void {
    this.shownBodies.dispose()
    this.shownHost.dispose()
    this.volume.dispose()
    for (const p of this.particles) p.dispose()
    for (const m of [...this.meshes, ...this.bodies]) m.dispose()
    this.particles.length = 0
    this.meshes.length = 0
    this.bodies.length = 0
    // The materials are the scene's, shared by every display (the wedge grid's too): they go
    // with the last mesh that uses them.
    for (const name of CACHE_MATERIALS) {
      const m = this.scene.getMaterialByName(name)
      if (m && !this.scene.meshes.some((x) => x.material === m)) m.dispose()
    }
  }
}

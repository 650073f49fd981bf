// Colours and the shared materials of the viewport. One material per look, shared by every
// object of that look, so a scene with many objects does not compile many shaders and an
// object update never has to touch materials.
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial'
import type { Scene } from '@babylonjs/core/scene'

const hex = (h: string): Color3 => Color3.FromHexString(h)

export const COLORS = {
  background: Color4.FromHexString('#2b2b2bff'),
  gridMinor: hex('#3a3a3a'),
  gridMajor: hex('#1e1e1e'),
  axisX: hex('#d9434f'),
  axisY: hex('#6fb52c'),
  axisZ: hex('#3f7fe0'),
  /** Blender's "active object" orange, used for every selection cue. */
  selected: hex('#ffa033'),
  domainEdge: hex('#8cc8ff'),
  cageWire: hex('#d6d6d6'),
  cageWireSelected: hex('#ffc266'),
} as const

export type MaterialName =
  | 'obstacle'
  | 'meshObstacle'
  | 'rigidBody'
  | 'meshRigidBody'
  | 'rigidBodyGhost'
  | 'placeholder'
  | 'emitterGas'
  | 'emitterLiquid'
  | 'arrowGas'
  | 'arrowLiquid'
  | 'vortex'
  | 'vortexCore'
  | 'heat'
  | 'ccSurface'
  | 'ccSurfaceGhost'
  | 'domainFill'
  | 'handle'
  | 'handleSelected'

interface Look {
  color: string
  alpha?: number
  /** Unlit: flat colour regardless of lights (arrows, handles). */
  unlit?: boolean
  /** Both faces drawn and lit (imported meshes and subdivision surfaces of unknown winding). */
  twoSided?: boolean
  /** Triangle edges only (still picked by its faces). */
  wireframe?: boolean
  specular?: number
  emissive?: number
}

const LOOKS: Record<MaterialName, Look> = {
  obstacle: { color: '#b4b4b4', specular: 0.15 },
  meshObstacle: { color: '#b4b4b4', specular: 0.15, twoSided: true },
  // Warm wood: bodies the liquid moves read apart from the grey obstacles that stay put.
  rigidBody: { color: '#b5834f', specular: 0.1 },
  meshRigidBody: { color: '#b5834f', specular: 0.1, twoSided: true },
  // The authored body while the baked one of the same id is drawn (cacheDisplay.ts): a faint
  // outline of where it was placed that does not cover the simulated body.
  rigidBodyGhost: { color: '#d9a066', alpha: 0.3, unlit: true, wireframe: true, twoSided: true },
  placeholder: { color: '#777777', alpha: 0.4 },
  emitterGas: { color: '#ff8c1a', alpha: 0.35, emissive: 0.25 },
  emitterLiquid: { color: '#2f8cff', alpha: 0.35, emissive: 0.25 },
  arrowGas: { color: '#ffa640', unlit: true },
  arrowLiquid: { color: '#5aa8ff', unlit: true },
  vortex: { color: '#a070ff', unlit: true },
  vortexCore: { color: '#9060f0', alpha: 0.6, emissive: 0.35 },
  heat: { color: '#ff3b30', alpha: 0.3, emissive: 0.3 },
  ccSurface: { color: '#5fbfb3', specular: 0.2, twoSided: true },
  // The cage's own surface while its baked or live painted surface is drawn in the same place:
  // invisible, but still there to click and to outline when selected.
  ccSurfaceGhost: { color: '#5fbfb3', alpha: 0, unlit: true, twoSided: true },
  domainFill: { color: '#8cc8ff', alpha: 0.05, unlit: true },
  handle: { color: '#101010', unlit: true },
  handleSelected: { color: '#ffa033', unlit: true },
}

export class Palette {
  private readonly materials = new Map<MaterialName, StandardMaterial>()
  constructor(private readonly scene: Scene) {}

  get(name: MaterialName): StandardMaterial {
    let m = this.materials.get(name)
    if (!m) {
      m = makeMaterial(this.scene, name, LOOKS[name])
      this.materials.set(name, m)
    }
    return m
  }

  dispose(): void {
    for (const m of this.materials.values()) m.dispose()
    this.materials.clear()
  }
}

function makeMaterial(scene: Scene, name: MaterialName, look: Look): StandardMaterial {
  const m = new StandardMaterial(`mat:${name}`, scene)
  const c = hex(look.color)
  if (look.unlit) {
    m.disableLighting = true
    m.emissiveColor = c
    m.diffuseColor = Color3.Black()
  } else {
    m.diffuseColor = c
    m.emissiveColor = c.scale(look.emissive ?? 0.08)
  }
  m.specularColor = new Color3(1, 1, 1).scale(look.specular ?? 0.05)
  if (look.alpha !== undefined && look.alpha < 1) {
    m.alpha = look.alpha
    // Translucent volumes inside each other (an emitter in a domain) must not hide one
    // another through the depth buffer.
    m.disableDepthWrite = true
  }
  if (look.twoSided) {
    m.backFaceCulling = false
    m.twoSidedLighting = true
  }
  if (look.wireframe) m.wireframe = true
  return m
}

// Babylon's NullEngine for renderer tests in Node (no GPU): a scene made and disposed around
// each test, and stand-ins for the 3D texture calls the NullEngine lacks (Babylon's use WebGL
// directly), which can record what would have been uploaded.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine'
import { InternalTexture, InternalTextureSource } from '@babylonjs/core/Materials/Textures/internalTexture'
import { Scene } from '@babylonjs/core/scene'
import { afterEach, beforeEach } from 'vitest'

/** One 3D texture upload the stand-ins saw. */
export interface Texture3dUpload {
  op: 'create' | 'update'
  bytes: number
  format: number
  type: number
  size: number[]
}

/** Gives `engine` createRawTexture3D and updateRawTexture3D that make ready textures and report each upload. */
export function installTexture3dStandIns(engine: NullEngine, record: (u: Texture3dUpload) => void = () => {}): void {
  engine.createRawTexture3D = (data, width, height, depth, format, _mips, _invertY, _sampling, _compression, textureType = 0) => {
    const t = new InternalTexture(engine, InternalTextureSource.Raw3D)
    t.width = t.baseWidth = width
    t.height = t.baseHeight = height
    t.depth = t.baseDepth = depth
    t.format = format
    t.type = textureType
    t.is3D = true
    t.isReady = true
    record({ op: 'create', bytes: data?.byteLength ?? 0, format, type: textureType, size: [width, height, depth] })
    return t
  }
  engine.updateRawTexture3D = ((t: InternalTexture, data: ArrayBufferView | null, format: number, _invertY: boolean, _compression: string | null, textureType = 0) => {
    record({ op: 'update', bytes: data?.byteLength ?? 0, format, type: textureType, size: [t.width, t.height, t.depth] })
  }) as typeof engine.updateRawTexture3D
}

/**
 * A NullEngine and a Scene made before each test of the enclosing block and disposed after it;
 * read them through the returned object's getters.
 */
export function nullScene(): { readonly engine: NullEngine; readonly scene: Scene } {
  let engine: NullEngine
  let scene: Scene
  beforeEach(() => {
    engine = new NullEngine()
    scene = new Scene(engine)
  })
  afterEach(() => {
    scene.dispose()
    engine.dispose()
  })
  return {
    get engine() {
      return engine
    },
    get scene() {
      return scene
    },
  }
}

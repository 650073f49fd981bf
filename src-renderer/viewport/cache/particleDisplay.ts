// Baked particles as screen-sized points coloured through viridis by one attribute. The GPU
// buffers are allocated with spare room (capacity doubles when outgrown) and rewritten in
// place each frame, since particle counts change from frame to frame.
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial'
import { Color3 } from '@babylonjs/core/Maths/math.color'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer'
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { SubMesh } from '@babylonjs/core/Meshes/subMesh'
import type { Scene } from '@babylonjs/core/scene'
import { grownCapacity } from './capacity'
import { VIRIDIS_GLSL } from './colorRamp'
import type { ParticleDisplayData } from './displayData'

const VALUE_KIND = 'value'

const VERTEX = /* glsl */ `
precision highp float;
attribute vec3 position;
attribute float value;
uniform mat4 worldViewProjection;
uniform float pointSize;
varying float vValue;
void main() {
  vValue = value;
  gl_Position = worldViewProjection * vec4(position, 1.0);
  gl_PointSize = pointSize;
}
`

const FRAGMENT = /* glsl */ `
precision highp float;
varying float vValue;
uniform float valueMin;
uniform float valueInvSpan;
uniform float useValues;
uniform vec3 baseColor;
${VIRIDIS_GLSL}
void main() {
  // Round points: drop the corners of the square sprite.
  vec2 d = gl_PointCoord - vec2(0.5);
  if (dot(d, d) > 0.25) discard;
  vec3 c = useValues > 0.5 ? viridis((vValue - valueMin) * valueInvSpan) : baseColor;
  gl_FragColor = vec4(c, 1.0);
}
`

export class ParticleDisplay {
  private readonly scene: Scene
  private readonly mesh: Mesh
  private readonly material: ShaderMaterial
  private capacity = 0
  private count = 0
  private visible = true

  constructor(scene: Scene, name = 'cache:particles') {
    this.scene = scene
    this.mesh = new Mesh(name, scene)
    this.mesh.isPickable = false
    this.mesh.isUnIndexed = true
    // The points move every frame; bounds would have to be recomputed on the CPU to cull them.
    this.mesh.alwaysSelectAsActiveMesh = true
    this.mesh.setEnabled(false)
    this.material = new ShaderMaterial(
      `${name}:material`,
      scene,
      { vertexSource: VERTEX, fragmentSource: FRAGMENT },
      {
        attributes: ['position', VALUE_KIND],
        uniforms: ['worldViewProjection', 'pointSize', 'valueMin', 'valueInvSpan', 'useValues', 'baseColor'],
      },
    )
    this.material.pointsCloud = true
    this.material.backFaceCulling = false
    this.material.setColor3('baseColor', new Color3(0.95, 0.75, 0.3))
    this.setPointSize(4)
    this.mesh.material = this.material
  }

  /** Number of particles drawn, and the room in the GPU buffers (for tests and stats). */
  get drawn(): { count: number; capacity: number } {
    return { count: this.count, capacity: this.capacity }
  }

  get node(): Mesh {
    return this.mesh
  }

  update(p: ParticleDisplayData | null): void {
    const count = p ? p.count : 0
    this.count = count
    if (!p || count === 0) {
      this.syncEnabled()
      return
    }
    if (count > this.capacity) this.allocate(grownCapacity(this.capacity, count))
    this.mesh.getVertexBuffer(VertexBuffer.PositionKind)?.updateDirectly(p.positions.subarray(0, count * 3), 0)
    if (p.values) this.mesh.getVertexBuffer(VALUE_KIND)?.updateDirectly(p.values.subarray(0, count), 0)
    const span = p.valueMax - p.valueMin
    this.material.setFloat('useValues', p.values ? 1 : 0)
    // A single value everywhere lands mid-ramp instead of dividing by zero.
    this.material.setFloat('valueMin', span > 0 ? p.valueMin : p.valueMin - 0.5)
    this.material.setFloat('valueInvSpan', span > 0 ? 1 / span : 1)
    this.mesh.releaseSubMeshes()
    new SubMesh(0, 0, count, 0, 0, this.mesh, undefined, false)
    this.syncEnabled()
  }

  /** Point diameter in pixels. */
  setPointSize(px: number): void {
    this.material.setFloat('pointSize', Math.min(64, Math.max(1, px)))
  }

  setBaseColor(c: Color3): void {
    this.material.setColor3('baseColor', c)
  }

  setVisible(v: boolean): void {
    this.visible = v
    this.syncEnabled()
  }

  /** Drawn now: visible and holding points. */
  get drawing(): boolean {
    return this.mesh.isEnabled()
  }

  dispose(): void {
    this.mesh.dispose()
    this.material.dispose()
  }

  private allocate(capacity: number): void {
    this.capacity = capacity
    this.mesh.setVerticesBuffer(new VertexBuffer(this.scene.getEngine(), new Float32Array(capacity * 3), VertexBuffer.PositionKind, true, false, 3))
    this.mesh.setVerticesBuffer(new VertexBuffer(this.scene.getEngine(), new Float32Array(capacity), VALUE_KIND, true, false, 1))
  }

  private syncEnabled(): void {
    this.mesh.setEnabled(this.visible && this.count > 0)
  }
}

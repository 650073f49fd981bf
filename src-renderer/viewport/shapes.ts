// Geometry helpers shared by the object visuals: the unit primitives of obstacles and
// emitters, arrows for vectors, and wire boxes. Everything is built at unit size and
// sized through node scaling, so a parameter change never rebuilds geometry.
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder'
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder'
import { CreateCylinder } from '@babylonjs/core/Meshes/Builders/cylinderBuilder'
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode'
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector'
import { Constants } from '@babylonjs/core/Engines/constants'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh'
import type { Material } from '@babylonjs/core/Materials/material'
import type { Scene } from '@babylonjs/core/scene'

/**
 * Marks a mesh built from our own triangle data (counter-clockwise seen from outside, the
 * OBJ/STL/glTF convention, as catmullClark.ts and the mesh import produce) so Babylon's
 * right-handed mode treats those faces as front faces, like its glTF loader does.
 * Without it the outside counts as the back: lit from the wrong side.
 */
export function useCounterClockwiseFront(mesh: Mesh): void {
  mesh.sideOrientation = Constants.MATERIAL_CounterClockWiseSideOrientation
}

export type PrimitiveShape = 'box' | 'sphere' | 'cylinder'

/** Box 1 m, sphere diameter 1 m, cylinder diameter 1 m and height 1 m along local Y. */
export function createUnitPrimitive(shape: PrimitiveShape, name: string, scene: Scene): Mesh {
  switch (shape) {
    case 'box':
      return CreateBox(name, { size: 1 }, scene)
    case 'cylinder':
      return CreateCylinder(name, { diameter: 1, height: 1, tessellation: 48 }, scene)
    default:
      return CreateSphere(name, { diameter: 1, segments: 24 }, scene)
  }
}

export function isPrimitiveShape(s: string): s is PrimitiveShape {
  return s === 'box' || s === 'sphere' || s === 'cylinder'
}

/** The 12 edges of the unit cube centred at the origin, as one line mesh. */
export function createUnitBoxLines(name: string, scene: Scene): LinesMesh {
  const c = [-0.5, 0.5]
  const p = (x: number, y: number, z: number) => new Vector3(c[x], c[y], c[z])
  const lines: Vector3[][] = []
  for (const a of [0, 1])
    for (const b of [0, 1]) {
      lines.push([p(0, a, b), p(1, a, b)])
      lines.push([p(a, 0, b), p(a, 1, b)])
      lines.push([p(a, b, 0), p(a, b, 1)])
    }
  const mesh = CreateLineSystem(name, { lines }, scene)
  mesh.isPickable = false
  return mesh
}

const Y = new Vector3(0, 1, 0)

/** Rotation taking +Y onto `dir` (any length > 0); antiparallel handled explicitly. */
export function rotationFromY(dir: Vector3, ref: Quaternion): Quaternion {
  const d = dir.normalizeToNew()
  if (Vector3.Dot(Y, d) < -0.999999) return ref.copyFromFloats(1, 0, 0, 0) // 180 deg about X
  return Quaternion.FromUnitVectorsToRef(Y, d, ref)
}

/**
 * An arrow along local +Y made of a shaft and a cone head, re-sized with `set` without
 * rebuilding: head size stays proportional to `thickness`, the shaft takes the rest.
 */
export class Arrow {
  readonly node: TransformNode
  readonly shaft: Mesh
  readonly head: Mesh

  constructor(name: string, scene: Scene, material: Material) {
    this.node = new TransformNode(name, scene)
    this.node.rotationQuaternion = Quaternion.Identity()
    this.shaft = CreateCylinder(`${name}:shaft`, { diameter: 1, height: 1, tessellation: 12 }, scene)
    this.head = CreateCylinder(`${name}:head`, { diameterTop: 0, diameterBottom: 1, height: 1, tessellation: 16 }, scene)
    for (const m of [this.shaft, this.head]) {
      m.material = material
      m.parent = this.node
    }
  }

  /** Points the arrow along `vec` with total length `length` (m); hides it for zero length. */
  set(vec: Vector3, length: number, thickness: number): void {
    const visible = length > 1e-6 && vec.lengthSquared() > 1e-12
    this.node.setEnabled(visible)
    if (!visible) return
    rotationFromY(vec, this.node.rotationQuaternion!)
    const headLen = Math.min(thickness * 4, length * 0.5)
    const shaftLen = length - headLen
    this.shaft.scaling.set(thickness, shaftLen, thickness)
    this.shaft.position.set(0, shaftLen / 2, 0)
    this.head.scaling.set(thickness * 2.5, headLen, thickness * 2.5)
    this.head.position.set(0, shaftLen + headLen / 2, 0)
  }

  meshes(): Mesh[] {
    return [this.shaft, this.head]
  }
}

// The pressure solve's change carried to the faces the markers reached (liquidSolver.ts
// carryChangeToMarkerFaces) as two kernel-table rows around the change's extension
// (extendPlanes.ts EXTEND_LAYER), split by z-planes of faces (u and v: nz planes, w: nz + 1):
//   MARK_CHANGE:  the change vel - velOld on the open faces touching liquid (mark 1), 0 and
//                 mark 0 elsewhere;
//   APPLY_CHANGE: liquid faces stay known; open faces the splat reached (known = 1) that the
//                 change was extended to (mark > 1) take velOld + change; the rest are unknown,
//                 velocity 0 (the extension that follows only writes the samples it reaches).
// Every face is written from its own plane's values alone, so any split gives the same bits.
// Twins: wasm/assembly/changeCarry.ts.
import type { MacGrid } from '../core/grid'
import { defineKernel, int, type KernelArgs, struct, u8 } from '../core/kernelTable'
import * as kinds from './viscosity'

const LIQUID = kinds.LIQUID

type Faces = Pick<MacGrid, 'u' | 'v' | 'w'>
/** Per-face marks of the three lattices. */
export interface FaceMarks {
  mu: Uint8Array
  mv: Uint8Array
  mw: Uint8Array
}

/** MARK_CHANGE over face planes [k0, k1). */
export function markChangeSlab(vel: Faces, velOld: Faces, fr: Faces, kind: Uint8Array, change: Faces, marks: FaceMarks, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const plane = nx * ny
  const { mu, mv, mw } = marks
  const kc = Math.min(k1, nz)
  for (let k = k0; k < kc; k++) for (let j = 0; j < ny; j++) {
    const row = nx * (j + ny * k)
    const frow = (nx + 1) * (j + ny * k)
    for (let i = 0; i <= nx; i++) {
      const f = frow + i
      mu[f] = fr.u[f] > 0 && ((i > 0 && kind[row + i - 1] === LIQUID) || (i < nx && kind[row + i] === LIQUID)) ? 1 : 0
      change.u[f] = mu[f] === 1 ? vel.u[f] - velOld.u[f] : 0
    }
  }
  for (let k = k0; k < kc; k++) for (let j = 0; j <= ny; j++) {
    const row = nx * (j + ny * k)
    const frow = nx * (j + (ny + 1) * k)
    for (let i = 0; i < nx; i++) {
      const f = frow + i
      mv[f] = fr.v[f] > 0 && ((j > 0 && kind[row + i - nx] === LIQUID) || (j < ny && kind[row + i] === LIQUID)) ? 1 : 0
      change.v[f] = mv[f] === 1 ? vel.v[f] - velOld.v[f] : 0
    }
  }
  for (let k = k0; k < k1; k++) for (let c = 0; c < plane; c++) {
    const f = c + plane * k
    mw[f] = fr.w[f] > 0 && ((k > 0 && kind[f - plane] === LIQUID) || (k < nz && kind[f] === LIQUID)) ? 1 : 0
    change.w[f] = mw[f] === 1 ? vel.w[f] - velOld.w[f] : 0
  }
}

/** One lattice's faces [f0, f1) of APPLY_CHANGE. */
function applyRange(m: Uint8Array, known: Uint8Array, fr: Float32Array, vel: Float32Array, old: Float32Array, d: Float32Array, f0: number, f1: number): void {
  for (let f = f0; f < f1; f++) {
    const mark = m[f]
    if (mark === 1) known[f] = 1
    else if (mark > 1 && known[f] === 1 && fr[f] > 0) vel[f] = old[f] + d[f]
    else {
      // Unknown: 0 until the extension reaches it (nothing stale survives beyond its layers).
      known[f] = 0
      vel[f] = 0
    }
  }
}

/** APPLY_CHANGE over face planes [k0, k1). */
export function applyChangeSlab(vel: Faces, velOld: Faces, fr: Faces, change: Faces, marks: FaceMarks, known: FaceMarks, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pw = nx * ny
  const kc = Math.min(k1, nz)
  applyRange(marks.mu, known.mu, fr.u, vel.u, velOld.u, change.u, k0 * pu, kc * pu)
  applyRange(marks.mv, known.mv, fr.v, vel.v, velOld.v, change.v, k0 * pv, kc * pv)
  applyRange(marks.mw, known.mw, fr.w, vel.w, velOld.w, change.w, k0 * pw, k1 * pw)
}

const faces = { u: 'f32', v: 'f32', w: 'f32' } as const
const marks = { mu: 'u8', mv: 'u8', mw: 'u8' } as const
const num = (a: KernelArgs, i: number) => a[i] as number

export const MARK_CHANGE = defineKernel({
  name: 'markChange',
  args: [
    struct('vel', faces),
    struct('velOld', faces),
    struct('fr', faces),
    u8('kind'),
    struct('change', faces),
    struct('marks', marks),
    int('nx'),
    int('ny'),
    int('nz'),
  ],
  split: 'planes',
  range: (a) => num(a, 8) + 1,
  work: (a) => 6 * num(a, 6) * num(a, 7) * num(a, 8),
  ref: markChangeSlab,
})

export const APPLY_CHANGE = defineKernel({
  name: 'applyChange',
  args: [struct('vel', faces), struct('velOld', faces), struct('fr', faces), struct('change', faces), struct('marks', marks), struct('known', marks), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 8) + 1,
  work: (a) => 3 * num(a, 6) * num(a, 7) * num(a, 8),
  ref: applyChangeSlab,
})

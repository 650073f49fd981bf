// One smoothing pass of the surface mesher's level set (particleLevelSet.ts smoothInside) as a
// kernel-table row: this TypeScript reference on the TypeScript backend, its AssemblyScript twin
// (wasm/assembly/surfaceSmooth.ts) split over node planes on the WebAssembly backend's threads.
// A Jacobi pass reads only `src` and writes only `dst`, so any split gives the same bits.
import { defineKernel, f32, int, type KernelArgs, size } from '../../core/kernelTable'

/**
 * Window planes [k0, k1) of dst from src (nx * ny nodes a plane): a copy, except on planes
 * [ka, kb) whose interior nodes inside the liquid (phi < 0) take phi + 1/2 (mean of the 6
 * neighbours - phi). ka >= 1 and kb <= planes - 1, so the neighbours are in the window.
 */
export function surfaceSmoothSlab(src: Float32Array, dst: Float32Array, nx: number, ny: number, ka: number, kb: number, k0: number, k1: number): void {
  const sy = nx, sz = nx * ny
  dst.set(src.subarray(k0 * sz, k1 * sz), k0 * sz)
  for (let k = Math.max(k0, ka); k < Math.min(k1, kb); k++) for (let j = 1; j < ny - 1; j++) {
    const row = nx * (j + ny * k)
    for (let i = 1; i < nx - 1; i++) {
      const n = row + i, v = src[n]
      if (v >= 0) continue
      const mean = (src[n - 1] + src[n + 1] + src[n - sy] + src[n + sy] + src[n - sz] + src[n + sz]) / 6
      dst[n] = v + 0.5 * (mean - v)
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** surfaceSmoothSlab over the window's planes [0, planes). */
export const SURFACE_SMOOTH = defineKernel({
  name: 'surfaceSmooth',
  args: [f32('src'), f32('dst'), int('nx'), int('ny'), int('ka'), int('kb'), size('planes')],
  split: 'planes',
  range: (a) => num(a, 6),
  work: (a) => num(a, 2) * num(a, 3) * num(a, 6),
  ref: surfaceSmoothSlab,
})

// One entry point for the worker pool: dispatch(kernel, args, k0, k1, worker) runs kernel
// number `kernel` over the range [k0, k1) (planes, or list positions for relaxCells) with its
// other arguments read from float64 slots at `args`, in the order of the kernel's parameters
// (pointers and integers are exact in float64). The numbering is mirrored by KERNEL in
// src-shared/sim/wasm/kernels.ts; kernelCount() lets it check that the two agree.
import { applyPoisson, residual, netOutflux, subtractGradient } from './poisson'
import { dotPlanes, dotPlanesExact, updateIterate, updateIterateExact, updateSearch } from './vector'
import { gaussSeidelColor, gaussSeidelSweep, jacobi, relaxCells, restrict, prolongAdd } from './multigrid'
import { advect, maccormackCorrect } from './advect'
import { vorticity, confinementForce, addCellForceToFaces } from './vorticity'
import { addBuoyancy } from './forces'

@inline function F(args: usize, n: i32): f64 {
  return load<f64>(args + (<usize>n << 3))
}
@inline function P(args: usize, n: i32): usize {
  return <usize>load<f64>(args + (<usize>n << 3))
}
@inline function I(args: usize, n: i32): i32 {
  return <i32>load<f64>(args + (<usize>n << 3))
}

export function kernelCount(): i32 {
  return 21
}

/** Bytes before this offset belong to the module (static data); the arena starts above it. */
export function heapBase(): usize {
  return __heap_base
}

export function dispatch(kernel: i32, a: usize, k0: i32, k1: i32, worker: i32): void {
  switch (kernel) {
    case 1: applyPoisson(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), I(a, 5), I(a, 6), I(a, 7), k0, k1); break
    case 2: residual(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), I(a, 6), I(a, 7), I(a, 8), k0, k1); break
    case 3: netOutflux(P(a, 0), I(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), P(a, 6), P(a, 7), P(a, 8), P(a, 9), P(a, 10), I(a, 11), I(a, 12), k0, k1); break
    case 4: subtractGradient(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), P(a, 6), I(a, 7), I(a, 8), I(a, 9), k0, k1); break
    case 5: dotPlanes(P(a, 0), P(a, 1), I(a, 2), P(a, 3), k0, k1); break
    case 6: dotPlanesExact(P(a, 0), P(a, 1), I(a, 2), P(a, 3), k0, k1); break
    case 7: updateIterate(P(a, 0), P(a, 1), P(a, 2), P(a, 3), F(a, 4), I(a, 5), P(a, 6), k0, k1); break
    case 8: updateIterateExact(P(a, 0), P(a, 1), P(a, 2), P(a, 3), F(a, 4), I(a, 5), P(a, 6), k0, k1); break
    case 9: updateSearch(P(a, 0), P(a, 1), F(a, 2), I(a, 3), k0, k1); break
    case 10: gaussSeidelColor(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), I(a, 5), I(a, 6), I(a, 7), I(a, 8), k0, k1); break
    case 11: jacobi(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), I(a, 6), I(a, 7), I(a, 8), F(a, 9), k0, k1); break
    case 12: relaxCells(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), I(a, 5), I(a, 6), I(a, 7), P(a, 8), k0, k1); break
    case 13:
      // args 10: scratch base, 11: scratch bytes per worker.
      restrict(P(a, 0), P(a, 1), I(a, 2), I(a, 3), I(a, 4), I(a, 5), I(a, 6), P(a, 7), P(a, 8), P(a, 9), P(a, 10) + <usize>worker * P(a, 11), k0, k1)
      break
    case 14:
      prolongAdd(P(a, 0), P(a, 1), P(a, 2), I(a, 3), I(a, 4), I(a, 5), I(a, 6),
        P(a, 7), P(a, 8), P(a, 9), P(a, 10), P(a, 11), P(a, 12), P(a, 13), P(a, 14), P(a, 15), P(a, 16), P(a, 17), P(a, 18), k0, k1)
      break
    case 15: advect(P(a, 0), P(a, 1), I(a, 2), P(a, 3), P(a, 4), P(a, 5), I(a, 6), I(a, 7), I(a, 8), F(a, 9), P(a, 10), I(a, 11), k0, k1); break
    case 16:
      maccormackCorrect(P(a, 0), P(a, 1), P(a, 2), P(a, 3), I(a, 4), P(a, 5), P(a, 6), P(a, 7), I(a, 8), I(a, 9), I(a, 10), F(a, 11), P(a, 12), I(a, 13), I(a, 14), k0, k1)
      break
    case 17: vorticity(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), P(a, 6), I(a, 7), I(a, 8), I(a, 9), F(a, 10), k0, k1); break
    case 18: confinementForce(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), P(a, 6), F(a, 7), I(a, 8), I(a, 9), I(a, 10), F(a, 11), k0, k1); break
    case 19: addCellForceToFaces(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), P(a, 5), F(a, 6), I(a, 7), I(a, 8), I(a, 9), k0, k1); break
    case 20: addBuoyancy(P(a, 0), P(a, 1), P(a, 2), F(a, 3), F(a, 4), F(a, 5), F(a, 6), I(a, 7), I(a, 8), k0, k1); break
    case 21: gaussSeidelSweep(P(a, 0), P(a, 1), P(a, 2), P(a, 3), P(a, 4), I(a, 5), I(a, 6), I(a, 7), I(a, 8), I(a, 9), k0, k1); break
    default: unreachable()
  }
}

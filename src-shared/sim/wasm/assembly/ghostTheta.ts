// The ghost-fluid liquid fraction of a face between a liquid and an air cell (reference:
// src-shared/sim/liquid/ghostFluidKernels.ts ghostTheta), shared by the pressure's assembly
// (ghostFluid.ts) and the markers' momentum balance (markerMomentum.ts). Not a kernel: not
// exported from index.ts.

const MIN_THETA: f64 = 0.01

@inline export function theta(phiLiquid: f64, phiAir: f64): f64 {
  const den = phiLiquid - phiAir
  const t = den < 0 ? phiLiquid / den : 1
  return t > MIN_THETA ? (t < 1 ? t : 1) : MIN_THETA
}

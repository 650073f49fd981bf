// The AssemblyScript kernels compiled into one WebAssembly module by scripts/build-wasm.mjs.
// Each has a plain TypeScript reference in src-shared/sim/core that the tests compare with.
export * from './poisson'
export * from './vector'
export * from './multigrid'
export * from './advect'
export * from './vorticity'
export * from './forces'
export * from './dispatch'
export * from './vortex'
export * from './sparse'
export * from './markers'
export * from './splat'

// Wall-clock milliseconds for the solvers' phase timings. src-shared is built without the DOM
// and Node type libraries, and performance exists in every runtime Eddy runs in (Node, workers,
// Chromium); where it does not, timings read 0 rather than failing a bake.
const clock = (globalThis as { performance?: { now(): number } }).performance

export const now = (): number => (clock ? clock.now() : 0)

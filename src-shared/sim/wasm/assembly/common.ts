// Memory access helpers shared by the kernels. Every array argument of a kernel is a byte
// offset (pointer) into the one shared WebAssembly.Memory; 0 stands for "no array" (null) —
// the arena never hands out offset 0. Indices are element indices as in the TypeScript
// references (src-shared/sim/core), so each kernel reads like its reference.
//
// Arithmetic mirrors the references exactly: JavaScript evaluates every expression in
// float64, so float32 data is promoted to f64, combined in the same order, and rounded to
// f32 only when stored. wasm has no fused multiply-add (we do not enable relaxed-simd), so the
// results are bit-identical to the references wherever the operation order is kept.

/** float32 element i of the array at p, promoted to f64. */
@inline export function rf32(p: usize, i: i32): f64 {
  return <f64>load<f32>(p + (<usize>i << 2))
}

/** Stores v rounded to float32 at element i. */
@inline export function wf32(p: usize, i: i32, v: f64): void {
  store<f32>(p + (<usize>i << 2), <f32>v)
}

@inline export function rf64(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3))
}

@inline export function wf64(p: usize, i: i32, v: f64): void {
  store<f64>(p + (<usize>i << 3), v)
}

@inline export function ri32(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2))
}

@inline export function wi32(p: usize, i: i32, v: i32): void {
  store<i32>(p + (<usize>i << 2), v)
}

@inline export function ru8(p: usize, i: i32): i32 {
  return <i32>load<u8>(p + <usize>i)
}

/** Two consecutive f64 at element i. */
@inline export function v64(p: usize, i: i32): v128 {
  return v128.load(p + (<usize>i << 3))
}

@inline export function st64(p: usize, i: i32, v: v128): void {
  v128.store(p + (<usize>i << 3), v)
}

/** Two consecutive float32 at element i, promoted to an f64x2. */
@inline export function w32x2(p: usize, i: i32): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(p + (<usize>i << 2)))
}

/** Stores the two f64 lanes of v rounded to float32 at elements i, i + 1. */
@inline export function st32x2(p: usize, i: i32, v: v128): void {
  v128.store64_lane(p + (<usize>i << 2), f32x4.demote_f64x2_zero(v), 0)
}

/**
 * liquid/colourPairs.ts colourPairAt: the list position where colour pair q starts in colour's
 * segment (0 the reds, 1 the blacks) of a list of count cells, red of them red (in 64 bits:
 * q * count may pass 2^31).
 */
@inline export function colourPairAt(colour: i32, q: i32, red: i32, count: i32): i32 {
  const pairs = max(red, count - red)
  if (pairs == 0) return colour == 0 ? 0 : red
  return colour == 0 ? <i32>((<i64>q * <i64>red) / <i64>pairs) : red + <i32>((<i64>q * <i64>(count - red)) / <i64>pairs)
}

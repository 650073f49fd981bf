// The viridis colour ramp (perceptually uniform, readable by colour-blind viewers) as a
// degree-6 polynomial fit per channel (Matt Zucker's CC0 fit of matplotlib's table; error
// below 1/255 of the table). One set of coefficients serves the particle shader (GLSL below)
// and the legend the UI may draw (viridis()).

const C: readonly (readonly [number, number, number])[] = [
  [0.2777273272234177, 0.005407344544966578, 0.3340998053353061],
  [0.1050930431085774, 1.404613529898575, 1.384590162594685],
  [-0.3308618287255563, 0.214847559468213, 0.09509516302823659],
  [-4.634230498983486, -5.799100973351585, -19.33244095627987],
  [6.228269936347081, 14.17993336680509, 56.69055260068105],
  [4.776384997670288, -13.74514537774601, -65.35303263337234],
  [-5.435455855934631, 4.645852612178535, 26.3124352495832],
]

/** Linear RGB in [0, 1] of viridis at t (clamped to [0, 1]). */
export function viridis(t: number): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0]
  viridisInto(t, out, 0)
  return out
}

/** viridis(t) written to out[o..o+2]: no allocation, for per-vertex colouring. */
export function viridisInto(t: number, out: { [i: number]: number }, o: number): void {
  const x = t > 0 ? (t < 1 ? t : 1) : 0
  for (let ch = 0; ch < 3; ch++) {
    let v = C[6][ch]
    for (let k = 5; k >= 0; k--) v = C[k][ch] + x * v
    out[o + ch] = Math.min(1, Math.max(0, v))
  }
}

const vec = (c: readonly [number, number, number]): string => `vec3(${c.map((x) => x.toPrecision(10)).join(', ')})`

/** GLSL `vec3 viridis(float t)`, Horner form of the same polynomial. */
export const VIRIDIS_GLSL = `
vec3 viridis(float t) {
  t = clamp(t, 0.0, 1.0);
  return clamp(${vec(C[0])} + t * (${vec(C[1])} + t * (${vec(C[2])} + t * (${vec(C[3])} + t * (${vec(C[4])} + t * (${vec(C[5])} + t * ${vec(C[6])}))))), 0.0, 1.0);
}
`

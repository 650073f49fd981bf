// Where a level set's surface crosses one vertical column: shared by the liquid checks that
// read a free surface's height column by column (liquid/standingWave.test.ts and the floating
// bodies' water level, rigidfluid/scenes.ts).

/**
 * The first upward sign change of phi (negative in the liquid; cells i + nx (j + ny k)) in
 * column (i, k), as a height in cells above the grid's bottom face (linear between the two
 * cell centres); NaN when the column has none.
 */
export function surfaceInColumn(phi: ArrayLike<number>, nx: number, ny: number, i: number, k: number): number {
  for (let j = 0; j + 1 < ny; j++) {
    const a = phi[i + nx * (j + ny * k)]
    const b = phi[i + nx * (j + 1 + ny * k)]
    if (a < 0 && b >= 0) return j + 0.5 + a / (a - b)
  }
  return NaN
}

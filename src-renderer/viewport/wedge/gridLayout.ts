// Where each variant of a side-by-side wedge view sits: 2 -> 2x1, 3-4 -> 2x2, 5-6 -> 3x2,
// 7-9 -> 3x3, filled left to right, top to bottom (reading order, so variant numbers read in
// order). Pure: the Babylon cameras (viewport rects, origin bottom left) and the HTML labels
// (CSS fractions, origin top left) both come from here, so they always agree.

/** At most this many variants side by side: beyond 3x3 each cell is too small to judge. */
export const MAX_GRID_CELLS = 9

export interface GridLayout {
  cols: number
  rows: number
}

/** Fractions of the canvas, origin top left (CSS). */
export interface CellRect {
  left: number
  top: number
  width: number
  height: number
}

export function gridLayout(n: number): GridLayout {
  if (n <= 1) return { cols: 1, rows: 1 }
  if (n === 2) return { cols: 2, rows: 1 }
  if (n <= 4) return { cols: 2, rows: 2 }
  if (n <= 6) return { cols: 3, rows: 2 }
  return { cols: 3, rows: 3 }
}

export function cellRect(layout: GridLayout, i: number): CellRect {
  const col = i % layout.cols
  const row = Math.floor(i / layout.cols)
  return { left: col / layout.cols, top: row / layout.rows, width: 1 / layout.cols, height: 1 / layout.rows }
}

/** The same cell as a Babylon Viewport (x, y from the bottom left). */
export function cellViewport(layout: GridLayout, i: number): { x: number; y: number; width: number; height: number } {
  const r = cellRect(layout, i)
  return { x: r.left, y: 1 - r.top - r.height, width: r.width, height: r.height }
}

/** The cell under a point given as fractions of the canvas (origin top left), or -1 outside the n cells. */
export function cellAt(layout: GridLayout, n: number, fx: number, fy: number): number {
  if (!(fx >= 0 && fx < 1 && fy >= 0 && fy < 1)) return -1
  const i = Math.floor(fy * layout.rows) * layout.cols + Math.floor(fx * layout.cols)
  return i < n ? i : -1
}

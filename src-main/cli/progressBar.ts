// One line of terminal progress: a 30-character bar, the count and a free-form tail.
export function progressLine(done: number, total: number, tail: string): string {
  const width = 30
  const filled = total > 0 ? Math.round((width * done) / total) : width
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  ${tail}`
}

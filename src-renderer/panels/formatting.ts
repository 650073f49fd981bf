// Numbers for people: bytes in binary units, durations in ms / s / min.
export { formatBytes } from '../../src-shared/formatBytes'
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–'
  if (ms < 1000) return `${ms.toFixed(0)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

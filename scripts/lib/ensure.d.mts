// Types for ensure.mjs (its CI wait is imported by a unit test).
export const ROOT: string
export function run(cmd: string, args: string[], opts?: object): number
export function ensureNodeModules(opts?: { background?: boolean }): Promise<void>
export const APT_STATUS_ENV: string
export function awaitBackgroundDebianInstall(opts?: { timeoutMs?: number }): Promise<void>
export function ensureDebianPackages(packages: { name: string; binary: string }[]): void
export function ensureBuild(): void
export const CHROMIUM: { name: string; binary: string }
export const XVFB: { name: string; binary: string }

// Types for browserWindow.mjs (imported by the end-to-end tests).
import type { ChildProcess } from 'node:child_process'

export const PROFILE_NAME: string
export function profileInUse(dir: string): boolean
export function chooseProfile(dataDir: string): { dir: string; temporary: boolean }
export function chromiumArgs(launchUrl: string, profileDir: string, extraArgs?: string[]): string[]
export function openAppWindow(opts: { launchUrl: string; dataDir: string; extraArgs?: string[]; binary?: string }): {
  proc: ChildProcess
  profile: { dir: string; temporary: boolean }
  done(): Promise<void>
}
/** Pids of the Chromium processes (helpers included) still running on a profile. */
export function profileProcesses(dir: string): number[]

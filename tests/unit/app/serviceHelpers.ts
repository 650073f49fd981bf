// A service on temporary folders plus a typed call helper that throws the API error.
import { mkdtempSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EddyService } from '../../../src-main/app/service'
import type { RequestParams, RequestResult, RequestType } from '../../../src-shared/api/contract'
import { parseResult } from '../../../src-shared/api/dispatch'
import { EddyError } from '../../../src-shared/api/errors'

/** The built worker (npm test builds before it tests; run `npm run build` before running these alone). */
export const BAKE_WORKER = fileURLToPath(new URL('../../../out/main/bakeWorker.js', import.meta.url))

export function makeService(): { service: EddyService; dataDir: string; projectsDir: string } {
  const base = mkdtempSync(join(tmpdir(), 'eddy-svc-'))
  const dataDir = join(base, 'data')
  const projectsDir = join(base, 'projects')
  mkdirSync(dataDir)
  return { service: new EddyService({ mode: 'headless', version: 'test', dataDir, projectsDir, bakeWorker: BAKE_WORKER }), dataDir, projectsDir }
}

let nextId = 1
export async function call<K extends RequestType>(service: EddyService, type: K, params: RequestParams<K>): Promise<RequestResult<K>> {
  const r = await service.request({ id: nextId++, type, params })
  if (!r.ok) throw new EddyError(r.error.code, r.error.message, r.error.details)
  return parseResult(type, r.result)
}

export async function callError(service: EddyService, type: string, params: unknown): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  const r = await service.request({ id: nextId++, type, params })
  if (r.ok) throw new Error(`${type} unexpectedly succeeded`)
  return r.error
}

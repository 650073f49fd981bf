// Messages from a bake worker thread to the BakeManager.
import type { ApiErrorData } from '../../src-shared/api/errors'
import type { BakeProgress, BakeResult } from './runner'

export type WorkerMessage =
  | { type: 'progress'; progress: BakeProgress }
  | { type: 'log'; line: string }
  | { type: 'done'; result: BakeResult }
  | { type: 'error'; error: ApiErrorData }

// What the client scenario asks its measuring child to do, and what the child answers (one JSON line per case).
import type { Run } from '../lib/types.js'

export type ClientCase =
  /** callAllExtensions over `handlers` extensions answering after latencyMs, in parallel or one by one. */
  | { id: string, kind: 'callAll', handlers: number, latencyMs: number, sequential: boolean }
  /** callAllExtensions over `handlers` extensions that never answer (timeoutSeconds 1, failurePolicy Ignore). */
  | { id: string, kind: 'dead', handlers: number, sequential: boolean }

export interface ClientPlan {
  /** urls of the mock extensions, one per handler. */
  urls: string[]
  /** caFile verifies the mock extensions' serving certificate. */
  caFile: string
  repetitions: number
  /** repS: a repetition keeps calling this long, and at least minCalls times. */
  repS: number
  minCalls: number
  warmupCalls: number
  cases: ClientCase[]
  /** overhead: the client-overhead cases to run, interleaved (1 handler, no latency); each is optional. */
  overhead: { raw?: string, callExtension?: string, callAll?: string }
}

export interface ClientCaseResult {
  id: string
  runs: Run[]
  /** rssMb is the highest RSS of the client process during the case. */
  rssMb: number
}

export const RESULT_MARKER = 'CLIENT_RESULT '

// What one handler call came to (HandlerOutcome) and how successful outcomes aggregate into a hook's response, as
// Cluster API does it. Shared by HttpRuntimeClient and FakeRuntimeClient, so that both answer alike.
import type { HookDefinition } from '../api/hooks/define.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import type { GroupVersionHook } from '../catalog/identity.js'
import { RuntimeCallError } from './errors.js'
import type { HandlerOutcome } from './runtime-client.js'

type OutcomeBase = { name: string, gvh: GroupVersionHook }

/** The outcome of a handler that answered: success, or failure (error for an unknown status) unless its status is Success. */
export function answeredOutcome (base: OutcomeBase, response: Record<string, unknown>, durationMs: number, cached = false): HandlerOutcome {
  const statusError = checkStatus(response)
  if (statusError) {
    return { ...base, outcome: response['status'] === 'Failure' ? 'failure' : 'error', status: String(response['status']), ...messageOf(response), ignored: false, error: statusError, durationMs, response }
  }
  return {
    ...base,
    outcome: 'success',
    status: 'Success',
    ...messageOf(response),
    ...(typeof response['retryAfterSeconds'] === 'number' ? { retryAfterSeconds: response['retryAfterSeconds'] } : {}),
    ignored: false,
    durationMs,
    ...(cached ? { cached } : {}),
    response
  }
}

/** The outcome of a calling error that failurePolicy Ignore swallows: an empty Success response, as Cluster API answers. */
export function ignoredOutcome (hook: CatalogHook, base: OutcomeBase, error: string, durationMs: number): HandlerOutcome {
  const response = { kind: hook.responseKind, apiVersion: hook.apiVersion, status: 'Success', ...(hook.blocking ? { retryAfterSeconds: 0 } : {}) }
  return { ...base, outcome: 'ignored', status: 'Success', ignored: true, error, durationMs, response }
}

/** The catalog entry of the hook a caller names; a RuntimeCallError when the catalog does not hold it. */
export function catalogHook (catalog: Catalog, hook: HookDefinition): CatalogHook {
  const found = catalog.of(hook)
  if (!found) throw new RuntimeCallError(`hook ${String((hook as { hook?: unknown } | undefined)?.hook)} is not registered in catalog "${catalog.name}"`)
  return found
}

/**
 * The aggregate of successful handler outcomes, as Cluster API builds it: status Success, the messages of the handlers
 * that answered joined with ", ", and for blocking hooks the lowest non-zero retryAfterSeconds.
 */
export function aggregateResponses (hook: CatalogHook, outcomes: readonly HandlerOutcome[]): Record<string, unknown> {
  const aggregate: Record<string, unknown> = { kind: hook.responseKind, apiVersion: hook.apiVersion, status: 'Success' }
  const messages = outcomes.map(o => o.ignored ? '' : (o.message ?? '')).filter(m => m !== '')
  if (messages.length > 0) aggregate['message'] = messages.join(', ')
  if (hook.blocking) aggregate['retryAfterSeconds'] = outcomes.reduce((low, o) => lowestNonZero(low, o.ignored ? 0 : o.retryAfterSeconds ?? 0), 0)
  return aggregate
}

/** Cluster API's status check: Success passes, Failure and anything else are errors (never ignored). */
export function checkStatus (response: Record<string, unknown>): string | undefined {
  const status = response['status']
  const message = typeof response['message'] === 'string' ? response['message'] : ''
  if (status === 'Success') return undefined
  if (status === 'Failure') return `got failure response with message: ${message}`
  return `got unknown response status ${JSON.stringify(status ?? '')} with message: ${message}`
}

function lowestNonZero (a: number, b: number): number {
  return a === 0 ? b : b === 0 ? a : Math.min(a, b)
}

function messageOf (response: Record<string, unknown>): { message?: string } {
  return typeof response['message'] === 'string' && response['message'] !== '' ? { message: response['message'] } : {}
}

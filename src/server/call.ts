// One hook call, from the raw body to the response body: decode, validate, run the handler against its
// deadline, check what it returned. Every problem is a Failure response (HTTP 200), like Cluster API's server.
import type { Logger } from 'pino'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS, MAX_HANDLER_TIMEOUT_SECONDS } from '../catalog/handlers.js'
import type { RawBody } from './body.js'
import { parseGoDuration } from './duration.js'
import type { FailureReason } from './metrics.js'
import { HookError, type HandlerContext } from './types.js'

/** What the server knows about one route's handler. */
export interface HookRoute {
  hook: CatalogHook
  /** name is the registered handler name; '' for Discovery. */
  name: string
  timeoutSeconds?: number
  invoke: (request: unknown, ctx: HandlerContext) => unknown
}

export interface CallEnvironment {
  catalog: Catalog
  log: Logger
  requestId: string
  /** marginMs is kept between the handler's deadline and the caller's timeout, to send the answer in time. */
  marginMs: number
}

export interface CallOutcome {
  body: Record<string, unknown>
  status: string
  reason?: FailureReason
}

class DeadlineExceeded extends Error {}

export async function callHook (route: HookRoute, raw: RawBody | undefined, timeoutQuery: unknown, env: CallEnvironment): Promise<CallOutcome> {
  const { hook } = route
  const label = route.name || hook.gvh.hook
  const failure = (message: string, reason: FailureReason): CallOutcome => {
    env.log.info({ reason, failure: message }, 'hook call failed')
    return { body: envelope(hook, { status: 'Failure', message, ...(hook.blocking ? { retryAfterSeconds: 0 } : {}) }), status: 'Failure', reason }
  }

  if (raw && 'tooLarge' in raw) return failure(`error reading request: request body is larger than ${raw.limit} bytes`, 'body_too_large')
  let request: unknown
  try {
    request = JSON.parse((raw?.bytes ?? Buffer.alloc(0)).toString('utf8'))
  } catch (err) {
    // V8's messages quote parts of the body; only the position is reported, bodies may carry secrets.
    const position = /position (\d+)/.exec((err as Error).message)?.[1]
    const empty = !raw || raw.bytes.length === 0
    return failure(`error unmarshalling request: ${empty ? 'empty body' : `invalid JSON${position ? ` at position ${position}` : ''}`}`, 'malformed_json')
  }
  const valid = env.catalog.validateRequest(hook.gvh, request)
  if (!valid.valid) return failure(`invalid request: ${valid.message}`, 'invalid_request')

  const budgetMs = handlerBudgetMs(route, timeoutQuery, env.marginMs)
  const controller = new AbortController()
  const deadline = new Date(Date.now() + budgetMs)
  const ctx: HandlerContext = { log: env.log, signal: controller.signal, deadline, requestId: env.requestId, name: route.name }
  let timer: NodeJS.Timeout | undefined
  let result: unknown
  try {
    const running = Promise.resolve().then(() => route.invoke(request, ctx))
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new DeadlineExceeded()), budgetMs)
    })
    running.catch(() => {}) // a handler failing after its deadline must not become an unhandled rejection
    result = await Promise.race([running, expired])
  } catch (err) {
    if (err instanceof DeadlineExceeded) {
      controller.abort(new Error(`deadline of ${formatSeconds(budgetMs)} exceeded`))
      return failure(`handler ${JSON.stringify(label)} did not answer within ${formatSeconds(budgetMs)}`, 'deadline_exceeded')
    }
    env.log.error({ err }, 'handler threw')
    if (err instanceof HookError) return failure(err.message, 'handler_error')
    const kind = err instanceof Error ? err.name : typeof err
    return failure(`handler ${JSON.stringify(label)} failed with an unexpected ${kind}; see the extension's log`, 'handler_error')
  } finally {
    clearTimeout(timer)
  }

  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    env.log.error({ returned: typeof result }, 'handler returned no response object')
    return failure(`handler ${JSON.stringify(label)} returned an invalid response: (root): must be an object`, 'invalid_response')
  }
  const response = envelope(hook, { ...(hook.blocking ? { retryAfterSeconds: 0 } : {}), ...result as Record<string, unknown> })
  const checked = env.catalog.validateResponse(hook.gvh, response)
  if (!checked.valid) {
    env.log.error({ problem: checked.message }, 'handler returned an invalid response')
    return failure(`handler ${JSON.stringify(label)} returned an invalid response: ${checked.message}`, 'invalid_response')
  }
  const status = String(response['status'])
  return { body: response, status, ...(status === 'Failure' ? { reason: 'handler_failure' as const } : {}) }
}

/** kind and apiVersion first (Cluster API ignores them), then status, message, retryAfterSeconds, the rest. */
function envelope (hook: CatalogHook, fields: Record<string, unknown>): Record<string, unknown> {
  const { status, message, retryAfterSeconds, kind: _kind, apiVersion: _apiVersion, ...rest } = fields
  return {
    kind: hook.responseKind,
    apiVersion: hook.apiVersion,
    status,
    ...(message !== undefined && message !== '' ? { message } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    ...rest
  }
}

/**
 * The time the handler gets: the caller's ?timeout= (a Go duration) or else the handler's declared timeout
 * (10 s by default), less the margin. A margin larger than half the timeout is cut to half.
 */
export function handlerBudgetMs (route: Pick<HookRoute, 'timeoutSeconds'>, timeoutQuery: unknown, marginMs: number): number {
  const fromQuery = typeof timeoutQuery === 'string' ? parseGoDuration(timeoutQuery) : undefined
  let timeoutMs = fromQuery ?? (route.timeoutSeconds ?? DEFAULT_HANDLER_TIMEOUT_SECONDS) * 1000
  // 0 (no timeout) and anything beyond what Discovery may announce are bounded by the longest allowed timeout.
  if (timeoutMs <= 0 || timeoutMs > MAX_HANDLER_TIMEOUT_SECONDS * 1000) timeoutMs = MAX_HANDLER_TIMEOUT_SECONDS * 1000
  return Math.max(1, timeoutMs > 2 * marginMs ? timeoutMs - marginMs : timeoutMs / 2)
}

function formatSeconds (ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`
}

// One hook call, from the raw body to the response body: decode, validate, run the handler against its
// deadline, check what it returned. Every problem is a Failure response (HTTP 200), like Cluster API's server.
import type { Logger } from 'pino'
import type { CatalogHook, HookChecks } from '../catalog/catalog.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS, MAX_HANDLER_TIMEOUT_SECONDS } from '../api/hooks/v1alpha1/constants.js'
import type { RawBody } from './body.js'
import type { Deadlines } from './deadlines.js'
import { parseGoDuration } from '../go/time.js'
import type { FailureReason } from './metrics.js'
import { type HandlerContext } from './types.js'
import { HookError } from './errors.js'

/** What the server knows about one route's handler. */
export interface HookRoute {
  hook: CatalogHook
  /** name is the registered handler name; '' for Discovery. */
  name: string
  timeoutSeconds?: number
  invoke: (request: unknown, ctx: HandlerContext) => unknown
  /** checks decode the hook's requests and check its answers, bound to the hook once. */
  checks: HookChecks
}

interface CallEnvironment {
  /** log is the call's logger; a lazy one (see lazy-logger.ts) costs nothing while nothing is logged. */
  log: Logger
  requestId: string
  /** marginMs is kept between the handler's deadline and the caller's timeout, to send the answer in time. */
  marginMs: number
  /** deadlines expires handlers still running at their deadline. */
  deadlines: Deadlines
  /** onRequest sees the request once decoded (for a span's attributes; only while tracing). */
  onRequest?: ((request: unknown) => void) | undefined
}

export interface HookAnswer {
  body: Record<string, unknown>
  status: string
  reason?: FailureReason
}

class DeadlineExceeded extends Error {}

/**
 * Answers one call. A handler that answers synchronously is answered synchronously (no promise, no microtask): most
 * handlers do, and the hook server's throughput is measured per microsecond.
 */
export function callHook (route: HookRoute, raw: RawBody | undefined, timeoutQuery: unknown, env: CallEnvironment): HookAnswer | Promise<HookAnswer> {
  const { hook } = route
  if (raw && 'tooLarge' in raw) return failure(env, hook, `error reading request: request body is larger than ${raw.limit} bytes`, 'body_too_large')
  let request: unknown
  try {
    request = JSON.parse((raw?.bytes ?? Buffer.alloc(0)).toString('utf8'))
  } catch (err) {
    // V8's messages quote parts of the body; only the position is reported, bodies may carry secrets.
    const position = /position (\d+)/.exec((err as Error).message)?.[1]
    const empty = !raw || raw.bytes.length === 0
    return failure(env, hook, `error unmarshalling request: ${empty ? 'empty body' : `invalid JSON${position ? ` at position ${position}` : ''}`}`, 'malformed_json')
  }
  const received = route.checks.receive(request)
  if (!received.valid) return failure(env, hook, `${hook.goDecoded ? 'error unmarshalling request' : 'invalid request'}: ${received.message}`, 'invalid_request')
  request = received.request
  env.onRequest?.(request)

  const budgetMs = handlerBudgetMs(route, timeoutQuery, env.marginMs)
  const at = performance.now() + budgetMs
  const run = startRun(env, route.name, budgetMs)
  let result: unknown
  try {
    result = route.invoke(request, run.ctx)
  } catch (err) {
    return thrown(env, route, err)
  }
  // Only a handler still running (a promise) is watched; a synchronous answer is in before any deadline.
  if (!isThenable(result)) return checkResult(env, route, result)
  return againstDeadline(result, at, env.deadlines, run.expire).then(
    value => checkResult(env, route, value),
    (err: unknown) => err instanceof DeadlineExceeded
      ? failure(env, hook, `handler ${JSON.stringify(labelOf(route))} did not answer within ${formatDeadline(budgetMs)}`, 'deadline_exceeded')
      : thrown(env, route, err))
}

function labelOf (route: HookRoute): string {
  return route.name || route.hook.gvh.hook
}

function failure (env: CallEnvironment, hook: CatalogHook, message: string, reason: FailureReason): HookAnswer {
  env.log.info({ reason, failure: message }, 'hook call failed')
  return { body: envelope(hook, { status: 'Failure', message, ...(hook.blocking ? { retryAfterSeconds: 0 } : {}) }), status: 'Failure', reason }
}

function thrown (env: CallEnvironment, route: HookRoute, err: unknown): HookAnswer {
  // A HookError is the handler's deliberate Failure answer, logged as one; anything else is a bug worth an error.
  if (err instanceof HookError) return failure(env, route.hook, err.message, 'handler_error')
  env.log.error({ err }, 'handler threw')
  const kind = err instanceof Error ? err.name : typeof err
  return failure(env, route.hook, `handler ${JSON.stringify(labelOf(route))} failed with an unexpected ${kind}; see the extension's log`, 'handler_error')
}

/** The handler's answer in its envelope, checked against the response schema. */
function checkResult (env: CallEnvironment, route: HookRoute, result: unknown): HookAnswer {
  const { hook } = route
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    env.log.error({ returned: typeof result }, 'handler returned no response object')
    return failure(env, hook, `handler ${JSON.stringify(labelOf(route))} returned an invalid response: (root): must be an object`, 'invalid_response')
  }
  const response = envelope(hook, hook.blocking && !('retryAfterSeconds' in result) ? { retryAfterSeconds: 0, ...result } : result as Record<string, unknown>)
  const checked = route.checks.answer(response)
  if (!checked.valid) {
    env.log.error({ problem: checked.message }, 'handler returned an invalid response')
    return failure(env, hook, `handler ${JSON.stringify(labelOf(route))} returned an invalid response: ${checked.message}`, 'invalid_response')
  }
  const status = String(response['status'])
  return { body: response, status, ...(status === 'Failure' ? { reason: 'handler_failure' as const } : {}) }
}

interface HandlerRun {
  ctx: HandlerContext
  /** expire aborts the handler's signal, now or, if it has none yet, as soon as it asks for it. */
  expire: () => void
}

/** The context of one handler call; its AbortSignal and its deadline's Date are made only if the handler reads them. */
function startRun (env: CallEnvironment, name: string, budgetMs: number): HandlerRun {
  const deadlineMs = Date.now() + budgetMs
  let controller: AbortController | undefined
  let expired: Error | undefined
  let deadline: Date | undefined
  // Own enumerable getters: a handler spreading its context still gets the signal and the deadline.
  const ctx: HandlerContext = {
    log: env.log,
    get signal () {
      if (controller === undefined) {
        controller = new AbortController()
        if (expired) controller.abort(expired)
      }
      return controller.signal
    },
    get deadline () {
      return (deadline ??= new Date(deadlineMs))
    },
    requestId: env.requestId,
    name
  }
  const expire = () => {
    expired = new Error(`deadline of ${formatDeadline(budgetMs)} exceeded`)
    controller?.abort(expired)
  }
  return { ctx, expire }
}

/** The handler's result, or a DeadlineExceeded rejection once `at` (performance.now() ms) passes first. */
function againstDeadline (running: PromiseLike<unknown>, at: number, deadlines: Deadlines, expire: () => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const tracked = deadlines.track(at, () => {
      expire()
      reject(new DeadlineExceeded())
    })
    // Also handles a rejection after the deadline, which must not become an unhandled rejection.
    Promise.resolve(running).then(value => {
      deadlines.settle(tracked)
      resolve(value)
    }, (err: unknown) => {
      deadlines.settle(tracked)
      reject(err)
    })
  })
}

/** Whether a value is a promise or any thenable (an object or function with a `then` method), as `await` treats it. */
export function isThenable (value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

const ENVELOPE = new Set(['kind', 'apiVersion', 'status', 'message', 'retryAfterSeconds'])

/** kind and apiVersion first (Cluster API ignores them), then status, message, retryAfterSeconds, the rest. */
function envelope (hook: CatalogHook, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: hook.responseKind, apiVersion: hook.apiVersion, status: fields['status'] }
  const { message, retryAfterSeconds } = fields
  if (message !== undefined && message !== '') out['message'] = message
  if (retryAfterSeconds !== undefined) out['retryAfterSeconds'] = retryAfterSeconds
  for (const key of Object.keys(fields)) {
    if (!ENVELOPE.has(key)) out[key] = fields[key]
  }
  return out
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

/** A deadline in milliseconds as the seconds messages give it, e.g. `0.5s`. */
function formatDeadline (ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`
}

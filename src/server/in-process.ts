// The in-process entrance of the serving core: an extension's handlers called as Cluster API calls them over HTTPS
// (the request serialized to JSON, decoded, checked, run against its deadline, the answer checked and serialized),
// without a socket. For unit tests of an extension and for `runtime-sdk simulate --handlers`: the same answers as the
// server gives, in microseconds.
import { pino, type Logger } from 'pino'
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { Catalog } from '../catalog/catalog.js'
import type { AnnouncedHandler } from '../catalog/handlers.js'
import { ExtensionHandlerError } from './errors.js'
import { type ExtensionOptions, HOOK_BODY_LIMITS, hookEndpoints, prepareExtension } from './extension.js'
import { createMetrics } from './metrics.js'

/** How one in-process call is made. */
export interface InProcessCallOptions {
  /** timeout is the call's timeout as Cluster API sends it in `?timeout=` (a Go duration, e.g. `10s`); default: the handler's timeoutSeconds. */
  timeout?: string
  /** requestId names the call in the handler's context and logs (default: `in-process-<n>`). */
  requestId?: string
}

/** An extension's handlers, callable in process. */
export interface InProcessExtension {
  /** catalog holds the hooks the extension's handlers implement. */
  readonly catalog: Catalog
  /** discovery is the Discovery response the extension answers with. */
  readonly discovery: {
    /** status is Success. */
    status: 'Success'
    /** handlers are the handlers the extension serves, as Discovery announces them. */
    handlers: AnnouncedHandler[]
  }
  /** paths lists the hook paths served, Discovery first (relative to the extension's URL, as Discovery's handlers are called). */
  readonly paths: readonly string[]
  /**
   * Calls the handler `name` of `hook` (Discovery: name '') with `request`, typed by the hook, and resolves to its
   * response exactly as the server would send it (a bad request, a thrown error or a missed deadline is a Failure).
   */
  call: <H extends HookDefinition>(hook: H, name: string, request: RequestOf<H>, options?: InProcessCallOptions) => Promise<ResponseOf<H>>
  /** Calls the handler served at `path` with a request body (JSON text, bytes, or a value serialized as JSON) and resolves to the parsed answer. */
  callPath: (path: string, body: string | Uint8Array | unknown, options?: InProcessCallOptions) => Promise<Record<string, unknown>>
}

/**
 * An extension's handlers callable without a server, for unit tests: each call goes through what a call over HTTPS
 * goes through (the request serialized to JSON, decoded and checked, the handler run against its deadline, the answer
 * checked), so the response is the one the server would send. The handlers are checked now: ExtensionHandlerError
 * names every problem.
 *
 * @example
 * ```ts
 * import { createInProcessExtension, v1alpha1 } from 'runtime-sdk'
 * import { sampleRequest } from 'runtime-sdk/testing'
 *
 * const extension = createInProcessExtension({
 *   handlers: [{ hook: v1alpha1.BeforeClusterCreate, name: 'hold', handler: () => ({ status: 'Success', retryAfterSeconds: 30 }) }]
 * })
 * const response = await extension.call(v1alpha1.BeforeClusterCreate, 'hold', sampleRequest(v1alpha1.BeforeClusterCreate))
 * // response.retryAfterSeconds === 30
 * ```
 */
export function createInProcessExtension<const T extends readonly HookDefinition[]> (options: ExtensionOptions<T> & { logger?: Logger }): InProcessExtension {
  const extension = prepareExtension(options.handlers, options.catalog)
  const { catalog } = extension
  const logger = options.logger ?? pino({ level: 'silent' })
  const endpoints = new Map(hookEndpoints(extension, { deadlineMarginMs: options.deadlineMarginMs, metrics: createMetrics() }).map(e => [e.path, e]))
  let calls = 0

  const callPath: InProcessExtension['callPath'] = async (path, body, callOptions = {}) => {
    const endpoint = endpoints.get(path)
    if (endpoint === undefined) throw new ExtensionHandlerError(`no handler is served at ${path}; the extension serves ${[...endpoints.keys()].join(', ')}`)
    const bytes = typeof body === 'string' ? Buffer.from(body) : body instanceof Uint8Array ? Buffer.from(body) : Buffer.from(JSON.stringify(body) ?? '')
    const raw = bytes.length > HOOK_BODY_LIMITS.limit ? { tooLarge: true as const, limit: HOOK_BODY_LIMITS.limit } : { bytes }
    const text = await endpoint.answer(raw, callOptions.timeout, logger, callOptions.requestId ?? `in-process-${++calls}`)
    return JSON.parse(text) as Record<string, unknown>
  }

  return {
    catalog,
    discovery: extension.discovery,
    paths: [...endpoints.keys()],
    callPath,
    call: async (hook, name, request, callOptions) => {
      const entry = catalog.of(hook)
      if (entry === undefined) throw new ExtensionHandlerError(`hook ${String((hook as { hook?: unknown }).hook)} is not a hook definition of catalog "${catalog.name}"`)
      const path = entry.definition.meta.singleton ? catalog.path(entry.gvh) : catalog.path(entry.gvh, name)
      return await callPath(path, request, callOptions) as ResponseOf<typeof hook>
    }
  }
}

// An extension's hooks ready to answer, whatever the request arrived through: the handlers checked against the
// catalog, the Discovery answer made from them, and one endpoint per hook path that turns a raw body into the JSON
// answer (call.ts does the call). The HTTP framing around it is endpoint.ts's; the in-process entrance (in-process.ts)
// calls the endpoints directly.
import type { IncomingHttpHeaders } from 'node:http'
import type { Logger } from 'pino'
import type { Registry } from 'prom-client'
import type { HookDefinition } from '../api/hooks/define.js'
import { GROUP } from '../api/hooks/v1alpha1/constants.js'
import type { Catalog } from '../catalog/catalog.js'
import { createCatalog } from '../catalog/default.js'
import { MAX_BODY_BYTES, type AnnouncedHandler } from '../catalog/handlers.js'
import type { BodyLimits, RawBody } from './body.js'
import { callHook, type HookAnswer, type HookRoute } from './call.js'
import { Deadlines } from './deadlines.js'
import { ExtensionHandlerError } from './errors.js'
import { resolveHandlers } from './handlers.js'
import { lazyChildLogger } from './lazy-logger.js'
import type { ServerMetrics } from './metrics.js'
import type { HookRecorder } from './recording.js'
import type { ExtensionHandler, ExtensionHandlers } from './types.js'
import { ATTRIBUTES, endSpan, incomingContext, type Span, SpanKind, tracer } from '../telemetry/trace.js'

/** The default safety margin between a handler's deadline and the caller's timeout. */
export const DEFAULT_DEADLINE_MARGIN_MS = 500

/** What every entrance of an extension takes: the handlers, their catalog, the deadline margin. */
export interface ExtensionOptions<T extends readonly HookDefinition[] = readonly HookDefinition[]> {
  /** handlers are the extension's handlers, each typed by its hook; Discovery is answered from them. */
  handlers: ExtensionHandlers<T>
  /** catalog holds the hooks the handlers implement (default: createCatalog(), Cluster API's hooks). */
  catalog?: Catalog
  /** deadlineMarginMs is subtracted from the caller's timeout to get the handler's deadline (default 500). */
  deadlineMarginMs?: number
}

/** The options of the runtimeExtension fastify plugin. */
export interface RuntimeExtensionOptions<T extends readonly HookDefinition[] = readonly HookDefinition[]> extends ExtensionOptions<T> {
  /** metrics receives the runtime_sdk_extension_* metrics (default: a registry of the plugin's own). */
  metrics?: Registry
}

/** What an extension serves, checked and ready to mount: the result of checking handlers against the catalog. */
interface PreparedExtension {
  readonly catalog: Catalog
  /** discovery is the Discovery response the extension answers with. */
  readonly discovery: { status: 'Success', handlers: AnnouncedHandler[] }
  /** routes are the hook routes, Discovery first; paths are relative to the mount point. */
  readonly routes: ReadonlyArray<HookRoute & { path: string }>
}

/** Checks the handlers against the catalog (names, timeouts, policies, known hooks) and builds the routes. */
export function prepareExtension (handlers: readonly ExtensionHandler[], catalog: Catalog = createCatalog()): PreparedExtension {
  const resolved = resolveHandlers(catalog, handlers)
  if (catalog.versions(GROUP, 'Discovery').length === 0) throw new ExtensionHandlerError(`catalog "${catalog.name}" has no ${GROUP} Discovery hook; start from createCatalog()`)
  const discoveryHook = catalog.discoveryHook()
  const discovery = { status: 'Success' as const, handlers: resolved.map(r => r.announced) }
  return {
    catalog,
    discovery,
    routes: [{ hook: discoveryHook, name: '', invoke: () => structuredClone(discovery) }, ...resolved.map(r => ({
      hook: r.hook,
      name: r.name,
      ...(r.handler.timeoutSeconds !== undefined ? { timeoutSeconds: r.handler.timeoutSeconds } : {}),
      invoke: r.handler.handler as HookRoute['invoke']
    }))].map(route => ({ ...route, path: catalog.path(route.hook.gvh, route.name), checks: catalog.hookChecks(route.hook.gvh) }))
  }
}

/** One hook route ready to answer, whichever way its request arrived. */
export interface HookEndpoint {
  /** path is relative to the mount point. */
  readonly path: string
  /**
   * answer runs the call, counts it and traces it (continuing the traceparent of `headers`): the JSON text of the
   * response (always HTTP 200), synchronously when the handler is.
   */
  answer: (raw: RawBody | undefined, timeoutQuery: unknown, log: Logger, requestId: string, headers?: IncomingHttpHeaders) => string | Promise<string>
}

/** The bodies the hook routes read: up to 20 MiB for the handler, drained up to four times that before a 413. */
export const HOOK_BODY_LIMITS: BodyLimits = { limit: MAX_BODY_BYTES, drainLimit: 4 * MAX_BODY_BYTES }

/** The endpoints of a prepared extension, sharing one deadline timer, one metrics registry and, when given, one recorder. */
export function hookEndpoints (extension: PreparedExtension, options: { deadlineMarginMs?: number | undefined, metrics: ServerMetrics, recorder?: HookRecorder | undefined }): HookEndpoint[] {
  const marginMs = options.deadlineMarginMs ?? DEFAULT_DEADLINE_MARGIN_MS
  const deadlines = new Deadlines()
  return extension.routes.map(route => {
    const labels = { hook: route.hook.gvh.hook, handler: route.name }
    const bindings = { ...labels, apiVersion: route.hook.apiVersion }
    const metrics = options.metrics.route(labels)
    const spanName = `${labels.hook} ${labels.handler}`
    const spanAttributes = { [ATTRIBUTES.hook]: labels.hook, [ATTRIBUTES.handler]: labels.handler }
    return {
      path: route.path,
      answer (raw, timeoutQuery, log, requestId, headers) {
        const started = performance.now()
        const span = tracer.startSpan(spanName, { kind: SpanKind.SERVER, attributes: spanAttributes }, incomingContext(headers))
        const finish = (answer: HookAnswer): string => {
          metrics.observe(answer.status, (performance.now() - started) / 1000, answer.reason)
          if (span.isRecording()) traceAnswer(span, answer)
          endSpan(span, answer.status === 'Success' ? undefined : String(answer.body['message'] ?? answer.status))
          return JSON.stringify(answer.body)
        }
        const onRequest = span.isRecording() ? (request: unknown) => { traceCluster(span, request) } : undefined
        const answer = callHook(route, raw, timeoutQuery, { log: lazyChildLogger(log, bindings), requestId, marginMs, deadlines, onRequest })
        const { recorder } = options
        if (recorder === undefined) return answer instanceof Promise ? answer.then(finish) : finish(answer)
        const time = new Date().toISOString()
        const record = (text: string): string => {
          const request = raw && 'bytes' in raw ? raw.bytes.toString('utf8') : ''
          recorder.record({ time, hook: labels.hook, apiVersion: route.hook.apiVersion, handler: route.name, requestId, durationMs: performance.now() - started }, request, text)
          return text
        }
        return answer instanceof Promise ? answer.then(finish).then(record) : record(finish(answer))
      }
    }
  })
}

/** The answer's status, retry and refusal reason on the call's span. */
function traceAnswer (span: Span, answer: HookAnswer): void {
  span.setAttribute(ATTRIBUTES.status, answer.status)
  const retry = answer.body['retryAfterSeconds']
  if (typeof retry === 'number' && retry > 0) span.setAttribute(ATTRIBUTES.retryAfterSeconds, retry)
  if (answer.reason) span.setAttribute(ATTRIBUTES.failureReason, answer.reason)
}

/** The Cluster a request is about (lifecycle hooks carry it, topology hooks in the builtin variable) on its span. */
function traceCluster (span: Span, request: unknown): void {
  const r = request as { cluster?: { metadata?: { namespace?: string, name?: string } }, variables?: Array<{ name?: string, value?: { cluster?: { namespace?: string, name?: string } } }> }
  const cluster = r.cluster?.metadata ?? r.variables?.find(v => v.name === 'builtin')?.value?.cluster
  if (cluster?.namespace) span.setAttribute(ATTRIBUTES.clusterNamespace, cluster.namespace)
  if (cluster?.name) span.setAttribute(ATTRIBUTES.clusterName, cluster.name)
}

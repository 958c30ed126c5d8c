// runtimeExtension: the hooks of an extension as a fastify plugin. `app.register(runtimeExtension, { handlers })`
// mounts Discovery and one POST route per handler, under the register `prefix`, in an encapsulated scope: the
// hooks' body parser (JSON whatever the Content-Type, 20 MiB) applies to them only, never to the app's routes.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import type { Registry } from 'prom-client'
import type { HookDefinition } from '../api/hooks/define.js'
import { GROUP } from '../api/hooks/v1alpha1/constants.js'
import type { Catalog } from '../catalog/catalog.js'
import { createCatalog } from '../catalog/default.js'
import { MAX_BODY_BYTES, type AnnouncedHandler } from '../catalog/handlers.js'
import { type BodyLimits, installBodyParser, type RawBody } from './body.js'
import { callHook, type HookAnswer, type HookRoute } from './call.js'
import { Deadlines } from './deadlines.js'
import { methodNotAllowed } from '../http/index.js'
import { lazyChildLogger } from './lazy-logger.js'
import { createMetrics, type ServerMetrics } from './metrics.js'
import { resolveHandlers } from './handlers.js'
import type { ExtensionHandler, ExtensionHandlers } from './types.js'
import { ExtensionHandlerError } from './errors.js'

/** The default safety margin between a handler's deadline and the caller's timeout. */
export const DEFAULT_DEADLINE_MARGIN_MS = 500

export interface RuntimeExtensionOptions<T extends readonly HookDefinition[] = readonly HookDefinition[]> {
  /** handlers are the extension's handlers, each typed by its hook; Discovery is answered from them. */
  handlers: ExtensionHandlers<T>
  /** catalog holds the hooks the handlers implement (default: createCatalog(), Cluster API's hooks). */
  catalog?: Catalog
  /** deadlineMarginMs is subtracted from the caller's timeout to get the handler's deadline (default 500). */
  deadlineMarginMs?: number
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
    routes: [
      { hook: discoveryHook, name: '', path: catalog.path(discoveryHook.gvh), invoke: () => structuredClone(discovery) },
      ...resolved.map(r => ({
        hook: r.hook,
        name: r.name,
        path: r.path,
        ...(r.handler.timeoutSeconds !== undefined ? { timeoutSeconds: r.handler.timeoutSeconds } : {}),
        invoke: r.handler.handler as HookRoute['invoke']
      }))
    ]
  }
}

/** One hook route ready to answer, whichever way its request arrived (fastify route or the server's fast path). */
export interface HookEndpoint {
  /** path is relative to the mount point. */
  readonly path: string
  /** answer runs the call and counts it: the JSON text of the response (always HTTP 200), synchronously when the handler is. */
  answer: (raw: RawBody | undefined, timeoutQuery: unknown, log: Logger, requestId: string) => string | Promise<string>
}

interface EndpointOptions {
  deadlineMarginMs?: number
  metrics: ServerMetrics
}

/** The bodies the hook routes read: up to 20 MiB for the handler, drained up to four times that before a 413. */
export const HOOK_BODY_LIMITS: BodyLimits = { limit: MAX_BODY_BYTES, drainLimit: 4 * MAX_BODY_BYTES }

/** The endpoints of a prepared extension, sharing one deadline timer and one metrics registry. */
export function hookEndpoints (extension: PreparedExtension, options: EndpointOptions): HookEndpoint[] {
  const { catalog } = extension
  const marginMs = options.deadlineMarginMs ?? DEFAULT_DEADLINE_MARGIN_MS
  const deadlines = new Deadlines()
  return extension.routes.map(route => {
    const labels = { hook: route.hook.gvh.hook, handler: route.name }
    const bindings = { ...labels, apiVersion: route.hook.apiVersion }
    const metrics = options.metrics.route(labels)
    return {
      path: route.path,
      answer (raw, timeoutQuery, log, requestId) {
        const started = performance.now()
        const finish = (answer: HookAnswer): string => {
          metrics.observe(answer.status, (performance.now() - started) / 1000, answer.reason)
          return JSON.stringify(answer.body)
        }
        const answer = callHook(route, raw, timeoutQuery, { catalog, log: lazyChildLogger(log, bindings), requestId, marginMs, deadlines })
        return answer instanceof Promise ? answer.then(finish) : finish(answer)
      }
    }
  })
}

/** Mounts hook endpoints on a fastify scope (one the caller owns: the body parser replaces the scope's). */
export function mountHookRoutes (scope: FastifyInstance, endpoints: readonly HookEndpoint[]): void {
  installBodyParser(scope, HOOK_BODY_LIMITS)
  for (const endpoint of endpoints) {
    scope.post(endpoint.path, async (request: FastifyRequest<{ Querystring: { timeout?: string } }>, reply: FastifyReply) => {
      const text = await endpoint.answer(request.body as RawBody | undefined, request.query.timeout, request.log as unknown as Logger, request.id)
      return reply.code(200).type('application/json; charset=utf-8').send(text)
    })
    methodNotAllowed(scope, endpoint.path, ['POST'], ': hooks are called with POST')
  }
}

/**
 * The extension's hooks as a fastify plugin, registered either way:
 *
 * ```ts
 * await app.register(runtimeExtension({ handlers: [{ hook: v1alpha1.BeforeClusterCreate, name: 'hold', handler: (request) => ({ status: 'Success' }) }] }), { prefix: '/extension' })
 * await app.register(runtimeExtension, { prefix: '/extension', handlers: [defineHandler({ hook: v1alpha1.BeforeClusterCreate, ... })] })
 * ```
 *
 * Called with the options first, it types every inline handler from its hook (fastify's `register` cannot pass
 * that typing through its options); registered directly, it takes handlers made with defineHandler.
 * Handlers are checked when the plugin loads: `app.ready()` rejects with a ExtensionHandlerError naming every problem.
 * Cluster API calls extensions over HTTPS only: serve the app with TLS (or use createExtensionServer).
 */
interface RuntimeExtensionPlugin extends FastifyPluginAsync<RuntimeExtensionOptions> {
  <const T extends readonly HookDefinition[]> (options: RuntimeExtensionOptions<T>): FastifyPluginAsync
  (app: FastifyInstance, options: RuntimeExtensionOptions): Promise<void>
}

function mount (app: FastifyInstance, options: RuntimeExtensionOptions, extension = prepareExtension(options.handlers, options.catalog)): void {
  const metrics = createMetrics(options.metrics ? { registry: options.metrics } : {})
  mountHookRoutes(app, hookEndpoints(extension, { ...(options.deadlineMarginMs !== undefined ? { deadlineMarginMs: options.deadlineMarginMs } : {}), metrics }))
}

function isFastifyInstance (value: unknown): value is FastifyInstance {
  return typeof value === 'object' && value !== null && typeof (value as { register?: unknown }).register === 'function' && typeof (value as { route?: unknown }).route === 'function'
}

export const runtimeExtension = Object.assign(function runtimeExtension (first: FastifyInstance | RuntimeExtensionOptions, second?: RuntimeExtensionOptions) {
  if (isFastifyInstance(first)) return Promise.resolve().then(() => mount(first, second as RuntimeExtensionOptions))
  // Checked now, so that a mistake points at the call that made it.
  const extension = prepareExtension(first.handlers, first.catalog)
  return Object.assign(async (app: FastifyInstance) => mount(app, first, extension), { [Symbol.for('fastify.display-name')]: 'runtime-sdk' })
}, { [Symbol.for('fastify.display-name')]: 'runtime-sdk' }) as RuntimeExtensionPlugin

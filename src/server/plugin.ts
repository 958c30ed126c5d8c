// runtimeExtension: the hooks of an extension as a fastify plugin, a thin entrance to the serving core. It mounts one
// route per hook path (Discovery and every handler) under the register `prefix`, in an encapsulated scope whose only
// body parser leaves the body unread; each route hands node's request and response to endpoint.ts, which frames and
// answers the call exactly as createExtensionServer does. The app's hooks (onRequest, preParsing, preValidation,
// preHandler) run first; the answer is written by the core, so onSend and preSerialization do not run for hook calls.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Logger } from 'pino'
import type { HookDefinition } from '../api/hooks/define.js'
import { serveHookRequest } from './endpoint.js'
import { type HookEndpoint, hookEndpoints, prepareExtension, type RuntimeExtensionOptions } from './extension.js'
import { createMetrics } from './metrics.js'

/** Mounts hook endpoints on a fastify scope (one the caller owns: the body parser replaces the scope's). */
export function mountHookRoutes (scope: FastifyInstance, endpoints: readonly HookEndpoint[], open: () => boolean = () => true): void {
  scope.removeAllContentTypeParsers()
  // endpoint.ts reads (and bounds) the body itself, from the raw request.
  scope.addContentTypeParser('*', (_request, _payload, done) => { done(null) })
  for (const endpoint of endpoints) {
    scope.all(endpoint.path, (request, reply) => {
      reply.hijack()
      serveHookRequest(endpoint, request.raw, reply.raw, { requestId: request.id, log: request.log as unknown as Logger }, open())
    })
  }
}

/** The type of {@link runtimeExtension}: a fastify plugin, or a function of the options that makes one. */
export interface RuntimeExtensionPlugin extends FastifyPluginAsync<RuntimeExtensionOptions> {
  /** Makes the plugin from the options, typing every inline handler from its hook; the handlers are checked now. */
  <const T extends readonly HookDefinition[]> (options: RuntimeExtensionOptions<T>): FastifyPluginAsync
  /** Registered directly: mounts the hook routes of `options` on `app`; the handlers are checked when the plugin loads. */
  (app: FastifyInstance, options: RuntimeExtensionOptions): Promise<void>
}

function mount (app: FastifyInstance, options: RuntimeExtensionOptions, extension = prepareExtension(options.handlers, options.catalog)): void {
  const metrics = createMetrics(options.metrics ? { registry: options.metrics } : {})
  mountHookRoutes(app, hookEndpoints(extension, { deadlineMarginMs: options.deadlineMarginMs, metrics }))
}

function isFastifyInstance (value: unknown): value is FastifyInstance {
  return typeof value === 'object' && value !== null && typeof (value as { register?: unknown }).register === 'function' && typeof (value as { route?: unknown }).route === 'function'
}

/**
 * The extension's hooks as a fastify plugin, registered either way (see the example). Called with the options first,
 * it types every inline handler from its hook (fastify's `register` cannot pass that typing through its options);
 * registered directly, it takes handlers made with defineHandler. Handlers are checked when the plugin loads:
 * `app.ready()` rejects with a ExtensionHandlerError naming every problem. Each call is answered exactly as
 * {@link createExtensionServer} answers it. Cluster API calls extensions over HTTPS only: serve the app with TLS (or
 * use createExtensionServer).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify'
 * import { defineHandler, runtimeExtension, v1alpha1 } from 'runtime-sdk'
 *
 * const app = Fastify({ https: { cert, key } })
 * // The options first: inline handlers are typed from their hook.
 * await app.register(runtimeExtension({
 *   handlers: [{ hook: v1alpha1.BeforeClusterCreate, name: 'hold', handler: () => ({ status: 'Success' }) }]
 * }), { prefix: '/extension' })
 * // Or registered directly, with handlers made with defineHandler.
 * await app.register(runtimeExtension, {
 *   prefix: '/other-extension',
 *   handlers: [defineHandler({ hook: v1alpha1.AfterControlPlaneInitialized, name: 'notify', handler: () => ({ status: 'Success' }) })]
 * })
 * await app.listen({ port: 9443, host: '0.0.0.0' })
 * ```
 */
export const runtimeExtension = Object.assign(function runtimeExtension (first: FastifyInstance | RuntimeExtensionOptions, second?: RuntimeExtensionOptions) {
  if (isFastifyInstance(first)) return Promise.resolve().then(() => mount(first, second as RuntimeExtensionOptions))
  // Checked now, so that a mistake points at the call that made it.
  const extension = prepareExtension(first.handlers, first.catalog)
  return Object.assign(async (app: FastifyInstance) => mount(app, first, extension), { [Symbol.for('fastify.display-name')]: 'runtime-sdk' })
}, { [Symbol.for('fastify.display-name')]: 'runtime-sdk' }) as RuntimeExtensionPlugin

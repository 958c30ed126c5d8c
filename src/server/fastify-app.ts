// The fastify app behind the serving core of createExtensionServer: the operations routes (/metrics; the probes for
// when fastify answers everything), the docs, the routes a user adds through `server.app`, and the hook routes of
// the runtimeExtension plugin, which answer hook calls once a request hook is added through the app (its hooks then
// run for them). Loaded only when first needed (see server.ts).
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import type { Server } from 'node:http'
import type { FastifyBaseLogger, FastifyInstance, fastify as Fastify } from 'fastify'
import type { Bindings, ChildLoggerOptions, Logger } from 'pino'
import type { OpenAPIDocument } from '../catalog/openapi.js'
import { appOptions, operationsRoutes, type RequestListener } from '../http/index.js'
import { mountDocs } from './docs.js'
import type { HookEndpoint } from './extension.js'
import { lazyChildLogger } from './lazy-logger.js'
import { mountHookRoutes } from './plugin.js'

/** What a server's /metrics shows. */
export interface MetricsView {
  /** contentType is the Content-Type of the metrics text, e.g. prom-client's Prometheus text format. */
  contentType: string
  /** metrics resolves to the text /metrics answers with. */
  metrics: () => Promise<string>
}

interface AppParts {
  server: Server
  logger: Logger
  prefix: string
  endpoints: HookEndpoint[]
  open: () => boolean
  docs: boolean
  openapiDocument: () => OpenAPIDocument
  metrics: MetricsView
  notReady: () => string | undefined
  setListener: (handler: RequestListener) => void
  /** onRequestHook is told when a request hook is added to the app. */
  onRequestHook: () => void
}

/** The hooks fastify runs for a request before its handler: added through `app`, they must run for hook calls too. */
const REQUEST_HOOKS = new Set(['onRequest', 'preParsing', 'preValidation', 'preHandler'])

/** The fastify app, on the server the core listens with (fastify never makes its own). */
export function buildApp (parts: AppParts): FastifyInstance {
  const createApp = createRequire(import.meta.url)('fastify') as typeof Fastify
  const app = createApp({
    ...appOptions,
    loggerInstance: parts.logger,
    serverFactory: (handler) => {
      parts.setListener(handler)
      return parts.server
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Request loggers are made when first written to: at level warn a successful call writes nothing.
    childLoggerFactory: (parent: FastifyBaseLogger, bindings: Bindings, childOptions: ChildLoggerOptions) =>
      childOptions.level !== undefined || childOptions.serializers !== undefined ? parent.child(bindings, childOptions) : lazyChildLogger(parent as Logger, bindings),
    return503OnClosing: true,
    forceCloseConnections: 'idle'
  }) as unknown as FastifyInstance
  operationsRoutes(app, { notReady: parts.notReady, metrics: parts.metrics })
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    done(null, payload)
  })
  const hookRoutes = async (scope: FastifyInstance) => { mountHookRoutes(scope, parts.endpoints, parts.open) }
  app.register(hookRoutes, { prefix: parts.prefix })
  if (parts.docs) mountDocs(app, parts.openapiDocument)
  const addHook = app.addHook.bind(app) as (name: string, hook: unknown) => FastifyInstance
  Object.defineProperty(app, 'addHook', {
    value: (name: string, hook: unknown) => {
      if (REQUEST_HOOKS.has(name)) parts.onRequestHook()
      return addHook(name, hook)
    }
  })
  return app
}

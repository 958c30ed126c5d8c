// createExtensionServer: a Runtime Extension served over HTTPS by fastify. The route table is declarative
// (hook routes from the handlers, Discovery from the same list, operations routes); handlers are small
// functions; the only middleware is what every request needs (body reading, JSON errors, request ids).
import { randomUUID } from 'node:crypto'
import { posix } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { SecureContextOptions } from 'node:tls'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { type Bindings, type ChildLoggerOptions, pino, type Logger } from 'pino'
import type { Registry } from 'prom-client'
import type { Catalog } from '../catalog/catalog.js'
import type { AnnouncedHandler } from '../catalog/handlers.js'
import { buildOpenAPIDocument, OPENAPI_VERSION, type OpenAPIDocument } from '../catalog/openapi.js'
import type { HookDefinition } from '../api/hooks/define.js'
import { listenAt, operationsRoutes } from '../http/index.js'
import { lazyChildLogger } from './lazy-logger.js'
import { createMetrics } from './metrics.js'
import { mountHookRoutes, prepareExtension, type RuntimeExtensionOptions } from './plugin.js'
import { httpsOptions, type TLSFileOptions, watchCertificates } from '../tls/index.js'
import { ExtensionHandlerError } from './errors.js'

/** Connection limits, so that a slow or idle client cannot hold the server (anchors §6.2). */
export interface ConnectionLimits {
  /** requestTimeoutMs bounds a whole request, body upload included (fastify's default 0 disables it). */
  requestTimeoutMs: number
  /** headersTimeoutMs bounds the arrival of the request headers (slowloris). */
  headersTimeoutMs: number
  /** keepAliveTimeoutMs keeps idle connections longer than Go's 90 s idle timeout, so the server never closes first. */
  keepAliveTimeoutMs: number
  /** connectionTimeoutMs closes sockets inactive this long; longer than the longest handler budget (30 s). */
  connectionTimeoutMs: number
}

export const DEFAULT_LIMITS: ConnectionLimits = { requestTimeoutMs: 60_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 95_000, connectionTimeoutMs: 65_000 }

export interface ExtensionServerOptions<T extends readonly HookDefinition[] = readonly HookDefinition[]> extends Omit<RuntimeExtensionOptions<T>, 'metrics'> {
  /** tls serves HTTPS from certificate files, re-read when they change. Required unless insecureHttp. */
  tls?: TLSFileOptions
  /** insecureHttp serves plain HTTP; Cluster API calls extensions over HTTPS only, so use it behind a TLS proxy or in tests. */
  insecureHttp?: boolean
  /** pathPrefix is put in front of every hook path (the ExtensionConfig's URL path or service.path). */
  pathPrefix?: string
  /** logger is a pino logger; by default JSON to stdout at logLevel. */
  logger?: Logger
  logLevel?: string
  limits?: Partial<ConnectionLimits>
  /** docs serves /openapi.json and a browsable UI at /docs (default true). */
  docs?: boolean
  /** defaultMetrics adds prom-client's process metrics to /metrics (default false). */
  defaultMetrics?: boolean
}

export interface ListenOptions {
  /** port defaults to 9443, like Cluster API's server; 0 picks a free port. */
  port?: number
  /** host defaults to 0.0.0.0 (all interfaces, as a Pod needs). */
  host?: string
}

export interface ExtensionServer {
  /** app is the underlying fastify instance (inject, extra routes before listen). */
  readonly app: FastifyInstance
  readonly catalog: Catalog
  /** discovery is the Discovery response the server answers with. */
  readonly discovery: { status: 'Success', handlers: AnnouncedHandler[] }
  /** routes lists the hook paths, Discovery first. */
  readonly routes: ReadonlyArray<{ path: string, hook: string, apiVersion: string, name: string }>
  readonly metrics: Registry
  readonly openapi: OpenAPIDocument
  /** listen starts serving and resolves to the base URL, e.g. https://127.0.0.1:9443. */
  listen: (options?: ListenOptions) => Promise<string>
  /** address is the bound address once listening. */
  address: () => AddressInfo | undefined
  /** close stops accepting connections, lets in-flight calls finish, then resolves. */
  close: () => Promise<void>
  inject: FastifyInstance['inject']
}

export function createExtensionServer<const T extends readonly HookDefinition[]> (options: ExtensionServerOptions<T>): ExtensionServer {
  if (options.tls && options.insecureHttp) throw new ExtensionHandlerError('pass either tls or insecureHttp, not both')
  if (!options.tls && !options.insecureHttp) throw new ExtensionHandlerError('TLS is required: pass tls { certFile, keyFile } (or insecureHttp: true to serve plain HTTP on purpose)')
  const extension = prepareExtension(options.handlers, options.catalog)
  const { catalog, discovery } = extension
  const prefix = normalizePrefix(options.pathPrefix)

  const logger = options.logger ?? pino({ level: options.logLevel ?? 'info' })
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  // Node checks headersTimeout/requestTimeout only every connectionsCheckingInterval (30 s by default).
  const nodeServerOptions = { connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs), headersTimeout: limits.headersTimeoutMs }
  const app = Fastify({
    loggerInstance: logger,
    ...(options.tls ? { https: { ...httpsOptions(options.tls), ...nodeServerOptions } } : { http: nodeServerOptions }),
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Request loggers are made when first written to: at level warn a successful call writes nothing.
    childLoggerFactory: (parent: FastifyBaseLogger, bindings: Bindings, childOptions: ChildLoggerOptions) =>
      childOptions.level !== undefined || childOptions.serializers !== undefined ? parent.child(bindings, childOptions) : lazyChildLogger(parent as Logger, bindings),
    return503OnClosing: true,
    forceCloseConnections: 'idle'
  }) as unknown as FastifyInstance
  app.server.headersTimeout = limits.headersTimeoutMs
  if (options.insecureHttp) {
    logger.warn('serving plain HTTP because insecureHttp is set: Cluster API calls extensions over HTTPS only; use this for tests or behind a TLS-terminating proxy')
  }

  const metrics = createMetrics({ defaultMetrics: options.defaultMetrics ?? false })
  const openapi = buildOpenAPIDocument(catalog, { version: OPENAPI_VERSION })
  let state: 'starting' | 'ready' | 'closing' = 'starting'
  let stopWatching = () => {}

  operationsRoutes(app, {
    notReady: () => state === 'ready' ? undefined : state === 'closing' ? 'the server is shutting down' : 'the server is not listening yet',
    metrics: metrics.registry
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    done(null, payload)
  })

  // Hook routes: the plugin's routes, in a scope whose only body parser reads JSON up to 20 MiB.
  app.register(async (scope) => mountHookRoutes(scope, extension, { ...(options.deadlineMarginMs !== undefined ? { deadlineMarginMs: options.deadlineMarginMs } : {}), metrics }), { prefix })

  if (options.docs ?? true) {
    app.get('/openapi.json', async () => openapi)
    app.register(swagger, { mode: 'static', specification: { document: openapi as never } })
    app.register(swaggerUi, { routePrefix: '/docs' })
  }

  return {
    app,
    catalog,
    discovery,
    routes: extension.routes.map(r => ({ path: `${prefix}${r.path}`, hook: r.hook.gvh.hook, apiVersion: r.hook.apiVersion, name: r.name })),
    metrics: metrics.registry,
    openapi,
    inject: app.inject.bind(app) as FastifyInstance['inject'],
    address: () => {
      const address = app.server.address()
      return address && typeof address === 'object' ? address : undefined
    },
    async listen (listenOptions = {}) {
      const url = await listenAt(app, { host: listenOptions.host ?? '0.0.0.0', port: listenOptions.port ?? 9443, https: options.tls !== undefined })
      if (options.tls) stopWatching = watchCertificates(app.server as unknown as { setSecureContext: (o: SecureContextOptions) => void }, options.tls, logger)
      state = 'ready'
      return url
    },
    async close () {
      state = 'closing'
      stopWatching()
      await app.close()
    }
  }
}

function normalizePrefix (prefix: string | undefined): string {
  if (!prefix) return ''
  const cleaned = posix.normalize(`/${prefix}`).replace(/\/+$/, '')
  return cleaned === '/' ? '' : cleaned
}

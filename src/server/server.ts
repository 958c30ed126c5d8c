// createExtensionServer: a Runtime Extension served over HTTPS, on the server every HTTP server of the project is built
// with (src/http/server.ts). Hook calls and probes are answered by the serving core from node's request listener
// (endpoint.ts); everything else by fastify (operations routes, docs, routes a user adds through `app`), loaded when
// first needed: a server that only answers hook calls and probes starts without it. Once a request hook (onRequest,
// preHandler, ...) is added through `app`, hook calls go through fastify too, so that the hook runs for them.
import { posix } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { SecureContextOptions } from 'node:tls'
import type { FastifyInstance } from 'fastify'
import type { InjectOptions, Response as InjectResponse } from 'light-my-request'
import { pino, type Logger } from 'pino'
import type { Registry } from 'prom-client'
import type { Catalog } from '../catalog/catalog.js'
import type { AnnouncedHandler } from '../catalog/handlers.js'
import { buildOpenAPIDocument, OPENAPI_VERSION, type OpenAPIDocument } from '../catalog/openapi.js'
import type { HookDefinition } from '../api/hooks/define.js'
import { closeServer, type ConnectionLimits, createNodeServer, INTERNAL_ERROR_BODY, listenAt, listenServer, type RequestListener, serverUrl } from '../http/index.js'
import { httpsOptions, type TLSFileOptions, watchCertificates } from '../tls/watcher.js'
import { nodeHookListener } from './endpoint.js'
import { ExtensionHandlerError } from './errors.js'
import { type ExtensionOptions, hookEndpoints, prepareExtension } from './extension.js'
import { buildApp, type MetricsView } from './fastify-app.js'
import { createMetrics } from './metrics.js'
import { HookRecorder, type RecordingOptions } from './recording.js'

export type { MetricsView }

/** The options of {@link createExtensionServer}: the extension's handlers and how they are served. */
export interface ExtensionServerOptions<T extends readonly HookDefinition[] = readonly HookDefinition[]> extends ExtensionOptions<T> {
  /** tls serves HTTPS from certificate files, re-read when they change. Required unless insecureHttp. */
  tls?: TLSFileOptions
  /** insecureHttp serves plain HTTP; Cluster API calls extensions over HTTPS only, so use it behind a TLS proxy or in tests. */
  insecureHttp?: boolean
  /** pathPrefix is put in front of every hook path (the ExtensionConfig's URL path or service.path). */
  pathPrefix?: string
  /** logger is a pino logger; by default JSON to stdout at logLevel. */
  logger?: Logger
  /** logLevel is the level of the default logger (default info); ignored when logger is given. */
  logLevel?: string
  /** limits bound slow, idle or greedy clients (DEFAULT_LIMITS, each overridable). */
  limits?: Partial<ConnectionLimits>
  /** docs serves /openapi.json and a browsable UI at /docs (default true). */
  docs?: boolean
  /** defaultMetrics adds prom-client's process metrics to /metrics (default false). */
  defaultMetrics?: boolean
  /** metricsView replaces what /metrics serves (default: this server's registry); `serve --workers` sums every worker's. */
  metricsView?: (registry: Registry) => MetricsView
  /** record appends every hook call (request and answer, settings redacted) to a file for `runtime-sdk replay`. */
  record?: RecordingOptions
}

/** Where {@link ExtensionServer.listen} listens. */
export interface ListenOptions {
  /** port defaults to 9443, like Cluster API's server; 0 picks a free port. */
  port?: number
  /** host defaults to 0.0.0.0 (all interfaces, as a Pod needs). */
  host?: string
}

/** A Runtime Extension server made by {@link createExtensionServer}; it serves once {@link ExtensionServer.listen} is called. */
export interface ExtensionServer {
  /** app is the underlying fastify instance (inject, extra routes before listen); loaded on first use. */
  readonly app: FastifyInstance
  /** catalog holds the hooks the server's handlers implement. */
  readonly catalog: Catalog
  /** discovery is the Discovery response the server answers with. */
  readonly discovery: {
    /** status is Success. */
    status: 'Success'
    /** handlers are the handlers the extension serves, as Discovery announces them. */
    handlers: AnnouncedHandler[]
  }
  /** routes lists the hook paths, Discovery first. */
  readonly routes: ReadonlyArray<{
    /** path the route is served at, with the server's pathPrefix. */
    path: string
    /** hook is the hook's name, e.g. BeforeClusterCreate. */
    hook: string
    /** apiVersion is the hook's group and version. */
    apiVersion: string
    /** name is the handler's name; '' for Discovery. */
    name: string
  }>
  /** metrics is the prom-client registry of the server's metrics (runtime_sdk_extension_*), served at /metrics. */
  readonly metrics: Registry
  /** openapi is the OpenAPI document of the server's hooks, served at /openapi.json; built on first use. */
  readonly openapi: OpenAPIDocument
  /** listen starts serving and resolves to the base URL, e.g. https://127.0.0.1:9443. */
  listen: (options?: ListenOptions) => Promise<string>
  /** address is the bound address once listening. */
  address: () => AddressInfo | undefined
  /** close stops accepting connections, lets in-flight calls finish, then resolves. */
  close: () => Promise<void>
  /** inject answers a request in memory, as the server would over the network. */
  inject: (options: InjectOptions | string) => Promise<InjectResponse>
}

/**
 * A Runtime Extension served over HTTPS, as Cluster API calls it: Discovery answered from the handlers, one route per
 * handler, every request checked as Cluster API's server decodes it and every answer as Cluster API's client reads it,
 * handlers held to the caller's timeout. It also serves /healthz, /readyz, /metrics, and (unless `docs: false`)
 * /openapi.json with a UI at /docs. The handlers are checked now: ExtensionHandlerError names every problem.
 * Certificate files are read again when they change.
 *
 * @example
 * ```ts
 * import { createExtensionServer, v1alpha1 } from 'runtime-sdk'
 *
 * const server = createExtensionServer({
 *   tls: { certFile: '/tmp/k8s-webhook-server/serving-certs/tls.crt', keyFile: '/tmp/k8s-webhook-server/serving-certs/tls.key' },
 *   handlers: [{
 *     hook: v1alpha1.BeforeClusterUpgrade,
 *     name: 'wait-for-backup',
 *     handler: (request) => ({ status: 'Success', message: `upgrading to ${request.toKubernetesVersion}` })
 *   }]
 * })
 * console.log(await server.listen({ port: 9443 })) // https://localhost:9443
 * process.once('SIGTERM', () => { void server.close() })
 * ```
 */
export function createExtensionServer<const T extends readonly HookDefinition[]> (options: ExtensionServerOptions<T>): ExtensionServer {
  if (options.tls && options.insecureHttp) throw new ExtensionHandlerError('pass either tls or insecureHttp, not both')
  if (!options.tls && !options.insecureHttp) throw new ExtensionHandlerError('TLS is required: pass tls { certFile, keyFile } (or insecureHttp: true to serve plain HTTP on purpose)')
  const prefix = normalizePrefix(options.pathPrefix)
  const logger = options.logger ?? pino({ level: options.logLevel ?? 'info' })
  const metrics = createMetrics({ defaultMetrics: options.defaultMetrics ?? false })
  const extension = prepareExtension(options.handlers, options.catalog)
  const { catalog, discovery } = extension
  const recorder = options.record ? new HookRecorder(options.record) : undefined
  const endpoints = hookEndpoints(extension, { deadlineMarginMs: options.deadlineMarginMs, metrics, recorder })
  let state: 'starting' | 'ready' | 'closing' = 'starting'
  const open = () => state !== 'closing'
  const notReady = () => state === 'ready' ? undefined : state === 'closing' ? 'the server is shutting down' : 'the server is not listening yet'
  const core = nodeHookListener({ endpoints: new Map(endpoints.map(e => [`${prefix}${e.path}`, e])), logger, open, notReady })
  // Set once a request hook is added through `app`: from then on fastify answers every request, hook calls included.
  let throughFastify = false
  let fastifyListener: RequestListener | undefined
  let openapi: OpenAPIDocument | undefined
  const openapiDocument = () => (openapi ??= buildOpenAPIDocument(catalog, { version: OPENAPI_VERSION }))
  // Made now, not with the app: a `serve --workers` worker answers the other workers' sums only once it exists.
  const metricsView = options.metricsView?.(metrics.registry) ?? metrics.registry
  let app: FastifyInstance | undefined
  let ready: PromiseLike<unknown> | undefined
  let listenedByNode = false
  const fastifyApp = (): FastifyInstance => (app ??= buildApp({
    server,
    logger,
    prefix,
    endpoints,
    open,
    docs: options.docs ?? true,
    openapiDocument,
    metrics: metricsView,
    notReady,
    setListener: (handler) => { fastifyListener = handler },
    onRequestHook: () => { throughFastify = true }
  }))
  const fastifyReady = async () => await (ready ??= fastifyApp().ready())

  const listener: RequestListener = (req, res) => {
    if (!throughFastify && core(req, res)) return
    fastifyReady().then(() => fastifyListener?.(req, res), (err: unknown) => {
      logger.error({ err }, 'the server could not start its routes')
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(INTERNAL_ERROR_BODY)
    })
  }
  const server = createNodeServer(listener, { limits: options.limits, tls: options.tls ? httpsOptions(options.tls) : undefined })
  if (options.insecureHttp) {
    logger.warn('serving plain HTTP because insecureHttp is set: Cluster API calls extensions over HTTPS only; use this for tests or behind a TLS-terminating proxy')
  }
  let stopWatching = () => {}

  return {
    get app () { return fastifyApp() },
    catalog,
    discovery,
    routes: extension.routes.map(r => ({ path: `${prefix}${r.path}`, hook: r.hook.gvh.hook, apiVersion: r.hook.apiVersion, name: r.name })),
    metrics: metrics.registry,
    get openapi () { return openapiDocument() },
    // Through the server's listener, as requests from the network go.
    inject: async (injected) => {
      const [{ inject }] = await Promise.all([import('light-my-request'), fastifyReady()])
      return inject(listener, injected)
    },
    address: () => {
      const address = server.address()
      return address && typeof address === 'object' ? address : undefined
    },
    async listen (listenOptions = {}) {
      const at = { host: listenOptions.host ?? '0.0.0.0', port: listenOptions.port ?? 9443, https: options.tls !== undefined }
      let url: string
      if (app) {
        // Routes or hooks were added through `app`: fastify listens, so its onListen hooks run as they would.
        url = await listenAt(app, at)
      } else {
        await listenServer(server, at)
        listenedByNode = true
        url = serverUrl(server, at)
        logger.info(`Server listening at ${serverUrl(server, { ...at, host: (server.address() as AddressInfo).address })}`)
      }
      if (options.tls) stopWatching = watchCertificates(server as unknown as { setSecureContext: (o: SecureContextOptions) => void }, options.tls, logger)
      state = 'ready'
      return url
    },
    async close () {
      state = 'closing'
      stopWatching()
      // fastify answers what arrives meanwhile (503 for new calls) and runs its onClose hooks.
      await fastifyReady()
      await fastifyApp().close()
      // fastify closes only a server it listened on.
      if (listenedByNode) await closeServer(server)
      await recorder?.close()
    }
  }
}

function normalizePrefix (prefix: string | undefined): string {
  if (!prefix) return ''
  const cleaned = posix.normalize(`/${prefix}`).replace(/\/+$/, '')
  return cleaned === '/' ? '' : cleaned
}

// The controller's HTTP endpoint: health, metrics and what the controller knows about every ExtensionConfig.
// Plain HTTP on loopback, or HTTPS with every route but the probes behind an authorizer (http-serving.ts).
import type { SecureContextOptions } from 'node:tls'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import type { Logger } from 'pino'
import { appOptions, type ConnectionLimits, HttpError, methodNotAllowed, nodeServerFactory, operationsRoutes } from '../http/index.js'
import type { Controller, ExtensionConfigReport } from './controller.js'
import type { RejectedManifest } from './file-source.js'
import type { RequestAuthorizer } from './http-auth.js'

export interface StatusDocument {
  source: string
  mode: string
  /** leader is whether this replica writes status (always true without leader election). */
  leader: boolean
  registryReady: boolean
  extensionConfigs: ExtensionConfigReport[]
  /** rejected manifests of the file source. */
  rejected?: RejectedManifest[]
}

interface ControllerHttpOptions {
  controller: Controller
  /** leader reports leadership; without leader election the controller always leads. */
  leader?: () => boolean
  /** https serves TLS with this certificate and key. */
  https?: SecureContextOptions
  /** authorize guards every route but the probes: the kubelet calls those without a token. */
  authorize?: RequestAuthorizer
  /** logger receives the 5xx errors (request logging stays off: scrapes come every few seconds). */
  logger?: Logger
  /** limits bound slow, idle or greedy clients, as on every server of the project (DEFAULT_LIMITS). */
  limits?: Partial<ConnectionLimits> | undefined
}

const PROBES = new Set(['/healthz', '/readyz'])

type Route = { method: 'GET', url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> }

export function statusDocument (controller: Controller, leader: boolean): StatusDocument {
  const source = controller.source as { rejected?: () => RejectedManifest[] }
  return {
    source: controller.source.kind,
    mode: controller.mode,
    leader,
    registryReady: controller.client.registry.isReady(),
    extensionConfigs: controller.reports(),
    ...(source.rejected ? { rejected: source.rejected() } : {})
  }
}

export function createControllerHttp (options: ControllerHttpOptions): FastifyInstance {
  const { controller } = options
  const leader = options.leader ?? (() => true)
  const app = Fastify({
    ...appOptions,
    ...(options.logger ? { loggerInstance: options.logger, logController: new LogController({ disableRequestLogging: true }) } : { logger: false }),
    serverFactory: nodeServerFactory({ tls: options.https, limits: options.limits })
  }) as unknown as FastifyInstance
  const { authorize } = options
  if (authorize) {
    app.addHook('onRequest', async (request, reply) => {
      if (!PROBES.has(request.routeOptions.url ?? '')) await authorize(request, reply)
    })
  }
  operationsRoutes(app, {
    notReady: () => {
      if (!controller.client.registry.isReady()) return 'the extension registry is warming up'
      const stale = controller.source.stale?.()
      return stale && `the ExtensionConfig cache is stale: watching has failed since ${stale.since.toISOString()} (${stale.error})`
    },
    metrics: controller.metrics.registry
  })
  const routes: Route[] = [
    { method: 'GET', url: '/extensionconfigs', handler: async () => statusDocument(controller, leader()) },
    {
      method: 'GET',
      url: '/extensionconfigs/:name',
      handler: async (request) => {
        const { name } = request.params as { name: string }
        const report = controller.reports().find(r => r.name === name)
        if (!report) throw new HttpError(404, 'NotFound', `extensionconfigs "${name}" not found`)
        return report
      }
    }
  ]
  for (const route of [...routes.map(r => r.url), '/healthz', '/readyz', '/metrics']) methodNotAllowed(app, route, ['GET'])
  for (const route of routes) app.route(route)
  return app
}

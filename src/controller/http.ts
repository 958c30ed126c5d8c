// The controller's HTTP endpoint (plain HTTP, meant for loopback or a cluster-internal port): health, metrics
// and what the controller knows about every ExtensionConfig.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { HttpError, sendError } from '../http/errors.js'
import type { Controller, ExtensionConfigReport } from './controller.js'
import type { RejectedManifest } from './file-source.js'

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

export interface ControllerHttpOptions {
  controller: Controller
  /** leader reports leadership; without leader election the controller always leads. */
  leader?: () => boolean
}

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
  const app = Fastify({ logger: false })
  const routes: Route[] = [
    { method: 'GET', url: '/healthz', handler: async () => ({ status: 'ok' }) },
    {
      method: 'GET',
      url: '/readyz',
      handler: async (_request, reply) => controller.client.registry.isReady()
        ? { status: 'ok' }
        : reply.code(503).send({ code: 'ServiceUnavailable', message: 'the extension registry is warming up' })
    },
    {
      method: 'GET',
      url: '/metrics',
      handler: async (_request, reply) => reply.type(controller.metrics.registry.contentType).send(await controller.metrics.registry.metrics())
    },
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
  app.setErrorHandler(sendError)
  for (const route of routes) {
    app.route(route)
    app.route({
      method: ['POST', 'PUT', 'PATCH', 'DELETE'],
      url: route.url,
      handler: async (request) => { throw new HttpError(405, 'MethodNotAllowed', `${request.method} is not allowed on ${route.url}`) }
    })
  }
  app.setNotFoundHandler((request, reply) => sendError(new HttpError(404, 'NotFound', `no route for ${request.method} ${request.url.split('?')[0]}`), request, reply))
  return app
}

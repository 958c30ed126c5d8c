// What every HTTP server of the project has besides its own routes: JSON errors with stable codes for unknown
// paths and wrong methods, /healthz, /readyz with one answer shape, /metrics, and the URL it listens on.
import type { AddressInfo, Server } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { HttpError, sendError } from './errors.js'

interface OperationsOptions {
  /** notReady is why the server is not ready, or undefined when it is; /readyz answers 503 with it (default: ready). */
  notReady?: () => string | undefined
  /** metrics is served on /metrics in the Prometheus text format. */
  metrics?: { contentType: string, metrics: () => Promise<string> }
}

interface ProbeAnswer {
  statusCode: number
  body: object
}

const OK: ProbeAnswer = { statusCode: 200, body: { status: 'ok' } }

/** What /healthz and /readyz answer, by path (the extension server's fast path answers them too, without fastify). */
export const PROBES: ReadonlyMap<string, (notReady?: () => string | undefined) => ProbeAnswer> = new Map([
  ['/healthz', () => OK],
  ['/readyz', (notReady?: () => string | undefined) => {
    const reason = notReady?.()
    return reason === undefined ? OK : { statusCode: 503, body: { code: 'ServiceUnavailable', message: reason } }
  }]
])

/** Installs the JSON error and not-found handlers and the operations routes. */
export function operationsRoutes (app: FastifyInstance, options: OperationsOptions = {}): void {
  jsonErrors(app)
  for (const [path, probe] of PROBES) {
    app.get(path, async (_request, reply) => {
      const answer = probe(options.notReady)
      return reply.code(answer.statusCode).send(answer.body)
    })
  }
  const { metrics } = options
  if (metrics) app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()))
}

/** Errors and unknown paths answered as JSON with a stable code. */
export function jsonErrors (app: FastifyInstance): void {
  app.setErrorHandler(sendError)
  app.setNotFoundHandler((request, reply) => sendError(new HttpError(404, 'NotFound', `no route for ${request.method} ${request.url.split('?')[0]}`), request, reply))
}

/**
 * Answers every method but `allowed` on a path with a JSON 405 naming the allowed ones. It answers before the body
 * is read and without the app's error handler, so it works the same inside a user's fastify app (the plugin).
 */
export function methodNotAllowed (app: FastifyInstance, url: string, allowed: string[], hint = ''): void {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(m => !allowed.includes(m) && !(m === 'HEAD' && allowed.includes('GET')))
  app.route({
    method: methods as never,
    url,
    exposeHeadRoute: false,
    onRequest: async (request, reply) => {
      reply.header('allow', allowed.join(', '))
      sendError(new HttpError(405, 'MethodNotAllowed', `${request.method} is not allowed on ${request.url.split('?')[0]}${hint}`), request, reply)
      return reply
    },
    handler: async () => undefined
  })
}

/** Listens and returns the base URL to print (`localhost` for the wildcard addresses). */
export async function listenAt (app: FastifyInstance, options: { host: string, port: number, https: boolean }): Promise<string> {
  await app.listen({ host: options.host, port: options.port })
  return serverUrl(app.server, options)
}

/** The URL a listening server serves at `host` (a wildcard address shows as localhost). */
export function serverUrl (server: Server, options: { host: string, https: boolean }): string {
  const { port } = server.address() as AddressInfo
  const { host } = options
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `${options.https ? 'https' : 'http'}://${shown}:${port}`
}

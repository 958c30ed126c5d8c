// The CRD conversion webhook: a small HTTPS server answering the API server's ConversionReviews for
// ExtensionConfigs on POST /convert (see src/api/extension-config/conversion.ts), plus GET /healthz. Certificates are read from
// files and reloaded when cert-manager rotates them. Every other outcome is a JSON error with a stable code.
import type { SecureContextOptions } from 'node:tls'
import Fastify, { type FastifyInstance } from 'fastify'
import { pino, type Logger } from 'pino'
import { reviewConversion } from '../api/extension-config/conversion.js'
import { WEBHOOK_PATH } from '../api/extension-config/constants.js'
import { appOptions, type ConnectionLimits, HttpError, isJsonContentType, listenAt, methodNotAllowed, nodeServerFactory, operationsRoutes } from '../http/index.js'
import { httpsOptions, type TLSFileOptions, watchCertificates } from '../tls/watcher.js'

/** controller-runtime's webhook port. */
export const DEFAULT_WEBHOOK_PORT = 9443
/** A ConversionReview carries whole lists of ExtensionConfigs (each at most ~1.5 MiB in etcd); 16 MiB is ample. */
export const MAX_CONVERSION_BODY_BYTES = 16 * 1024 * 1024

interface WebhookServerOptions {
  /** tls: the serving certificate and key files (e.g. <cert-dir>/tls.crt and tls.key), reloaded on change. */
  tls: TLSFileOptions
  /** host defaults to 0.0.0.0 (all interfaces, as a Pod needs). */
  host?: string
  /** port defaults to 9443; 0 picks a free port. */
  port?: number
  /** logger defaults to pino at info level, JSON to stdout. */
  logger?: Logger
  /** maxBodyBytes: larger requests are refused with 413 (default 16 MiB). */
  maxBodyBytes?: number
  /** limits bound slow, idle or greedy clients (DEFAULT_LIMITS with a 30 s request timeout, each overridable). */
  limits?: Partial<ConnectionLimits>
}

interface WebhookServer {
  /** app is the fastify instance (inject in tests). */
  readonly app: FastifyInstance
  /** listen starts serving and resolves to the base URL, e.g. https://127.0.0.1:9443. */
  listen: () => Promise<string>
  /** close stops accepting connections and lets requests in flight finish. */
  close: () => Promise<void>
}

function acceptsJson (accept: string | undefined): boolean {
  if (!accept) return true
  return accept.split(',').some(part => {
    const type = (part.split(';')[0] ?? '').trim().toLowerCase()
    return type === '*/*' || type === 'application/*' || type === 'application/json'
  })
}

export function createWebhookServer (options: WebhookServerOptions): WebhookServer {
  const logger = options.logger ?? pino({ level: 'info' })
  const maxBodyBytes = options.maxBodyBytes ?? MAX_CONVERSION_BODY_BYTES
  const app = Fastify({
    ...appOptions,
    loggerInstance: logger,
    // The API server calls with a 30 s timeout at most: a request still arriving after that is not its.
    serverFactory: nodeServerFactory({ tls: httpsOptions(options.tls), limits: { requestTimeoutMs: 30_000, ...options.limits } }),
    bodyLimit: maxBodyBytes,
    return503OnClosing: true,
    forceCloseConnections: 'idle'
  }) as unknown as FastifyInstance
  let stopWatching = () => {}

  operationsRoutes(app)

  // The API server sends application/json; anything else is a client that is not the API server.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBodyBytes }, (request, body, done) => {
    const contentType = request.headers['content-type']
    if (!isJsonContentType(contentType)) {
      done(new HttpError(415, 'UnsupportedMediaType', `ConversionReviews are JSON: send Content-Type application/json, not ${JSON.stringify(contentType)}`))
      return
    }
    if ((body as Buffer).length === 0) {
      done(null, undefined)
      return
    }
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')))
    } catch (err) {
      done(new HttpError(400, 'BadRequest', `request body is not valid JSON: ${(err as Error).message}`))
    }
  })

  app.route({
    method: 'POST',
    url: WEBHOOK_PATH,
    handler: async (request, reply) => {
      if (!acceptsJson(request.headers.accept)) throw new HttpError(406, 'NotAcceptable', 'the answer is a JSON ConversionReview: accept application/json')
      if (request.body === undefined) throw new HttpError(400, 'BadRequest', 'request body is empty: send a ConversionReview')
      const review = reviewConversion(request.body)
      if (review.response.result.status === 'Failure') request.log.warn({ uid: review.response.uid, message: review.response.result.message }, 'conversion failed')
      return reply.code(200).type('application/json').send(review)
    }
  })
  methodNotAllowed(app, WEBHOOK_PATH, ['POST'], ': ConversionReviews are sent with POST')

  return {
    app,
    async listen () {
      const url = await listenAt(app, { host: options.host ?? '0.0.0.0', port: options.port ?? DEFAULT_WEBHOOK_PORT, https: true })
      stopWatching = watchCertificates(app.server as unknown as { setSecureContext: (o: SecureContextOptions) => void }, options.tls, logger)
      return url
    },
    async close () {
      stopWatching()
      await app.close()
    }
  }
}

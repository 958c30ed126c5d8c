// The HTTP framing of a hook call, the only one: whatever entrance a request comes through (createExtensionServer's
// node listener, or a fastify route of the runtimeExtension plugin that hands over node's request and response), this
// file answers it: the method (405), a server shutting down (503), the Content-Type (415) and the body's size (413),
// the body read and answered by its endpoint (always HTTP 200), an unexpected error (500), the request id header, and
// for the node listener the request id and the two request log lines fastify writes. Probes (/healthz, /readyz) are
// answered here too, so that a server answering hook calls and probes never needs fastify.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { HttpError, INTERNAL_ERROR_BODY, PROBES } from '../http/index.js'
import { readRawBody, refuseBeforeReading, type RawBody } from './body.js'
import { HOOK_BODY_LIMITS, type HookEndpoint } from './extension.js'
import { lazyChildLogger } from './lazy-logger.js'

/** Who a request is, in logs and in the x-request-id header. */
interface Framing {
  requestId: string
  log: Logger
}

const JSON_TYPE = 'application/json; charset=utf-8'

interface NodeListenerOptions {
  /** endpoints by their full path (prefix included). */
  endpoints: ReadonlyMap<string, HookEndpoint>
  logger: Logger
  /** open is false once the server is shutting down: calls are answered 503 and connections closed. */
  open: () => boolean
  /** notReady is why /readyz answers 503, or undefined when the server is ready. */
  notReady: () => string | undefined
}

/**
 * The node request listener of hook calls and probes: answers a request for a hook path (whatever its method) or a
 * probe and returns true, or returns false and leaves the request to the next listener.
 */
export function nodeHookListener (options: NodeListenerOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { endpoints, logger, open } = options
  return (req, res) => {
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const path = query < 0 ? url : url.slice(0, query)
    const endpoint = endpoints.get(path)
    if (endpoint !== undefined) {
      serveHookRequest(endpoint, req, res, startFraming(req, res, url, logger), open())
      return true
    }
    const probe = req.method === 'GET' || req.method === 'HEAD' ? PROBES.get(path) : undefined
    if (probe === undefined) return false
    const answer = probe(options.notReady)
    send(res, answer.statusCode, startFraming(req, res, url, logger).requestId, JSON.stringify(answer.body), !open())
    return true
  }
}

/** The request id (the caller's x-request-id, or a new one), and the two lines fastify logs per request at level info. */
function startFraming (req: IncomingMessage, res: ServerResponse, url: string, logger: Logger): Framing {
  const header = req.headers['x-request-id']
  const requestId = typeof header === 'string' && header !== '' ? header : randomUUID()
  const log = lazyChildLogger(logger, { reqId: requestId })
  if (logger.isLevelEnabled('info')) {
    const started = performance.now()
    log.info({ req: { method: req.method, url, host: req.headers.host, remoteAddress: req.socket.remoteAddress, remotePort: req.socket.remotePort } }, 'incoming request')
    res.once('finish', () => log.info({ res: { statusCode: res.statusCode }, responseTime: performance.now() - started }, 'request completed'))
  }
  return { requestId, log }
}

/**
 * Answers one request for a hook path. `open` false (the server is shutting down) refuses it with a 503; fastify's
 * entrance passes true, as fastify refuses requests itself while it closes.
 */
export function serveHookRequest (endpoint: HookEndpoint, req: IncomingMessage, res: ServerResponse, framing: Framing, open: boolean): void {
  const { requestId, log } = framing
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    refuse(res, requestId, new HttpError(405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed on ${pathOf(req)}: hooks are called with POST`), log)
    return
  }
  const refused = open ? refuseBeforeReading(req.headers, HOOK_BODY_LIMITS) : new HttpError(503, 'ServiceUnavailable', 'the server is shutting down')
  if (refused) {
    refuse(res, requestId, refused, log)
    return
  }
  readRawBody(req, HOOK_BODY_LIMITS, (err, body) => {
    if (err) {
      refuse(res, requestId, err, log)
      return
    }
    let answer: string | Promise<string>
    try {
      answer = endpoint.answer(body as RawBody, timeoutParameter(req.url ?? ''), log, requestId, req.headers)
    } catch (bug) {
      refuse(res, requestId, bug, log)
      return
    }
    if (typeof answer === 'string') send(res, 200, requestId, answer)
    else answer.then(text => send(res, 200, requestId, text), (bug: unknown) => refuse(res, requestId, bug, log))
  })
}

function pathOf (req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] as string
}

/** The `timeout` query parameter when given once, as fastify's query parser makes it. */
function timeoutParameter (url: string): string | undefined {
  const query = url.indexOf('?')
  if (query < 0 || !url.includes('timeout=', query)) return undefined
  const values = new URLSearchParams(url.slice(query + 1)).getAll('timeout')
  return values.length === 1 ? values[0] : undefined
}

function send (res: ServerResponse, status: number, requestId: string, text: string, close = false): void {
  if (res.destroyed) return
  res.writeHead(status, {
    ...(close ? { connection: 'close' } : {}),
    'content-type': JSON_TYPE,
    'x-request-id': requestId,
    'content-length': Buffer.byteLength(text)
  })
  res.end(text)
}

/**
 * An HTTP error as JSON {code, message}, or an unexpected one as a 500 that hides its details. A request refused before
 * its body was read to the end (413, 415, 503) closes the connection, so that the rest of the body is never parsed.
 */
function refuse (res: ServerResponse, requestId: string, err: unknown, log: Logger): void {
  if (err instanceof HttpError) {
    send(res, err.statusCode, requestId, JSON.stringify({ code: err.code, message: err.message }), err.statusCode !== 405)
    return
  }
  if (res.req.aborted || res.req.destroyed) return
  log.error({ err }, 'request failed')
  send(res, 500, requestId, INTERNAL_ERROR_BODY)
}

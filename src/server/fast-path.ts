// The extension server's fast path: a hook call (POST to a hook path, a JSON body) and the probes (/healthz,
// /readyz) are answered straight from node's request listener, without fastify's routing, hooks and reply
// machinery, which cost as much as the call itself, and without loading fastify at all (see the README's
// Benchmarks). Everything else, and every hook request that is refused before its body is read (415, a declared
// 413, a server shutting down), goes to fastify, so errors have one home. Answers are byte-identical to the
// fastify routes' (test/server/fast-path.test.ts compares them).
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { HttpError, PROBES } from '../http/index.js'
import { readRawBody, refuseBeforeReading, type RawBody } from './body.js'
import { lazyChildLogger } from './lazy-logger.js'
import { HOOK_BODY_LIMITS, type HookEndpoint } from './plugin.js'

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

interface FastPathOptions {
  /** endpoints by their full path (prefix included). */
  endpoints: ReadonlyMap<string, HookEndpoint>
  logger: Logger
  /** open is false once the server is shutting down: fastify then answers 503. */
  open: () => boolean
  /** notReady is why /readyz answers 503, or undefined when the server is ready. */
  notReady: () => string | undefined
  /** fallback is fastify's request listener. */
  fallback: RequestListener
}

const JSON_TYPE = 'application/json; charset=utf-8'

export function hookFastPath (options: FastPathOptions): RequestListener {
  const { endpoints, logger, fallback } = options
  return (req, res) => {
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const path = query < 0 ? url : url.slice(0, query)
    if (req.method === 'POST') {
      const endpoint = endpoints.get(path)
      if (endpoint !== undefined && options.open() && refuseBeforeReading(req.headers, HOOK_BODY_LIMITS) === undefined) {
        answerCall(req, res, endpoint, url, query, logger)
        return
      }
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      const probe = PROBES.get(path)
      if (probe !== undefined && options.open()) {
        const answer = probe(options.notReady)
        send(res, answer.statusCode, startLog(req, res, url, logger).requestId, JSON.stringify(answer.body))
        return
      }
    }
    fallback(req, res)
  }
}

/** The request id (the caller's x-request-id, or a new one), and the two lines fastify logs per request at level info. */
function startLog (req: IncomingMessage, res: ServerResponse, url: string, logger: Logger): { requestId: string, log: Logger } {
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

function answerCall (req: IncomingMessage, res: ServerResponse, endpoint: HookEndpoint, url: string, query: number, logger: Logger): void {
  const { requestId, log } = startLog(req, res, url, logger)
  readRawBody(req, HOOK_BODY_LIMITS, (err, body) => {
    if (err) {
      refuse(res, requestId, err, log)
      return
    }
    let answer: string | Promise<string>
    try {
      answer = endpoint.answer(body as RawBody, timeoutParameter(url, query), log, requestId)
    } catch (bug) {
      refuse(res, requestId, bug, log)
      return
    }
    if (typeof answer === 'string') send(res, 200, requestId, answer)
    else answer.then(text => send(res, 200, requestId, text), (bug: unknown) => refuse(res, requestId, bug, log))
  })
}

/** The `timeout` query parameter when given once, as fastify's query parser makes it. */
function timeoutParameter (url: string, query: number): string | undefined {
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

/** A body past the drain limit (413, connection closed as it was not read to the end) or an unexpected error. */
function refuse (res: ServerResponse, requestId: string, err: unknown, log: Logger): void {
  if (err instanceof HttpError) {
    send(res, err.statusCode, requestId, JSON.stringify({ code: err.code, message: err.message }), true)
    return
  }
  if (res.req.aborted || res.req.destroyed) return
  log.error({ err }, 'request failed')
  send(res, 500, requestId, JSON.stringify({ code: 'InternalError', message: 'internal server error' }))
}

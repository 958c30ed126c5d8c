// The node:http(s) server under the extension server, with the limits that keep a slow, idle or greedy client
// from holding it (anchors §6.2): fastify's own server factory leaves most of them at Node's defaults.
import { createServer as createHttpServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { createServer as createHttpsServer } from 'node:https'
import { httpsOptions, type TLSFileOptions } from '../tls/watcher.js'
import type { RequestListener } from './fast-path.js'

/** Connection limits, so that a slow or idle client cannot hold the server. */
export interface ConnectionLimits {
  /** requestTimeoutMs bounds a whole request, body upload included (fastify's default 0 disables it). */
  requestTimeoutMs: number
  /** headersTimeoutMs bounds the arrival of the request headers (slowloris), counted from the connection's start. */
  headersTimeoutMs: number
  /** handshakeTimeoutMs closes a connection whose TLS handshake has not completed (Node's default is 120 s). */
  handshakeTimeoutMs: number
  /** keepAliveTimeoutMs keeps idle connections longer than Go's 90 s idle timeout, so the server never closes first. */
  keepAliveTimeoutMs: number
  /** connectionTimeoutMs closes sockets inactive this long; longer than the longest handler budget (30 s). */
  connectionTimeoutMs: number
  /**
   * maxConnections caps the open connections; further ones are closed on arrival. Cluster API keeps a few
   * connections per controller, so the default leaves ample room and bounds memory (~50 KB per TLS socket).
   */
  maxConnections: number
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  handshakeTimeoutMs: 10_000,
  keepAliveTimeoutMs: 95_000,
  connectionTimeoutMs: 65_000,
  maxConnections: 4096
}

const SERVED = Symbol('served a request')
type Marked = Socket & { [SERVED]?: true }

export function createNodeServer (listener: RequestListener, limits: ConnectionLimits, tls: TLSFileOptions | undefined): Server {
  // Node checks headersTimeout and requestTimeout only every connectionsCheckingInterval (30 s by default).
  const options = { connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs), headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs }
  const marking: RequestListener = (req, res) => {
    (req.socket as Marked)[SERVED] = true
    listener(req, res)
  }
  const server = tls
    ? createHttpsServer({ ...httpsOptions(tls), ...options, handshakeTimeout: limits.handshakeTimeoutMs }, marking)
    : createHttpServer(options, marking)
  server.setTimeout(limits.connectionTimeoutMs)
  server.maxConnections = limits.maxConnections
  // Node's headersTimeout starts with a request's first byte: a connection that never sends one would stay open
  // until connectionTimeoutMs. Such a connection gets headersTimeoutMs from its start (after the TLS handshake).
  server.on(tls ? 'secureConnection' : 'connection', (socket: Marked) => {
    const timer = setTimeout(() => { if (socket[SERVED] !== true) socket.destroy() }, limits.headersTimeoutMs).unref()
    socket.once('close', () => clearTimeout(timer))
  })
  return server
}

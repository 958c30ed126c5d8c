// The one builder of the project's HTTP servers (the extension server, the controller's endpoint, the conversion
// webhook): node:http or node:https with the limits that keep a slow, idle or greedy client from holding a server
// (anchors §6.2). fastify's own server factory leaves most of them at Node's defaults; a fastify app gets this server
// through `serverFactory` (nodeServerFactory).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { createServer as createHttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https'

/** A node request listener: what every entrance of the project's servers is, fastify's included. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

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

/** The connection limits every server of runtime-sdk applies unless told otherwise. */
export const DEFAULT_LIMITS: ConnectionLimits = {
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  handshakeTimeoutMs: 10_000,
  keepAliveTimeoutMs: 95_000,
  connectionTimeoutMs: 65_000,
  maxConnections: 4096
}

export interface NodeServerOptions {
  /** limits override DEFAULT_LIMITS one by one. */
  limits?: Partial<ConnectionLimits> | undefined
  /** tls serves HTTPS with these options (certificate, key, client CAs); plain HTTP without. */
  tls?: HttpsServerOptions | undefined
}

const SERVED = Symbol('served a request')
type Marked = Socket & { [SERVED]?: true }

/** An HTTP(S) server for `listener` with the connection limits applied. */
export function createNodeServer (listener: RequestListener, options: NodeServerOptions = {}): Server {
  const limits = { ...DEFAULT_LIMITS, ...options.limits }
  const { tls } = options
  // Node checks headersTimeout and requestTimeout only every connectionsCheckingInterval (30 s by default).
  const timeouts = { connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs), headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs }
  const marking: RequestListener = (req, res) => {
    (req.socket as Marked)[SERVED] = true
    listener(req, res)
  }
  const server = tls
    ? createHttpsServer({ ...tls, ...timeouts, handshakeTimeout: limits.handshakeTimeoutMs }, marking)
    : createHttpServer(timeouts, marking)
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

/** fastify's `serverFactory` option for a server made by createNodeServer. */
export function nodeServerFactory (options: NodeServerOptions = {}): (listener: RequestListener) => Server {
  return listener => createNodeServer(listener, options)
}

/** Listens on `at` and resolves once listening (rejects with the listen error, e.g. EADDRINUSE). */
export async function listenServer (server: Server, at: { host: string, port: number }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: at.host, port: at.port }, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** Stops accepting connections, closes the idle ones, and resolves once the others have finished their requests. */
export async function closeServer (server: Server): Promise<void> {
  await new Promise<void>(resolve => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
}

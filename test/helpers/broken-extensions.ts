// Small node:https Runtime Extensions for the conformance tests: a well-behaved baseline whose Discovery answer,
// handlers and TLS settings can each be replaced by a deliberately broken variant.
import { createServer, type ServerOptions } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createCatalog, HOOKS_GROUP } from '../../src/catalog/index.js'

const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
const PREFIX = `/${API}`
const catalog = createCatalog()

/** A request as a behaviour sees it. */
export interface FakeRequest {
  path: string
  query: URLSearchParams
  contentType: string | undefined
  body: string
  /** json is the parsed body, undefined when it is not JSON. */
  json: Record<string, unknown> | undefined
}

export type Behaviour = (req: FakeRequest, res: ServerResponse) => void | Promise<void>

export interface FakeHandler {
  name: string
  hook: string
  timeoutSeconds?: number
  failurePolicy?: 'Fail' | 'Ignore'
  /** behaviour answers the handler's path; the well-behaved answer when absent. */
  behaviour?: Behaviour
  /** served: false leaves the handler out of the routes (Discovery still lists it). */
  served?: boolean
}

export interface FakeExtensionOptions {
  cert: string
  key: string
  /** tls overrides server TLS settings (minVersion, maxVersion, ciphers). */
  tls?: ServerOptions
  handlers: FakeHandler[]
  /** discovery replaces the Discovery answer. */
  discovery?: Behaviour
}

export interface FakeExtension {
  url: string
  requests: FakeRequest[]
  close: () => Promise<void>
}

export function send (res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

const isBlocking = (hook: string) => catalog.latest(HOOKS_GROUP, hook).blocking

/** A request the handler can read: a JSON object whose settings, if any, are an object. */
export function readable (req: FakeRequest): boolean {
  const settings = req.json?.['settings']
  return req.json !== undefined && (settings === undefined || (typeof settings === 'object' && settings !== null && !Array.isArray(settings)))
}

/** What a conforming handler answers: Success to a readable request, Failure otherwise (HTTP 200 both). */
export function wellBehaved (hook: string, success: Record<string, unknown> = {}): Behaviour {
  const retry = isBlocking(hook) ? { retryAfterSeconds: 0 } : {}
  return (req, res) => readable(req)
    ? send(res, { status: 'Success', ...retry, ...success })
    : send(res, { status: 'Failure', message: 'cannot read the request', ...retry })
}

/** A behaviour for readable requests only; unreadable ones get the well-behaved Failure. */
export function onReadable (hook: string, behaviour: Behaviour): Behaviour {
  const fallback = wellBehaved(hook)
  return (req, res) => readable(req) ? behaviour(req, res) : fallback(req, res)
}

export function discoveryAnswer (handlers: FakeHandler[]): Record<string, unknown> {
  return {
    status: 'Success',
    handlers: handlers.map(h => ({
      name: h.name,
      requestHook: { apiVersion: API, hook: h.hook },
      ...(h.timeoutSeconds !== undefined ? { timeoutSeconds: h.timeoutSeconds } : {}),
      ...(h.failurePolicy !== undefined ? { failurePolicy: h.failurePolicy } : {})
    }))
  }
}

export async function startFakeExtension (options: FakeExtensionOptions): Promise<FakeExtension> {
  const routes = new Map<string, Behaviour>()
  routes.set(`${PREFIX}/discovery`, options.discovery ?? ((_req, res) => send(res, discoveryAnswer(options.handlers))))
  for (const h of options.handlers) {
    if (h.served !== false) routes.set(`${PREFIX}/${h.hook.toLowerCase()}/${h.name}`, h.behaviour ?? wellBehaved(h.hook))
  }
  const requests: FakeRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer({ cert: options.cert, key: options.key, ...options.tls }, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://localhost')
      const body = Buffer.concat(chunks).toString('utf8')
      let json: Record<string, unknown> | undefined
      try {
        const parsed = JSON.parse(body) as unknown
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>
      } catch { /* not JSON */ }
      const recorded = { path: url.pathname, query: url.searchParams, contentType: req.headers['content-type'], body, json }
      requests.push(recorded)
      const route = routes.get(url.pathname)
      if (!route) return send(res, { code: 'NotFound', message: `no route for ${url.pathname}` }, 404)
      Promise.resolve(route(recorded, res)).catch(() => res.destroy())
    })
  })
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  // A handshake the server refuses is not an error of the test.
  server.on('tlsClientError', () => {})
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

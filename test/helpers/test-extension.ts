// A tiny HTTPS test extension (node:https) for client tests: routes by path, records requests, injects faults.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { createCertificateAuthority, type CertificateAuthority } from '../../src/tls/certificates.js'

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: any
  raw: string
  remotePort: number | undefined
}

export type Route = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>

export interface TestExtension {
  url: string
  port: number
  requests: RecordedRequest[]
  routes: Map<string, Route>
  close: () => Promise<void>
}

export interface ExtensionOptions {
  cert: string
  key: string
  ca?: string
  requestCert?: boolean
  plain?: boolean
}

export function json (res: ServerResponse, body: unknown, code = 200): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(code, { 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** A route that never answers (until the server closes). */
export const hang: Route = () => {}

export async function startExtension (options: ExtensionOptions, routes: Record<string, Route> = {}): Promise<TestExtension> {
  const requests: RecordedRequest[] = []
  const table = new Map(Object.entries(routes))
  const sockets = new Set<Socket>()
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://localhost')
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      try { body = JSON.parse(raw) } catch { body = undefined }
      const recorded = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, raw, remotePort: req.socket.remotePort }
      requests.push(recorded)
      const route = table.get(url.pathname)
      if (!route) return json(res, 'not found', 404)
      Promise.resolve(route(recorded, res)).catch(() => res.destroy())
    })
  }
  const server: Server | ReturnType<typeof createHttpServer> = options.plain
    ? createHttpServer(listener)
    : createServer({ cert: options.cert, key: options.key, ...(options.ca ? { ca: options.ca } : {}), requestCert: options.requestCert ?? false, rejectUnauthorized: options.requestCert ?? false }, listener)
  server.on(options.plain ? 'connection' : 'secureConnection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    requests,
    routes: table,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    }
  }
}

export interface Pki {
  ca: CertificateAuthority
  caBundle: string
  server: { cert: string, key: string }
}

/** A CA and a serving certificate for 127.0.0.1, localhost and ext.ns.svc. */
export async function createPki (): Promise<Pki> {
  const ca = await createCertificateAuthority()
  const server = await ca.issue({ commonName: 'ext', dnsNames: ['localhost', 'ext.ns.svc'], ipAddresses: ['127.0.0.1'] })
  return { ca, caBundle: Buffer.from(ca.cert).toString('base64'), server }
}

export const cluster = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' } }

/** A free port nobody listens on. */
export async function deadPort (): Promise<number> {
  const s = createHttpServer()
  await new Promise<void>(resolve => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>(resolve => s.close(() => resolve()))
  return port
}

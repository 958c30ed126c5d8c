// Shared by the server and reference-extension tests (tap lists it as "no tests found").
import { request as httpsRequest } from 'node:https'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pino } from 'pino'
import { createCertificateAuthority, type CertificateAuthority } from '../../src/tls/certificates.js'
import { createExtensionServer, type ExtensionServer, type ExtensionServerOptions } from '../../src/server/index.js'

export const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
export const silent = pino({ level: 'silent' })

export interface TLSFixture {
  ca: CertificateAuthority
  dir: string
  certFile: string
  keyFile: string
}

/** A CA and a serving certificate for 127.0.0.1/localhost, written to dir as tls.crt/tls.key/ca.crt. */
export async function tlsFixture (dir: string): Promise<TLSFixture> {
  const ca = await createCertificateAuthority('test CA')
  const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })
  const certFile = join(dir, 'tls.crt')
  const keyFile = join(dir, 'tls.key')
  writeFileSync(certFile, leaf.cert)
  writeFileSync(keyFile, leaf.key)
  writeFileSync(join(dir, 'ca.crt'), ca.cert)
  return { ca, dir, certFile, keyFile }
}

export interface Started {
  server: ExtensionServer
  url: string
  port: number
}

type Teardown = { teardown: (fn: () => unknown) => void }

export async function start (t: Teardown, tls: TLSFixture, options: Omit<ExtensionServerOptions, 'tls'> & { tls?: ExtensionServerOptions['tls'] }): Promise<Started> {
  const server = createExtensionServer({ logger: silent, tls: { certFile: tls.certFile, keyFile: tls.keyFile }, ...options })
  const url = await server.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  return { server, url, port: server.address()?.port as number }
}

export interface Reply {
  status: number
  headers: IncomingHttpHeaders
  text: string
  json: any
  peerCertificateIssuer?: string
}

export interface CallOptions {
  method?: string
  /** contentType: none by default, like Cluster API's client. */
  contentType?: string
  ca?: string
  cert?: string
  key?: string
  headers?: Record<string, string>
}

/** One request on a fresh connection (no agent), so TLS changes are seen. */
export function call (url: string, path: string, body?: string | Buffer, options: CallOptions = {}): Promise<Reply> {
  const target = new URL(path, url)
  const headers: Record<string, string | number> = { ...options.headers }
  if (options.contentType) headers['content-type'] = options.contentType
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body)
  const isHttps = target.protocol === 'https:'
  const requestFn = isHttps ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = requestFn(target, {
      method: options.method ?? 'POST',
      headers,
      agent: false,
      ...(isHttps ? { ca: options.ca, cert: options.cert, key: options.key, servername: undefined } : {})
    } as never, (res) => {
      const socket = res.socket as unknown as { getPeerCertificate?: () => { issuer?: { CN?: string } } }
      const issuer = socket.getPeerCertificate?.().issuer?.CN
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try { json = JSON.parse(text) } catch { json = undefined }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, ...(issuer !== undefined ? { peerCertificateIssuer: issuer } : {}) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

export const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms)
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve() })
})

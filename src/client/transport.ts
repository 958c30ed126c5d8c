// HTTPS transport for calling extensions: URL construction, TLS settings and keep-alive Agent pools.
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { isIP, type LookupFunction } from 'node:net'
import { posix } from 'node:path'
import type { ClientConfig } from '../api/extension-config/types.js'
import { TransportError } from './errors.js'
import { Agent } from '../shims/undici.js'

/** A client certificate for mTLS: PEM strings or the paths of PEM files. */
export type ClientCertificate = {
  /** cert is the PEM client certificate (chain). */
  cert: string
  /** key is its PEM private key. */
  key: string
} | {
  /** certFile is the path of the PEM client certificate (chain). */
  certFile: string
  /** keyFile is the path of its PEM private key. */
  keyFile: string
}

/** Rewrites a computed URL before connecting, e.g. a Service URL to a port-forward when running outside the cluster. */
export type ResolveUrl = (url: URL) => URL | string

/**
 * The URL of a hook handler: the configured URL or Service, joined with the hook path like Go's path.Join.
 * Throws with Cluster API's messages when the config has no usable URL.
 */
export function urlForExtension (config: ClientConfig, hookPath: string): URL {
  const service = definedService(config)
  if (service) {
    const port = service.port ?? 443
    const u = new URL(`https://${service.name}.${service.namespace}.svc:${port}`)
    u.pathname = posix.join('/', service.path ?? '', hookPath)
    // new URL drops the default port; Cluster API keeps it in the host (":443") which only matters for metrics.
    return u
  }
  if (!config.url) throw new TransportError('failed to compute URL: at least one of service and url should be defined in config')
  let u: URL
  try {
    u = new URL(config.url)
  } catch {
    throw new TransportError('failed to compute URL: failed to parse url from clientConfig')
  }
  if (u.protocol !== 'https:') throw new TransportError(`failed to compute URL: expected https scheme, got ${u.protocol.slice(0, -1)}`)
  u.pathname = posix.join('/', u.pathname, hookPath)
  return u
}

/** The Service reference, when any of its fields is set (Cluster API's "defined" test), else undefined. */
function definedService (config: ClientConfig): ClientConfig['service'] {
  const service = config.service
  return service && (service.name || service.namespace || service.path || service.port) ? service : undefined
}

/** host[:port] of a URL for the `host` metric label, keeping an explicit port of service URLs. */
export function hostLabel (config: ClientConfig, url: URL): string {
  const service = definedService(config)
  if (service) return `${service.name}.${service.namespace}.svc:${service.port ?? 443}`
  return url.host
}

/** Decodes a base64 caBundle and checks it holds at least one PEM certificate. */
export function loadCABundle (caBundle: string | undefined): string | undefined {
  if (!caBundle) return undefined
  const pem = Buffer.from(caBundle, 'base64').toString('utf8')
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) throw new TransportError('unable to load root certificates: unable to parse bytes as PEM block')
  for (const block of blocks) {
    try {
      new X509Certificate(block) // eslint-disable-line no-new
    } catch (err) {
      throw new TransportError(`unable to load root certificates: ${(err as Error).message}`)
    }
  }
  return pem
}

/**
 * loadCABundle's result per clientConfig object, so that a handler call does not decode and parse its CA again
 * (an X509Certificate per certificate is the largest CPU cost of a call). The registry keeps one clientConfig per
 * handler, so an entry goes with its registration; a changed caBundle on the same object is loaded again.
 */
export class CABundleCache {
  readonly #byConfig = new WeakMap<object, { caBundle: string | undefined, pem?: string | undefined, error?: string }>()

  /** loadCABundle(config.caBundle), remembered: the same PEM string, or the same error message. */
  load (config: { caBundle?: string | undefined }): string | undefined {
    const caBundle = config.caBundle
    let entry = this.#byConfig.get(config)
    if (entry === undefined || entry.caBundle !== caBundle) {
      try {
        entry = { caBundle, pem: loadCABundle(caBundle) }
      } catch (err) {
        entry = { caBundle, error: (err as Error).message }
      }
      this.#byConfig.set(config, entry)
    }
    if (entry.error !== undefined) throw new TransportError(entry.error)
    return entry.pem
  }
}

/** The options of an {@link AgentPool}. */
export interface AgentPoolOptions {
  /** clientCertificate is presented to extensions that ask for one (mTLS). */
  clientCertificate?: ClientCertificate | undefined
  /** connections per origin; undefined means unlimited (undici's default). */
  connections?: number | undefined
  /** keepAliveTimeoutMs is how long an idle connection is kept open (default 30 s). */
  keepAliveTimeoutMs?: number | undefined
  /** lookup resolves host names (default: dns.lookup, the system resolver). */
  lookup?: LookupFunction | undefined
}

/** ca is the PEM the Agent verifies with, compared as is: hashing it on every call cost more than comparing it. */
interface PoolEntry { agent: Agent, ca: string | undefined, generation: number }

/**
 * Keep-alive Agents keyed by host, TLS server name, CA bundle and client certificate, reused across calls.
 * When the CA of a host changes its old Agent is closed; when the client certificate changes all are.
 */
export class AgentPool {
  readonly #byTarget = new Map<string, PoolEntry>()
  #clientCert: { cert: string, key: string } | undefined
  #clientCertSource: ClientCertificate | undefined
  #generation = 0
  readonly #options: AgentPoolOptions

  constructor (options: AgentPoolOptions = {}) {
    this.#options = options
    this.#clientCertSource = options.clientCertificate
    this.#clientCert = readClientCertificate(options.clientCertificate)
  }

  /** The number of open Agents. */
  get size (): number {
    return this.#byTarget.size
  }

  /**
   * The Agent for a connection to `host` (host:port actually connected to) verifying `servername` against `ca`
   * (PEM; undefined = system roots).
   */
  get (host: string, servername: string, ca: string | undefined): Agent {
    const target = `${host}|${servername}`
    const existing = this.#byTarget.get(target)
    if (existing !== undefined && existing.ca === ca && existing.generation === this.#generation) return existing.agent
    if (existing) existing.agent.close().catch(() => {})
    const agent = new Agent({
      connect: {
        ...(ca === undefined ? {} : { ca }),
        ...(isIP(servername) ? {} : { servername }),
        minVersion: 'TLSv1.2',
        rejectUnauthorized: true,
        ...(this.#options.lookup ? { lookup: this.#options.lookup } : {}),
        ...(this.#clientCert ?? {})
      },
      keepAliveTimeout: this.#options.keepAliveTimeoutMs ?? 30_000,
      ...(this.#options.connections ? { connections: this.#options.connections } : {})
    })
    this.#byTarget.set(target, { agent, ca, generation: this.#generation })
    return agent
  }

  /** Replaces the client certificate; every Agent is closed so new connections present the new one. */
  setClientCertificate (certificate: ClientCertificate | undefined): void {
    this.#clientCertSource = certificate
    this.#clientCert = readClientCertificate(certificate)
    this.#generation++
    this.#closeAll()
  }

  /** Re-reads client certificate files; when they changed, the Agents are replaced. Returns whether they changed. */
  reloadClientCertificate (): boolean {
    const next = readClientCertificate(this.#clientCertSource)
    if (next?.cert === this.#clientCert?.cert && next?.key === this.#clientCert?.key) return false
    this.#clientCert = next
    this.#generation++
    this.#closeAll()
    return true
  }

  /** Closes every Agent, letting requests in flight finish. */
  async close (): Promise<void> {
    const agents = [...this.#byTarget.values()].map(e => e.agent)
    this.#byTarget.clear()
    await Promise.all(agents.map(a => a.close().catch(() => {})))
  }

  #closeAll (): void {
    for (const { agent } of this.#byTarget.values()) agent.close().catch(() => {})
    this.#byTarget.clear()
  }
}

function readClientCertificate (certificate: ClientCertificate | undefined): { cert: string, key: string } | undefined {
  if (!certificate) return undefined
  if ('cert' in certificate) return { cert: certificate.cert, key: certificate.key }
  if (!certificate.certFile || !certificate.keyFile) throw new TransportError('both the client certificate file and the client key file must be set')
  return { cert: readFileSync(certificate.certFile, 'utf8'), key: readFileSync(certificate.keyFile, 'utf8') }
}

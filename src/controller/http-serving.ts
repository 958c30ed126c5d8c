// Where and how the controller's HTTP endpoint is served, as controller-runtime serves secure metrics: plain HTTP
// only on loopback; anywhere else HTTPS (tls.crt/tls.key of a directory, reloaded when rotated, or a self-signed
// certificate minted at start) with every route but the probes behind TokenReview and SubjectAccessReview.
import { join } from 'node:path'
import { BlockList, isIP } from 'node:net'
import { hostname, networkInterfaces } from 'node:os'
import type { SecureContextOptions } from 'node:tls'
import type { Logger } from 'pino'
import { type ConnectionLimits, listenAt } from '../http/index.js'
import type { KubeApi } from '../kube/api.js'
import { httpsOptions, MIN_TLS_VERSION, type TLSFileOptions, watchCertificates } from '../tls/watcher.js'
import type { Controller } from './controller.js'
import { kubernetesAuthorizer } from './http-auth.js'
import { createControllerHttp } from './http.js'

/**
 * Where and how the controller's HTTP endpoint (/healthz, /readyz, /metrics, /extensionconfigs) is served, as
 * controller-runtime serves secure metrics: plain HTTP on a loopback host only; anywhere else HTTPS, with every route
 * but the probes behind TokenReview and SubjectAccessReview.
 */
export interface ControllerHttpOptions {
  /** host to listen on: a loopback address unless `secure`. */
  host: string
  /** port to listen on; 0 picks a free port. */
  port: number
  /** secure serves HTTPS and lets only callers the Kubernetes API authenticates and authorizes past the probes. */
  secure?: {
    /** certDir holds tls.crt and tls.key, re-read when they change; without it a self-signed certificate is minted. */
    certDir?: string
    /** reloadIntervalMs is how often certDir is checked for rotated files (default 10 s). */
    reloadIntervalMs?: number
  }
  /** limits bound slow, idle or greedy clients (DEFAULT_LIMITS, each overridable). */
  limits?: Partial<ConnectionLimits>
}

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/** True for 127.0.0.0/8, ::1 (IPv4-mapped forms included) and localhost. */
export function isLoopbackHost (host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true
  const family = isIP(host)
  return family !== 0 && LOOPBACK.check(host, family === 6 ? 'ipv6' : 'ipv4')
}

/** Throws when the endpoint cannot be served so: plain HTTP off loopback, or secure without the Kubernetes API. */
export function checkControllerHttp (options: ControllerHttpOptions, hasKubernetesApi: boolean): void {
  if (options.secure && !hasKubernetesApi) {
    throw new Error('the secure HTTP endpoint (http.secure, --metrics-secure) checks callers with TokenReview and SubjectAccessReview: it needs the Kubernetes API, not a directory of ExtensionConfigs')
  }
  if (!options.secure && !isLoopbackHost(options.host)) {
    throw new Error(`plain HTTP is served on loopback only, not on ${JSON.stringify(options.host)}: serve it securely (http.secure, --metrics-secure) or listen on 127.0.0.1`)
  }
}

interface ServeOptions {
  controller: Controller
  leader?: () => boolean
  http: ControllerHttpOptions
  /** api answers the reviews of the secure endpoint. */
  api?: Pick<KubeApi, 'create'>
  logger: Logger
}

/** Checks the options, listens, and returns the URL and how to stop. */
export async function serveControllerHttp (options: ServeOptions): Promise<{ url: string, close: () => Promise<void> }> {
  const { http, api, logger } = options
  checkControllerHttp(http, api !== undefined)
  const secure = http.secure
  const files: TLSFileOptions | undefined = secure?.certDir !== undefined
    ? { certFile: join(secure.certDir, 'tls.crt'), keyFile: join(secure.certDir, 'tls.key'), ...(secure.reloadIntervalMs !== undefined ? { reloadIntervalMs: secure.reloadIntervalMs } : {}) }
    : undefined
  let https: SecureContextOptions | undefined
  if (files) https = httpsOptions(files)
  else if (secure) {
    // The X.509 library (~20 MB, ~200 ms to load) only when a certificate must be minted.
    const { mintSelfSignedServingCertificate } = await import('../tls/certificates.js')
    https = { ...await mintSelfSignedServingCertificate(servingNames(http.host)), minVersion: MIN_TLS_VERSION }
  }
  const app = createControllerHttp({
    controller: options.controller,
    ...(options.leader ? { leader: options.leader } : {}),
    ...(https ? { https } : {}),
    ...(secure && api ? { authorize: kubernetesAuthorizer(api) } : {}),
    limits: http.limits,
    logger
  })
  const url = await listenAt(app, { host: http.host, port: http.port, https: https !== undefined })
  const stopWatching = files ? watchCertificates(app.server as unknown as { setSecureContext: (o: SecureContextOptions) => void }, files, logger) : () => {}
  return {
    url,
    close: async () => {
      stopWatching()
      await app.close()
    }
  }
}

/** The names a self-signed certificate is for: loopback, and the address listened on (every interface's for a wildcard). */
function servingNames (host: string): { commonName: string, dnsNames: string[], ipAddresses: string[] } {
  const dnsNames = new Set(['localhost'])
  const ipAddresses = new Set(['127.0.0.1', '::1'])
  if (host === '0.0.0.0' || host === '::' || host === '') {
    dnsNames.add(hostname())
    for (const address of Object.values(networkInterfaces()).flat()) {
      if (address && (host === '::' || address.family === 'IPv4')) ipAddresses.add(address.address.split('%')[0] as string)
    }
  } else if (isIP(host)) {
    ipAddresses.add(host)
  } else {
    dnsNames.add(host)
  }
  return { commonName: 'runtime-sdk-controller', dnsNames: [...dnsNames], ipAddresses: [...ipAddresses] }
}

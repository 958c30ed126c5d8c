// TLS handshakes without HTTP: what the server negotiates with a modern client, whether its certificate is
// trusted and names the host, and whether it still talks to a client limited to TLS 1.0/1.1.
import { isIP } from 'node:net'
import { checkServerIdentity, connect, type ConnectionOptions, type PeerCertificate } from 'node:tls'
import { describeError } from '../client/wire.js'

/** Where and how a conformance run makes its TLS handshakes. */
export interface TlsEndpoint {
  /** host of the extension's URL (or Service). */
  host: string
  /** port of the extension. */
  port: number
  /** ca is the PEM CA bundle; undefined means the system roots. */
  ca: string | undefined
  /** clientCertificate is presented when the server asks for one (mTLS). */
  clientCertificate?: {
    /** cert is the PEM client certificate. */
    cert: string
    /** key is its PEM private key. */
    key: string
  } | undefined
  /** timeoutMs bounds the handshake. */
  timeoutMs: number
}

/** The outcome of one TLS handshake: what was negotiated and whether the certificate is trusted and names the host. */
export type TlsProbe =
  | {
    /** connected is true: the handshake completed. */
    connected: true
    /** protocol is the negotiated TLS version, e.g. TLSv1.3. */
    protocol: string
    /** cipher is the negotiated cipher suite. */
    cipher: string
    /** authorized is true when the certificate chain verifies against the CA bundle (or the system roots). */
    authorized: boolean
    /** authorizationError says why the chain does not verify. */
    authorizationError?: string
    /** hostnameError says why the certificate does not match the host. */
    hostnameError?: string
    /** certificate describes the serving certificate: subject, issuer, subjectAltName, validFrom, validTo. */
    certificate: Record<string, string>
  }
  | {
    /** connected is false: no handshake. */
    connected: false
    /** error says why. */
    error: string
    /** code is the error's code, e.g. ECONNREFUSED. */
    code?: string
  }

/** The TLS settings of a client that offers only TLS 1.0 and 1.1 (OpenSSL 3 needs security level 0 for them). */
export const LEGACY_CLIENT: ConnectionOptions = { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }
/** The TLS settings of Cluster API's client. */
export const MODERN_CLIENT: ConnectionOptions = { minVersion: 'TLSv1.2' }

/**
 * One handshake. The certificate is not rejected here: trust and host name are reported separately, so that
 * a certificate for the wrong host is told apart from an untrusted one.
 */
export function probeTls (endpoint: TlsEndpoint, client: ConnectionOptions): Promise<TlsProbe> {
  return new Promise(resolve => {
    const socket = connect({
      host: endpoint.host,
      port: endpoint.port,
      ...(isIP(endpoint.host) ? {} : { servername: endpoint.host }),
      ...(endpoint.ca === undefined ? {} : { ca: endpoint.ca }),
      ...(endpoint.clientCertificate ?? {}),
      ...client,
      rejectUnauthorized: false,
      // Node folds the host name check into `authorized`; it is checked separately below.
      checkServerIdentity: () => undefined
    })
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ connected: false, error: `no TLS handshake within ${endpoint.timeoutMs / 1000}s` })
    }, endpoint.timeoutMs)
    socket.once('secureConnect', () => {
      clearTimeout(timer)
      const peer = socket.getPeerCertificate()
      const hostnameError = checkServerIdentity(endpoint.host, peer)
      resolve({
        connected: true,
        protocol: socket.getProtocol() ?? 'unknown',
        cipher: socket.getCipher().name,
        authorized: socket.authorized,
        ...(socket.authorizationError ? { authorizationError: String(socket.authorizationError) } : {}),
        ...(hostnameError ? { hostnameError: hostnameError.message } : {}),
        certificate: describeCertificate(peer)
      })
      socket.end()
    })
    socket.once('error', err => {
      clearTimeout(timer)
      const code = (err as NodeJS.ErrnoException).code
      resolve({ connected: false, error: describeError(err).replace(/\s+/g, ' ').trim(), ...(code ? { code } : {}) })
    })
  })
}

/** True when a failed handshake was refused at the TLS level (an alert or a reset), not unreachable. */
export function refusedByTls (probe: Extract<TlsProbe, { connected: false }>): boolean {
  return /^ERR_SSL|^ECONNRESET$|^EPIPE$/.test(probe.code ?? '') || /alert|handshake|socket disconnected/i.test(probe.error)
}

function describeCertificate (peer: PeerCertificate): Record<string, string> {
  if (!peer || Object.keys(peer).length === 0) return {}
  return {
    subject: formatName(peer.subject),
    issuer: formatName(peer.issuer),
    subjectAltName: peer.subjectaltname ?? '',
    validFrom: peer.valid_from,
    validTo: peer.valid_to
  }
}

function formatName (name: PeerCertificate['subject'] | undefined): string {
  return Object.entries(name ?? {}).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`).join(', ')
}

// Serving certificates from files, and the one certificate watcher: re-read when they change on disk (cert-manager
// rotates them in place), for the extension server and the conversion webhook alike.
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createSecureContext, type SecureContextOptions } from 'node:tls'
import type { Logger } from 'pino'

/** The certificate files a server serves HTTPS with; they are read again when they change (a renewed certificate). */
export interface TLSFileOptions {
  /** certFile is the PEM serving certificate (chain), e.g. <cert-dir>/tls.crt. */
  certFile: string
  /** keyFile is the PEM private key, e.g. <cert-dir>/tls.key. */
  keyFile: string
  /** clientCaFile turns on mTLS: clients must present a certificate issued by one of these CAs. */
  clientCaFile?: string
  /** reloadIntervalMs is how often the files are checked for changes (default 10 s, like controller-runtime). */
  reloadIntervalMs?: number
}

/** The oldest TLS version every HTTPS server of the project accepts. */
export const MIN_TLS_VERSION = 'TLSv1.2'

interface Material { cert: string, key: string, ca?: string }

function readMaterial (options: TLSFileOptions): Material {
  return {
    cert: readFileSync(options.certFile, 'utf8'),
    key: readFileSync(options.keyFile, 'utf8'),
    ...(options.clientCaFile ? { ca: readFileSync(options.clientCaFile, 'utf8') } : {})
  }
}

/** The https options of the server: the files' contents, TLS 1.2 minimum, client certificates when a CA is given. */
export function httpsOptions (options: TLSFileOptions): SecureContextOptions & { requestCert: boolean, rejectUnauthorized: boolean } {
  const material = readMaterial(options)
  createSecureContext(material) // fails early, with the file problem, rather than at the first handshake
  return { ...material, minVersion: MIN_TLS_VERSION, requestCert: material.ca !== undefined, rejectUnauthorized: material.ca !== undefined }
}

/**
 * Polls the files and swaps the server's secure context when their contents change. A half-written or
 * mismatched pair (the key rotated before the certificate) is skipped and retried on the next tick.
 */
export function watchCertificates (server: { setSecureContext: (options: SecureContextOptions) => void }, options: TLSFileOptions, log: Logger): () => void {
  let current = JSON.stringify(readMaterial(options))
  let busy = false
  const check = async () => {
    if (busy) return
    busy = true
    try {
      const [cert, key, ca] = await Promise.all([
        readFile(options.certFile, 'utf8'), readFile(options.keyFile, 'utf8'),
        options.clientCaFile ? readFile(options.clientCaFile, 'utf8') : Promise.resolve(undefined)
      ])
      const material: Material = { cert, key, ...(ca !== undefined ? { ca } : {}) }
      const serialized = JSON.stringify(material)
      if (serialized === current) return
      createSecureContext(material)
      server.setSecureContext({ ...material, minVersion: MIN_TLS_VERSION })
      current = serialized
      log.info({ certFile: options.certFile, clientCaFile: options.clientCaFile }, 'reloaded TLS certificates')
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'TLS certificate files changed but could not be loaded; keeping the previous ones')
    } finally {
      busy = false
    }
  }
  const timer = setInterval(() => { check().catch(() => {}) }, options.reloadIntervalMs ?? 10_000)
  timer.unref()
  return () => clearInterval(timer)
}

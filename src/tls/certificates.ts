// Minting certificates: a self-signed CA and leaf certificates it issues (serving or client).
// Used by `runtime-sdk serve` and `demo` when no certificate is given, and by tests for TLS, mTLS and SAN cases.
import { webcrypto, randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as x509 from '@peculiar/x509'

// @peculiar/x509 is typed against the DOM's Crypto; Node's webcrypto implements the same interface.
x509.cryptoProvider.set(webcrypto as never)

type CryptoKey = webcrypto.CryptoKey
type CryptoKeyPair = webcrypto.CryptoKeyPair

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }
const DAY_MS = 24 * 60 * 60 * 1000

/** A certificate and its private key, PEM encoded. */
export interface PemPair {
  /** cert is the PEM certificate. */
  cert: string
  /** key is the PEM (PKCS#8) private key. */
  key: string
}

/** A self-signed CA (its certificate and key) that issues leaf certificates. */
export interface CertificateAuthority extends PemPair {
  /** issue signs a leaf certificate with this CA. */
  issue: (options: LeafOptions) => Promise<PemPair>
}

/** What a leaf certificate is issued for. */
export interface LeafOptions {
  /** commonName is the subject's CN. */
  commonName: string
  /** dnsNames and ipAddresses become subject alternative names; clients match the host against them. */
  dnsNames?: string[]
  /** ipAddresses become IP subject alternative names, e.g. 127.0.0.1. */
  ipAddresses?: string[]
  /** usage: serverAuth for serving certificates (default), clientAuth for mTLS client certificates. */
  usage?: 'server' | 'client'
  /** validDays is how long the certificate is valid from notBefore (default 365). */
  validDays?: number
  /** notBefore defaults to one minute ago, to tolerate clock skew. */
  notBefore?: Date
}

/**
 * A new self-signed CA (ECDSA P-256), valid for `validDays` from one minute ago, for tests of TLS, mTLS and
 * subject alternative names. Its key exists only in memory and in what you write it to.
 *
 * @example
 * ```ts
 * import { createCertificateAuthority } from 'runtime-sdk/testing'
 *
 * const ca = await createCertificateAuthority('test CA')
 * const serving = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })
 * const client = await ca.issue({ commonName: 'cluster-api', usage: 'client' })
 * ```
 */
export async function createCertificateAuthority (commonName = 'runtime-sdk CA', validDays = 365): Promise<CertificateAuthority> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as CryptoKeyPair
  const notBefore = new Date(Date.now() - 60_000)
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validDays * DAY_MS),
    keys: keys as never,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never)
    ]
  })
  return {
    cert: cert.toString('pem') + '\n',
    key: await pemKey(keys.privateKey),
    issue: (options) => issue(cert, keys.privateKey, options)
  }
}

async function issue (ca: x509.X509Certificate, caKey: CryptoKey, options: LeafOptions): Promise<PemPair> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as CryptoKeyPair
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000)
  const names = [
    ...(options.dnsNames ?? []).map(value => ({ type: 'dns' as const, value })),
    ...(options.ipAddresses ?? []).map(value => ({ type: 'ip' as const, value }))
  ]
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${options.commonName}`,
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + (options.validDays ?? 365) * DAY_MS),
    signingKey: caKey as never,
    publicKey: keys.publicKey as never,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([options.usage === 'client' ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth]),
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(ca)
    ]
  })
  return { cert: cert.toString('pem') + '\n', key: await pemKey(keys.privateKey) }
}

async function pemKey (key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY') + '\n'
}

/** A positive 16-byte serial number (the high bit cleared keeps it positive in DER). */
function serial (): string {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0] as number) & 0x7f
  return bytes.toString('hex')
}

/**
 * A serving certificate minted in memory and issued by a throwaway CA sent along in the chain, as controller-runtime
 * mints one when given no certificate directory: the traffic is encrypted, but no client trusts it unless told to.
 */
export async function mintSelfSignedServingCertificate (options: Omit<LeafOptions, 'usage'>): Promise<PemPair> {
  const ca = await createCertificateAuthority(`${options.commonName} self-signed CA`)
  const leaf = await ca.issue({ ...options, usage: 'server' })
  return { cert: leaf.cert + ca.cert, key: leaf.key }
}

/** Where writeLoopbackServingCertificate put its files. */
export interface ServingFiles {
  /** caFile is the path of the CA certificate, `<dir>/ca.crt`: what a client trusts. */
  caFile: string
  /** certFile is the path of the serving certificate, `<dir>/tls.crt`. */
  certFile: string
  /** keyFile is the path of the serving certificate's key, `<dir>/tls.key`. */
  keyFile: string
  /** caPem is the PEM of the new CA (also in caFile). */
  caPem: string
}

/**
 * A fresh CA and a serving certificate for localhost, 127.0.0.1 and ::1, written to dir as ca.crt, tls.crt and
 * tls.key (the key readable by the owner only): what a local extension needs to serve HTTPS.
 */
export async function writeLoopbackServingCertificate (dir: string, caName: string): Promise<ServingFiles> {
  const files = { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') }
  await mkdir(dir, { recursive: true })
  const ca = await createCertificateAuthority(caName)
  const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1', '::1'], usage: 'server' })
  await writeFile(files.caFile, ca.cert)
  await writeFile(files.certFile, leaf.cert)
  await writeFile(files.keyFile, leaf.key, { mode: 0o600 })
  return { ...files, caPem: ca.cert }
}

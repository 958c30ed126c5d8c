// Where the API server is and how to authenticate, from a kubeconfig file, KUBECONFIG, ~/.kube/config or the
// in-cluster service account. Our own reader: @kubernetes/client-node's KubeConfig pulls in its generated API
// (about 70 MB of resident memory) for what is a few fields of YAML. A loaded client-node KubeConfig is still
// accepted (its methods only, no import at run time).
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import type { RequestOptions as HttpsRequestOptions } from 'node:https'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'

/** Everything KubeApi needs to reach and authenticate to an API server. */
export interface KubeConnection {
  /** server is the API server URL. */
  server: string
  ca?: Buffer
  cert?: Buffer
  key?: Buffer
  servername?: string
  insecureSkipTLSVerify: boolean
  /** headers gives the Authorization (and impersonation) headers; called per request so rotation is seen. */
  headers: () => Promise<Record<string, string>>
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount'
const run = promisify(execFile)

interface Named { name: string }

interface ExecConfig { command: string, args?: string[], env?: Array<{ name: string, value: string }>, apiVersion?: string }

interface UserEntry {
  token?: string
  tokenFile?: string
  username?: string
  password?: string
  'client-certificate'?: string
  'client-certificate-data'?: string
  'client-key'?: string
  'client-key-data'?: string
  exec?: ExecConfig
  'auth-provider'?: { name?: string }
}

interface ClusterEntry {
  server?: string
  'certificate-authority'?: string
  'certificate-authority-data'?: string
  'insecure-skip-tls-verify'?: boolean
  'tls-server-name'?: string
}

/**
 * The connection of a kubeconfig file (its current context), or with no path: the first file of KUBECONFIG,
 * else ~/.kube/config, else the in-cluster service account.
 */
export function loadKubeConnection (path?: string): KubeConnection {
  if (path) return fromKubeconfigFile(path)
  const fromEnv = (process.env['KUBECONFIG'] ?? '').split(':').find(p => p !== '' && existsSync(p))
  if (fromEnv) return fromKubeconfigFile(fromEnv)
  const home = join(homedir(), '.kube', 'config')
  if (existsSync(home)) return fromKubeconfigFile(home)
  if (process.env['KUBERNETES_SERVICE_HOST']) return inCluster()
  throw new Error('no kubeconfig: set --kubeconfig or KUBECONFIG, create ~/.kube/config, or run in a cluster')
}

/**
 * The part of @kubernetes/client-node's KubeConfig we read: a loaded KubeConfig is one, without this package
 * depending on client-node (its types would become part of ours).
 */
export interface KubeConfigLike {
  getCurrentCluster (): { server: string, caFile?: string, caData?: string, tlsServerName?: string, skipTLSVerify?: boolean } | null
  getCurrentUser (): { certFile?: string, certData?: string, keyFile?: string, keyData?: string, authProvider?: unknown, exec?: unknown } | null
  applyToHTTPSOptions (options: HttpsRequestOptions): Promise<void>
}

/** The connection of a client-node KubeConfig (tests and library users that already hold one). */
export function fromKubeConfig (config: KubeConfigLike): KubeConnection {
  const cluster = config.getCurrentCluster()
  if (!cluster) throw new Error('kube api: the kubeconfig has no current cluster')
  const user = config.getCurrentUser()
  let cached: Promise<Record<string, string>> | undefined
  const resolve = async () => {
    const opts: HttpsRequestOptions = {}
    await config.applyToHTTPSOptions(opts)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v)
    if (opts.auth) headers['authorization'] = `Basic ${Buffer.from(opts.auth).toString('base64')}`
    return headers
  }
  const dynamic = Boolean(user?.authProvider || user?.exec)
  return {
    server: cluster.server,
    ...bytes('ca', cluster.caFile, cluster.caData),
    ...bytes('cert', user?.certFile, user?.certData),
    ...bytes('key', user?.keyFile, user?.keyData),
    ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
    insecureSkipTLSVerify: Boolean(cluster.skipTLSVerify),
    headers: () => {
      if (dynamic) return resolve()
      cached ??= resolve()
      cached.catch(() => { cached = undefined })
      return cached
    }
  }
}

function bytes<K extends string> (key: K, file: string | undefined, data: string | undefined): Partial<Record<K, Buffer>> {
  if (data) return { [key]: Buffer.from(data, 'base64') } as Record<K, Buffer>
  if (file) return { [key]: readFileSync(file) } as Record<K, Buffer>
  return {}
}

function fromKubeconfigFile (path: string): KubeConnection {
  let doc: {
    'current-context'?: string
    contexts?: Array<Named & { context?: { cluster?: string, user?: string } }>
    clusters?: Array<Named & { cluster?: ClusterEntry }>
    users?: Array<Named & { user?: UserEntry }>
  }
  try {
    doc = parse(readFileSync(path, 'utf8')) ?? {}
  } catch (err) {
    throw new Error(`kubeconfig ${path}: ${(err as Error).message}`)
  }
  const fail = (message: string) => new Error(`kubeconfig ${path}: ${message}`)
  const contextName = doc['current-context']
  const context = doc.contexts?.find(c => c.name === contextName)?.context
  if (!context) throw fail(contextName ? `context "${contextName}" not found` : 'no current-context')
  const cluster = doc.clusters?.find(c => c.name === context.cluster)?.cluster
  if (!cluster?.server) throw fail(`cluster "${context.cluster ?? ''}" not found or has no server`)
  const user = doc.users?.find(u => u.name === context.user)?.user ?? {}
  const base = dirname(path)
  const file = (p: string | undefined) => p === undefined ? undefined : isAbsolute(p) ? p : join(base, p)
  if (user['auth-provider']) throw fail(`auth-provider "${user['auth-provider'].name ?? ''}" is not supported; use an exec credential plugin`)
  return {
    server: cluster.server,
    ...bytes('ca', file(cluster['certificate-authority']), cluster['certificate-authority-data']),
    ...bytes('cert', file(user['client-certificate']), user['client-certificate-data']),
    ...bytes('key', file(user['client-key']), user['client-key-data']),
    ...(cluster['tls-server-name'] ? { servername: cluster['tls-server-name'] } : {}),
    insecureSkipTLSVerify: Boolean(cluster['insecure-skip-tls-verify']),
    headers: userHeaders(user, file(user.tokenFile), base)
  }
}

function inCluster (): KubeConnection {
  const host = process.env['KUBERNETES_SERVICE_HOST'] as string
  const port = process.env['KUBERNETES_SERVICE_PORT'] ?? '443'
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ca: readFileSync(join(SERVICE_ACCOUNT, 'ca.crt')),
    insecureSkipTLSVerify: false,
    headers: userHeaders({}, join(SERVICE_ACCOUNT, 'token'), SERVICE_ACCOUNT)
  }
}

/** Bearer token (re-read from its file each minute: projected tokens rotate), exec plugin, or basic auth. */
function userHeaders (user: UserEntry, tokenFile: string | undefined, base: string): () => Promise<Record<string, string>> {
  if (user.token) {
    const headers = { authorization: `Bearer ${user.token}` }
    return async () => headers
  }
  if (tokenFile) {
    let cached: { token: string, until: number } | undefined
    return async () => {
      if (!cached || Date.now() > cached.until) cached = { token: readFileSync(tokenFile, 'utf8').trim(), until: Date.now() + 60_000 }
      return { authorization: `Bearer ${cached.token}` }
    }
  }
  if (user.exec) return execCredential(user.exec, base)
  if (user.username !== undefined) {
    const headers = { authorization: `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}` }
    return async () => headers
  }
  return async () => ({})
}

/** A client.authentication.k8s.io ExecCredential plugin; its token is reused until shortly before it expires. */
function execCredential (exec: ExecConfig, base: string): () => Promise<Record<string, string>> {
  let cached: { token: string, until: number } | undefined
  return async () => {
    if (!cached || Date.now() > cached.until) {
      const env = { ...process.env, ...Object.fromEntries((exec.env ?? []).map(e => [e.name, e.value])) }
      const command = exec.command.includes('/') && !isAbsolute(exec.command) ? join(base, exec.command) : exec.command
      const { stdout } = await run(command, exec.args ?? [], { env, timeout: 60_000 })
      const status = (JSON.parse(stdout) as { status?: { token?: string, expirationTimestamp?: string } }).status
      if (!status?.token) throw new Error(`exec plugin ${exec.command} returned no token (client certificates from exec plugins are not supported)`)
      const expires = status.expirationTimestamp ? Date.parse(status.expirationTimestamp) - 10_000 : Infinity
      cached = { token: status.token, until: expires }
    }
    return { authorization: `Bearer ${cached.token}` }
  }
}

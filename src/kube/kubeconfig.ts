// Where the API server is and how to authenticate, found as kubectl finds it: --kubeconfig alone, else KUBECONFIG's
// files merged (the first file to define a name or a current-context wins), else ~/.kube/config, else the in-cluster
// service account. The credentials are credentials.ts's (with exec-plugin.ts and oidc.ts).
// Our own reader rather than @kubernetes/client-node (a devDependency, for tests) for memory; a loaded client-node
// KubeConfig is still accepted (its methods only, no import at run time).
// RSS after GC, Node 20.20.2: bare node 41 MB, this reader + a kubeconfig 63 MB, client-node's KubeConfig.loadFromFile 109 MB.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { RequestOptions as HttpsRequestOptions } from 'node:https'
import { homedir } from 'node:os'
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import type * as Yaml from 'yaml'
import type { KubeCredentials } from './credential-types.js'
import { credentialSource, tokenFile, type UserEntry } from './credentials.js'
import type { ExecCluster } from './exec-plugin.js'
import { readProblem } from './manifests.js'

// YAML is loaded to read a kubeconfig file: in a pod, on its service account, the controller never loads it (~2 MB).
let yaml: typeof Yaml | undefined
const parseYaml = (text: string): unknown => (yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text)

/** Which kubeconfig and context to use; both default as in kubectl. */
export interface KubeconfigSelection {
  /** The kubeconfig file, read alone (it must exist). Default: KUBECONFIG's files, ~/.kube/config, in-cluster. */
  kubeconfig?: string
  /** The context to use instead of current-context. */
  context?: string
}

/** Everything KubeApi needs to reach and authenticate to an API server. */
export interface KubeConnection {
  /** server is the API server URL. */
  server: string
  /** ca is the PEM CA bundle that verifies the API server; the system roots when not set. */
  ca?: Buffer
  /** cert is the static PEM client certificate; an exec plugin's comes with the credentials. */
  cert?: Buffer
  /** key is the static client certificate's PEM key. */
  key?: Buffer
  /** servername is the TLS server name to verify instead of the server URL's host (tls-server-name). */
  servername?: string
  /** insecureSkipTLSVerify skips verifying the API server's certificate (insecure-skip-tls-verify). */
  insecureSkipTLSVerify: boolean
  /** The context's namespace (in-cluster: the service account's). */
  namespace?: string
  /** The credentials of the next request: asked per request, so rotated tokens and certificates are seen. */
  credentials: () => Promise<KubeCredentials>
  /** The API server answered 401 to these credentials: the next credentials() fetches fresh ones. */
  invalidate?: (rejected: KubeCredentials) => void
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount'
const NO_KUBECONFIG = 'no kubeconfig: set --kubeconfig or KUBECONFIG, create ~/.kube/config, or run in a cluster'
const EXEC_EXTENSION = 'client.authentication.k8s.io/exec'

interface ContextEntry { cluster?: string, user?: string, namespace?: string }

interface ClusterEntry {
  server?: string
  'certificate-authority'?: string
  'certificate-authority-data'?: string
  'insecure-skip-tls-verify'?: boolean
  'tls-server-name'?: string
  extensions?: Array<{ name?: string, extension?: unknown }> | null
}

/** An entry, and the directory of the file that defined it: its relative paths are relative to that. */
interface Defined<T> { entry: T, dir: string }

interface Merged {
  currentContext?: string
  contexts: Map<string, Defined<ContextEntry>>
  clusters: Map<string, Defined<ClusterEntry>>
  users: Map<string, Defined<UserEntry>>
}

/** The connection of the selected (or current) context, from the kubeconfig files kubectl would read. */
export function loadKubeConnection (selection: KubeconfigSelection = {}): KubeConnection {
  const files = kubeconfigFiles(selection.kubeconfig)
  if (files.length > 0) return connectionOf(merge(files), selection.context)
  // As in client-go: a context asked for by name must come from a kubeconfig; the in-cluster account has none.
  if (!selection.context && process.env['KUBERNETES_SERVICE_HOST']) return inCluster()
  const missing = process.env['KUBECONFIG']?.split(delimiter).some(Boolean) ? ' (the files in KUBECONFIG do not exist)' : ''
  throw new Error(selection.context ? `no kubeconfig for context "${selection.context}": set --kubeconfig or KUBECONFIG, or create ~/.kube/config${missing}` : NO_KUBECONFIG + missing)
}

/** client-go's loading rules: the explicit file, else KUBECONFIG's (missing ones skipped), else ~/.kube/config. */
function kubeconfigFiles (explicit: string | undefined): string[] {
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`kubeconfig ${explicit}: no such file`)
    return [explicit]
  }
  const listed = [...new Set((process.env['KUBECONFIG'] ?? '').split(delimiter).filter(p => p !== ''))]
  return (listed.length > 0 ? listed : [join(homedir(), '.kube', 'config')]).filter(p => existsSync(p))
}

function merge (files: string[]): Merged {
  const merged: Merged = { contexts: new Map(), clusters: new Map(), users: new Map() }
  for (const file of files) {
    const doc = readKubeconfig(file)
    const dir = dirname(resolve(file))
    const current = doc['current-context']
    if (!merged.currentContext && typeof current === 'string' && current) merged.currentContext = current
    addFirst(merged.contexts, doc['contexts'], 'context', dir, file)
    addFirst(merged.clusters, doc['clusters'], 'cluster', dir, file)
    addFirst(merged.users, doc['users'], 'user', dir, file)
  }
  return merged
}

function readKubeconfig (file: string): Record<string, unknown> {
  let text: string
  let doc: unknown
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new Error(`kubeconfig ${file}: ${readProblem(err)}`)
  }
  try {
    doc = parseYaml(text)
  } catch (err) {
    // The yaml package adds the offending lines below the first; errors here are one line.
    throw new Error(`kubeconfig ${file}: ${(err as Error).message.split('\n')[0]}`)
  }
  if (doc === null || doc === undefined) return {}
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`kubeconfig ${file}: not a kubeconfig (expected a YAML mapping)`)
  return doc as Record<string, unknown>
}

/** client-go's merge: the first file to define a name keeps it; later files cannot change it. */
function addFirst<T> (into: Map<string, Defined<T>>, list: unknown, field: string, dir: string, file: string): void {
  if (list === null || list === undefined) return
  if (!Array.isArray(list)) throw new Error(`kubeconfig ${file}: ${field}s is not a list`)
  for (const item of list as Array<Record<string, unknown> | null>) {
    const name = item?.['name']
    if (typeof name === 'string' && !into.has(name)) into.set(name, { entry: (item?.[field] ?? {}) as T, dir })
  }
}

function connectionOf (merged: Merged, asked: string | undefined): KubeConnection {
  const name = asked || merged.currentContext
  const known = `(contexts: ${[...merged.contexts.keys()].join(', ') || 'none'})`
  if (!name) throw new Error(`kubeconfig: no current-context; choose a context ${known}`)
  const context = merged.contexts.get(name)?.entry
  if (!context) throw new Error(`kubeconfig: context "${name}" not found ${known}`)
  const cluster = merged.clusters.get(context.cluster ?? '')
  if (!cluster) throw new Error(`kubeconfig: context "${name}" refers to cluster "${context.cluster ?? ''}", which is not defined`)
  const user = context.user ? merged.users.get(context.user) : { entry: {}, dir: cluster.dir }
  if (!user) throw new Error(`kubeconfig: context "${name}" refers to user "${context.user ?? ''}", which is not defined`)
  const { server, 'tls-server-name': servername, 'insecure-skip-tls-verify': insecure } = cluster.entry
  if (!server) throw new Error(`kubeconfig: cluster "${context.cluster ?? ''}" has no server`)
  const ca = bytes('certificate-authority', cluster, cluster.entry['certificate-authority-data'], cluster.entry['certificate-authority'])
  const cert = bytes('client-certificate', user, user.entry['client-certificate-data'], user.entry['client-certificate'])
  const key = bytes('client-key', user, user.entry['client-key-data'], user.entry['client-key'])
  if (Boolean(cert) !== Boolean(key)) throw new Error(`kubeconfig: user "${context.user ?? ''}" has a client certificate or key without the other`)
  const source = credentialSource(user.entry, p => under(user.dir, p), execCluster(cluster.entry, server, ca))
  return {
    server,
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
    ...(servername ? { servername } : {}),
    insecureSkipTLSVerify: Boolean(insecure),
    ...(context.namespace ? { namespace: context.namespace } : {}),
    credentials: source.get,
    ...(source.invalidate ? { invalidate: source.invalidate } : {})
  }
}

/** The cluster as an exec plugin is told about it (provideClusterInfo): the CA inline even when it is a file. */
function execCluster (entry: ClusterEntry, server: string, ca: Buffer | undefined): ExecCluster {
  const extensions = Array.isArray(entry.extensions) ? entry.extensions : []
  const config = extensions.find(e => e?.name === EXEC_EXTENSION)?.extension
  return {
    server,
    ...(ca ? { 'certificate-authority-data': ca.toString('base64') } : {}),
    ...(entry['tls-server-name'] ? { 'tls-server-name': entry['tls-server-name'] } : {}),
    ...(entry['insecure-skip-tls-verify'] ? { 'insecure-skip-tls-verify': true } : {}),
    ...(config === undefined ? {} : { config })
  }
}

const under = (dir: string, path: string) => isAbsolute(path) ? path : join(dir, path)

/** Inline base64 data wins over a file, as in client-go; the file is relative to the entry's kubeconfig. */
function bytes (field: string, defined: Defined<unknown>, data: string | undefined, file: string | undefined): Buffer | undefined {
  if (data) return Buffer.from(data, 'base64')
  if (!file) return undefined
  const path = under(defined.dir, file)
  try {
    return readFileSync(path)
  } catch (err) {
    throw new Error(`kubeconfig: ${field} ${path}: ${readProblem(err)}`)
  }
}

function inCluster (): KubeConnection {
  const host = process.env['KUBERNETES_SERVICE_HOST'] as string
  const port = process.env['KUBERNETES_SERVICE_PORT'] ?? '443'
  const read = (name: string) => {
    try {
      return readFileSync(join(SERVICE_ACCOUNT, name))
    } catch (err) {
      throw new Error(`in-cluster service account: ${join(SERVICE_ACCOUNT, name)}: ${readProblem(err)}`)
    }
  }
  const ca = read('ca.crt')
  const namespace = existsSync(join(SERVICE_ACCOUNT, 'namespace')) ? read('namespace').toString('utf8').trim() : ''
  const source = tokenFile(join(SERVICE_ACCOUNT, 'token'))
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ca,
    insecureSkipTLSVerify: false,
    ...(namespace ? { namespace } : {}),
    credentials: source.get,
    ...(source.invalidate ? { invalidate: source.invalidate } : {})
  }
}

/**
 * The part of @kubernetes/client-node's KubeConfig we read: a loaded KubeConfig is one, without this package
 * depending on client-node (its types would become part of ours).
 */
export interface KubeConfigLike {
  /** The cluster of the current context, or null. */
  getCurrentCluster (): {
    /** server is the API server URL. */
    server: string
    /** caFile is the path of the PEM CA bundle. */
    caFile?: string
    /** caData is the PEM CA bundle, base64 encoded. */
    caData?: string
    /** tlsServerName is the TLS server name to verify. */
    tlsServerName?: string
    /** skipTLSVerify skips verifying the server's certificate. */
    skipTLSVerify?: boolean
  } | null
  /** The user of the current context, or null. */
  getCurrentUser (): {
    /** certFile is the path of the PEM client certificate. */
    certFile?: string
    /** certData is the PEM client certificate, base64 encoded. */
    certData?: string
    /** keyFile is the path of the client certificate's PEM key. */
    keyFile?: string
    /** keyData is the client certificate's PEM key, base64 encoded. */
    keyData?: string
    /** authProvider is set when the user authenticates with an auth provider plugin. */
    authProvider?: unknown
    /** exec is set when the user authenticates with an exec credential plugin. */
    exec?: unknown
  } | null
  /** Adds the user's credentials (headers, basic auth) to the options of a request. */
  applyToHTTPSOptions (options: HttpsRequestOptions): Promise<void>
}

/** The connection of a client-node KubeConfig (tests and library users that already hold one). */
export function fromKubeConfig (config: KubeConfigLike): KubeConnection {
  const cluster = config.getCurrentCluster()
  if (!cluster) throw new Error('kube api: the kubeconfig has no current cluster')
  const user = config.getCurrentUser()
  let cached: Promise<KubeCredentials> | undefined
  const resolveCredentials = async (): Promise<KubeCredentials> => {
    const opts: HttpsRequestOptions = {}
    await config.applyToHTTPSOptions(opts)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v)
    if (opts.auth) headers['authorization'] = `Basic ${Buffer.from(opts.auth).toString('base64')}`
    return { headers }
  }
  const dynamic = Boolean(user?.authProvider || user?.exec)
  return {
    server: cluster.server,
    ...clientNodeBytes('ca', cluster.caFile, cluster.caData),
    ...clientNodeBytes('cert', user?.certFile, user?.certData),
    ...clientNodeBytes('key', user?.keyFile, user?.keyData),
    ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
    insecureSkipTLSVerify: Boolean(cluster.skipTLSVerify),
    credentials: () => {
      if (dynamic) return resolveCredentials()
      cached ??= resolveCredentials()
      cached.catch(() => { cached = undefined })
      return cached
    }
  }
}

function clientNodeBytes<K extends string> (key: K, file: string | undefined, data: string | undefined): Partial<Record<K, Buffer>> {
  if (data) return { [key]: Buffer.from(data, 'base64') } as Record<K, Buffer>
  if (file) return { [key]: readFileSync(file) } as Record<K, Buffer>
  return {}
}

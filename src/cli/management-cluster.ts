// The one way the commands that read a management cluster (simulate, rollout-impact, held) read it: the API server of
// --kubeconfig and --context, the Clusters the flags choose, the ExtensionConfigs registered for their namespaces
// (called with --client-certificate/--client-key), and everything it opened closed once, with `await using`.
// Every failed read is said once, in one line that names the server, what was read and why; a Cluster named with
// --cluster that does not exist, or has no managed topology, is an input error (exit 2); a server that cannot be
// reached, refuses the credentials or forbids a read is an operation that failed (exit 1). kubectl says these apart
// the same way (the connection refused, "You must be logged in", "Error from server (Forbidden)"), though it exits 1
// on them all: our exit 2 is the CLI's convention for input to fix.
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'
import { type RegisteredExtensions, registeredExtensions } from '../client/registered-extensions.js'
import type { ClientCertificate } from '../client/transport.js'
import { KubeApi } from '../kube/index.js'
import { type ApiReader, type Stored, type ClusterSelection, listClusters } from '../simulate/index.js'
import { clusterSelection, type ClusterSelectionFlags } from './cluster-selection.js'
import { type ClientTlsFlags, clientCertificateOf, kubeconfigSelection, UsageError } from './command.js'

/** The API server's answer to a failed read: its status code and the Status' reason. */
interface Answer { code: number, reason: string | undefined }

/** A read of the management cluster that failed, in one line; code and reason are the API server's, when it answered. */
export class ManagementClusterError extends Error {
  override name = 'ManagementClusterError'
  /** code is the HTTP status the API server answered with (undefined: it did not answer). */
  readonly code: number | undefined
  /** reason is the Status' reason (NotFound, Forbidden, ...), which readers branch on as on the API server's error. */
  readonly reason: string | undefined
  constructor (message: string, answer?: Answer) {
    super(message)
    this.code = answer?.code
    this.reason = answer?.reason
  }
}

/** What a request path reads, as kubectl names it: `clusters.cluster.x-k8s.io "loop" in namespace "default"`. */
export function describeRead (path: string): string {
  const segments = (path.split('?')[0] ?? '').split('/').filter(Boolean).map(decodeURIComponent)
  const core = segments[0] === 'api'
  const group = core ? '' : segments[1] ?? ''
  let rest = segments.slice(core ? 2 : 3)
  if (rest.length === 0) return `the API discovery of ${segments.slice(1).join('/')}`
  let namespace: string | undefined
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1]
    rest = rest.slice(2)
  }
  const [resource = '', name] = rest
  return `${group ? `${resource}.${group}` : resource}${name ? ` "${name}"` : ''}${namespace ? ` in namespace "${namespace}"` : ''}`
}

/** The API server's message without the `<resource> "<name>"` it starts with (the line names them already). */
function why (message: string, path: string): string {
  const what = describeRead(path).replace(/ in namespace ".*"$/, '')
  const resource = what.split(' ')[0] ?? what
  for (const prefix of [`${what} is `, `${what} `, `${resource} is `]) {
    if (message.startsWith(prefix)) return message.slice(prefix.length)
  }
  return message
}

/** A failed read of `path` from `server`, in one line that says what to check. */
function readFailure (err: unknown, server: string, path: string): ManagementClusterError {
  const e = err as { code?: unknown, reason?: unknown, message?: unknown }
  const message = typeof e.message === 'string' ? e.message : String(err)
  // No answer: the server is not there (refused, timed out, TLS failed).
  if (typeof e.code !== 'number') return new ManagementClusterError(`cannot reach the API server at ${server}: ${message}: check --kubeconfig and --context`)
  const answer = { code: e.code, reason: typeof e.reason === 'string' ? e.reason : undefined }
  if (e.code === 401) return new ManagementClusterError(`the API server at ${server} refused the credentials (Unauthorized): check --kubeconfig and --context`, answer)
  const line = `cannot read ${describeRead(path)} from ${server}: ${why(message, path)}`
  if (e.code === 403) return new ManagementClusterError(`${line}: bind the user to the runtime-sdk-cluster-reader ClusterRole (deploy/rbac/cluster-reader-role.yaml)`, answer)
  return new ManagementClusterError(line, answer)
}

/** A reader whose every failure is a ManagementClusterError naming the server and what was read. */
function worded (api: ApiReader, server: string): ApiReader {
  const failed = (path: string) => (err: unknown): never => { throw readFailure(err, server, path) }
  return {
    get: async <T>(path: string) => await api.get<T>(path).catch(failed(path)),
    list: async <T>(path: string) => await api.list<T>(path).catch(failed(path))
  }
}

/**
 * A management cluster opened for reading (get and list only): `await using cluster = new ManagementCluster(opts)`.
 * The flags are checked before anything is opened; closing it closes the clients it made and the connection.
 */
export class ManagementCluster implements AsyncDisposable {
  /** selection is the Clusters the flags choose. */
  readonly selection: ClusterSelection
  /** server is the API server's URL. */
  readonly server: string
  /** api reads the cluster; a failed read rejects with a ManagementClusterError. */
  readonly api: ApiReader
  readonly #kube: KubeApi
  readonly #clientCertificate: ClientCertificate | undefined
  readonly #clients: Array<RegisteredExtensions['client']> = []

  constructor (opts: ClusterSelectionFlags & ClientTlsFlags) {
    this.selection = clusterSelection(opts)
    this.#clientCertificate = clientCertificateOf(opts)
    this.#kube = new KubeApi(kubeconfigSelection(opts), { userAgent: 'runtime-sdk' })
    this.server = this.#kube.server
    this.api = worded(this.#kube, this.server)
  }

  /**
   * The chosen Clusters with a managed topology, by namespace and name. A Cluster named with --cluster that does not
   * exist, or has no spec.topology, is a UsageError (`only Clusters with a managed topology are <purpose>`).
   */
  async clusters (purpose: string): Promise<Stored<Cluster, 'namespaced'>[]> {
    const { namespace = '', name } = this.selection
    const clusters = await listClusters(this.api, this.selection).catch((err: unknown) => {
      // Its GET found nothing (on a server without Cluster API's CRDs too: it does not exist there either).
      if (name && err instanceof ManagementClusterError && err.code === 404) throw new UsageError(`Cluster ${namespace}/${name} does not exist`)
      throw err
    })
    const [named] = clusters
    if (name && named?.spec?.topology === undefined) throw new UsageError(`Cluster ${namespace}/${name}: spec.topology is not set: only Clusters with a managed topology are ${purpose}`)
    return clusters
  }

  /** The extensions the ExtensionConfigs register, for the namespaces of `clusters`, called with the client certificate. */
  async registeredExtensions (clusters: readonly Stored<Cluster, 'namespaced'>[]): Promise<RegisteredExtensions> {
    const namespaces = [...new Set(clusters.map(c => c.metadata.namespace))]
    const registered = await registeredExtensions(this.api, namespaces, this.#clientCertificate ? { clientCertificate: this.#clientCertificate } : {})
    this.#clients.push(registered.client)
    return registered
  }

  async [Symbol.asyncDispose] (): Promise<void> {
    try {
      for (const client of this.#clients.splice(0)) await client.close()
    } finally {
      await this.#kube.close()
    }
  }
}

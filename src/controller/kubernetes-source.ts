// ExtensionConfigs from the Kubernetes API: a cached watch of ExtensionConfigs, a metadata-only watch of
// Secrets (their data is read on demand, never cached), status written through the status subresource with
// optimistic concurrency.
import { EXTENSION_CONFIG_COLLECTION_PATH as COLLECTION, V1BETA2_API_VERSION } from '../api/extension-config/constants.js'
import type { ExtensionConfig, ExtensionConfigStatus } from '../api/extension-config/types.js'
import type { Labels } from '../registry/selector.js'
import type { Stored } from '../api/kube-object.js'
import type { KubeApi } from '../kube/api.js'
import { isNotFound } from '../kube/errors.js'
import { Reflector, type Staleness } from '../kube/reflector.js'
import type { ControllerLogger } from './controller.js'
import type { ExtensionConfigSource, SecretData, SourceListener } from './source.js'

/** The options of a {@link KubernetesSource}. */
export interface KubernetesSourceOptions {
  /** api is the Kubernetes API the ExtensionConfigs (and Secrets) are watched and written through. */
  api: KubeApi
  /** labelSelector limits the ExtensionConfigs this controller handles (like Cluster API's --watch-filter). */
  labelSelector?: string
  /** watchSecrets watches Secret metadata so CA injection reacts at once (default true). */
  watchSecrets?: boolean
  /** logger receives the failures of the watches, which are retried. */
  logger?: ControllerLogger
}

const pathOf = (name: string) => `${COLLECTION}/${encodeURIComponent(name)}`
const MERGE_PATCH = 'application/merge-patch+json'

type ExtensionConfigObject = ExtensionConfig & Stored

/**
 * ExtensionConfigs from the Kubernetes API: a cached watch of ExtensionConfigs and a metadata-only watch of Secrets
 * (their data is read when needed, never cached); status written through the status subresource with optimistic
 * concurrency. deploy/rbac/cluster-role.yaml grants what it needs.
 */
export class KubernetesSource implements ExtensionConfigSource {
  readonly kind = 'kubernetes'
  readonly #api: KubeApi
  readonly #extensionConfigs: Reflector<ExtensionConfigObject>
  readonly #secrets: Reflector<Stored> | undefined
  readonly #logger: ControllerLogger | undefined

  constructor (options: KubernetesSourceOptions) {
    this.#api = options.api
    this.#logger = options.logger
    this.#extensionConfigs = new Reflector<ExtensionConfigObject>(options.api, { path: COLLECTION, ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}) })
    this.#secrets = options.watchSecrets === false ? undefined : new Reflector<Stored>(options.api, { path: '/api/v1/secrets', metadataOnly: true })
  }

  async start (listener: SourceListener): Promise<void> {
    const ecs = this.#extensionConfigs
    ecs.on('add', ec => listener.extensionConfig('add', ec))
    ecs.on('update', (ec, old) => listener.extensionConfig('update', ec, old))
    ecs.on('delete', ec => listener.extensionConfig('delete', ec))
    ecs.onError((err, info) => this.#logger?.warn({ err: err.message, phase: info.phase, retryInMs: info.retryInMs }, 'watching ExtensionConfigs failed; retrying'))
    const secrets = this.#secrets
    if (secrets) {
      const changed = (secret: Stored) => listener.secret(secret.metadata.namespace ?? '', secret.metadata.name)
      secrets.on('add', changed)
      secrets.on('update', (secret, old) => { if (secret.metadata.resourceVersion !== old.metadata.resourceVersion) changed(secret) })
      secrets.on('delete', changed)
      secrets.onError((err, info) => this.#logger?.warn({ err: err.message, phase: info.phase, retryInMs: info.retryInMs }, 'watching Secret metadata failed; retrying'))
      secrets.start()
    }
    ecs.start()
    await Promise.all([ecs.synced(), secrets?.synced()])
  }

  async stop (): Promise<void> {
    await Promise.all([this.#extensionConfigs.stop(), this.#secrets?.stop()])
  }

  /** The older of the two watches' staleness: a missed Secret change delays a CA injection as much. */
  stale (): Staleness | undefined {
    const [a, b] = [this.#extensionConfigs.stale(), this.#secrets?.stale()]
    return a && b ? (a.since <= b.since ? a : b) : a ?? b
  }

  list (): ExtensionConfig[] {
    return this.#extensionConfigs.list().map(ec => structuredClone(ec))
  }

  async get (name: string): Promise<ExtensionConfig | undefined> {
    const cached = this.#extensionConfigs.get(name)
    return cached ? structuredClone(cached) : undefined
  }

  async getSecret (namespace: string, name: string): Promise<SecretData | undefined> {
    try {
      const secret = await this.#api.request<{ data?: SecretData }>('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`)
      return secret.data ?? {}
    } catch (err) {
      if (isNotFound(err)) return undefined
      throw err
    }
  }

  async updateCABundle (ec: ExtensionConfig, caBundle: string): Promise<ExtensionConfig> {
    return await this.#api.request<ExtensionConfig>('PATCH', pathOf(ec.metadata.name), {
      contentType: MERGE_PATCH,
      body: { metadata: { resourceVersion: ec.metadata.resourceVersion }, spec: { clientConfig: { caBundle } } }
    })
  }

  /** Replaces the whole status (removed conditions disappear), failing with a conflict on a stale object. */
  async updateStatus (ec: ExtensionConfig, status: ExtensionConfigStatus): Promise<ExtensionConfig> {
    const body = { apiVersion: V1BETA2_API_VERSION, kind: 'ExtensionConfig', metadata: ec.metadata, spec: ec.spec, status }
    return await this.#api.request<ExtensionConfig>('PUT', `${pathOf(ec.metadata.name)}/status`, { body })
  }

  readonly namespaceLabels = async (namespace: string): Promise<Labels | undefined> => {
    try {
      const ns = await this.#api.request<Stored>('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}`)
      return ns.metadata.labels ?? {}
    } catch (err) {
      if (isNotFound(err)) return undefined
      throw err
    }
  }
}

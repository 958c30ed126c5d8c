// Where ExtensionConfigs and CA Secrets come from and where status goes: the Kubernetes API or a directory.
// The controller and reconciler only see this interface, so both sources run the same code.
import type { ExtensionConfig, ExtensionConfigStatus } from '../api/extension-config/types.js'
import type { NamespaceLabelsResolver } from '../client/client.js'
import type { Staleness } from '../kube/reflector.js'

/** How an ExtensionConfig changed. */
export type ChangeKind = 'add' | 'update' | 'delete'

/** What a source tells the controller about. */
export interface SourceListener {
  /** An ExtensionConfig appeared, changed or went away (`old` is the previous cached version). */
  extensionConfig: (kind: ChangeKind, ec: ExtensionConfig, old?: ExtensionConfig) => void
  /** A Secret appeared, changed or went away. */
  secret: (namespace: string, name: string) => void
}

/** A Secret's data, base64-encoded as in the Kubernetes API. */
export type SecretData = Record<string, string>

/**
 * Where a {@link Controller}'s ExtensionConfigs and CA Secrets come from and where status goes: the Kubernetes API
 * ({@link KubernetesSource}) or a directory ({@link FileSource}); implement it for another store.
 */
export interface ExtensionConfigSource {
  /** kind names the source in logs and on the status endpoint ("kubernetes", "file"). */
  readonly kind: string
  /** Starts watching; resolves when the initial state is known. */
  start: (listener: SourceListener) => Promise<void>
  /** Stops watching. */
  stop: () => Promise<void>
  /** The cached ExtensionConfigs. */
  list: () => ExtensionConfig[]
  /** The current ExtensionConfig (read through to the source of truth where it has one); undefined when gone. */
  get: (name: string) => Promise<ExtensionConfig | undefined>
  /** The data of a Secret; undefined when it does not exist. */
  getSecret: (namespace: string, name: string) => Promise<SecretData | undefined>
  /** Writes spec.clientConfig.caBundle and returns the updated object. */
  updateCABundle: (ec: ExtensionConfig, caBundle: string) => Promise<ExtensionConfig>
  /** Replaces the status and returns the updated object. */
  updateStatus: (ec: ExtensionConfig, status: ExtensionConfigStatus) => Promise<ExtensionConfig>
  /** Labels of a namespace, for namespaceSelectors (the file source knows none). */
  namespaceLabels?: NamespaceLabelsResolver
  /** Why the cache may be missing changes (its watch failing since when), or undefined while it is current. */
  stale?: () => Staleness | undefined
}

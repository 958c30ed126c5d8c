// The extensions of a management cluster as its ExtensionConfigs register them (their status.handlers, as Cluster
// API's registry holds them), with the labels of the namespaces they are called for: what the commands that read a
// management cluster (simulate, rollout-impact, held) call hooks with, and the "as registered" side of an impact.
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { EXTENSION_CONFIG_COLLECTION_PATH } from '../api/extension-config/constants.js'
import { HttpRuntimeClient } from './client.js'
import type { ClientCertificate } from './transport.js'

/** Read access to the management cluster that reading the registrations needs (KubeApi is one; so is simulate's ApiReader). */
export interface RegistrationReader {
  /** get reads one object by its path; rejects with the API server's error. */
  get: <T = unknown>(path: string) => Promise<T>
  /** list reads a collection by its path; its items. */
  list: <T = unknown>(path: string) => Promise<ListOfItems<T>>
}

/** A collection as the API server lists it. */
export interface ListOfItems<T> {
  /** items are the collection's objects. */
  items: T[]
}

/** The extensions of a management cluster, as its ExtensionConfigs register them. */
export interface RegisteredExtensions {
  /** client calls them (close it when done). */
  client: HttpRuntimeClient
  /** extensionConfigs are the ExtensionConfigs as stored. */
  extensionConfigs: ExtensionConfig[]
  /** namespaceLabels gives the labels of each namespace read (a namespace not read has only its name label). */
  namespaceLabels: (namespace: string) => Record<string, string>
}

/**
 * The ExtensionConfigs of the management cluster, registered as Cluster API has them (their status.handlers), and
 * the labels of `namespaces` (those of the Clusters hooks will be called for), which their namespaceSelectors match.
 */
export async function registeredExtensions (api: RegistrationReader, namespaces: readonly string[], options: { clientCertificate?: ClientCertificate } = {}): Promise<RegisteredExtensions> {
  const extensionConfigs = (await api.list<ExtensionConfig>(EXTENSION_CONFIG_COLLECTION_PATH)).items
  const labels = new Map<string, Record<string, string>>()
  for (const ns of namespaces) labels.set(ns, (await api.get<{ metadata?: { labels?: Record<string, string> } }>(`/api/v1/namespaces/${encodeURIComponent(ns)}`)).metadata?.labels ?? {})
  const namespaceLabels = (ns: string) => labels.get(ns) ?? { 'kubernetes.io/metadata.name': ns }
  const client = new HttpRuntimeClient({
    namespaceLabels,
    ...(options.clientCertificate ? { clientCertificate: options.clientCertificate } : {}),
    backoff: false
  })
  client.warmUp(extensionConfigs)
  return { client, extensionConfigs, namespaceLabels }
}

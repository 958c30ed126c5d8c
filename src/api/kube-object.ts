// runtime-sdk's Kubernetes object types: KubeObject, an object with its type information and metadata (Kubernetes'
// ObjectMeta, as the hook types define it), the rest its kind's own; Unstructured, any object as JSON
// (unstructured.Unstructured: a manifest, a template, what the API server returns), every other field unknown; and
// Stored<T>, an object as the API server stores it, its name (and, for a namespaced kind, its namespace) always set.
import type { ObjectMeta } from './hooks/v1alpha1/types.generated.js'

export type { ObjectMeta }

/** Any Kubernetes object, e.g. the Cluster a hook is called for. */
export interface KubeObject {
  /** apiVersion is the object's group and version, e.g. cluster.x-k8s.io/v1beta2. */
  apiVersion?: string | undefined
  /** kind is the object's kind, e.g. Cluster. */
  kind?: string | undefined
  /** metadata is the object's metadata: name, namespace, labels, ... */
  metadata?: ObjectMeta | undefined
}

/** Any Kubernetes object as JSON (unstructured.Unstructured): type information and metadata, every other field (spec, status, ...) unknown. */
export interface Unstructured extends KubeObject {
  /** Any other field, as JSON. */
  [field: string]: unknown
}

/**
 * An object as the API server stores it: its metadata.name always set, and with `'namespaced'` its metadata.namespace
 * too (`Stored<Cluster, 'namespaced'>`).
 */
export type Stored<T extends KubeObject = KubeObject, Scope extends 'cluster' | 'namespaced' = 'cluster'> =
  T & {
    /** metadata is the object's, with its name (and namespace) set. */
    metadata: NonNullable<T['metadata']> & StoredName & (Scope extends 'namespaced' ? StoredNamespace : unknown)
  }

/** The name a stored object always has. */
export interface StoredName {
  /** name is the object's name. */
  name: string
}

/** The namespace a stored object of a namespaced kind always has. */
export interface StoredNamespace {
  /** namespace is the object's namespace. */
  namespace: string
}

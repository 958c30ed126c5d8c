// The one Kubernetes object type: type information and metadata (Kubernetes' ObjectMeta, as the hook types define
// it); the rest of an object is its kind's own and passes through untouched.
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

/** An object as the API server stores and lists it: it always has a name. */
export interface StoredObject extends KubeObject {
  metadata: ObjectMeta & { name: string }
}

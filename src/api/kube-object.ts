// The one Kubernetes object type: type information and metadata (Kubernetes' ObjectMeta, as the hook types define
// it); the rest of an object is its kind's own and passes through untouched.
import type { ObjectMeta } from './hooks/v1alpha1/types.generated.js'

export type { ObjectMeta }

/** Any Kubernetes object, e.g. the Cluster a hook is called for. */
export interface KubeObject {
  apiVersion?: string | undefined
  kind?: string | undefined
  metadata?: ObjectMeta | undefined
}

/** An object as the API server stores and lists it: it always has a name. */
export interface StoredObject extends KubeObject {
  metadata: ObjectMeta & { name: string }
}

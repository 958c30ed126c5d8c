// The catalog of every hook Cluster API defines.
import { groupVersion as hooksV1alpha1 } from '../api/hooks/v1alpha1/index.js'
import { Catalog } from './catalog.js'

/** The API group of Cluster API's hooks, hooks.runtime.cluster.x-k8s.io. */
export const HOOKS_GROUP = hooksV1alpha1.group

/** A new catalog holding hooks.runtime.cluster.x-k8s.io/v1alpha1; add your own groups to it. */
export function createCatalog (name?: string): Catalog {
  return new Catalog(name).add(hooksV1alpha1)
}

// The GeneratePatches request the patch engine (patch-engine.ts) builds and the inline patches (inline-patches.ts)
// read: its own module, so that neither imports the other for it.
import type { HolderReference, Variable } from '../api/hooks/v1alpha1/types.generated.js'
import type { Unstructured } from './objects.js'

/** One template of the request, with where its patched copy goes. */
export interface PatchRequestItem {
  uid: string
  holderReference: HolderReference
  object: Unstructured
  variables?: Variable[]
  /** role names the template's place: infrastructureCluster, controlPlane, `machineDeployment <name> bootstrap`, ... */
  role: string
  /** original is the ClusterClass's template as the blueprint holds it. */
  original: Unstructured
  /** unpatched is the template as sent to the first patch. */
  unpatched: Unstructured
  /** generatedName is the name of the object or template Cluster API makes from it. */
  generatedName: string
}

/** The GeneratePatches request the engine builds and patches. */
export interface PatchRequest {
  variables: Variable[]
  items: PatchRequestItem[]
}

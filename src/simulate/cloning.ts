// How Cluster API makes a Cluster's objects and templates from a ClusterClass's templates (desired_state.go
// templateToObject and templateToTemplate, external.GenerateTemplate, computeMachineHealthCheck): copies with the
// topology labels, the cloned-from annotations and names from a naming template, or the current object's name.
import {
  CLUSTER_NAME_LABEL, CLUSTER_TOPOLOGY_OWNED_LABEL, CORE_API_VERSION, LAST_APPLIED_CONFIG_ANNOTATION, TEMPLATE_CLONED_FROM_GROUP_KIND_ANNOTATION,
  TEMPLATE_CLONED_FROM_NAME_ANNOTATION, TEMPLATE_SUFFIX
} from '../api/core/constants.js'
import { NamingTemplateError, templateName } from './names.js'
import type { RandomSource } from './seeded.js'
import { type Stored, getPath, groupOf, jsonCopy, type JsonObject, type Unstructured, setMetadataMap, type StringMap } from './objects.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** How the control plane's machine template is referenced: the v1beta2 contract, or v1beta1's ObjectReference. */
export type ContractVersion = 'v1beta1' | 'v1beta2'

/** A reference to an object, as a template is named in a ClusterClass (ObjectReference's fields). */
interface TemplateRef { apiVersion: string, kind: string, name: string }

/** templateToInput: where an object or template is made from and what it gets. */
interface TemplateToInput {
  template: Unstructured
  clonedFrom: TemplateRef
  cluster: Stored<Cluster, 'namespaced'>
  /** name is what the name generator gives; currentName, when set, is kept instead. */
  name: () => string
  currentName?: string | undefined
  labels?: StringMap | undefined
  annotations?: StringMap | undefined
  ownerRef?: JsonObject | undefined
}

/** The reference of a template (contract.ObjToRef). */
export function refOf (object: Unstructured): TemplateRef {
  return { apiVersion: object.apiVersion ?? '', kind: object.kind ?? '', name: object.metadata?.name ?? '' }
}

/** A ContractVersionedObjectReference to an object (contract.ObjToContractVersionedObjectReference). */
export function contractRefOf (object: Unstructured): { apiGroup: string, kind: string, name: string } {
  return { apiGroup: groupOf(object.apiVersion ?? ''), kind: object.kind ?? '', name: object.metadata?.name ?? '' }
}

function clonedFromAnnotations (ref: TemplateRef): StringMap {
  return { [TEMPLATE_CLONED_FROM_NAME_ANNOTATION]: ref.name, [TEMPLATE_CLONED_FROM_GROUP_KIND_ANNOTATION]: `${ref.kind}.${groupOf(ref.apiVersion)}` }
}

/** An owner reference to the Cluster (ownerrefs.OwnerReferenceTo). */
export function clusterOwnerRef (cluster: Stored<Cluster, 'namespaced'>): JsonObject {
  return { apiVersion: CORE_API_VERSION, kind: 'Cluster', name: cluster.metadata.name, uid: cluster.metadata.uid ?? '' }
}

/**
 * templateToObject (with external.GenerateTemplate): the object made from a template's `spec.template`, with the
 * cluster-name label, the given labels and annotations and the cloned-from annotations.
 */
export function templateToObject (input: TemplateToInput): Unstructured {
  const template = getPath(input.template, ['spec', 'template'])
  const object: Unstructured = template !== undefined ? jsonCopy(template) as Unstructured : {}
  const metadata = { ...object.metadata }
  for (const field of ['resourceVersion', 'finalizers', 'uid', 'selfLink'] as const) delete metadata[field]
  object.metadata = { ...metadata, namespace: input.cluster.metadata.namespace }
  setMetadataMap(object, 'annotations', { ...object.metadata.annotations, ...input.annotations, ...clonedFromAnnotations(input.clonedFrom) })
  setMetadataMap(object, 'labels', { ...object.metadata.labels, ...input.labels, [CLUSTER_NAME_LABEL]: input.cluster.metadata.name, [CLUSTER_TOPOLOGY_OWNED_LABEL]: '' })
  if (input.ownerRef) object.metadata.ownerReferences = [input.ownerRef as never]
  object.apiVersion ??= input.template.apiVersion ?? ''
  object.kind ??= (input.template.kind ?? '').replace(new RegExp(`${TEMPLATE_SUFFIX}$`), '')
  object.metadata.name = input.currentName || input.name()
  return object
}

/** templateToTemplate: a copy of a ClusterClass template for the Cluster, with the topology labels and cloned-from annotations. */
export function templateToTemplate (input: TemplateToInput): Unstructured {
  const template = jsonCopy(input.template)
  const metadata = { ...template.metadata }
  for (const field of ['resourceVersion', 'finalizers', 'uid', 'selfLink'] as const) delete metadata[field]
  template.metadata = metadata
  setMetadataMap(template, 'labels', { ...metadata.labels, ...input.labels, [CLUSTER_NAME_LABEL]: input.cluster.metadata.name, [CLUSTER_TOPOLOGY_OWNED_LABEL]: '' })
  const annotations: StringMap = { ...metadata.annotations, ...input.annotations, ...clonedFromAnnotations(input.clonedFrom) }
  delete annotations[LAST_APPLIED_CONFIG_ANNOTATION]
  setMetadataMap(template, 'annotations', annotations)
  if (input.ownerRef) template.metadata.ownerReferences = [input.ownerRef as never]
  template.metadata.name = input.currentName || input.name()
  template.metadata.namespace = input.cluster.metadata.namespace
  return template
}

/** A name from a naming template (or the default one), failing the reconcile as Cluster API does when it cannot render. */
export function namingTemplateName (template: string | undefined, fallback: string, cluster: Stored<Cluster, 'namespaced'>, data: Record<string, unknown>, random: RandomSource, key: string, kind: string): string {
  try {
    return templateName(template || fallback, cluster.metadata.name, data, random, key)
  } catch (err) {
    if (err instanceof NamingTemplateError) throw new NamingTemplateError(`failed to generate name for ${kind}: ${err.message}`)
    throw err
  }
}

/** computeMachineHealthCheck: named and labelled like its target, defaulted as the MachineHealthCheck webhook defaults it. */
export function computeMachineHealthCheck (target: Unstructured, selector: StringMap, cluster: Stored<Cluster, 'namespaced'>, checks: JsonObject, remediation: JsonObject): Unstructured {
  const defaulted = { nodeStartupTimeoutSeconds: 600, ...checks }
  return {
    apiVersion: CORE_API_VERSION,
    kind: 'MachineHealthCheck',
    metadata: {
      name: target.metadata?.name ?? '',
      namespace: target.metadata?.namespace ?? '',
      labels: { [CLUSTER_TOPOLOGY_OWNED_LABEL]: '', [CLUSTER_NAME_LABEL]: cluster.metadata.name },
      ownerReferences: [clusterOwnerRef(cluster) as never]
    },
    spec: { clusterName: cluster.metadata.name, selector: { matchLabels: selector }, checks: defaulted, ...(Object.keys(remediation).length > 0 ? { remediation } : {}) }
  }
}

/** Whether a struct of Cluster API's has any field set (its IsDefined). */
export function isSet (value: unknown): boolean {
  return value !== undefined && value !== null && (typeof value !== 'object' || Object.values(value).some(isSet))
}

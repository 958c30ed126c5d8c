// Cluster API's patch engine (core/reconcilers/topology/cluster/patches/engine.go Apply): a GeneratePatches request
// made from the ClusterClass's templates with the desired objects' labels and annotations synced in (createRequest);
// for each patch of the class in order, its variables (addVariablesForPatch), its answer (inline here, external by
// the extension) applied to the request (applyPatchToRequest) so the next patch sees the templates patched so far;
// ValidateTopology for every external patch that names one; then the patched templates written back into the
// desired objects (updateDesiredState), some fields of the desired objects preserved.
import {
  CLUSTER_NAME_LABEL, CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL, CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL, CLUSTER_TOPOLOGY_OWNED_LABEL,
  CONVERSION_DATA_ANNOTATION, CORE_API_VERSION, LAST_APPLIED_CONFIG_ANNOTATION, TEMPLATE_CLONED_FROM_GROUP_KIND_ANNOTATION, TEMPLATE_CLONED_FROM_NAME_ANNOTATION,
  VARIABLE_DEFINITION_FROM_INLINE
} from '../api/core/constants.js'
import { GeneratePatches, ValidateTopology } from '../api/hooks/v1alpha1/hooks.js'
import type { ClusterClassPatch, GeneratePatchesResponse, HolderReference, Variable } from '../api/hooks/v1alpha1/types.generated.js'
import { controlPlaneVariables, globalVariables, workerVariables } from './builtins.js'
import type { ContractVersion } from './cloning.js'
import { generateInlinePatches, InlinePatchError } from './inline-patches.js'
import { getPath, jsonCopy, type JsonObject, type Unstructured, setPath } from './objects.js'
import { applyPatchItem } from './patch-item.js'
import type { PatchRequest, PatchRequestItem } from './patch-request.js'
import type { Blueprint, DesiredState } from './scope.js'
import type { HookCaller } from './timeline.js'

/** A failure of the patch engine: what Cluster API reports in the Cluster's TopologyReconciled condition. */
export class PatchFailure extends Error {}

export type { PatchRequest, PatchRequestItem } from './patch-request.js'

/** What the engine needs besides the blueprint and the desired state. */
export interface PatchEngineContext {
  caller: HookCaller
  contract: ContractVersion
  /** definitionsFrom maps each variable to the patches (or `inline`) that define it (ClusterClass status.variables). */
  definitionsFrom: Map<string, Set<string>>
  /** itemUid gives a template's uid in the request (Cluster API makes a new one per request; stable here). */
  itemUid: (role: string) => string
}

/** The control plane's machine template holder's field path in a contract version. */
function controlPlaneMachineFieldPath (contract: ContractVersion): string {
  return contract === 'v1beta1' ? 'spec.machineTemplate.infrastructureRef' : 'spec.machineTemplate.spec.infrastructureRef'
}

/** patchutil.CopyFields: copies fields from src to dest, then restores the preserved fields of dest. */
function copyFields (dest: JsonObject, src: unknown, fields: ReadonlyArray<[readonly string[], readonly string[]]>, preserve: ReadonlyArray<readonly string[]> = []): void {
  const preserved = preserve.map(path => [path, getPath(dest, path)] as const).filter(([, value]) => value !== undefined)
  for (const [from, to] of fields) {
    const value = getPath(src, from)
    if (value !== undefined) setPath(dest, to, jsonCopy(value))
  }
  for (const [path, value] of preserved) setPath(dest, path, value)
}

const METADATA_TO_TEMPLATE: ReadonlyArray<[string[], string[]]> = [[['metadata', 'labels'], ['spec', 'template', 'metadata', 'labels']], [['metadata', 'annotations'], ['spec', 'template', 'metadata', 'annotations']]]
const METADATA_TO_METADATA: ReadonlyArray<[string[], string[]]> = [[['metadata', 'labels'], ['metadata', 'labels']], [['metadata', 'annotations'], ['metadata', 'annotations']]]

/** cleanupUnstructured: no managedFields, no last-applied configuration or conversion data. */
function cleanupTemplate (template: Unstructured): Unstructured {
  const metadata = { ...template.metadata }
  delete metadata.managedFields
  if (metadata.annotations) {
    const annotations = { ...metadata.annotations }
    delete annotations[LAST_APPLIED_CONFIG_ANNOTATION]
    delete annotations[CONVERSION_DATA_ANNOTATION]
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations
    else delete metadata.annotations
  }
  return { ...template, metadata }
}

/** createRequest: the templates in Cluster API's order, each with the desired object's labels and annotations synced in. */
export function createRequest (blueprint: Blueprint, desired: DesiredState, ctx: PatchEngineContext): PatchRequest {
  const cluster = desired.cluster
  const items: PatchRequestItem[] = []
  const add = (role: string, template: Unstructured, from: Unstructured, fields: typeof METADATA_TO_TEMPLATE, holder: HolderReference, generatedName: string) => {
    const object = jsonCopy(template) as JsonObject
    copyFields(object, from, fields)
    const cleaned = cleanupTemplate(object)
    items.push({ uid: ctx.itemUid(role), holderReference: holder, object: cleaned, role, original: template, unpatched: jsonCopy(cleaned), generatedName })
  }
  const holder = (apiVersion: string, kind: string, name: string, fieldPath: string): HolderReference => ({ apiVersion, kind, namespace: cluster.metadata.namespace, name, fieldPath })
  add('infrastructureCluster', blueprint.infrastructureClusterTemplate, desired.infrastructureCluster, METADATA_TO_TEMPLATE,
    holder(CORE_API_VERSION, 'Cluster', cluster.metadata.name, 'spec.infrastructureRef'), desired.infrastructureCluster.metadata?.name ?? '')
  const cp = desired.controlPlane.object
  add('controlPlane', blueprint.controlPlane.template, cp, METADATA_TO_TEMPLATE, holder(CORE_API_VERSION, 'Cluster', cluster.metadata.name, 'spec.controlPlaneRef'), cp.metadata?.name ?? '')
  const machineTemplate = desired.controlPlane.infrastructureMachineTemplate
  if (blueprint.controlPlane.infrastructureMachineTemplate && machineTemplate) {
    add('controlPlaneMachineInfrastructure', blueprint.controlPlane.infrastructureMachineTemplate, machineTemplate, METADATA_TO_METADATA,
      holder(cp.apiVersion ?? '', cp.kind ?? '', cp.metadata?.name ?? '', controlPlaneMachineFieldPath(ctx.contract)), machineTemplate.metadata?.name ?? '')
  }
  for (const md of blueprint.topology.workers?.machineDeployments ?? []) {
    const state = desired.machineDeployments.get(md.name ?? '')
    const mdClass = blueprint.machineDeployments.get(md.class ?? '')
    if (!state || !mdClass) throw new PatchFailure(`failed to generate patch request: failed to lookup MachineDeployment class ${JSON.stringify(md.class)} in ClusterClass`)
    const name = state.object.metadata?.name ?? ''
    add(`machineDeployment ${md.name ?? ''} bootstrap`, mdClass.bootstrap, state.bootstrap, METADATA_TO_METADATA, holder(CORE_API_VERSION, 'MachineDeployment', name, 'spec.template.spec.bootstrap.configRef'), state.bootstrap.metadata?.name ?? '')
    add(`machineDeployment ${md.name ?? ''} infrastructure`, mdClass.infrastructure, state.infrastructure, METADATA_TO_METADATA, holder(CORE_API_VERSION, 'MachineDeployment', name, 'spec.template.spec.infrastructureRef'), state.infrastructure.metadata?.name ?? '')
  }
  for (const mp of blueprint.topology.workers?.machinePools ?? []) {
    const state = desired.machinePools.get(mp.name ?? '')
    const mpClass = blueprint.machinePools.get(mp.class ?? '')
    if (!state || !mpClass) throw new PatchFailure(`failed to generate patch request: failed to lookup MachinePool class ${JSON.stringify(mp.class)} in ClusterClass`)
    const name = state.object.metadata?.name ?? ''
    add(`machinePool ${mp.name ?? ''} bootstrap`, mpClass.bootstrap, state.bootstrap, METADATA_TO_TEMPLATE, holder(CORE_API_VERSION, 'MachinePool', name, 'spec.template.spec.bootstrap.configRef'), state.bootstrap.metadata?.name ?? '')
    add(`machinePool ${mp.name ?? ''} infrastructure`, mpClass.infrastructure, state.infrastructure, METADATA_TO_TEMPLATE, holder(CORE_API_VERSION, 'MachinePool', name, 'spec.template.spec.infrastructureRef'), state.infrastructure.metadata?.name ?? '')
  }
  return { variables: [], items }
}

/** addVariablesForPatch: the global variables and each template's, of the variables the patch defines. */
export function addVariablesForPatch (request: PatchRequest, blueprint: Blueprint, desired: DesiredState, definitionFrom: string, ctx: PatchEngineContext): void {
  const defined = new Set([...ctx.definitionsFrom].filter(([, from]) => from.has(definitionFrom)).map(([name]) => name))
  const topology = blueprint.topology
  request.variables = globalVariables(topology.variables, desired.cluster, defined)
  const cp = controlPlaneVariables(topology.controlPlane?.variables?.overrides, topology.controlPlane?.replicas !== undefined, desired.controlPlane.object, desired.controlPlane.infrastructureMachineTemplate, defined)
  const machineField = controlPlaneMachineFieldPath(ctx.contract)
  for (const item of request.items) {
    const holder = item.holderReference
    if (holder.fieldPath === 'spec.controlPlaneRef' || (blueprint.controlPlane.infrastructureMachineTemplate && holder.fieldPath === machineField)) item.variables = cp
    for (const [kind, states, topologies, label] of [
      ['machineDeployment', desired.machineDeployments, topology.workers?.machineDeployments, CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL],
      ['machinePool', desired.machinePools, topology.workers?.machinePools, CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL]
    ] as const) {
      if (holder.kind !== (kind === 'machineDeployment' ? 'MachineDeployment' : 'MachinePool')) continue
      const state = [...states.values()].find(s => s.object.metadata?.name === holder.name)
      const topologyName = state?.object.metadata?.labels?.[label]
      const workerTopology = (topologies ?? []).find(t => t.name === topologyName)
      if (!state || !workerTopology) throw new PatchFailure(`could not find desired state for ${kind === 'machineDeployment' ? 'MachineDeployment' : 'MachinePool'} ${holder.namespace ?? ''}/${holder.name ?? ''}`)
      item.variables = workerVariables(kind, workerTopology, state, defined)
    }
  }
}

/** The wire form of the request's templates. */
function wireItems (request: PatchRequest): Array<{ uid: string, holderReference: HolderReference, object: Unstructured, variables?: Variable[] }> {
  return request.items.map(i => ({ uid: i.uid, holderReference: i.holderReference, object: i.object, ...(i.variables ? { variables: i.variables } : {}) }))
}

/** `Kind name (role)`, how messages name a template. */
function describeItem (item: PatchRequestItem): string {
  return `${item.original.kind ?? 'template'} ${item.original.metadata?.name ?? ''} (${item.role})`
}

/** applyPatchToRequest: one answer item applied to its template; only spec, labels and annotations are kept. */
function applyPatchToRequest (request: PatchRequest, answer: NonNullable<GeneratePatchesResponse['items']>[number], source: string): void {
  const item = request.items.find(i => i.uid === answer.uid)
  if (!item) throw new PatchFailure(`${source}: the answer patches uid ${JSON.stringify(answer.uid)}, which is no template of the request: unable to find corresponding request item for patch`)
  const patched = applyPatchItem(item.object, answer, { where: `${source}: the patch of ${describeItem(item)}`, onFailure: message => new PatchFailure(message) })
  if (patched === item.object) return
  // patchutil.Patch: spec, labels and annotations are copied back, each only when the patched object has it.
  copyFields(item.object as JsonObject, patched, [[['spec'], ['spec']], [['metadata', 'labels'], ['metadata', 'labels']], [['metadata', 'annotations'], ['metadata', 'annotations']]])
}

/** Runs every patch of the ClusterClass over the request, then ValidateTopology; a failure stops it as it stops Cluster API. */
export async function applyPatches (blueprint: Blueprint, desired: DesiredState, ctx: PatchEngineContext): Promise<PatchRequest> {
  const patches: ClusterClassPatch[] = blueprint.clusterClass.spec?.patches ?? []
  const request = createRequest(blueprint, desired, ctx)
  for (const [index, patch] of patches.entries()) {
    addVariablesForPatch(request, blueprint, desired, patch.external ? patch.name ?? '' : VARIABLE_DEFINITION_FROM_INLINE, ctx)
    let response: GeneratePatchesResponse
    let source: string
    if ((patch.definitions ?? []).length > 0) {
      source = `inline patch ${patch.name ?? index}`
      try {
        response = generateInlinePatches(patch, request)
      } catch (err) {
        if (err instanceof InlinePatchError) throw new PatchFailure(`failed to apply patches: failed to generate patches for patch ${JSON.stringify(patch.name ?? '')}: ${err.message}`)
        throw err
      }
    } else if (patch.external?.generatePatchesExtension) {
      const name = patch.external.generatePatchesExtension
      source = `GeneratePatches ${name} (patch ${patch.name ?? index})`
      response = await ctx.caller.callExtension(GeneratePatches, name, { ...(patch.external.settings ? { settings: patch.external.settings } : {}), variables: request.variables, items: wireItems(request) }, `patch ${patch.name ?? index}`)
    } else {
      throw new PatchFailure(`failed to apply patches: failed to create patch generator for patch ${JSON.stringify(patch.name ?? '')}`)
    }
    for (const answer of response.items ?? []) applyPatchToRequest(request, answer, source)
  }
  for (const [index, patch] of patches.entries()) {
    const name = patch.external?.validateTopologyExtension
    if (!name) continue
    const items = request.items.map(i => ({ holderReference: i.holderReference, object: i.object, ...(i.variables ? { variables: i.variables } : {}) }))
    await ctx.caller.callExtension(ValidateTopology, name, { ...(patch.external?.settings ? { settings: patch.external.settings } : {}), variables: request.variables, items }, `patch ${patch.name ?? index}`)
  }
  if (patches.length > 0) updateDesiredState(request, desired)
  return request
}

/** Labels and annotations the patches never change on the desired objects. */
const ALWAYS_PRESERVED = [
  ['metadata', 'labels', CLUSTER_NAME_LABEL], ['metadata', 'labels', CLUSTER_TOPOLOGY_OWNED_LABEL], ['metadata', 'labels', CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL],
  ['metadata', 'labels', CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL], ['metadata', 'annotations', TEMPLATE_CLONED_FROM_NAME_ANNOTATION], ['metadata', 'annotations', TEMPLATE_CLONED_FROM_GROUP_KIND_ANNOTATION]
]
/** Fields of the control plane that the topology sets and patches never change (both contracts' paths). */
const CONTROL_PLANE_PRESERVED = [
  ['spec', 'machineTemplate', 'metadata'], ['spec', 'machineTemplate', 'readinessGates'], ['spec', 'machineTemplate', 'spec', 'readinessGates'],
  ['spec', 'machineTemplate', 'taints'], ['spec', 'machineTemplate', 'spec', 'taints'], ['spec', 'machineTemplate', 'infrastructureRef'],
  ['spec', 'machineTemplate', 'spec', 'infrastructureRef'], ['spec', 'machineTemplate', 'nodeDrainTimeout'], ['spec', 'machineTemplate', 'nodeVolumeDetachTimeout'],
  ['spec', 'machineTemplate', 'nodeDeletionTimeout'], ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeDrainTimeoutSeconds'],
  ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeVolumeDetachTimeoutSeconds'], ['spec', 'machineTemplate', 'spec', 'deletion', 'nodeDeletionTimeoutSeconds'],
  ['spec', 'replicas'], ['spec', 'version'], ['spec', 'rollout', 'after'], ...ALWAYS_PRESERVED
]
/** patchObject: an object made from a template takes its spec.template.spec and spec.template.metadata. */
const TO_OBJECT: ReadonlyArray<[string[], string[]]> = [[['spec', 'template', 'spec'], ['spec']], [['spec', 'template', 'metadata', 'labels'], ['metadata', 'labels']], [['spec', 'template', 'metadata', 'annotations'], ['metadata', 'annotations']]]
/** patchTemplate: a template takes its labels, annotations, spec.template.spec and spec.template.metadata. */
const TO_TEMPLATE: ReadonlyArray<[string[], string[]]> = [
  ...METADATA_TO_METADATA, [['spec', 'template', 'spec'], ['spec', 'template', 'spec']],
  [['spec', 'template', 'metadata', 'labels'], ['spec', 'template', 'metadata', 'labels']], [['spec', 'template', 'metadata', 'annotations'], ['spec', 'template', 'metadata', 'annotations']]
]

/** updateDesiredState: the patched templates written into the desired objects. */
function updateDesiredState (request: PatchRequest, desired: DesiredState): void {
  const patched = (role: string) => request.items.find(i => i.role === role)?.object
  copyFields(desired.infrastructureCluster as JsonObject, patched('infrastructureCluster'), TO_OBJECT, ALWAYS_PRESERVED)
  copyFields(desired.controlPlane.object as JsonObject, patched('controlPlane'), TO_OBJECT, CONTROL_PLANE_PRESERVED)
  if (desired.controlPlane.infrastructureMachineTemplate) copyFields(desired.controlPlane.infrastructureMachineTemplate as JsonObject, patched('controlPlaneMachineInfrastructure'), TO_TEMPLATE, ALWAYS_PRESERVED)
  for (const [name, md] of desired.machineDeployments) {
    copyFields(md.bootstrap as JsonObject, patched(`machineDeployment ${name} bootstrap`), TO_TEMPLATE, ALWAYS_PRESERVED)
    copyFields(md.infrastructure as JsonObject, patched(`machineDeployment ${name} infrastructure`), TO_TEMPLATE, ALWAYS_PRESERVED)
  }
  for (const [name, mp] of desired.machinePools) {
    copyFields(mp.bootstrap as JsonObject, patched(`machinePool ${name} bootstrap`), TO_OBJECT, ALWAYS_PRESERVED)
    copyFields(mp.infrastructure as JsonObject, patched(`machinePool ${name} infrastructure`), TO_OBJECT, ALWAYS_PRESERVED)
  }
}

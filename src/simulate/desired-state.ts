// The desired state of a Cluster's objects, computed as Cluster API's generator computes it
// (exp/topology/desiredstate/desired_state.go Generate): the infrastructure cluster and the control plane made from
// the ClusterClass's templates, the control plane's machine template, the Cluster, the MachineDeployments and
// MachinePools (desired-workers.ts), with the versions of this reconcile (upgrade.ts) and then the ClusterClass's
// patches (patch-engine.ts). Names come from the class's naming templates, or reuse the current objects' names.
import { CLUSTER_NAME_LABEL, CLUSTER_TOPOLOGY_OWNED_LABEL, CLUSTER_TOPOLOGY_UPGRADE_STEP_ANNOTATION, MACHINE_CONTROL_PLANE_LABEL } from '../api/core/constants.js'
import type { ControlPlaneTopology } from '../api/hooks/v1alpha1/types.generated.js'
import {
  clusterOwnerRef, computeMachineHealthCheck, contractRefOf, type ContractVersion, isSet, namingTemplateName, refOf, templateToObject, templateToTemplate
} from './cloning.js'
import { computeMachineDeployment, computeMachinePool } from './desired-workers.js'
import { DEFAULT_NAMING, simpleName } from './names.js'
import type { RandomSource } from './seeded.js'
import { type Stored, getPath, groupOf, jsonCopy, type JsonObject, type Unstructured, mergeMaps, setPath, type StringMap } from './objects.js'
import type { DesiredState, Scope } from './scope.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** computeInfrastructureCluster. */
export function computeInfrastructureCluster (s: Scope, random: RandomSource): Unstructured {
  const template = s.blueprint.infrastructureClusterTemplate
  const cluster = s.current.cluster
  return templateToObject({
    template,
    clonedFrom: { ...refOf(template), ...s.blueprint.clusterClass.spec?.infrastructure?.templateRef },
    cluster,
    name: () => namingTemplateName(s.blueprint.clusterClass.spec?.infrastructure?.naming?.template, DEFAULT_NAMING.infrastructureCluster, cluster, {}, random, 'infrastructureCluster', template.kind ?? ''),
    currentName: cluster.spec?.infrastructureRef?.name
  })
}

/** The name of the control plane's current machine template, from the current control plane object. */
function currentControlPlaneMachineTemplateName (s: Scope, contract: ContractVersion): string | undefined {
  const object = s.current.controlPlane.object
  if (!object) return undefined
  const path = contract === 'v1beta1' ? ['spec', 'machineTemplate', 'infrastructureRef', 'name'] : ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'name']
  return getPath(object, path) as string | undefined
}

/** computeControlPlaneInfrastructureMachineTemplate. */
function computeControlPlaneInfrastructureMachineTemplate (s: Scope, contract: ContractVersion, random: RandomSource): Unstructured {
  const template = s.blueprint.controlPlane.infrastructureMachineTemplate as Unstructured
  const cluster = s.current.cluster
  return templateToTemplate({
    template,
    clonedFrom: { ...refOf(template), ...s.blueprint.clusterClass.spec?.controlPlane?.machineInfrastructure?.templateRef },
    cluster,
    name: () => simpleName(`${cluster.metadata.name}-`, random('controlPlaneMachineTemplate')),
    currentName: currentControlPlaneMachineTemplateName(s, contract),
    ownerRef: clusterOwnerRef(cluster)
  })
}

type DeletionField = 'nodeDrainTimeoutSeconds' | 'nodeVolumeDetachTimeoutSeconds' | 'nodeDeletionTimeoutSeconds'
const DELETION_FIELDS: readonly DeletionField[] = ['nodeDrainTimeoutSeconds', 'nodeVolumeDetachTimeoutSeconds', 'nodeDeletionTimeoutSeconds']
/** v1beta1's durations of the same settings. */
const V1BETA1_DELETION_FIELDS: Record<DeletionField, string> = { nodeDrainTimeoutSeconds: 'nodeDrainTimeout', nodeVolumeDetachTimeoutSeconds: 'nodeVolumeDetachTimeout', nodeDeletionTimeoutSeconds: 'nodeDeletionTimeout' }

/**
 * computeControlPlane: the control plane object from its template, with the labels and annotations of the class and
 * the topology (to its machines too), its machine template's reference, replicas, rollout.after, readinessGates,
 * taints and deletion timeouts from the topology or the class, and the version of this reconcile.
 */
export function computeControlPlane (s: Scope, machineTemplate: Unstructured | undefined, version: string, contract: ContractVersion, random: RandomSource): Unstructured {
  const { blueprint } = s
  const template = blueprint.controlPlane.template
  const cluster = s.current.cluster
  const topology: ControlPlaneTopology = blueprint.topology.controlPlane ?? {}
  const cpClass = blueprint.clusterClass.spec?.controlPlane ?? {}
  const labels = { ...mergeMaps(topology.metadata?.labels, cpClass.metadata?.labels), [CLUSTER_NAME_LABEL]: cluster.metadata.name, [CLUSTER_TOPOLOGY_OWNED_LABEL]: '' }
  const annotations = mergeMaps(topology.metadata?.annotations, cpClass.metadata?.annotations)
  const object = templateToObject({
    template,
    clonedFrom: { ...refOf(template), ...cpClass.templateRef },
    cluster,
    name: () => namingTemplateName(cpClass.naming?.template, DEFAULT_NAMING.controlPlane, cluster, {}, random, 'controlPlane', template.kind ?? ''),
    currentName: cluster.spec?.controlPlaneRef?.name,
    labels,
    annotations
  }) as JsonObject
  const machineTemplatePath = contract === 'v1beta1' ? ['spec', 'machineTemplate'] : ['spec', 'machineTemplate', 'spec']
  if (machineTemplate) {
    if (contract === 'v1beta1') {
      const current = getPath(s.current.controlPlane.object, ['spec', 'machineTemplate', 'infrastructureRef']) as { apiVersion?: string } | undefined
      const ref = { ...refOf(machineTemplate), namespace: machineTemplate.metadata?.namespace }
      // calculateRefDesiredAPIVersion: keep a newer apiVersion of the same group and kind another controller set.
      if (current?.apiVersion && groupOf(current.apiVersion) === groupOf(ref.apiVersion)) ref.apiVersion = current.apiVersion
      setPath(object, ['spec', 'machineTemplate', 'infrastructureRef'], ref)
    } else {
      setPath(object, ['spec', 'machineTemplate', 'spec', 'infrastructureRef'], contractRefOf(machineTemplate))
    }
    // The control plane's labels and annotations go to its machines, under what its template already says.
    const machineMetadata = (getPath(object, ['spec', 'machineTemplate', 'metadata']) ?? {}) as { labels?: StringMap, annotations?: StringMap }
    const merged = { labels: mergeMaps(labels, machineMetadata.labels), annotations: mergeMaps(annotations, machineMetadata.annotations) }
    setPath(object, ['spec', 'machineTemplate', 'metadata'], Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)))
  }
  if (topology.replicas !== undefined) setPath(object, ['spec', 'replicas'], topology.replicas)
  if (topology.rollout?.after) setPath(object, ['spec', 'rollout', 'after'], topology.rollout.after)
  const readinessGates = topology.readinessGates ?? cpClass.readinessGates
  if (readinessGates !== undefined) setPath(object, [...machineTemplatePath, 'readinessGates'], readinessGates)
  const taints = topology.taints ?? cpClass.taints
  if (taints !== undefined) setPath(object, [...machineTemplatePath, 'taints'], taints)
  for (const field of DELETION_FIELDS) {
    const seconds = topology.deletion?.[field] ?? cpClass.deletion?.[field]
    if (seconds === undefined) continue
    if (contract === 'v1beta1') setPath(object, ['spec', 'machineTemplate', V1BETA1_DELETION_FIELDS[field]], `${seconds}s`)
    else setPath(object, ['spec', 'machineTemplate', 'spec', 'deletion', field], seconds)
  }
  setPath(object, ['spec', 'version'], version)
  return object
}

/**
 * computeCluster: the Cluster with the topology labels, references to its infrastructure cluster and control plane,
 * and the upgrade-step annotation while an upgrade is under way (AfterClusterUpgrade pending).
 */
export function computeCluster (s: Scope, infrastructureCluster: Unstructured, controlPlane: Unstructured, upgrading: boolean): Stored<Cluster, 'namespaced'> {
  const cluster = jsonCopy(s.current.cluster)
  cluster.metadata.labels = { ...cluster.metadata.labels, [CLUSTER_NAME_LABEL]: cluster.metadata.name, [CLUSTER_TOPOLOGY_OWNED_LABEL]: '' }
  cluster.spec = { ...cluster.spec, infrastructureRef: contractRefOf(infrastructureCluster), controlPlaneRef: contractRefOf(controlPlane) }
  const annotations: StringMap = { ...cluster.metadata.annotations }
  if (upgrading) annotations[CLUSTER_TOPOLOGY_UPGRADE_STEP_ANNOTATION] = getPath(controlPlane, ['spec', 'version']) as string
  else delete annotations[CLUSTER_TOPOLOGY_UPGRADE_STEP_ANNOTATION]
  cluster.metadata.annotations = annotations
  return cluster
}

/** What the generator needs besides the scope: the versions of this reconcile, seeded randomness, the contract. */
interface DesiredStateInput {
  random: RandomSource
  contract: ContractVersion
  controlPlaneVersion: string
  /** workerVersion gives a worker topology its version (computeMachineDeploymentVersion / computeMachinePoolVersion). */
  workerVersion: (kind: 'machineDeployment' | 'machinePool', topologyName: string) => string
  /** upgrading: AfterClusterUpgrade is pending (the Cluster carries the upgrade step). */
  upgrading: boolean
}

/**
 * Generate, before the patches: every desired object of the topology. The ClusterClass's patches (patch-engine.ts)
 * are applied to the result afterwards.
 */
export function computeDesiredObjects (s: Scope, input: DesiredStateInput): DesiredState {
  const { blueprint } = s
  const infrastructureCluster = computeInfrastructureCluster(s, input.random)
  const machineTemplate = blueprint.controlPlane.infrastructureMachineTemplate ? computeControlPlaneInfrastructureMachineTemplate(s, input.contract, input.random) : undefined
  const controlPlane = computeControlPlane(s, machineTemplate, input.controlPlaneVersion, input.contract, input.random)
  const cpHealthCheck = controlPlaneHealthCheck(s)
  const desired: DesiredState = {
    cluster: computeCluster(s, infrastructureCluster, controlPlane, input.upgrading),
    infrastructureCluster,
    controlPlane: {
      object: controlPlane,
      ...(machineTemplate ? { infrastructureMachineTemplate: machineTemplate } : {}),
      ...(cpHealthCheck ? { machineHealthCheck: computeMachineHealthCheck(controlPlane, { [CLUSTER_TOPOLOGY_OWNED_LABEL]: '', [MACHINE_CONTROL_PLANE_LABEL]: '' }, s.current.cluster, cpHealthCheck.checks, cpHealthCheck.remediation) } : {})
    },
    machineDeployments: new Map(),
    machinePools: new Map()
  }
  for (const md of blueprint.topology.workers?.machineDeployments ?? []) {
    desired.machineDeployments.set(md.name ?? '', computeMachineDeployment(s, md, input.workerVersion('machineDeployment', md.name ?? ''), input.random))
  }
  for (const mp of blueprint.topology.workers?.machinePools ?? []) {
    desired.machinePools.set(mp.name ?? '', computeMachinePool(s, mp, input.workerVersion('machinePool', mp.name ?? ''), input.random))
  }
  return desired
}

/** IsControlPlaneMachineHealthCheckEnabled and ControlPlaneMachineHealthCheckClass. */
function controlPlaneHealthCheck (s: Scope): { checks: JsonObject, remediation: JsonObject } | undefined {
  const { blueprint } = s
  if (!blueprint.controlPlane.infrastructureMachineTemplate) return undefined
  const fromTopology = blueprint.topology.controlPlane?.healthCheck
  const fromClass = blueprint.clusterClass.spec?.controlPlane?.healthCheck
  const defined = (h: { checks?: unknown, remediation?: unknown } | undefined) => h !== undefined && (isSet(h.checks) || isSet(h.remediation))
  if (!defined(fromClass) && !defined(fromTopology)) return undefined
  if (fromTopology?.enabled === false) return undefined
  const source = defined(fromTopology) ? fromTopology : fromClass
  return { checks: { ...source?.checks }, remediation: { ...source?.remediation } }
}

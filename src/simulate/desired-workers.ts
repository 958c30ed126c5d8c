// The desired MachineDeployments and MachinePools of a topology (desired_state.go computeMachineDeployment and
// computeMachinePool): each with its templates copied for the Cluster (a MachineDeployment's) or its objects made
// from them (a MachinePool's), and the settings the topology sets or else its class: rollout, deletion, failure
// domains, readiness gates, taints, min ready seconds, health checks, labels and annotations.
import {
  CLUSTER_NAME_LABEL, CLUSTER_TOPOLOGY_DEFER_UPGRADE_ANNOTATION, CLUSTER_TOPOLOGY_HOLD_UPGRADE_SEQUENCE_ANNOTATION, CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL,
  CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL, CLUSTER_TOPOLOGY_OWNED_LABEL, CORE_API_VERSION
} from '../api/core/constants.js'
import type { MachineDeploymentClass, MachineDeploymentTopology, MachinePoolClass, MachinePoolTopology } from '../api/hooks/v1alpha1/types.generated.js'
import { clusterOwnerRef, computeMachineHealthCheck, contractRefOf, isSet, namingTemplateName, refOf, templateToObject, templateToTemplate } from './cloning.js'
import { DEFAULT_NAMING, simpleName } from './names.js'
import type { RandomSource } from './seeded.js'
import { getPath, type JsonObject, type Unstructured, mergeMaps, type StringMap, withoutKeys } from './objects.js'
import type { Scope, WorkerClassBlueprint, WorkerState } from './scope.js'

/** The upgrade-sequence annotations are never propagated to a worker's objects. */
const NOT_PROPAGATED = [CLUSTER_TOPOLOGY_HOLD_UPGRADE_SEQUENCE_ANNOTATION, CLUSTER_TOPOLOGY_DEFER_UPGRADE_ANNOTATION]

/** The topology's value when set, else the class's (Cluster API's `if topology.X != nil { x = topology.X }`). */
function either<T> (topology: T | undefined, fromClass: T | undefined): T | undefined {
  return topology !== undefined ? topology : fromClass
}

/** Sets only the fields whose value is defined. */
function defined (fields: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== ''))
}

type DeletionTimeouts = { nodeDrainTimeoutSeconds?: number, nodeVolumeDetachTimeoutSeconds?: number, nodeDeletionTimeoutSeconds?: number } | undefined

/** The node deletion timeouts of a worker: the topology's, else the class's, each on its own. */
function deletionTimeouts (topology: DeletionTimeouts, fromClass: DeletionTimeouts): JsonObject {
  return defined({
    nodeDrainTimeoutSeconds: either(topology?.nodeDrainTimeoutSeconds, fromClass?.nodeDrainTimeoutSeconds),
    nodeVolumeDetachTimeoutSeconds: either(topology?.nodeVolumeDetachTimeoutSeconds, fromClass?.nodeVolumeDetachTimeoutSeconds),
    nodeDeletionTimeoutSeconds: either(topology?.nodeDeletionTimeoutSeconds, fromClass?.nodeDeletionTimeoutSeconds)
  })
}

function workerBlueprint (s: Scope, kind: 'machineDeployments' | 'machinePools', className: string): WorkerClassBlueprint {
  const blueprint = s.blueprint[kind].get(className)
  if (!blueprint) throw new Error(`${kind === 'machineDeployments' ? 'MachineDeployment' : 'MachinePool'} class ${className} not found in ClusterClass ${s.blueprint.clusterClass.metadata.namespace}/${s.blueprint.clusterClass.metadata.name}`)
  return blueprint
}

/** The labels and annotations of a worker and its machines: the topology's over the class's, plus the topology labels. */
function workerMetadata (s: Scope, topology: { name?: string, metadata?: { labels?: StringMap, annotations?: StringMap } }, blueprint: WorkerClassBlueprint, nameLabel: string): { labels: StringMap, annotations: StringMap | undefined } {
  const annotations = withoutKeys(mergeMaps(topology.metadata?.annotations, blueprint.metadata.annotations), NOT_PROPAGATED)
  const labels = { ...mergeMaps(topology.metadata?.labels, blueprint.metadata.labels), [CLUSTER_NAME_LABEL]: s.current.cluster.metadata.name, [CLUSTER_TOPOLOGY_OWNED_LABEL]: '', [nameLabel]: topology.name ?? '' }
  return { labels, annotations }
}

/** computeMachineDeployment. */
export function computeMachineDeployment (s: Scope, topology: MachineDeploymentTopology, version: string, random: RandomSource): WorkerState {
  const name = topology.name ?? ''
  const cluster = s.current.cluster
  const blueprint = workerBlueprint(s, 'machineDeployments', topology.class ?? '')
  const mdClass = (s.blueprint.clusterClass.spec?.workers?.machineDeployments ?? []).find(c => c.class === topology.class) as MachineDeploymentClass
  const current = s.current.machineDeployments.get(name)
  const mdLabel = { [CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL]: name }
  const copy = (template: Unstructured, part: 'bootstrap' | 'infrastructure', currentName: string | undefined) => templateToTemplate({
    template,
    clonedFrom: refOf(template),
    cluster,
    name: () => simpleName(`${cluster.metadata.name}-${name}-`, random(`machineDeployment/${name}/${part}`)),
    currentName,
    labels: mdLabel,
    ownerRef: clusterOwnerRef(cluster)
  })
  const bootstrap = copy(blueprint.bootstrap, 'bootstrap', current ? getPath(current.object, ['spec', 'template', 'spec', 'bootstrap', 'configRef', 'name']) as string : undefined)
  const infrastructure = copy(blueprint.infrastructure, 'infrastructure', current ? getPath(current.object, ['spec', 'template', 'spec', 'infrastructureRef', 'name']) as string : undefined)

  const classRollout = isSet(mdClass.rollout) ? { strategy: defined({ type: mdClass.rollout?.strategy?.type, rollingUpdate: isSet(mdClass.rollout?.strategy?.rollingUpdate) ? mdClass.rollout?.strategy?.rollingUpdate : undefined }) } : undefined
  const rollout = isSet(topology.rollout) ? defined({ after: topology.rollout?.after, strategy: isSet(topology.rollout?.strategy) ? defined({ type: topology.rollout?.strategy?.type, rollingUpdate: isSet(topology.rollout?.strategy?.rollingUpdate) ? topology.rollout?.strategy?.rollingUpdate : undefined }) : undefined }) : classRollout
  const deletion = deletionTimeouts(topology.deletion, mdClass.deletion)
  const { labels, annotations } = workerMetadata(s, topology, blueprint, CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL)
  const maxInFlight = either(topology.healthCheck?.remediation?.maxInFlight, mdClass.healthCheck?.remediation?.maxInFlight)
  const deletionOrder = topology.deletion?.order || mdClass.deletion?.order
  const object: Unstructured = {
    apiVersion: CORE_API_VERSION,
    kind: 'MachineDeployment',
    metadata: {
      name: current?.object.metadata?.name ?? namingTemplateName(mdClass.naming?.template, DEFAULT_NAMING.machineDeployment, cluster, { machineDeployment: { topologyName: name } }, random, `machineDeployment/${name}`, 'MachineDeployment'),
      namespace: cluster.metadata.namespace,
      labels,
      ...(annotations ? { annotations } : {})
    },
    spec: defined({
      clusterName: cluster.metadata.name,
      replicas: topology.replicas,
      rollout,
      deletion: deletionOrder ? { order: deletionOrder } : undefined,
      remediation: maxInFlight !== undefined ? { maxInFlight } : undefined,
      selector: { matchLabels: { [CLUSTER_NAME_LABEL]: cluster.metadata.name, [CLUSTER_TOPOLOGY_OWNED_LABEL]: '', [CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL]: name } },
      template: {
        metadata: defined({ labels, annotations }),
        spec: defined({
          clusterName: cluster.metadata.name,
          version,
          bootstrap: { configRef: contractRefOf(bootstrap) },
          infrastructureRef: contractRefOf(infrastructure),
          failureDomain: topology.failureDomain || mdClass.failureDomain,
          deletion: Object.keys(deletion).length > 0 ? deletion : undefined,
          readinessGates: either(topology.readinessGates, mdClass.readinessGates),
          taints: either(topology.taints, mdClass.taints),
          minReadySeconds: either(topology.minReadySeconds, mdClass.minReadySeconds)
        })
      }
    })
  }
  const state: WorkerState = { object, bootstrap, infrastructure }
  const healthCheck = machineDeploymentHealthCheck(mdClass, topology)
  if (healthCheck) {
    state.machineHealthCheck = computeMachineHealthCheck(object, { [CLUSTER_TOPOLOGY_OWNED_LABEL]: '', [CLUSTER_TOPOLOGY_MACHINE_DEPLOYMENT_NAME_LABEL]: name }, cluster, healthCheck.checks, healthCheck.remediation)
  }
  return state
}

/** IsMachineDeploymentMachineHealthCheckEnabled and MachineDeploymentMachineHealthCheckClass. */
function machineDeploymentHealthCheck (mdClass: MachineDeploymentClass, topology: MachineDeploymentTopology): { checks: JsonObject, remediation: JsonObject } | undefined {
  const defined = (h: { checks?: unknown, remediation?: unknown } | undefined) => h !== undefined && (isSet(h.checks) || isSet(h.remediation))
  if (!defined(mdClass.healthCheck) && !defined(topology.healthCheck)) return undefined
  if (topology.healthCheck?.enabled === false) return undefined
  const source = defined(topology.healthCheck) ? topology.healthCheck : mdClass.healthCheck
  const { maxInFlight: _, ...remediation } = { ...source?.remediation }
  return { checks: { ...source?.checks }, remediation }
}

/** computeMachinePool: its bootstrap config and infrastructure machine pool are objects made from the class's templates. */
export function computeMachinePool (s: Scope, topology: MachinePoolTopology, version: string, random: RandomSource): WorkerState {
  const name = topology.name ?? ''
  const cluster = s.current.cluster
  const blueprint = workerBlueprint(s, 'machinePools', topology.class ?? '')
  const mpClass = (s.blueprint.clusterClass.spec?.workers?.machinePools ?? []).find(c => c.class === topology.class) as MachinePoolClass
  const current = s.current.machinePools.get(name)
  const make = (template: Unstructured, part: 'bootstrap' | 'infrastructure', currentName: string | undefined) => {
    const object = templateToObject({
      template,
      clonedFrom: refOf(template),
      cluster,
      name: () => simpleName(`${cluster.metadata.name}-${name}-`, random(`machinePool/${name}/${part}`)),
      currentName,
      ownerRef: clusterOwnerRef(cluster)
    })
    object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, [CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL]: name } }
    return object
  }
  const bootstrap = make(blueprint.bootstrap, 'bootstrap', current ? getPath(current.object, ['spec', 'template', 'spec', 'bootstrap', 'configRef', 'name']) as string : undefined)
  const infrastructure = make(blueprint.infrastructure, 'infrastructure', current ? getPath(current.object, ['spec', 'template', 'spec', 'infrastructureRef', 'name']) as string : undefined)
  const deletion = deletionTimeouts(topology.deletion, mpClass.deletion)
  const { labels, annotations } = workerMetadata(s, topology, blueprint, CLUSTER_TOPOLOGY_MACHINE_POOL_NAME_LABEL)
  const object: Unstructured = {
    apiVersion: CORE_API_VERSION,
    kind: 'MachinePool',
    metadata: {
      name: current?.object.metadata?.name ?? namingTemplateName(mpClass.naming?.template, DEFAULT_NAMING.machinePool, cluster, { machinePool: { topologyName: name } }, random, `machinePool/${name}`, 'MachinePool'),
      namespace: cluster.metadata.namespace,
      labels,
      ...(annotations ? { annotations } : {})
    },
    spec: defined({
      clusterName: cluster.metadata.name,
      replicas: topology.replicas,
      failureDomains: either(topology.failureDomains, mpClass.failureDomains),
      template: {
        metadata: defined({ labels, annotations }),
        spec: defined({
          clusterName: cluster.metadata.name,
          version,
          bootstrap: { configRef: contractRefOf(bootstrap) },
          infrastructureRef: contractRefOf(infrastructure),
          deletion: Object.keys(deletion).length > 0 ? deletion : undefined,
          minReadySeconds: either(topology.minReadySeconds, mpClass.minReadySeconds),
          taints: either(topology.taints, mpClass.taints)
        })
      }
    })
  }
  return { object, bootstrap, infrastructure }
}

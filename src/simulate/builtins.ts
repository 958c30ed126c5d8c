// The variables of a patch's GeneratePatches request (core/reconcilers/topology/cluster/patches/variables): the
// Cluster's values the patch defines plus the builtin variable of the desired Cluster (global), and per template the
// overrides of its control plane or worker topology plus the builtin variable of the desired object it belongs to.
import { CONVERSION_DATA_ANNOTATION, LAST_APPLIED_CONFIG_ANNOTATION } from '../api/core/constants.js'
import { BUILTINS_VARIABLE } from '../api/hooks/v1alpha1/constants.js'
import type { Builtins, ClusterVariable, Variable } from '../api/hooks/v1alpha1/types.generated.js'
import { type Stored, getPath, type Unstructured, type StringMap, withoutKeys } from './objects.js'
import type { WorkerState } from './scope.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** The builtin variable of a value. */
function builtinVariable (value: Builtins): Variable {
  return { name: BUILTINS_VARIABLE, value: value as Variable['value'] }
}

/** The values of the variables this patch defines (patchVariableDefinitions), the builtin one never. */
function definedValues (values: readonly ClusterVariable[] | undefined, defined: ReadonlySet<string>): Variable[] {
  return (values ?? []).filter(v => v.name !== BUILTINS_VARIABLE && defined.has(v.name ?? '')).map(v => ({ name: v.name ?? '', value: v.value }))
}

/** ObjectMeta of a builtin (labels and cleaned annotations), when the object has either. */
function builtinMetadata (labels: StringMap | undefined, annotations: StringMap | undefined): { metadata?: { labels?: StringMap, annotations?: StringMap } } {
  if (labels === undefined && annotations === undefined) return {}
  const cleaned = withoutKeys(annotations, [LAST_APPLIED_CONFIG_ANNOTATION, CONVERSION_DATA_ANNOTATION])
  const nonEmpty = (map: StringMap | undefined) => map !== undefined && Object.keys(map).length > 0
  return { metadata: { ...(nonEmpty(labels) ? { labels } : {}), ...(nonEmpty(cleaned) ? { annotations: cleaned } : {}) } }
}

/** variables.Global: the Cluster's values and builtin.cluster of the desired Cluster. */
export function globalVariables (values: readonly ClusterVariable[] | undefined, cluster: Stored<Cluster, 'namespaced'>, defined: ReadonlySet<string>): Variable[] {
  const classRef = cluster.spec?.topology?.classRef
  const classNamespace = classRef?.namespace || cluster.metadata.namespace
  const network = cluster.spec?.clusterNetwork
  const networkBuiltins = {
    ...(network?.serviceDomain ? { serviceDomain: network.serviceDomain } : {}),
    ...(network?.services?.cidrBlocks ? { services: network.services.cidrBlocks } : {}),
    ...(network?.pods?.cidrBlocks ? { pods: network.pods.cidrBlocks } : {})
  }
  return [...definedValues(values, defined), builtinVariable({
    cluster: {
      name: cluster.metadata.name,
      namespace: cluster.metadata.namespace,
      uid: cluster.metadata.uid ?? '',
      ...builtinMetadata(cluster.metadata.labels, cluster.metadata.annotations),
      topology: { version: cluster.spec?.topology?.version ?? '', classRef: { name: classRef?.name ?? '', namespace: classNamespace }, class: classRef?.name ?? '', classNamespace },
      ...(Object.keys(networkBuiltins).length > 0 ? { network: networkBuiltins } : {})
    }
  })]
}

/** variables.ControlPlane: the control plane topology's overrides and builtin.controlPlane of the desired control plane. */
export function controlPlaneVariables (overrides: readonly ClusterVariable[] | undefined, replicasSet: boolean, controlPlane: Unstructured, machineTemplate: Unstructured | undefined, defined: ReadonlySet<string>): Variable[] {
  const replicas = getPath(controlPlane, ['spec', 'replicas']) as number | undefined
  return [...definedValues(overrides, defined), builtinVariable({
    controlPlane: {
      version: getPath(controlPlane, ['spec', 'version']) as string,
      ...builtinMetadata(controlPlane.metadata?.labels, controlPlane.metadata?.annotations),
      name: controlPlane.metadata?.name ?? '',
      ...(replicasSet && replicas !== undefined ? { replicas } : {}),
      ...(machineTemplate ? { machineTemplate: { infrastructureRef: { name: machineTemplate.metadata?.name ?? '' } } } : {})
    }
  })]
}

/** variables.MachineDeployment and variables.MachinePool: the topology's overrides and the builtin of the desired worker. */
export function workerVariables (kind: 'machineDeployment' | 'machinePool', topology: { name?: string, class?: string, variables?: { overrides?: ClusterVariable[] } }, worker: WorkerState, defined: ReadonlySet<string>): Variable[] {
  const replicas = getPath(worker.object, ['spec', 'replicas']) as number | undefined
  return [...definedValues(topology.variables?.overrides, defined), builtinVariable({
    [kind]: {
      version: getPath(worker.object, ['spec', 'template', 'spec', 'version']) as string,
      ...builtinMetadata(worker.object.metadata?.labels, worker.object.metadata?.annotations),
      class: topology.class ?? '',
      name: worker.object.metadata?.name ?? '',
      topologyName: topology.name ?? '',
      ...(replicas !== undefined ? { replicas } : {}),
      bootstrap: { configRef: { name: worker.bootstrap.metadata?.name ?? '' } },
      infrastructureRef: { name: worker.infrastructure.metadata?.name ?? '' }
    }
  })]
}

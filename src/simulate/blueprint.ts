// getBlueprint (core/reconcilers/topology/cluster/blueprint.go): the ClusterClass and the templates it references,
// as Cluster API reads them from its API server (server fields set, the ClusterClass as owner, as its ClusterClass
// controller makes it), by place: the infrastructure cluster, the control plane and its machines, each worker class.
import { CORE_API_VERSION } from '../api/core/constants.js'
import type { ClassTemplate, SimulationInputs } from './inputs.js'
import { seededUid } from './seeded.js'
import { jsonCopy, type Unstructured } from './objects.js'
import type { Blueprint, WorkerClassBlueprint } from './scope.js'

/** A template as stored: uid, resourceVersion, generation and creation time set where absent; owned by the ClusterClass. */
function storedTemplate (template: ClassTemplate, inputs: SimulationInputs, seed: string): Unstructured {
  const object = jsonCopy(template.object)
  const metadata = { ...object.metadata }
  delete metadata.managedFields
  metadata.uid ??= seededUid(`${seed}/template/${template.ref.kind}/${template.ref.name}`)
  metadata.resourceVersion ??= '1'
  metadata.generation ??= 1
  metadata.creationTimestamp ??= new Date(0).toISOString().replace('.000', '')
  metadata.ownerReferences ??= [{
    apiVersion: CORE_API_VERSION,
    kind: 'ClusterClass',
    name: inputs.clusterClass.metadata.name,
    uid: inputs.clusterClass.metadata.uid ?? seededUid(`${seed}/clusterclass`)
  }]
  object.metadata = metadata
  return object
}

/** The blueprint of the inputs' ClusterClass (the topology comes from the Cluster at each reconcile). */
export function getBlueprint (inputs: SimulationInputs, seed: string): Omit<Blueprint, 'topology'> {
  const template = (place: string) => {
    const found = inputs.templates.get(place)
    return found ? storedTemplate(found, inputs, seed) : undefined
  }
  const spec = inputs.clusterClass.spec ?? {}
  const workers = (kind: 'machineDeployments' | 'machinePools', classes: ReadonlyArray<{ class?: string, metadata?: WorkerClassBlueprint['metadata'] }>) => new Map(classes.map((c, i): [string, WorkerClassBlueprint] => [c.class ?? '', {
    metadata: c.metadata ?? {},
    bootstrap: template(`spec.workers.${kind}[${i}].bootstrap`) as Unstructured,
    infrastructure: template(`spec.workers.${kind}[${i}].infrastructure`) as Unstructured
  }]))
  const machineInfrastructure = template('spec.controlPlane.machineInfrastructure')
  return {
    clusterClass: inputs.clusterClass,
    infrastructureClusterTemplate: template('spec.infrastructure') as Unstructured,
    controlPlane: { template: template('spec.controlPlane') as Unstructured, ...(machineInfrastructure ? { infrastructureMachineTemplate: machineInfrastructure } : {}) },
    machineDeployments: workers('machineDeployments', spec.workers?.machineDeployments ?? []),
    machinePools: workers('machinePools', spec.workers?.machinePools ?? [])
  }
}

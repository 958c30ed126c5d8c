// The value of the "builtin" variable in GeneratePatches and ValidateTopology requests
// (topologymutation_variable_types.go in Cluster API). Exported for extension authors; not part of any hook schema.
import { Int32, Int64, List, named, Open, Optional, Str, type Static } from '../schema.js'
import { COMPONENT_PREFIX, ObjectMeta } from './common.js'

/** BUILTINS_VARIABLE is the name of the variable holding the builtins. */
export const BUILTINS_VARIABLE = 'builtin'

const name = (what: string) => Optional(Str(253, { description: `name of the ${what}.` }))
const version = (what: string) => Optional(Str(256, { description: `version is the Kubernetes version of the ${what}.` }))

const MachineBootstrap = Open({
  configRef: Optional(Open({ name: name('bootstrap config') }, { description: 'configRef names the bootstrap config.' }))
}, { description: 'bootstrap of the machines.' })
const MachineInfrastructureRef = Open({ name: name('infrastructure template') }, { description: 'infrastructureRef names the infrastructure template.' })

const workerBuiltins = (kind: string) => Open({
  version: version(kind),
  metadata: Optional(ObjectMeta),
  class: Optional(Str(256, { description: `class of the ${kind}.` })),
  name: name(kind),
  topologyName: Optional(Str(63, { description: `topologyName is the name of the ${kind} in the topology.` })),
  replicas: Optional(Int64({ description: `replicas of the ${kind}.` })),
  bootstrap: Optional(MachineBootstrap),
  infrastructureRef: Optional(MachineInfrastructureRef)
}, { description: `${kind} builtins, set only for templates of a ${kind}.` })

export const Builtins = named(`${COMPONENT_PREFIX}.Builtins`, Open({
  cluster: Optional(Open({
    name: name('Cluster'),
    namespace: Optional(Str(63, { description: 'namespace of the Cluster.' })),
    uid: Optional(Str(128, { description: 'uid of the Cluster.' })),
    metadata: Optional(ObjectMeta),
    topology: Optional(Open({
      version: version('Cluster'),
      classRef: Open({ name: name('ClusterClass'), namespace: Optional(Str(63, { description: 'namespace of the ClusterClass.' })) }, { description: 'classRef is the ClusterClass of the Cluster.' }),
      class: Optional(Str(253, { description: 'class is the ClusterClass name (deprecated: use classRef.name).' })),
      classNamespace: Optional(Str(63, { description: 'classNamespace is the ClusterClass namespace (deprecated: use classRef.namespace).' }))
    }, { description: 'topology of the Cluster.' })),
    network: Optional(Open({
      serviceDomain: Optional(Str(253, { description: 'serviceDomain is the domain name for services.' })),
      services: Optional(List(Str(43), 100, { description: 'services are the service CIDR ranges.' })),
      pods: Optional(List(Str(43), 100, { description: 'pods are the pod CIDR ranges.' }))
    }, { description: 'network of the Cluster.' }))
  }, { description: 'cluster builtins.' })),
  controlPlane: Optional(Open({
    version: version('control plane'),
    metadata: Optional(ObjectMeta),
    name: name('control plane'),
    replicas: Optional(Int32({ description: 'replicas of the control plane.' })),
    machineTemplate: Optional(Open({ infrastructureRef: Optional(MachineInfrastructureRef) }, { description: 'machineTemplate of the control plane.' }))
  }, { description: 'controlPlane builtins, set only for control plane templates.' })),
  machineDeployment: Optional(workerBuiltins('MachineDeployment')),
  machinePool: Optional(workerBuiltins('MachinePool'))
}, { description: 'Builtins are the variables Cluster API computes for every topology.' }))

/** The value of the builtin variable. */
export type BuiltinVariables = Static<typeof Builtins>

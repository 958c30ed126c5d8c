// Cluster API core objects (cluster.x-k8s.io/v1beta2) as hooks embed them. Bounds follow the
// reference CRDs; only the fields extension authors commonly read are typed, the rest passes through.
import { AnyJSON, Int32, List, named, Open, Optional, Str, StringMap, Type } from '../schema.js'
import { LabelSelector, ObjectMeta } from './meta.js'

const CORE = 'sigs.k8s.io.cluster-api.api.core.v1beta2'

const typeMeta = (kind: string) => ({
  kind: Optional(Str(63, { description: `kind is "${kind}" when the caller sets type information; extensions must not rely on it.` })),
  apiVersion: Optional(Str(317, { description: 'apiVersion is "cluster.x-k8s.io/v1beta2" when set.' }))
})

/** status is observed state owned by Cluster API: kept whole, never validated. */
const Status = Optional(Open({}, { description: 'status is the observed state; passed through unchanged.' }))

export const CoreObjectMeta = named(`${CORE}.ObjectMeta`, Open({
  labels: Optional(StringMap({ description: 'labels to set on the generated objects.', maxValueLength: 63 })),
  annotations: Optional(StringMap({ description: 'annotations to set on the generated objects.', maxValueLength: 262144 }))
}, { description: 'ObjectMeta holds the labels and annotations Cluster API propagates.' }))

export const ContractVersionedObjectReference = named(`${CORE}.ContractVersionedObjectReference`, Open({
  kind: Optional(Str(63, { description: 'kind of the referenced object.' })),
  name: Optional(Str(253, { description: 'name of the referenced object.' })),
  apiGroup: Optional(Str(253, { description: 'apiGroup of the referenced object.' }))
}, { description: 'ContractVersionedObjectReference references an object by group, kind and name.' }))

export const ClusterVariable = named(`${CORE}.ClusterVariable`, Open({
  name: Optional(Str(256, { description: 'name of the variable.' })),
  value: Optional(AnyJSON({ description: 'value of the variable, any JSON.' }))
}, { description: 'ClusterVariable is a variable value set on a Cluster topology.' }))

export const MachineDeploymentTopology = named(`${CORE}.MachineDeploymentTopology`, Open({
  metadata: Optional(CoreObjectMeta),
  class: Optional(Str(256, { description: 'class is the MachineDeploymentClass this topology uses.' })),
  name: Optional(Str(63, { description: 'name is unique within the Cluster topology.' })),
  failureDomain: Optional(Str(256, { description: 'failureDomain for the machines.' })),
  replicas: Optional(Int32({ description: 'replicas is the desired number of machines.' }))
}, { description: 'MachineDeploymentTopology describes one MachineDeployment of a topology.' }))

export const MachinePoolTopology = named(`${CORE}.MachinePoolTopology`, Open({
  metadata: Optional(CoreObjectMeta),
  class: Optional(Str(256, { description: 'class is the MachinePoolClass this topology uses.' })),
  name: Optional(Str(63, { description: 'name is unique within the Cluster topology.' })),
  replicas: Optional(Int32({ description: 'replicas is the desired number of machines.' }))
}, { description: 'MachinePoolTopology describes one MachinePool of a topology.' }))

export const Topology = named(`${CORE}.Topology`, Open({
  classRef: Optional(Open({
    name: Optional(Str(253, { description: 'name of the ClusterClass.' })),
    namespace: Optional(Str(63, { description: 'namespace of the ClusterClass; defaults to the Cluster\'s.' }))
  }, { description: 'classRef is the ClusterClass the topology uses.' })),
  version: Optional(Str(256, { description: 'version is the Kubernetes version of the Cluster.' })),
  controlPlane: Optional(Open({
    metadata: Optional(CoreObjectMeta),
    replicas: Optional(Int32({ description: 'replicas is the desired number of control plane machines.' }))
  }, { description: 'controlPlane describes the control plane topology.' })),
  workers: Optional(Open({
    machineDeployments: Optional(List(MachineDeploymentTopology, 2000, { description: 'machineDeployments of the topology.' })),
    machinePools: Optional(List(MachinePoolTopology, 2000, { description: 'machinePools of the topology.' }))
  }, { description: 'workers describes the worker topology.' })),
  variables: Optional(List(ClusterVariable, 1000, { description: 'variables are the Cluster\'s variable values.' }))
}, { description: 'Topology is the managed topology of a Cluster.' }))

const networkRanges = (name: string, what: string) => Open({
  cidrBlocks: Optional(List(Str(43), 100, { description: 'cidrBlocks are CIDR ranges.' }))
}, { description: `${name} are the network ranges ${what} are allocated from.` })

export const ClusterSpec = named(`${CORE}.ClusterSpec`, Open({
  paused: Optional(Type.Boolean({ description: 'paused stops reconciliation of the Cluster.' })),
  clusterNetwork: Optional(Open({
    apiServerPort: Optional(Int32({ description: 'apiServerPort is the API server port.' })),
    services: Optional(networkRanges('services', 'service VIPs')),
    pods: Optional(networkRanges('pods', 'pod networks')),
    serviceDomain: Optional(Str(253, { description: 'serviceDomain is the domain name for services.' }))
  }, { description: 'clusterNetwork is the Cluster\'s network configuration.' })),
  controlPlaneEndpoint: Optional(Open({
    host: Optional(Str(512, { description: 'host of the API server endpoint.' })),
    port: Optional(Int32({ description: 'port of the API server endpoint.' }))
  }, { description: 'controlPlaneEndpoint is where the API server is reached.' })),
  controlPlaneRef: Optional(ContractVersionedObjectReference),
  infrastructureRef: Optional(ContractVersionedObjectReference),
  topology: Optional(Topology)
}, { description: 'ClusterSpec is the desired state of a Cluster.' }))

export const Cluster = named(`${CORE}.Cluster`, Open({
  ...typeMeta('Cluster'),
  metadata: Optional(ObjectMeta),
  spec: Optional(ClusterSpec),
  status: Status
}, { description: 'Cluster is a Cluster API Cluster (cluster.x-k8s.io/v1beta2).' }))

export const MachineSpec = named(`${CORE}.MachineSpec`, Open({
  clusterName: Optional(Str(63, { description: 'clusterName is the Cluster the machine belongs to.' })),
  bootstrap: Optional(Open({
    configRef: Optional(ContractVersionedObjectReference),
    dataSecretName: Optional(Str(253, { description: 'dataSecretName names the Secret with bootstrap data.' }))
  }, { description: 'bootstrap describes how the machine is bootstrapped.' })),
  infrastructureRef: Optional(ContractVersionedObjectReference),
  version: Optional(Str(256, { description: 'version is the Kubernetes version of the machine.' })),
  providerID: Optional(Str(512, { description: 'providerID identifies the machine at the provider.' })),
  failureDomain: Optional(Str(256, { description: 'failureDomain the machine runs in.' })),
  minReadySeconds: Optional(Int32({ minimum: 0, description: 'minReadySeconds before the machine counts as available.' }))
}, { description: 'MachineSpec is the desired state of a Machine.' }))

export const Machine = named(`${CORE}.Machine`, Open({
  ...typeMeta('Machine'),
  metadata: Optional(ObjectMeta),
  spec: Optional(MachineSpec),
  status: Status
}, { description: 'Machine is a Cluster API Machine (cluster.x-k8s.io/v1beta2).' }))

export const MachineSet = named(`${CORE}.MachineSet`, Open({
  ...typeMeta('MachineSet'),
  metadata: Optional(ObjectMeta),
  spec: Optional(Open({
    clusterName: Optional(Str(63, { description: 'clusterName is the Cluster the MachineSet belongs to.' })),
    replicas: Optional(Int32({ description: 'replicas is the desired number of machines.' })),
    selector: Optional(LabelSelector),
    template: Optional(Open({
      metadata: Optional(CoreObjectMeta),
      spec: Optional(MachineSpec)
    }, { description: 'template describes the machines to create.' }))
  }, { description: 'spec is the desired state of the MachineSet.' })),
  status: Status
}, { description: 'MachineSet is a Cluster API MachineSet (cluster.x-k8s.io/v1beta2).' }))

/** JSONSchemaProps of a variable: the top level is typed, nested schemas pass through as objects. */
export const JSONSchemaProps = named(`${CORE}.JSONSchemaProps`, Open({
  description: Optional(Str(4096, { description: 'description of the variable.' })),
  type: Optional(Str(16, { description: 'type is one of object, array, string, integer, number and boolean.' })),
  properties: Optional(Type.Unsafe<Record<string, Record<string, unknown>>>({ type: 'object', additionalProperties: { type: 'object' }, maxProperties: 1024, description: 'properties are the schemas of the object\'s fields.' })),
  required: Optional(List(Str(256), 1000, { description: 'required lists the mandatory properties.' })),
  items: Optional(Open({}, { description: 'items is the schema of array elements.' })),
  format: Optional(Str(32, { description: 'format of a string value.' })),
  pattern: Optional(Str(512, { description: 'pattern a string value must match.' })),
  enum: Optional(List(AnyJSON(), 100, { description: 'enum lists the allowed values.' })),
  default: Optional(AnyJSON({ description: 'default value of the variable.' })),
  example: Optional(AnyJSON({ description: 'example value of the variable.' }))
}, { description: 'JSONSchemaProps is the OpenAPI schema of a ClusterClass variable.' }))

export const ClusterClassVariable = named(`${CORE}.ClusterClassVariable`, Open({
  name: Str(256, { minLength: 1, description: 'name of the variable.' }),
  required: Optional(Type.Boolean({ description: 'required means the variable must be set on Clusters.' })),
  deprecatedV1Beta1Metadata: Optional(Open({
    labels: Optional(StringMap({ description: 'labels of the variable (deprecated).', maxValueLength: 63 })),
    annotations: Optional(StringMap({ description: 'annotations of the variable (deprecated).' }))
  }, { description: 'deprecatedV1Beta1Metadata is kept for older clients.' })),
  schema: Open({
    openAPIV3Schema: JSONSchemaProps
  }, { description: 'schema defines the variable\'s values.' })
}, { description: 'ClusterClassVariable defines a variable a ClusterClass accepts.' }))

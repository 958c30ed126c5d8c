// One realistic request per v1alpha1 hook, shaped like the requests Cluster API v1.14 sends (compare the
// Go-marshalled fixtures in test/fixtures/v1alpha1): a Cluster "sample" with a managed topology upgrading
// from v1.32.3 to v1.33.0, its templates, and a control plane Machine updated in place.
// Used by `runtime-sdk conformance`, the docs and tests; sampleRequest() returns a fresh copy.
import type { HookDefinition, RequestOf } from '../define.js'
import { API_VERSION } from './constants.js'
import type {
  AfterClusterUpgrade, AfterControlPlaneInitialized, AfterControlPlaneUpgrade, AfterWorkersUpgrade, BeforeClusterCreate, BeforeClusterDelete,
  BeforeClusterUpgrade, BeforeControlPlaneUpgrade, BeforeWorkersUpgrade, CanUpdateMachine, CanUpdateMachineSet, DiscoverVariables, Discovery,
  GeneratePatches, GenerateUpgradePlan, UpdateMachine, ValidateTopology
} from './hooks.js'

const NAMESPACE = 'default'
const CLUSTER = 'sample'
const FROM = 'v1.32.3'
const TO = 'v1.33.0'
const requestTypeMeta = (hook: string) => ({ kind: `${hook}Request`, apiVersion: API_VERSION })
const labels = { 'cluster.x-k8s.io/cluster-name': CLUSTER, 'topology.cluster.x-k8s.io/owned': '' }

/** The Cluster as Cluster API sends it: no status, no managedFields, topology version already at the target. */
const cluster = {
  kind: 'Cluster',
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  metadata: {
    name: CLUSTER,
    namespace: NAMESPACE,
    uid: '0b3c5d7e-1f2a-4b6c-8d9e-a1b2c3d4e5f6',
    resourceVersion: '20481',
    generation: 4,
    creationTimestamp: '2026-03-01T09:30:00Z',
    labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER, environment: 'staging' },
    annotations: { 'example.com/owner': 'platform-team' },
    finalizers: ['cluster.cluster.x-k8s.io']
  },
  spec: {
    paused: false,
    clusterNetwork: {
      apiServerPort: 6443,
      services: { cidrBlocks: ['10.128.0.0/12'] },
      pods: { cidrBlocks: ['192.168.0.0/16'] },
      serviceDomain: 'cluster.local'
    },
    controlPlaneEndpoint: { host: '172.18.0.3', port: 6443 },
    controlPlaneRef: { kind: 'KubeadmControlPlane', name: 'sample-cp-7k2px', apiGroup: 'controlplane.cluster.x-k8s.io' },
    infrastructureRef: { kind: 'DockerCluster', name: 'sample-q9v4d', apiGroup: 'infrastructure.cluster.x-k8s.io' },
    topology: {
      classRef: { name: 'quick-start', namespace: NAMESPACE },
      version: TO,
      controlPlane: { replicas: 3 },
      workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 2 }] },
      variables: [{ name: 'imageRepository', value: 'registry.k8s.io' }]
    }
  }
}

/** BeforeClusterCreate is called before the topology objects exist: no references, no endpoint yet. */
const { controlPlaneEndpoint: _endpoint, controlPlaneRef: _cpRef, infrastructureRef: _infraRef, ...newClusterSpec } = cluster.spec
const newCluster = { ...cluster, metadata: { ...cluster.metadata, generation: 1 }, spec: newClusterSpec }

const builtinCluster = {
  cluster: {
    name: CLUSTER,
    namespace: NAMESPACE,
    uid: cluster.metadata.uid,
    topology: { version: TO, classRef: { name: 'quick-start', namespace: NAMESPACE }, class: 'quick-start', classNamespace: NAMESPACE },
    network: { serviceDomain: 'cluster.local', services: ['10.128.0.0/12'], pods: ['192.168.0.0/16'] }
  }
}

const holder = (fieldPath: string) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace: NAMESPACE, name: CLUSTER, fieldPath })
const templateMetadata = (name: string) => ({ annotations: { 'example.com/template': 'true' }, labels, name, namespace: NAMESPACE })
const dockerClusterTemplate = {
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DockerClusterTemplate',
  metadata: templateMetadata('sample-q9v4d'),
  spec: { template: { spec: { loadBalancer: { imageRepository: 'kindest' } } } }
}
const controlPlaneTemplate = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlaneTemplate',
  metadata: templateMetadata('sample-cp-7k2px'),
  spec: { template: { spec: { kubeadmConfigSpec: { clusterConfiguration: { imageRepository: 'registry.k8s.io' } } } } }
}
const variables = [{ name: 'builtin', value: builtinCluster }, { name: 'imageRepository', value: 'registry.k8s.io' }]
const controlPlaneVariables = [{ name: 'builtin', value: { controlPlane: { version: TO, name: 'sample-cp-7k2px', replicas: 3 } } }]

const machineName = 'sample-cp-7k2px-4hv8m'
const objectMetadata = (name: string) => ({ annotations: { 'cluster.x-k8s.io/cloned-from-name': `${name}-template` }, labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER }, name, namespace: NAMESPACE })
const machine = (version: string) => ({
  kind: 'Machine',
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  metadata: { name: machineName, namespace: NAMESPACE, labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER, 'cluster.x-k8s.io/control-plane': '' } },
  spec: {
    clusterName: CLUSTER,
    bootstrap: { configRef: { kind: 'KubeadmConfig', name: machineName, apiGroup: 'bootstrap.cluster.x-k8s.io' }, dataSecretName: machineName },
    infrastructureRef: { kind: 'DockerMachine', name: machineName, apiGroup: 'infrastructure.cluster.x-k8s.io' },
    version,
    providerID: `docker:////${machineName}`,
    failureDomain: 'fd-1'
  }
})
const dockerMachine = (version: string) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DockerMachine',
  metadata: objectMetadata(machineName),
  spec: { bootstrapTimeout: '3m0s', customImage: `kindest/node:${version}`, providerID: `docker:////${machineName}` }
})
const kubeadmConfig = {
  apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmConfig',
  metadata: objectMetadata(machineName),
  spec: { clusterConfiguration: { etcd: { local: { imageTag: '3.5.16-0' } } } }
}
const machineObjects = (version: string) => ({ machine: machine(version), infrastructureMachine: dockerMachine(version), bootstrapConfig: kubeadmConfig })

const machineSetName = 'sample-md-0-9b2xk'
const machineSet = (version: string) => ({
  kind: 'MachineSet',
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  metadata: { name: machineSetName, namespace: NAMESPACE, labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER, 'topology.cluster.x-k8s.io/deployment-name': 'md-0' } },
  spec: {
    clusterName: CLUSTER,
    replicas: 2,
    selector: { matchLabels: { 'cluster.x-k8s.io/cluster-name': CLUSTER, 'topology.cluster.x-k8s.io/deployment-name': 'md-0' } },
    template: {
      metadata: { labels: { 'cluster.x-k8s.io/cluster-name': CLUSTER } },
      spec: {
        clusterName: CLUSTER,
        bootstrap: { configRef: { kind: 'KubeadmConfigTemplate', name: machineSetName, apiGroup: 'bootstrap.cluster.x-k8s.io' } },
        infrastructureRef: { kind: 'DockerMachineTemplate', name: machineSetName, apiGroup: 'infrastructure.cluster.x-k8s.io' },
        version
      }
    }
  }
})
const dockerMachineTemplate = (version: string) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DockerMachineTemplate',
  metadata: objectMetadata(machineSetName),
  spec: { template: { spec: { bootstrapTimeout: '3m0s', customImage: `kindest/node:${version}` } } }
})
const kubeadmConfigTemplate = {
  apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmConfigTemplate',
  metadata: objectMetadata(machineSetName),
  spec: { template: { spec: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [{ name: 'v', value: '2' }] } } } } }
}
const machineSetObjects = (version: string) => ({ machineSet: machineSet(version), infrastructureMachineTemplate: dockerMachineTemplate(version), bootstrapConfigTemplate: kubeadmConfigTemplate })

const plan = { controlPlaneUpgrades: [{ version: TO }], workersUpgrades: [{ version: TO }] }

/** The sample request of every v1alpha1 hook, by hook name. */
export const sampleRequests = {
  Discovery: requestTypeMeta('Discovery') satisfies RequestOf<typeof Discovery>,
  BeforeClusterCreate: { ...requestTypeMeta('BeforeClusterCreate'), cluster: newCluster } satisfies RequestOf<typeof BeforeClusterCreate>,
  AfterControlPlaneInitialized: { ...requestTypeMeta('AfterControlPlaneInitialized'), cluster } satisfies RequestOf<typeof AfterControlPlaneInitialized>,
  BeforeClusterUpgrade: { ...requestTypeMeta('BeforeClusterUpgrade'), cluster, fromKubernetesVersion: FROM, toKubernetesVersion: TO, ...plan } satisfies RequestOf<typeof BeforeClusterUpgrade>,
  BeforeControlPlaneUpgrade: { ...requestTypeMeta('BeforeControlPlaneUpgrade'), cluster, fromKubernetesVersion: FROM, toKubernetesVersion: TO, ...plan } satisfies RequestOf<typeof BeforeControlPlaneUpgrade>,
  AfterControlPlaneUpgrade: { ...requestTypeMeta('AfterControlPlaneUpgrade'), cluster, kubernetesVersion: TO, workersUpgrades: [{ version: TO }] } satisfies RequestOf<typeof AfterControlPlaneUpgrade>,
  BeforeWorkersUpgrade: { ...requestTypeMeta('BeforeWorkersUpgrade'), cluster, fromKubernetesVersion: FROM, toKubernetesVersion: TO, workersUpgrades: [{ version: TO }] } satisfies RequestOf<typeof BeforeWorkersUpgrade>,
  AfterWorkersUpgrade: { ...requestTypeMeta('AfterWorkersUpgrade'), cluster, kubernetesVersion: TO } satisfies RequestOf<typeof AfterWorkersUpgrade>,
  AfterClusterUpgrade: { ...requestTypeMeta('AfterClusterUpgrade'), cluster, kubernetesVersion: TO } satisfies RequestOf<typeof AfterClusterUpgrade>,
  BeforeClusterDelete: { ...requestTypeMeta('BeforeClusterDelete'), cluster } satisfies RequestOf<typeof BeforeClusterDelete>,
  GeneratePatches: {
    ...requestTypeMeta('GeneratePatches'),
    variables,
    items: [
      { uid: '7091de79-e26c-4af5-8be3-071bc4b102c9', holderReference: holder('spec.infrastructureRef'), object: dockerClusterTemplate },
      { uid: '1c5e4a7d-56b2-4a8f-9a44-0f8fbd5a2f6e', holderReference: holder('spec.controlPlaneRef'), object: controlPlaneTemplate, variables: controlPlaneVariables }
    ]
  } satisfies RequestOf<typeof GeneratePatches>,
  ValidateTopology: {
    ...requestTypeMeta('ValidateTopology'),
    variables,
    items: [
      { holderReference: holder('spec.infrastructureRef'), object: dockerClusterTemplate },
      { holderReference: holder('spec.controlPlaneRef'), object: controlPlaneTemplate, variables: controlPlaneVariables }
    ]
  } satisfies RequestOf<typeof ValidateTopology>,
  DiscoverVariables: { ...requestTypeMeta('DiscoverVariables') } satisfies RequestOf<typeof DiscoverVariables>,
  CanUpdateMachine: { ...requestTypeMeta('CanUpdateMachine'), current: machineObjects(FROM), desired: machineObjects(TO) } satisfies RequestOf<typeof CanUpdateMachine>,
  CanUpdateMachineSet: { ...requestTypeMeta('CanUpdateMachineSet'), current: machineSetObjects(FROM), desired: machineSetObjects(TO) } satisfies RequestOf<typeof CanUpdateMachineSet>,
  UpdateMachine: { ...requestTypeMeta('UpdateMachine'), desired: machineObjects(TO) } satisfies RequestOf<typeof UpdateMachine>,
  GenerateUpgradePlan: {
    ...requestTypeMeta('GenerateUpgradePlan'),
    cluster,
    fromControlPlaneKubernetesVersion: 'v1.31.6',
    fromWorkersKubernetesVersion: 'v1.31.6',
    toKubernetesVersion: TO
  } satisfies RequestOf<typeof GenerateUpgradePlan>
}

/** A fresh copy of the sample request of a v1alpha1 hook (by its UpperCamelCase name), or undefined. */
/** A fresh copy of the sample request of a hook: typed when given the hook definition, by name for any string. */
export function sampleRequest<H extends HookDefinition> (hook: H): RequestOf<H>
export function sampleRequest (hook: string): Record<string, unknown> | undefined
export function sampleRequest (hook: string | HookDefinition): unknown {
  const name = typeof hook === 'string' ? hook : hook.hook
  const sample = (sampleRequests as Record<string, object>)[name]
  if (sample === undefined && typeof hook !== 'string') throw new Error(`no sample request for hook ${name}: samples exist for the hooks of ${API_VERSION}`)
  return sample === undefined ? undefined : structuredClone(sample)
}

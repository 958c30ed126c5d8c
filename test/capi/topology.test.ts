// Topology patches of the reference extension (written with runtime-sdk/topology) through Cluster API v1.14.2's own
// managers: two ExtensionConfigs on one `runtime-sdk serve`, differing only in the setting patchFormat (JSONPatch,
// JSONMergePatch), each named by the external patch of its own ClusterClass, and a Cluster of each class whose
// topology sets the variables files and preKubeadmCommands. In both, the KubeadmControlPlane, the MachineDeployment's
// bootstrap and infrastructure templates, and the machines' KubeadmConfigs and DevMachines carry what the extension
// set; an upgrade (v1.34.0 to v1.35.0) moves the version-derived fields with builtin.*.version.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import { VERSION_LABEL } from '../../src/reference-extension/index.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { counter } from '../helpers/prometheus.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(1_500_000)
const FROM = 'v1.34.0'
const TO = 'v1.35.0'
const LONG = { timeoutMs: 300_000, intervalMs: 1000 }
const FILE = { path: '/etc/runtime-sdk/topology', content: 'written by the reference extension' }
const COMMAND = 'echo runtime-sdk topology'
const FORMATS = { json: 'JSONPatch', merge: 'JSONMergePatch' } as const
type Name = keyof typeof FORMATS

const cp = await startControlPlane()
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { log: (m) => t.comment(m) })
t.teardown(() => capi.stop())
const extension = await serveReferenceExtension(join(await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-topology-')), 'certs'))
t.teardown(() => { extension.child.kill('SIGKILL') })

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
const apply = (...objects: object[]) => kubectl(['apply', '-n', 'default', '-f', '-'], objects.map(o => JSON.stringify(o)).join('\n'))
type Obj = { metadata: { name: string, labels?: Record<string, string>, ownerReferences?: Array<{ kind: string, name: string }> }, spec: Record<string, any>, status?: Record<string, any> }
const get = async (kind: string, name: string) => JSON.parse(await kubectl(['get', kind, name, '-n', 'default', '-o', 'json'])) as Obj
const list = async (kind: string, selector?: string) => (JSON.parse(await kubectl(['get', kind, '-n', 'default', '-o', 'json', ...(selector ? ['-l', selector] : [])])) as { items: Obj[] }).items
const condition = (o: Obj, type: string) => (o.status?.['conditions'] as Array<{ type: string, status: string }> | undefined)?.find(c => c.type === type)

for (const [name, patchFormat] of Object.entries(FORMATS)) {
  await kubectl(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name },
    spec: { clientConfig: { url: extension.url, caBundle: extension.caBundle }, namespaceSelector: {}, settings: { patchFormat } }
  }))
}
for (const name of Object.keys(FORMATS)) {
  await waitFor(async () => condition(await get('extensionconfigs.runtime.cluster.x-k8s.io', name), 'Discovered')?.status === 'True', { ...LONG, message: `${name} discovered` })
}

const ref = (apiVersion: string, kind: string, name: string) => ({ templateRef: { apiVersion, kind, name } })
const inMemory = { backend: { inMemory: Object.fromEntries(['vm', 'node', 'apiServer', 'etcd'].map(part => [part, { provisioning: { startupDuration: '1s' } }])) } }
const nodeRegistration = { criSocket: 'unix:///var/run/containerd/containerd.sock' }
await apply(
  { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', metadata: { name: 'topology' }, spec: { template: { spec: { backend: { inMemory: {} } } } } },
  { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', metadata: { name: 'topology' }, spec: { template: { spec: { kubeadmConfigSpec: { clusterConfiguration: { apiServer: { certSANs: ['localhost', '127.0.0.1'] } }, initConfiguration: { nodeRegistration }, joinConfiguration: { nodeRegistration } } } } } },
  { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', metadata: { name: 'topology' }, spec: { template: { spec: inMemory } } },
  { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', metadata: { name: 'topology' }, spec: { template: { spec: { joinConfiguration: { nodeRegistration } } } } },
  ...Object.keys(FORMATS).map(name => ({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'ClusterClass',
    metadata: { name },
    spec: {
      controlPlane: { ...ref('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', 'topology'), machineInfrastructure: ref('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate', 'topology') },
      infrastructure: ref('infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate', 'topology'),
      workers: { machineDeployments: [{ class: 'default-worker', bootstrap: ref('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'topology'), infrastructure: ref('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate', 'topology') }] },
      patches: [{ name: 'reference', external: { generatePatchesExtension: `generate-patches.${name}`, validateTopologyExtension: `validate-topology.${name}`, discoverVariablesExtension: `discover-variables.${name}` } }]
    }
  }))
)
for (const name of Object.keys(FORMATS)) {
  await waitFor(async () => condition(await get('clusterclass', name), 'VariablesReady')?.status === 'True', { ...LONG, message: `${name} VariablesReady` })
}
await apply(...Object.keys(FORMATS).map(name => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name },
  spec: {
    clusterNetwork: { services: { cidrBlocks: ['10.128.0.0/12'] }, pods: { cidrBlocks: ['192.168.0.0/16'] }, serviceDomain: 'cluster.local' },
    topology: {
      classRef: { name },
      version: FROM,
      controlPlane: { replicas: 1 },
      workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] },
      variables: [{ name: 'files', value: [FILE] }, { name: 'preKubeadmCommands', value: [COMMAND] }]
    }
  }
})))

const nodeLabels = (registration: { kubeletExtraArgs?: Array<{ name: string, value?: string }> } | undefined) => registration?.kubeletExtraArgs?.find(a => a.name === 'node-labels')?.value
const ourFile = { ...FILE, owner: 'root:root', permissions: '0600' }
const byCluster = (name: string) => `cluster.x-k8s.io/cluster-name=${name}`

/** What the extension set, wherever Cluster API carried it, at a version; throws naming what is not (yet) there. */
async function carried (name: Name, version: string) {
  const cluster = await get('cluster', name)
  if (!cluster.spec['controlPlaneRef']) throw new Error('no control plane yet')
  const kcp = await get('kubeadmcontrolplanes', cluster.spec['controlPlaneRef'].name)
  const md = (await list('machinedeployments', byCluster(name)))[0]
  if (!md) throw new Error('no MachineDeployment yet')
  const bootstrap = await get('kubeadmconfigtemplates', md.spec['template'].spec.bootstrap.configRef.name)
  const infrastructure = await get('devmachinetemplates', md.spec['template'].spec.infrastructureRef.name)
  const machines = (await list('machines', byCluster(name))).filter(m => m.spec['version'] === version)
  const configs = await Promise.all(machines.map(m => get('kubeadmconfigs', m.spec['bootstrap'].configRef.name)))
  const devMachines = await Promise.all(machines.map(m => get('devmachines', m.spec['infrastructureRef'].name)))
  const label = `kubernetesVersion=${version}`
  const checks = {
    'KubeadmControlPlane files': kcp.spec['kubeadmConfigSpec'].files?.some((f: object) => isDeepStrictEqual(f, ourFile)),
    'KubeadmControlPlane preKubeadmCommands': kcp.spec['kubeadmConfigSpec'].preKubeadmCommands?.includes(COMMAND),
    'KubeadmControlPlane init node-labels': nodeLabels(kcp.spec['kubeadmConfigSpec'].initConfiguration?.nodeRegistration) === label,
    'KubeadmControlPlane join node-labels': nodeLabels(kcp.spec['kubeadmConfigSpec'].joinConfiguration?.nodeRegistration) === label,
    'bootstrap template files': bootstrap.spec['template'].spec.files?.some((f: object) => isDeepStrictEqual(f, ourFile)),
    'bootstrap template node-labels': nodeLabels(bootstrap.spec['template'].spec.joinConfiguration?.nodeRegistration) === label,
    'infrastructure template label': infrastructure.spec['template'].metadata?.labels?.[VERSION_LABEL] === version,
    'two machines at the version': machines.length === 2,
    'their KubeadmConfigs carry the file and command': configs.length === 2 && configs.every(c => c.spec['files']?.some((f: { path: string }) => f.path === FILE.path) && c.spec['preKubeadmCommands']?.includes(COMMAND)),
    'their DevMachines carry the version label': devMachines.length === 2 && devMachines.every(d => d.metadata.labels?.[VERSION_LABEL] === version)
  }
  const missing = Object.entries(checks).filter(([, ok]) => !ok).map(([what]) => what)
  if (missing.length > 0) throw new Error(`not yet: ${missing.join('; ')}`)
  return checks
}

for (const [name, version] of [['json', FROM], ['merge', FROM]] as Array<[Name, string]>) {
  t.test(`${FORMATS[name]}: the control plane, the worker templates and the machines carry the fields set from the variables`, async t => {
    const checks = await waitFor(() => carried(name, version), { ...LONG, message: `${name}: the fields at ${version}` })
    for (const [what, ok] of Object.entries(checks)) t.ok(ok, what)
  })
}

t.test('an upgrade moves the fields set from builtin.*.version', async t => {
  for (const name of Object.keys(FORMATS)) await kubectl(['patch', 'cluster', name, '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { topology: { version: TO } } })])
  for (const name of Object.keys(FORMATS) as Name[]) {
    const checks = await waitFor(() => carried(name, TO), { ...LONG, timeoutMs: 600_000, message: `${name}: the fields at ${TO}` })
    for (const [what, ok] of Object.entries(checks)) t.ok(ok, `${FORMATS[name]}: ${what} at ${TO}`)
  }
})

t.test('Cluster API called the patches of both formats and counted no error', async t => {
  const metrics = await capi.manager('core').metrics()
  t.ok(counter(await extension.metrics(), 'runtime_sdk_extension_requests_total', { hook: 'GeneratePatches' }) > 0, 'GeneratePatches called')
  t.equal(counter(metrics, 'capi_runtime_sdk_requests_total', { code: '<error>' }), 0, 'no call error')
  t.equal(counter(metrics, 'capi_runtime_sdk_requests_total', { status: 'Failure' }), 0, 'no Failure')
  t.notMatch(capi.manager('core').log(), /failed to (call|decode|unmarshal|apply patch)/i)
})

// Rollout impact over a management cluster, read through an in-memory API server (test/helpers/memory-cluster.ts):
// the Clusters chosen as kubectl chooses them, each class and template read once, a Cluster that cannot be computed
// reported with its reason while the others go on; the candidate as a recording; the registered extensions as their
// ExtensionConfigs say; hostile ClusterClasses beside ordinary ones, each costing its own Cluster one line.
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { registeredExtensions } from '../../src/client/registered-extensions.js'
import { isFailure, rolloutImpact, type RolloutImpactReport } from '../../src/impact/live.js'
import { RecordedRuntimeClient } from '../../src/impact/recorded-client.js'
import { ReplacedExtensionClient } from '../../src/impact/replaced-extension.js'
import { GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { RECORDING_FORMAT, type RecordedCall } from '../../src/server/recording.js'
import { InProcessRuntimeClient, type Unstructured, simulate } from '../../src/simulate/index.js'
import { HOSTILE_PATCHES, hostileObjects } from '../helpers/hostile.js'
import { inNamespace, liveObjects, MemoryManagementCluster, namespaceObject } from '../helpers/memory-cluster.js'
import { referenceHandlersV2 } from '../helpers/reference-extension-v2.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const inputs = [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)] as Unstructured[]
const client = (handlers = referenceHandlers()) => new InProcessRuntimeClient(createInProcessExtension({ handlers }), 'reference')
const created = await simulate({ client: client(), objects: inputs, delete: false, checkDeterminism: false })
const live = liveObjects(inputs, created)
const extensionConfig = { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'reference' }, spec: { clientConfig: { url: 'https://127.0.0.1:1' }, namespaceSelector: { matchLabels: { team: 'a' } } }, status: await client().discover({ metadata: { name: 'reference' }, spec: { clientConfig: {} } } as never).then(ec => ec.status) } as Unstructured

/** team-a/loop and team-b/loop (class as given), team-c/loop labelled tier=edge, team-d/loop whose class is gone. */
function managementCluster (): MemoryManagementCluster {
  const edge = inNamespace(live, 'team-c').map(o => o.kind === 'Cluster' ? { ...o, metadata: { ...o.metadata, labels: { ...o.metadata?.labels, tier: 'edge' } } } : o)
  const classless = inNamespace(live, 'team-d').filter(o => o.kind !== 'ClusterClass')
  return new MemoryManagementCluster([
    ...inNamespace(live, 'team-a'), ...inNamespace(live, 'team-b'), ...edge, ...classless,
    namespaceObject('team-a', { team: 'a' }), namespaceObject('team-b'), namespaceObject('team-c', { team: 'a' }), namespaceObject('team-d'), extensionConfig
  ])
}
const effects = (report: RolloutImpactReport) => Object.fromEntries(report.clusters.map(c => [c.cluster, isFailure(c) ? c.error : Object.fromEntries(c.objects.map(o => [o.role, o.effect]))]))

t.test('every Cluster of every namespace, each compared; one that cannot be read is reported and the others go on', async t => {
  const api = managementCluster()
  const report = await rolloutImpact({ api, selection: {}, name: 'reference', registered: client(), candidate: client(referenceHandlersV2('command')) })
  const rollout = { infrastructureCluster: 'none', controlPlane: 'none', 'machineDeployment md-0': 'rollout' }
  t.same(effects(report), {
    'team-a/loop': rollout,
    'team-b/loop': rollout,
    'team-c/loop': rollout,
    'team-d/loop': 'Cluster team-d/loop: spec.topology.classRef names ClusterClass team-d/loop, which does not exist'
  })
  t.same(report.summary, { clusters: 4, refused: 0, rollingOut: 3, inPlace: 0, unchanged: 0, failed: 1, machines: 3 })
  const md = report.clusters.flatMap(c => isFailure(c) ? [] : c.objects).find(o => o.effect === 'rollout')
  t.match(md, { object: /^MachineDeployment team-a\/loop-md-0-/, machines: 1, changes: [{ object: /^KubeadmConfigTemplate loop-md-0-/, path: '/spec/template/spec/preKubeadmCommands/1', after: 'echo v2', effect: 'rollout', why: /rotates it/ }] })
  t.ok(api.gets < 4 * 12, `${api.gets} GETs and ${api.lists} LISTs for 4 Clusters (discovery and classes read once)`)
})

t.test('the Clusters chosen: a namespace, one by name, a label selector, a ClusterClass', async t => {
  const chosen = async (selection: Parameters<typeof rolloutImpact>[0]['selection']) =>
    (await rolloutImpact({ api: managementCluster(), selection, name: 'reference', registered: client(), candidate: client(referenceHandlersV2('label')) })).clusters.map(c => c.cluster)
  t.same(await chosen({ namespace: 'team-b' }), ['team-b/loop'])
  t.same(await chosen({ namespace: 'team-c', name: 'loop' }), ['team-c/loop'])
  t.same(await chosen({ labelSelector: 'tier=edge' }), ['team-c/loop'])
  t.same(await chosen({ clusterClass: 'team-a/loop' }), ['team-a/loop'])
  const labelOnly = await rolloutImpact({ api: managementCluster(), selection: { namespace: 'team-a' }, name: 'reference', registered: client(), candidate: client(referenceHandlersV2('label')) })
  t.same(labelOnly.summary, { clusters: 1, refused: 0, rollingOut: 0, inPlace: 0, unchanged: 1, failed: 0, machines: 0 }, 'a label rolls nothing out')
})

t.test('the extensions as registered: the ExtensionConfigs with their handlers, matched by the namespaces\' labels', async t => {
  const { client: registered, extensionConfigs } = await registeredExtensions(managementCluster(), ['team-a', 'team-b'])
  t.teardown(() => registered.close())
  t.same(extensionConfigs.map(ec => ec.metadata.name), ['reference'])
  t.same(await registered.getAllExtensions(GeneratePatches, { metadata: { name: 'x', namespace: 'team-a' } } as never), ['generate-patches.reference'], 'team-a is selected')
  t.same(await registered.getAllExtensions(GeneratePatches, { metadata: { name: 'x', namespace: 'team-b' } } as never), [], 'team-b is not')
})

t.test('a recorded candidate answers the requests it recorded, and says which it cannot', async t => {
  const request = { settings: { token: 'secret' }, items: [], variables: [] }
  const call = (req: unknown): RecordedCall => ({ format: RECORDING_FORMAT, time: '', hook: 'GeneratePatches', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', handler: 'generate-patches', requestId: '', durationMs: 1, request: req, response: { status: 'Success', items: [] } })
  const recorded = new RecordedRuntimeClient([call({ ...request, settings: { token: '<redacted>' } })], 'reference')
  t.same(await recorded.getAllExtensions(GeneratePatches), ['generate-patches.reference'])
  const { response } = await recorded.callExtension(GeneratePatches, {} as never, 'generate-patches.reference', request as never)
  t.equal(response.status, 'Success', 'settings compare redacted')
  await t.rejects(recorded.callExtension(GeneratePatches, {} as never, 'generate-patches.reference', { ...request, variables: [{ name: 'x', value: 1 }] } as never), /the recording holds no answer to this GeneratePatches request/)
  const failing = new RecordedRuntimeClient([{ ...call(request), response: { status: 'Failure', message: 'no' } }], 'reference')
  await t.rejects(failing.callExtension(GeneratePatches, {} as never, 'generate-patches.reference', request as never), /failed to call extension handler "generate-patches\.reference".*no/)
})

t.test('the candidate answers for its ExtensionConfig, the registered extensions for the others', async t => {
  const replaced = new ReplacedExtensionClient(client(), new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlers() }), 'other'), 'other')
  t.same((await replaced.getAllExtensions(GeneratePatches, {} as never)), ['generate-patches.other', 'generate-patches.reference'])
  await t.rejects(replaced.callAllExtensions(GeneratePatches, {} as never, {} as never), /handlers of the candidate and of other extensions both match/)
})

t.test('a template two classes of the ClusterClass share is read once (Cluster API\'s quick-start-runtimesdk does it)', async t => {
  const shared = live.map(o => {
    if (o.kind !== 'ClusterClass') return o
    const spec = o['spec'] as { workers: { machineDeployments: Array<Record<string, unknown>> } }
    const md = spec.workers.machineDeployments[0] as Record<string, unknown>
    return { ...o, spec: { ...spec, workers: { ...spec.workers, machinePools: [{ class: 'pool', bootstrap: md['bootstrap'], infrastructure: md['infrastructure'] }] } } }
  })
  const api = new MemoryManagementCluster([...inNamespace(shared, 'team-a'), namespaceObject('team-a', { team: 'a' }), extensionConfig])
  const report = await rolloutImpact({ api, selection: {}, name: 'reference', registered: client(), candidate: client(referenceHandlersV2('label')) })
  t.same(report.summary.failed, 0, isFailure(report.clusters[0] as never) ? (report.clusters[0] as { error: string }).error : 'computed')
})

t.test('the candidate gets the settings of the ExtensionConfig it replaces: its in-place hooks answer as they will', async t => {
  const withSettings = (settings?: Record<string, string>) => ({ object: { ...extensionConfig, spec: { ...(extensionConfig['spec'] as object), ...(settings ? { settings } : {}) } } as never, namespaceLabels: () => ({ team: 'a' }) })
  const impact = async (settings?: Record<string, string>) => effects(await rolloutImpact({ api: managementCluster(), selection: { namespace: 'team-a' }, name: 'reference', registered: client(), candidate: client(referenceHandlersV2('files')), extensionConfig: withSettings(settings) }))['team-a/loop']
  t.same(await impact(), { infrastructureCluster: 'none', controlPlane: 'rollout', 'machineDeployment md-0': 'in-place' }, 'a file: version 1\'s CanUpdateMachineSet takes it (the control plane\'s Machines are not in this cluster to ask)')
  t.same(await impact({ disableInPlaceUpdates: 'true' }), { infrastructureCluster: 'none', controlPlane: 'rollout', 'machineDeployment md-0': 'rollout' }, 'with the setting that refuses in-place updates, a rollout')
})

/** A Cluster created with a harmless class, whose class was then replaced by a hostile one (Clusters outlive changes of their class). */
async function hostileLive (namespace: string, patches: Array<keyof typeof HOSTILE_PATCHES>): Promise<Unstructured[]> {
  const harmless = hostileObjects(namespace, 'hostile', [])
  const created = await simulate({ client: client(), objects: harmless, delete: false, checkDeterminism: false })
  const hostileClass = hostileObjects(namespace, 'hostile', patches).find(o => o.kind === 'ClusterClass') as Unstructured
  return liveObjects(harmless, created).map(o => o.kind === 'ClusterClass' ? hostileClass : o)
}

t.test('hostile ClusterClasses beside ordinary ones: each costs its Cluster one line, the ordinary ones are reported', async t => {
  const api = new MemoryManagementCluster([
    ...inNamespace(live, 'team-a'), ...await hostileLive('regex', ['regex']), ...await hostileLive('alias', ['alias']), ...await hostileLive('loop', ['loop']),
    ...inNamespace(live, 'team-z'), namespaceObject('team-a', { team: 'a' }), namespaceObject('team-z', { team: 'a' }), extensionConfig
  ])
  const start = performance.now()
  const report = await rolloutImpact({ api, selection: {}, name: 'reference', registered: client(), candidate: client(referenceHandlersV2('command')), budget: { timeoutMs: 2000, memoryBytes: 512 * 2 ** 20 } })
  const rollout = { infrastructureCluster: 'none', controlPlane: 'none', 'machineDeployment md-0': 'rollout' }
  const unchanged = { infrastructureCluster: 'none', controlPlane: 'none', 'machineDeployment md-0': 'none' }
  t.match(effects(report), {
    'alias/hostile': /^failed to apply patches: failed to generate patches for patch "hostile-alias": .*: error converting YAML to JSON: yaml: document contains excessive aliasing$/,
    'loop/hostile': 'could not be computed: took longer than 2s',
    'regex/hostile': unchanged,
    'team-a/loop': rollout,
    'team-z/loop': rollout
  })
  t.same(report.clusters.map(c => c.cluster), ['alias/hostile', 'loop/hostile', 'regex/hostile', 'team-a/loop', 'team-z/loop'])
  t.same(report.summary, { clusters: 5, rollingOut: 2, inPlace: 0, refused: 0, unchanged: 1, failed: 2, machines: 2 })
  t.comment(`5 Clusters in ${Math.round(performance.now() - start)} ms, 2 s of them the budget of loop/hostile`)
})

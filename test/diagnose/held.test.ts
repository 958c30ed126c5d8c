// Why a Cluster is held, read from Cluster API's own state: the TopologyReconciled condition's messages as Cluster
// API writes them (AggregateMessage, the runtime client's errors), the pending-hooks and before-upgrade annotations,
// and the ExtensionConfigs that serve the Cluster; and, asked, what the blocking hook answers now, within the
// Cluster's budget.
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { BeforeClusterUpgrade } from '../../src/api/hooks/v1alpha1/index.js'
import { callNow } from '../../src/diagnose/call-now.js'
import { blockingHooks, failedHook, heldWithinBudget, whyHeld } from '../../src/diagnose/held.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { defineHandler, type ExtensionHandler } from '../../src/server/types.js'
import { hostileObjects } from '../helpers/hostile.js'
import { liveObjects, MemoryManagementCluster } from '../helpers/memory-cluster.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { type Stored, InProcessRuntimeClient, type Unstructured, listClusters, readLiveCluster, simulate } from '../../src/simulate/index.js'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'
import type { Cluster } from '../../src/api/hooks/v1alpha1/types.generated.js'

const client = new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlers() }), 'reference')
const extensionConfig = (discovered: boolean): ExtensionConfig => ({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: 'reference' },
  spec: { clientConfig: { url: 'https://127.0.0.1:1' } },
  status: { conditions: [{ type: 'Discovered', status: discovered ? 'True' : 'False', reason: 'DiscoveryFailed', message: discovered ? '' : 'connection refused', lastTransitionTime: '2026-01-01T00:00:00Z' }] }
} as ExtensionConfig)
const cluster = (conditions: unknown[], annotations: Record<string, string> = {}): Stored<Cluster, 'namespaced'> => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'loop', namespace: 'default', annotations }, spec: { topology: { classRef: { name: 'loop' }, version: 'v1.35.0' } }, status: { conditions }
} as Stored<Cluster, 'namespaced'>)

t.test('AggregateMessage read back: each blocking hook with its message', async t => {
  t.same(blockingHooks('Following hooks are blocking upgrade: BeforeClusterUpgrade: backing up etcd; BeforeControlPlaneUpgrade'), [{ hook: 'BeforeClusterUpgrade', message: 'backing up etcd' }, { hook: 'BeforeControlPlaneUpgrade' }])
  t.same(blockingHooks('Following hooks are blocking delete: BeforeClusterDelete: waiting: for volumes'), [{ hook: 'BeforeClusterDelete', message: 'waiting: for volumes' }])
  t.same(blockingHooks('Cluster is upgrading to v1.35.0\n  * Following hooks are blocking upgrade: BeforeClusterUpgrade: held\n  * KubeadmControlPlane pending upgrade to version v1.35.0'), [{ hook: 'BeforeClusterUpgrade', message: 'held' }])
  t.same(blockingHooks('Cluster is deleting. Following hooks are blocking delete: BeforeClusterDelete: volumes'), [{ hook: 'BeforeClusterDelete', message: 'volumes' }])
  t.same(blockingHooks('Following hooks are blocking Cluster topology creation: BeforeClusterCreate'), [{ hook: 'BeforeClusterCreate' }])
  t.same(blockingHooks('Cluster is upgrading to v1.35.0\n  * KubeadmControlPlane upgrading to version v1.35.0'), [])
})

t.test('a runtime client error read back: the hook and the handlers it names', async t => {
  t.same(failedHook('error reconciling the Cluster topology: failed to call extension handlers for hook "AfterControlPlaneInitialized.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "after-control-plane-initialized.reference": got failure response with message: no CNI'),
    { hook: 'AfterControlPlaneInitialized', handlers: ['after-control-plane-initialized.reference'] })
  t.same(failedHook('failed to generate patches: GeneratePatches: failed to call extension handler "generate-patches.reference": got failure response'), { hook: 'GeneratePatches', handlers: ['generate-patches.reference'] })
  t.equal(failedHook('failed to read the ClusterClass'), undefined)
})

t.test('a Cluster held by BeforeClusterUpgrade, owing AfterControlPlaneUpgrade, its extension not discovered', async t => {
  const held = cluster([{ type: 'TopologyReconciled', status: 'False', reason: 'ClusterUpgrading', message: 'Cluster is upgrading to v1.35.0\n  * Following hooks are blocking upgrade: BeforeClusterUpgrade: backing up etcd\n  * KubeadmControlPlane pending upgrade to version v1.35.0', lastTransitionTime: '2026-11-28T10:00:00Z' }],
    { 'runtime.cluster.x-k8s.io/pending-hooks': 'AfterControlPlaneUpgrade', 'before-upgrade.hook.cluster.cluster.x-k8s.io/backup': '' })
  const report = await whyHeld(held, [extensionConfig(false)], client)
  t.match(report, {
    cluster: 'default/loop',
    topologyReconciled: { status: 'False', reason: 'ClusterUpgrading', since: '2026-11-28T10:00:00Z' },
    holding: [
      { hook: 'BeforeClusterUpgrade', state: 'blocking', since: '2026-11-28T10:00:00Z', message: 'backing up etcd', handlers: ['before-cluster-upgrade.reference'], undiscovered: [{ extensionConfig: 'reference', message: 'connection refused' }] },
      { hook: 'AfterControlPlaneUpgrade', state: 'pending', handlers: ['after-control-plane-upgrade.reference'] },
      { hook: 'BeforeClusterUpgrade', state: 'held by annotation', message: /before-upgrade\.hook\.cluster\.cluster\.x-k8s\.io\/backup/, handlers: [] }
    ]
  })
})

t.test('a failed GeneratePatches (the hook of the handler the error names), and a Cluster nothing holds', async t => {
  const failed = await whyHeld(cluster([{ type: 'TopologyReconciled', status: 'False', reason: 'ReconcileFailed', message: 'failed to call extension handler "generate-patches.reference": got failure response with message: boom', lastTransitionTime: '2026-11-28T10:00:00Z' }]), [extensionConfig(true)], client)
  t.match(failed.holding, [{ hook: 'GeneratePatches', state: 'failed', handlers: ['generate-patches.reference'], message: /boom/, undiscovered: [] }])
  const fine = await whyHeld(cluster([{ type: 'TopologyReconciled', status: 'True', reason: 'ReconcileSucceeded', lastTransitionTime: '2026-11-28T10:00:00Z' }]), [extensionConfig(true)], client)
  t.same(fine.holding, [])
})

t.test('held --call: the blocking hook called now with the request Cluster API would send, and no other lifecycle hook', async t => {
  const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
  const inputs = [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)] as Unstructured[]
  const created = await simulate({ client, objects: inputs, delete: false, checkDeterminism: false })
  const upgrading = liveObjects(inputs, created).map(o => o.kind === 'Cluster' ? { ...o, spec: { ...(o['spec'] as object), topology: { ...(o['spec'] as { topology: object }).topology, version: 'v1.35.0' } } } : o)
  const api = new MemoryManagementCluster(upgrading)
  const [cluster] = await listClusters(api, {})
  const live = await readLiveCluster(api, cluster as Stored<Cluster, 'namespaced'>)
  const called: string[] = []
  const holding = referenceHandlers().map(h => defineHandler({
    hook: h.hook,
    name: h.name,
    handler: async (request: unknown, ctx: never) => {
      called.push(h.hook.hook)
      if (h.hook === BeforeClusterUpgrade) return { status: 'Success' as const, retryAfterSeconds: 30, message: 'backing up etcd' }
      return await (h.handler as (r: unknown, c: never) => Promise<never>)(request, ctx)
    }
  } as never) as ExtensionHandler)
  const answer = await callNow(live, 'BeforeClusterUpgrade', new InProcessRuntimeClient(createInProcessExtension({ handlers: holding }), 'reference'))
  t.match(answer, { hook: 'BeforeClusterUpgrade', status: 'Success', retryAfterSeconds: 30, message: 'backing up etcd', request: { fromKubernetesVersion: 'v1.34.0', toKubernetesVersion: 'v1.35.0' } })
  const lifecycle = new Set(called.filter(h => !['DiscoverVariables', 'GeneratePatches', 'ValidateTopology', 'GenerateUpgradePlan'].includes(h)))
  t.same([...lifecycle], ['BeforeClusterUpgrade'], 'the only lifecycle hook called')
  t.equal(await callNow(live, 'BeforeClusterCreate', client), undefined, 'a hook Cluster API would not call from there: not called')
})

t.test('asked what a hook answers now, a Cluster whose class would compute for hours is one line within its budget', async t => {
  const harmless = hostileObjects('default', 'hostile', [])
  const created = await simulate({ client, objects: harmless, delete: false, checkDeterminism: false })
  const hostileClass = hostileObjects('default', 'hostile', ['loop']).find(o => o.kind === 'ClusterClass') as Unstructured
  const api = new MemoryManagementCluster(liveObjects(harmless, created).map(o => o.kind === 'ClusterClass' ? hostileClass : o))
  const [found] = await listClusters(api, { namespace: 'default' })
  const hostile = found as Stored<Cluster, 'namespaced'>
  const report = await heldWithinBudget(hostile, { timeoutMs: 500, memoryBytes: 0 }, async () => {
    const r = await whyHeld(hostile, [extensionConfig(true)], client)
    await callNow(await readLiveCluster(api, hostile), 'BeforeClusterUpgrade', client)
    return r
  })
  t.same(report, { cluster: 'default/hostile', holding: [], error: 'could not be computed: took longer than 500ms' })
  t.match(await heldWithinBudget(hostile, { timeoutMs: 500, memoryBytes: 0 }, async () => await whyHeld(hostile, [], client)), { cluster: 'default/hostile', holding: [] }, 'without --call nothing is evaluated')
})

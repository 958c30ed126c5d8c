// Why a Cluster is held, read from Cluster API's own state: the TopologyReconciled condition's messages as Cluster
// API writes them (AggregateMessage, the runtime client's errors), the pending-hooks and before-upgrade annotations,
// and the ExtensionConfigs that serve the Cluster.
import t from 'tap'
import { blockingHooks, failedHook, whyHeld } from '../../src/diagnose/held.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { type ClusterObject, InProcessRuntimeClient } from '../../src/simulate/index.js'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'

const client = new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlers() }), 'reference')
const extensionConfig = (discovered: boolean): ExtensionConfig => ({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: 'reference' },
  spec: { clientConfig: { url: 'https://127.0.0.1:1' } },
  status: { conditions: [{ type: 'Discovered', status: discovered ? 'True' : 'False', reason: 'DiscoveryFailed', message: discovered ? '' : 'connection refused', lastTransitionTime: '2026-01-01T00:00:00Z' }] }
} as ExtensionConfig)
const cluster = (conditions: unknown[], annotations: Record<string, string> = {}): ClusterObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'loop', namespace: 'default', annotations }, spec: { topology: { classRef: { name: 'loop' }, version: 'v1.35.0' } }, status: { conditions }
} as ClusterObject)

t.test('AggregateMessage read back: each blocking hook with its message', async t => {
  t.same(blockingHooks('Following hooks are blocking upgrade: BeforeClusterUpgrade: backing up etcd; BeforeControlPlaneUpgrade'), [{ hook: 'BeforeClusterUpgrade', message: 'backing up etcd' }, { hook: 'BeforeControlPlaneUpgrade' }])
  t.same(blockingHooks('Following hooks are blocking delete: BeforeClusterDelete: waiting: for volumes'), [{ hook: 'BeforeClusterDelete', message: 'waiting: for volumes' }])
  t.same(blockingHooks('Cluster is upgrading'), [])
})

t.test('a runtime client error read back: the hook and the handlers it names', async t => {
  t.same(failedHook('error reconciling the Cluster topology: failed to call extension handlers for hook "AfterControlPlaneInitialized.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "after-control-plane-initialized.reference": got failure response with message: no CNI'),
    { hook: 'AfterControlPlaneInitialized', handlers: ['after-control-plane-initialized.reference'] })
  t.same(failedHook('failed to generate patches: GeneratePatches: failed to call extension handler "generate-patches.reference": got failure response'), { hook: 'GeneratePatches', handlers: ['generate-patches.reference'] })
  t.equal(failedHook('failed to read the ClusterClass'), undefined)
})

t.test('a Cluster held by BeforeClusterUpgrade, owing AfterControlPlaneUpgrade, its extension not discovered', async t => {
  const held = cluster([{ type: 'TopologyReconciled', status: 'False', reason: 'LifecycleHookBlocking', message: 'Following hooks are blocking upgrade: BeforeClusterUpgrade: backing up etcd', lastTransitionTime: '2026-11-28T10:00:00Z' }],
    { 'runtime.cluster.x-k8s.io/pending-hooks': 'AfterControlPlaneUpgrade', 'before-upgrade.hook.cluster.cluster.x-k8s.io/backup': '' })
  const report = await whyHeld(held, [extensionConfig(false)], client)
  t.match(report, {
    cluster: 'default/loop',
    topologyReconciled: { status: 'False', reason: 'LifecycleHookBlocking', since: '2026-11-28T10:00:00Z' },
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

// The lifecycle hooks as Cluster API's topology controller calls them (simulate/lifecycle-hooks.ts): the
// pending-hooks annotation (hooks.MarkAsPending, MarkAsDone), the hook cache, callBeforeClusterCreateHook,
// callBeforeClusterUpgradeHook's annotations, callAfterControlPlaneInitialized, callAfterClusterUpgrade and the
// ok-to-delete annotation of reconcileDelete.
import t from 'tap'
import {
  callAfterClusterUpgrade, callAfterControlPlaneInitialized, callBeforeClusterCreateHook, callBeforeClusterDeleteHook, callBeforeClusterUpgradeHook,
  cleanupCluster, isControlPlaneInitialized, isPending, markAsDone, markAsPending
} from '../../src/simulate/lifecycle-hooks.js'
import { controlPlaneAt, exampleScope, scriptedContext } from '../helpers/simulate-scope.js'
import { AfterClusterUpgrade } from '../../src/api/hooks/v1alpha1/hooks.js'

const PENDING = 'runtime.cluster.x-k8s.io/pending-hooks'

t.test('MarkAsPending and MarkAsDone keep a sorted list and patch the stored Cluster only when it changes', async t => {
  const s = await exampleScope()
  const ctx = scriptedContext()
  markAsPending(s, ctx, 'BeforeWorkersUpgrade', 'AfterControlPlaneUpgrade')
  markAsPending(s, ctx, 'AfterControlPlaneUpgrade')
  t.equal(s.current.cluster.metadata.annotations?.[PENDING], 'AfterControlPlaneUpgrade,BeforeWorkersUpgrade')
  t.equal(ctx.patches.length, 1, 'marking a hook already pending writes nothing')
  markAsDone(s, ctx, AfterClusterUpgrade)
  t.equal(ctx.patches.length, 1, 'a hook not pending is left alone')
  markAsDone(s, ctx, { hook: 'AfterControlPlaneUpgrade' } as never)
  markAsDone(s, ctx, { hook: 'BeforeWorkersUpgrade' } as never)
  t.notOk(PENDING in (s.current.cluster.metadata.annotations ?? {}), 'the annotation goes with its last hook')
  t.equal(ctx.patches.at(-1), undefined, 'and the Cluster has no annotations left')
})

t.test('cleanupCluster: no status, no managedFields, no last-applied configuration or conversion data', async t => {
  const s = await exampleScope({ cluster: c => { c.status = { phase: 'Provisioned' }; c.metadata.managedFields = [{}]; c.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'cluster.x-k8s.io/conversion-data': '{}', keep: 'me' } } })
  const cleaned = cleanupCluster(s.current.cluster)
  t.notOk('status' in cleaned)
  t.notOk('managedFields' in (cleaned.metadata ?? {}))
  t.same(cleaned.metadata?.annotations, { keep: 'me' })
  t.ok(s.current.cluster.status, 'the Cluster itself is untouched')
})

t.test('BeforeClusterCreate: called while the Cluster has no objects, its retry held in the hook cache', async t => {
  const s = await exampleScope()
  const ctx = scriptedContext({ BeforeClusterCreate: { retryAfterSeconds: 20, message: 'wait' } })
  t.notOk(await callBeforeClusterCreateHook(s, ctx))
  t.same(ctx.hookCache.get('BeforeClusterCreate'), { until: 20, message: 'wait' })
  t.notOk(await callBeforeClusterCreateHook(s, ctx), 'still held, from the cache')
  t.equal(ctx.calls.length, 1)
  const created = await exampleScope({ cluster: c => { c.spec = { ...c.spec, controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' } } } })
  t.ok(await callBeforeClusterCreateHook(created, scriptedContext({ BeforeClusterCreate: { retryAfterSeconds: 20 } })), 'not called once objects exist')
  t.ok(await callBeforeClusterCreateHook(await exampleScope(), scriptedContext({ BeforeClusterCreate: undefined })), 'no handler: the Cluster goes on')
})

t.test('BeforeClusterUpgrade: the before-upgrade hook annotations hold it without a call', async t => {
  const one = await exampleScope({ cluster: c => { c.metadata.annotations = { 'before-upgrade.hook.cluster.cluster.x-k8s.io/backup': '' } } })
  const ctx = scriptedContext()
  t.notOk(await callBeforeClusterUpgradeHook(one, ctx, 'v1.34.0', 'v1.35.0'))
  t.same(one.hookResponses.responses.get('BeforeClusterUpgrade'), { retryAfterSeconds: 1200, message: 'annotation before-upgrade.hook.cluster.cluster.x-k8s.io/backup is set' })
  t.equal(ctx.calls.length, 0)
  const two = await exampleScope({ cluster: c => { c.metadata.annotations = { 'before-upgrade.hook.cluster.cluster.x-k8s.io/b': '', 'before-upgrade.hook.cluster.cluster.x-k8s.io/a': '' } } })
  await callBeforeClusterUpgradeHook(two, ctx, 'v1.34.0', 'v1.35.0')
  t.equal(two.hookResponses.responses.get('BeforeClusterUpgrade')?.message, 'annotations before-upgrade.hook.cluster.cluster.x-k8s.io/a, before-upgrade.hook.cluster.cluster.x-k8s.io/b are set')
  const started = await exampleScope({ cluster: c => { c.metadata.annotations = { [PENDING]: 'AfterClusterUpgrade' } } })
  t.ok(await callBeforeClusterUpgradeHook(started, ctx, 'v1.34.0', 'v1.35.0'), 'not called again in the middle of an upgrade')
})

t.test('AfterControlPlaneInitialized: tracked at creation, called once the condition is True, then done', async t => {
  const s = await exampleScope()
  const ctx = scriptedContext()
  await callAfterControlPlaneInitialized(s, ctx)
  t.ok(isPending('AfterControlPlaneInitialized', s.current.cluster))
  t.equal(ctx.calls.length, 0, 'not called before the control plane is up')
  s.current.cluster.spec = { ...s.current.cluster.spec, controlPlaneRef: { apiGroup: 'g', kind: 'KubeadmControlPlane', name: 'cp' } }
  s.current.cluster.status = { conditions: [{ type: 'ControlPlaneInitialized', status: 'True', reason: 'x', message: '', lastTransitionTime: '2025-01-01T00:00:00Z' }] }
  t.ok(isControlPlaneInitialized(s.current.cluster))
  await callAfterControlPlaneInitialized(s, ctx)
  t.same(ctx.calls.map(c => c.hook), ['AfterControlPlaneInitialized'])
  t.notOk(isPending('AfterControlPlaneInitialized', s.current.cluster))
})

t.test('AfterClusterUpgrade: only once the control plane and every worker are stable', async t => {
  const pending = (c: { metadata: { annotations?: Record<string, string> } }) => { c.metadata.annotations = { [PENDING]: 'AfterClusterUpgrade' } }
  const busy = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, cluster: pending })
  busy.upgradeTracker.machineDeployments.upgrading.add('md')
  const ctx = scriptedContext()
  await callAfterClusterUpgrade(busy, ctx)
  t.equal(ctx.calls.length, 0, 'a worker is still upgrading')
  const stable = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, cluster: pending })
  await callAfterClusterUpgrade(stable, ctx)
  t.match(ctx.calls, [{ hook: 'AfterClusterUpgrade', request: { kubernetesVersion: 'v1.35.0' } }])
  t.notOk(isPending(AfterClusterUpgrade, stable.current.cluster))
  const held = await exampleScope({ cluster: pending })
  await callAfterClusterUpgrade(held, scriptedContext({ AfterClusterUpgrade: { retryAfterSeconds: 5 } }))
  t.ok(isPending(AfterClusterUpgrade, held.current.cluster), 'a retry keeps it pending')
})

t.test('BeforeClusterDelete: once it lets go, the ok-to-delete annotation; afterwards it is not called', async t => {
  const s = await exampleScope()
  t.notOk(await callBeforeClusterDeleteHook(s, scriptedContext({ BeforeClusterDelete: { retryAfterSeconds: 10 } })))
  const ctx = scriptedContext()
  t.ok(await callBeforeClusterDeleteHook(s, ctx))
  t.equal(s.current.cluster.metadata.annotations?.['runtime.cluster.x-k8s.io/ok-to-delete'], '')
  t.ok(await callBeforeClusterDeleteHook(s, ctx))
  t.equal(ctx.calls.length, 1)
})

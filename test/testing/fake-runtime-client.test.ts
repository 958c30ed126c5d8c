import t from 'tap'
import { BeforeClusterCreate, BeforeClusterUpgrade, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { RuntimeCallError, type RuntimeClient } from '../../src/client/index.js'
import { FakeRuntimeClient, sampleRequest } from '../../src/testing/index.js'

const cluster = sampleRequest(BeforeClusterUpgrade).cluster
const request = sampleRequest(BeforeClusterUpgrade)

// What a controller author writes: code against RuntimeClient, tested with the fake.
async function upgradeMayStart (client: RuntimeClient): Promise<{ start: boolean, retryAfterSeconds: number }> {
  const { response } = await client.callAllExtensions(BeforeClusterUpgrade, cluster, request)
  return { start: response.retryAfterSeconds === 0, retryAfterSeconds: response.retryAfterSeconds }
}

t.test('aggregates scripted answers like the real client and records every call', async t => {
  const fake = new FakeRuntimeClient()
    .handle(BeforeClusterUpgrade, 'backup.ext-b', { status: 'Success', message: 'backing up', retryAfterSeconds: 30 })
    .handle(BeforeClusterUpgrade, 'quota.ext-a', (req) => ({ status: 'Success', message: `to ${req.toKubernetesVersion}`, retryAfterSeconds: 10 }))
    .handle(BeforeClusterCreate, 'other.ext-a', { status: 'Success' })
  t.same(await upgradeMayStart(fake), { start: false, retryAfterSeconds: 10 }, 'the lowest non-zero retryAfterSeconds')
  const { response, handlers } = await fake.callAllExtensions(BeforeClusterUpgrade, cluster, request)
  t.same(response, { kind: 'BeforeClusterUpgradeResponse', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', status: 'Success', message: 'backing up, to v1.33.0', retryAfterSeconds: 10 }, 'messages in handler name order')
  t.same(handlers.map(h => [h.name, h.outcome]), [['backup.ext-b', 'success'], ['quota.ext-a', 'success']])
  t.same(fake.callsOf(BeforeClusterUpgrade).map(c => c.name), ['backup.ext-b', 'quota.ext-a', 'backup.ext-b', 'quota.ext-a'], 'in name order, every call')
  t.equal(fake.callsOf(BeforeClusterCreate).length, 0)
  t.same(fake.calls[0]?.request, request, 'the request as sent')
  t.same(await fake.getAllExtensions(BeforeClusterUpgrade, cluster), ['backup.ext-b', 'quota.ext-a'])
})

t.test('a Failure answer fails the call with Cluster API\'s message; failurePolicy Ignore swallows call errors', async t => {
  const fake = new FakeRuntimeClient()
    .handle(BeforeClusterUpgrade, 'a.ext', { error: 'context deadline exceeded' }, { failurePolicy: 'Ignore' })
    .handle(BeforeClusterUpgrade, 'b.ext', { status: 'Failure', message: 'backup failed' })
  const err = await fake.callAllExtensions(BeforeClusterUpgrade, cluster, request).catch((e: unknown) => e)
  t.ok(err instanceof RuntimeCallError)
  t.equal((err as RuntimeCallError).message, 'failed to call extension handlers for hook "BeforeClusterUpgrade.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "b.ext": got failure response with message: backup failed')
  t.same((err as RuntimeCallError).handlers.map(h => [h.name, h.outcome, h.ignored]), [['a.ext', 'ignored', true], ['b.ext', 'failure', false]])
  t.equal((err as RuntimeCallError).code, 'ERR_RUNTIME_SDK_CALL')

  fake.handle(BeforeClusterUpgrade, 'b.ext', { error: 'connection refused' })
  await t.rejects(fake.callAllExtensions(BeforeClusterUpgrade, cluster, request), { message: /failed to call extension handler "b.ext": http call failed: connection refused$/ })
})

t.test('callExtension by name, namespace matching, readiness and request validation', async t => {
  const fake = new FakeRuntimeClient({ ready: false })
    .handle(GeneratePatches, 'patch.ext', { status: 'Success', items: [{ uid: 'u1', patchType: 'JSONPatch', patch: 'W10=' }] }, { matches: o => o.metadata?.namespace === 'default' })
  const patches = sampleRequest(GeneratePatches)
  await t.rejects(fake.callAllExtensions(GeneratePatches, cluster, patches), /registry which has not been warmed up/)
  fake.warmUp([])
  t.equal(fake.isReady(), true)
  const { response } = await fake.callExtension(GeneratePatches, cluster, 'patch.ext', patches)
  t.same(response.items, [{ uid: 'u1', patchType: 'JSONPatch', patch: 'W10=' }])
  await t.rejects(fake.callExtension(GeneratePatches, { metadata: { name: 'c', namespace: 'other' } }, 'patch.ext', patches), { message: 'failed to call extension handler "patch.ext": namespaceSelector did not match object other/c' })
  t.same((await fake.callAllExtensions(GeneratePatches, { metadata: { namespace: 'other' } }, patches)).handlers, [], 'no matching handler')
  await t.rejects(fake.callExtension(BeforeClusterCreate, cluster, 'patch.ext', { cluster }), /handler does not match GroupHook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io"/)
  await t.rejects(fake.callExtension(GeneratePatches, cluster, 'nope.ext', patches), /"nope.ext" has not been registered/)
  await t.rejects(fake.callAllExtensions(BeforeClusterCreate, cluster, { cluster: 'x' } as never), /request object is invalid for hook: cluster/)
})

t.test('register, unregister and discover', async t => {
  const fake = new FakeRuntimeClient().handle(BeforeClusterCreate, 'hold.ext', { status: 'Success' })
  const ec = { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec: { clientConfig: { url: 'https://127.0.0.1:9443' }, namespaceSelector: {} } }
  fake.register(ec)
  t.same([...fake.registered.keys()], ['ext'])
  const discovered = await fake.discover(ec)
  t.same(discovered.status?.handlers, [{ name: 'hold.ext', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' }])
  fake.unregister(ec)
  t.equal(fake.registered.size, 0)
})

// The ExtensionConfig controller against a real kube-apiserver: deploy/ manifests accepted, discovery into
// status, CA injection from a Secret created later, deletion, leader election with fail-over, an apiserver
// restart, v1alpha1 objects through the conversion webhook the controller serves, read-only registration.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'
import { runController, type RunningController } from '../../src/controller/run.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createExtensionServer } from '../../src/server/server.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { waitFor } from '../helpers/wait.js'
import { conversionWebhookPatch, startControlPlane, UNREACHABLE_CONVERSION_URL } from '../../tools/harness/control-plane.js'

const root = join(import.meta.dirname, '..', '..')
const cp = await startControlPlane()
t.teardown(() => cp.stop())

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
const getEC = async (name: string, version = 'v1beta2'): Promise<ExtensionConfig | undefined> => {
  const r = await cp.kubectl(['get', `extensionconfigs.${version}.runtime.cluster.x-k8s.io`, name, '-o', 'json'])
  return r.code === 0 ? JSON.parse(r.stdout) as ExtensionConfig : undefined
}
const discoveredCondition = (ec: ExtensionConfig | undefined) => ec?.status?.conditions?.find(c => c.type === 'Discovered')
const apply = (doc: unknown) => kubectl(['apply', '-f', '-'], JSON.stringify(doc))

// The reference extension over TLS on loopback, and a CA for the conversion webhook.
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-e2e-controller-'))
const ca = await createCertificateAuthority('e2e CA')
const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' })
await writeFile(join(dir, 'tls.crt'), leaf.cert)
await writeFile(join(dir, 'tls.key'), leaf.key)
const caBundle = Buffer.from(ca.cert).toString('base64')
const extension = createExtensionServer({ handlers: referenceHandlers(), tls: { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') }, logLevel: 'silent' })
const extensionUrl = await extension.listen({ host: '127.0.0.1', port: 0 })
t.teardown(() => extension.close())
const handlerCount = extension.routes.length - 1

const extensionConfig = (name: string, extra: { annotations?: Record<string, string>, caBundle?: string | false, url?: string } = {}) => ({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
  spec: { clientConfig: { url: extra.url ?? extensionUrl, ...(extra.caBundle === false ? {} : { caBundle: extra.caBundle ?? caBundle }) } }
})

const controllers: RunningController[] = []
t.teardown(async () => { for (const c of controllers) await c.stop() })
const start = async (options: Partial<Parameters<typeof runController>[0]> = {}) => {
  const running = await runController({ kubeconfig: cp.kubeconfigPath, http: { host: '127.0.0.1', port: 0 }, ...options })
  controllers.push(running)
  return running
}
const leaseOptions = { namespace: 'runtime-sdk-system', name: 'e2e-controller', leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 }

t.test('deploy/: the CRD, the controller with its RBAC, the reference extension and the sample are accepted', async t => {
  await kubectl(['apply', '-k', join(root, 'deploy/crd')])
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/extensionconfigs.runtime.cluster.x-k8s.io'])
  // Before any object goes through it: the shipped conversion webhook is a `service:`, which must not be dialled here.
  await kubectl(['patch', 'crd', 'extensionconfigs.runtime.cluster.x-k8s.io', '--type=merge', '-p', conversionWebhookPatch(UNREACHABLE_CONVERSION_URL)])
  for (const base of ['controller', 'reference-extension', 'samples']) {
    const out = await kubectl(['apply', '-k', join(root, 'deploy', base)])
    t.ok(out.length > 0, `kubectl apply -k deploy/${base}: ${out.trim().split('\n').join('; ')}`)
  }
  t.match(await kubectl(['get', 'clusterrole', 'runtime-sdk-controller', '-o', 'name']), /runtime-sdk-controller/)
  t.match(await kubectl(['get', 'ext', 'reference-extension', '-o', 'jsonpath={.spec.clientConfig.service.port}']), '443')
  // The sample names a Service. Before any controller runs it points at loopback instead: it stays undiscovered (its
  // CA Secret never comes) and, should anything try, nothing is dialled off this machine.
  await kubectl(['patch', 'ext', 'reference-extension', '--type=merge', '-p', JSON.stringify({ spec: { clientConfig: { service: null, url: 'https://127.0.0.1:1' } } })])
  const all = await kubectl(['kustomize', join(root, 'deploy/default')])
  for (const kind of ['CustomResourceDefinition', 'Deployment', 'Certificate', 'Issuer', 'ExtensionConfig', 'ClusterRole', 'Role']) t.match(all, `kind: ${kind}\n`, `deploy/default renders a ${kind}`)
  const ms = (await cp.kubectl(['apply', '-k', join(root, 'deploy/cert-manager')]))
  t.not(ms.code, 0, 'cert-manager objects need cert-manager\'s CRDs, which this control plane does not have')
})

t.test('the controller\'s RBAC is enough to do its work', async t => {
  const check = async (verb: string, resource: string, ns?: string) => {
    const [kind, subresource] = resource.split('/')
    const args = ['auth', 'can-i', verb, kind as string, '--as=system:serviceaccount:runtime-sdk-system:runtime-sdk-controller']
    return (await cp.kubectl([...args, ...(subresource ? [`--subresource=${subresource}`] : []), ...(ns ? ['-n', ns] : [])])).stdout.trim()
  }
  t.equal(await check('watch', 'extensionconfigs.runtime.cluster.x-k8s.io'), 'yes')
  t.equal(await check('update', 'extensionconfigs.runtime.cluster.x-k8s.io/status'), 'yes')
  t.equal(await check('patch', 'extensionconfigs.runtime.cluster.x-k8s.io'), 'yes')
  t.equal(await check('watch', 'secrets'), 'yes')
  t.equal(await check('update', 'leases.coordination.k8s.io', 'runtime-sdk-system'), 'yes')
  t.equal(await check('delete', 'extensionconfigs.runtime.cluster.x-k8s.io'), 'no')
  t.equal(await check('update', 'secrets'), 'no')
  t.equal(await check('update', 'leases.coordination.k8s.io', 'default'), 'no')
})

t.test('discovery fills status; a CA Secret created later is picked up within seconds; deletion unregisters', async t => {
  const running = await start({ webhook: { host: '127.0.0.1', port: 0, certDir: dir } })
  const c = running.controller
  await c.ready()
  await apply(extensionConfig('direct'))
  const direct = await waitFor(async () => { const ec = await getEC('direct'); return discoveredCondition(ec)?.status === 'True' && ec }, { timeoutMs: 20_000, message: 'direct discovered' })
  t.equal(direct.status?.handlers?.length, handlerCount)
  t.match(discoveredCondition(direct), { reason: 'Discovered', observedGeneration: direct.metadata.generation })
  t.match(direct.status?.conditions?.find(x => x.type === 'Paused'), { status: 'False', reason: 'NotPaused' })
  t.equal(c.client.registry.all().filter(r => r.extensionConfigName === 'direct').length, handlerCount)
  t.match(await kubectl(['get', 'ext', 'direct']), /NAME\s+DISCOVERED\s+AGE\n\s*direct\s+True/)

  await apply(extensionConfig('injected', { caBundle: false, annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'default/injected-ca' } }))
  await waitFor(async () => discoveredCondition(await getEC('injected'))?.reason === 'WaitingForCASecret', { timeoutMs: 20_000, message: 'waiting condition' })
  t.match(discoveredCondition(await getEC('injected')), { status: 'False', message: 'waiting for secret default/injected-ca to exist' })
  const created = Date.now()
  await apply({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'default', name: 'injected-ca' }, data: { 'ca.crt': caBundle } })
  const injected = await waitFor(async () => { const ec = await getEC('injected'); return discoveredCondition(ec)?.status === 'True' && ec }, { timeoutMs: 20_000, message: 'injected discovered' })
  t.ok(Date.now() - created < 5000, `picked up ${Date.now() - created} ms after the Secret was created`)
  t.equal(injected.spec.clientConfig.caBundle, caBundle)
  t.equal(c.reports().find(r => r.name === 'injected')?.failures, 0, 'waiting was not an error loop')

  await kubectl(['delete', 'ext', 'direct'])
  await waitFor(() => c.client.registry.all().every(r => r.extensionConfigName !== 'direct'), { message: 'direct unregistered' })
  t.pass('deleting an ExtensionConfig unregisters its handlers')
})

t.test('v1alpha1 objects convert both ways through the controller\'s conversion webhook', async t => {
  const webhookUrl = controllers[0]?.webhookUrl
  t.ok(webhookUrl)
  await kubectl(['patch', 'crd', 'extensionconfigs.runtime.cluster.x-k8s.io', '--type=merge', '-p', conversionWebhookPatch(`${webhookUrl}/convert`, caBundle)])
  const old = { apiVersion: 'runtime.cluster.x-k8s.io/v1alpha1', kind: 'ExtensionConfig', metadata: { name: 'old' }, spec: { clientConfig: { url: extensionUrl, caBundle } } }
  await waitFor(async () => { await apply(old); return true }, { timeoutMs: 20_000, message: 'v1alpha1 apply through the webhook' })
  const hub = await waitFor(async () => { const ec = await getEC('old'); return discoveredCondition(ec)?.status === 'True' && ec }, { timeoutMs: 20_000, message: 'old discovered' })
  t.equal(hub.spec.namespaceSelector !== undefined, true, 'defaulted in the hub')
  const spoke = await getEC('old', 'v1alpha1') as unknown as { status: { conditions?: Array<{ type: string }>, v1beta2?: { conditions: Array<{ type: string, status: string }> } } }
  t.match(spoke.status.v1beta2?.conditions, [{ type: 'Discovered', status: 'True' }], 'v1beta2 conditions under status.v1beta2 in v1alpha1')
  t.match(spoke.status.conditions, [{ type: 'Discovered', status: 'True' }], 'legacy conditions as v1alpha1 status.conditions')
})

t.test('an apiserver restart loses no update', async t => {
  const c = controllers[0]!.controller
  await cp.restartApiServer()
  await apply(extensionConfig('after-restart'))
  await waitFor(async () => discoveredCondition(await getEC('after-restart'))?.status === 'True', { timeoutMs: 30_000, message: 'discovered after restart' })
  await waitFor(() => c.client.registry.all().some(r => r.extensionConfigName === 'after-restart'), { message: 'registered after restart' })
  await kubectl(['delete', 'ext', 'after-restart'])
  await waitFor(() => c.client.registry.all().every(r => r.extensionConfigName !== 'after-restart'), { message: 'unregistered after restart' })
  t.pass('changes after the restart were seen')
})

t.test('read-only registers what status says and writes nothing', async t => {
  const readOnly = await start({ readOnly: true })
  await readOnly.controller.ready()
  const before = (await getEC('injected'))?.metadata.resourceVersion
  await waitFor(() => readOnly.controller.client.registry.all().some(r => r.extensionConfigName === 'injected'), { message: 'read-only registration' })
  t.equal((await getEC('injected'))?.metadata.resourceVersion, before, 'no writes')
  t.notOk(readOnly.controller.client.registry.all().some(r => r.extensionConfigName === 'reference-extension'), 'an undiscovered ExtensionConfig is not registered')
  await readOnly.stop()
  controllers.splice(controllers.indexOf(readOnly), 1)
})

t.test('two replicas elect one leader and fail over when it stops', async t => {
  for (const c of controllers.splice(0)) await c.stop()
  const a = await start({ leaderElection: { ...leaseOptions, identity: 'a' } })
  const b = await start({ leaderElection: { ...leaseOptions, identity: 'b' } })
  await waitFor(() => a.elector!.isLeader() || b.elector!.isLeader(), { timeoutMs: 10_000, message: 'a leader' })
  const [leader, standby] = a.elector!.isLeader() ? [a, b] : [b, a]
  t.notOk(standby.elector!.isLeader(), 'exactly one leader')
  t.equal(standby.controller.mode, 'read-only')
  await standby.controller.ready()
  await waitFor(() => standby.controller.client.registry.all().some(r => r.extensionConfigName === 'injected'), { message: 'the standby registers from status' })

  await leader.stop()
  controllers.splice(controllers.indexOf(leader), 1)
  await waitFor(() => standby.elector!.isLeader(), { timeoutMs: 10_000, message: 'fail-over' })
  t.equal(standby.controller.mode, 'write')
  await apply(extensionConfig('after-failover'))
  await waitFor(async () => discoveredCondition(await getEC('after-failover'))?.status === 'True', { timeoutMs: 20_000, message: 'the new leader discovers' })
  t.pass('the new leader writes status')
})

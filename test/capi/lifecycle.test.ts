// A cluster's life driven by Cluster API v1.14.2's own managers (core, kubeadm bootstrap and control plane, CAPD's
// in-memory backend) against our reference extension served by `runtime-sdk serve`:
// - a ClusterClass whose external patch names our DiscoverVariables, ValidateTopology and GeneratePatches handlers,
//   and whose upgrade plan comes from our GenerateUpgradePlan: Cluster API fills its variables from our answer and
//   the Cluster's templates carry what our GeneratePatches answered;
// - creation held by BeforeClusterCreate (retryAfterSeconds from the responses file) until released,
//   AfterControlPlaneInitialized, an upgrade held by BeforeClusterUpgrade (which `runtime-sdk held` explains as Cluster
//   API's TopologyReconciled condition says it) then through every upgrade hook, a GeneratePatches made to fail (which
//   `runtime-sdk held` explains too), deletion held by BeforeClusterDelete until released;
// - every call seen by our server's metrics and Cluster API's capi_runtime_sdk_requests_total, answered 200 and
//   decoded: Cluster API counts no call error and logs none.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { stringify } from 'yaml'
import { ANNOTATION, VARIABLE } from '../../src/reference-extension/index.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { counter } from '../helpers/prometheus.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { API, call } from '../helpers/server.js'
import { runCliHere } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(1_200_000)
const FROM = 'v1.34.0'
const TO = 'v1.35.0'
const EC = 'reference'
const LONG = { timeoutMs: 240_000, intervalMs: 500 }

const cp = await startControlPlane()
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { log: (m) => t.comment(m) })
t.teardown(() => capi.stop())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-lifecycle-'))
const responses = join(dir, 'responses.yaml')
const answer = (preset: Record<string, { status?: 'Success' | 'Failure', retryAfterSeconds?: number, message?: string }>) => writeFile(responses, stringify(preset))
await answer({})
const extension = await serveReferenceExtension(join(dir, 'certs'), { responses })
t.teardown(() => { extension.child.kill('SIGKILL') })

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
type Obj = { metadata: { name: string, annotations?: Record<string, string>, deletionTimestamp?: string }, spec: Record<string, any>, status?: Record<string, any> }
const get = async (kind: string, name: string) => JSON.parse(await kubectl(['get', kind, name, '-n', 'default', '-o', 'json'])) as Obj
const list = async (kind: string) => (JSON.parse(await kubectl(['get', kind, '-n', 'default', '-o', 'json'])) as { items: Obj[] }).items
const condition = (o: Obj, type: string) => (o.status?.conditions as Array<{ type: string, status: string, message?: string, reason?: string, lastTransitionTime?: string }> | undefined)?.find(c => c.type === type)
const ours = async (hook: string) => counter(await extension.metrics(), 'runtime_sdk_extension_requests_total', { hook })
const theirs = async (hook: string, labels: Record<string, string> = {}) => counter(await capi.manager('core').metrics(), 'capi_runtime_sdk_requests_total', { hook, ...labels })
const calledAgain = async (hook: string, times = 2) => { const before = await ours(hook); await waitFor(async () => await ours(hook) >= before + times, { ...LONG, message: `${hook} called ${times} more times` }) }

await kubectl(['apply', '-f', '-'], JSON.stringify({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: EC },
  spec: { clientConfig: { url: extension.url, caBundle: extension.caBundle }, namespaceSelector: {} }
}))
await waitFor(async () => condition(await get('extensionconfigs.runtime.cluster.x-k8s.io', EC), 'Discovered')?.status === 'True', { ...LONG, message: 'Discovered' })

// The Cluster, ClusterClass and templates of examples/simulate/ (what test/capi/simulate.test.ts simulates too): the
// templates as Cluster API's own in-memory ClusterClass sets them, one external patch and the upgrade plan from the
// ExtensionConfig "reference".
const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
await kubectl(['apply', '-f', join(EXAMPLE, 'templates.yaml'), '-f', join(EXAMPLE, 'clusterclass.yaml')])

t.test('Cluster API fills the ClusterClass variables from our DiscoverVariables answer', async t => {
  const cc = await waitFor(async () => { const cc = await get('clusterclass', 'loop'); return condition(cc, 'VariablesReady')?.status === 'True' && cc }, { ...LONG, message: 'VariablesReady' })
  const reply = await call(extension.url, `/${API}/discovervariables/discover-variables`, '{}', { ca: extension.ca, contentType: 'application/json' })
  const ours = (reply.json as { variables: Array<{ name: string, required: boolean, schema: unknown }> }).variables
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
  t.ok(ours.some(v => v.name === VARIABLE))
  t.same([...cc.status?.variables ?? []].sort(byName), ours.map(v => ({ name: v.name, definitionsConflict: false, definitions: [{ from: 'reference', required: v.required, schema: v.schema }] })).sort(byName))
})

t.test('creating a Cluster: BeforeClusterCreate holds it until released, our patches land on its templates', async t => {
  await answer({ BeforeClusterCreate: { retryAfterSeconds: 2, message: 'held by the test' } })
  await kubectl(['apply', '-f', join(EXAMPLE, 'cluster.yaml')])
  await calledAgain('BeforeClusterCreate', 2)
  const held = await get('cluster', 'loop')
  t.notOk(held.spec.controlPlaneRef, 'no control plane while held')
  t.same(await list('kubeadmcontrolplanes'), [], 'none created')

  await answer({})
  const cluster = await waitFor(async () => { const c = await get('cluster', 'loop'); return c.spec.controlPlaneRef && c }, { ...LONG, message: 'the control plane is created once released' })
  t.ok(await ours('ValidateTopology') > 0, 'ValidateTopology called')
  t.ok(await ours('GeneratePatches') > 0, 'GeneratePatches called')
  const kcp = await get('kubeadmcontrolplanes', cluster.spec.controlPlaneRef.name)
  const md = (await list('machinedeployments'))[0] as Obj
  const patched = [
    await get('devmachinetemplates', kcp.spec.machineTemplate.spec.infrastructureRef.name),
    await get('devmachinetemplates', md.spec.template.spec.infrastructureRef.name),
    await get('kubeadmconfigtemplates', md.spec.template.spec.bootstrap.configRef.name)
  ]
  for (const template of patched) t.equal(template.metadata.annotations?.[ANNOTATION], 'team-a', `${template.metadata.name} carries our patch`)
})

t.test('the control plane comes up: AfterControlPlaneInitialized', async t => {
  await waitFor(async () => await ours('AfterControlPlaneInitialized') > 0, { ...LONG, message: 'AfterControlPlaneInitialized called' })
  t.ok(await theirs('AfterControlPlaneInitialized', { code: '200', status: 'Success' }) > 0)
})

t.test('an upgrade: GenerateUpgradePlan, BeforeClusterUpgrade holding it until released, then every upgrade hook', async t => {
  await waitFor(async () => (await list('machines')).filter(m => m.status?.phase === 'Running').length === 2, { ...LONG, message: 'both machines running' })
  await answer({ BeforeClusterUpgrade: { retryAfterSeconds: 2, message: 'held by the test' } })
  await kubectl(['patch', 'cluster', 'loop', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { topology: { version: TO } } })])
  await calledAgain('BeforeClusterUpgrade', 2)
  t.ok(await ours('GenerateUpgradePlan') > 0, 'GenerateUpgradePlan called')
  const cluster = await get('cluster', 'loop')
  t.equal((await get('kubeadmcontrolplanes', cluster.spec.controlPlaneRef.name)).spec.version, FROM, 'the control plane waits')
  // `runtime-sdk held` explains it as Cluster API's condition says it: the hook, the extension's message, since when.
  await waitFor(async () => condition(await get('cluster', 'loop'), 'TopologyReconciled')?.message?.includes('BeforeClusterUpgrade') === true, { ...LONG, message: 'TopologyReconciled names BeforeClusterUpgrade' })
  const reconciled = condition(await get('cluster', 'loop'), 'TopologyReconciled') as { status: string, reason: string, message: string, lastTransitionTime: string }
  const held = await runCliHere(['held', '--kubeconfig', cp.kubeconfigPath, '-n', 'default', '--cluster', 'loop', '--call', '-o', 'json'])
  t.equal(held.code, 0, held.stderr)
  t.match(JSON.parse(held.stdout), [{
    cluster: 'default/loop',
    topologyReconciled: { status: 'False', reason: 'ClusterUpgrading', message: reconciled.message, since: reconciled.lastTransitionTime },
    holding: [{ hook: 'BeforeClusterUpgrade', state: 'blocking', since: reconciled.lastTransitionTime, message: 'held by the test', handlers: ['before-cluster-upgrade.reference'], undiscovered: [], now: { status: 'Success', retryAfterSeconds: 2, message: 'held by the test' } }]
  }], 'held: BeforeClusterUpgrade of the reference extension, with its message; called now, it still holds')

  await answer({})
  for (const hook of ['BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade']) {
    await waitFor(async () => await ours(hook) > 0, { ...LONG, message: `${hook} called` })
    t.ok(await theirs(hook, { code: '200', status: 'Success' }) > 0, `${hook}: called by Cluster API, answered and decoded`)
  }
  t.equal((await get('kubeadmcontrolplanes', cluster.spec.controlPlaneRef.name)).spec.version, TO, 'the control plane is upgraded')
})

t.test('a failing GeneratePatches: held explains it from TopologyReconciled, the hook and the handler', async t => {
  await answer({ GeneratePatches: { status: 'Failure', message: 'patches refused by the test' } })
  // A change to the Cluster makes the topology controller reconcile it, and call GeneratePatches, again.
  await kubectl(['annotate', 'cluster', 'loop', '-n', 'default', '--overwrite', `runtime-sdk.x-k8s.io/nudge=${Date.now()}`])
  const failed = await waitFor(async () => {
    const c = condition(await get('cluster', 'loop'), 'TopologyReconciled')
    return c?.reason === 'ReconcileFailed' && c.message?.includes('patches refused by the test') === true && c
  }, { ...LONG, message: 'TopologyReconciled ReconcileFailed with our message' })
  const held = await runCliHere(['held', '--kubeconfig', cp.kubeconfigPath, '-n', 'default', '--cluster', 'loop', '-o', 'json'])
  t.equal(held.code, 0, held.stderr)
  t.match(JSON.parse(held.stdout), [{
    cluster: 'default/loop',
    topologyReconciled: { status: 'False', reason: 'ReconcileFailed', message: failed.message },
    holding: [{ hook: 'GeneratePatches', state: 'failed', handlers: ['generate-patches.reference'], message: /patches refused by the test/, undiscovered: [] }]
  }], 'held: GeneratePatches of the reference extension failed, with its message')
  await answer({})
  await kubectl(['annotate', 'cluster', 'loop', '-n', 'default', '--overwrite', `runtime-sdk.x-k8s.io/nudge=${Date.now()}`])
  await waitFor(async () => condition(await get('cluster', 'loop'), 'TopologyReconciled')?.status === 'True', { ...LONG, message: 'TopologyReconciled once GeneratePatches answers again' })
})

t.test('deleting: BeforeClusterDelete holds it until released', async t => {
  await answer({ BeforeClusterDelete: { retryAfterSeconds: 2, message: 'held by the test' } })
  await kubectl(['delete', 'cluster', 'loop', '-n', 'default', '--wait=false'])
  await calledAgain('BeforeClusterDelete', 2)
  t.ok((await get('cluster', 'loop')).metadata.deletionTimestamp, 'the Cluster waits, marked for deletion')
  await answer({})
  await waitFor(async () => (await list('clusters')).length === 0, { ...LONG, message: 'the Cluster is gone once released' })
})

t.test('every call answered and decoded: Cluster API counts no error and logs none but the Failure we asked for', async t => {
  const metrics = await capi.manager('core').metrics()
  t.equal(counter(metrics, 'capi_runtime_sdk_requests_total', { code: '<error>' }), 0, 'no call error')
  t.equal(counter(metrics, 'capi_runtime_sdk_requests_total', { status: 'Failure' }), counter(metrics, 'capi_runtime_sdk_requests_total', { hook: 'GeneratePatches', status: 'Failure' }), 'no Failure but GeneratePatches\'')
  t.same(capi.manager('core').log().split('\n').filter(line => /failed to (call|decode|unmarshal)/i.test(line) && !line.includes('patches refused by the test')), [])
})

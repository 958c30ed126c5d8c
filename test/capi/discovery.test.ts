// Cluster API's own ExtensionConfig reconciler (its core manager, v1.14.2) discovers our reference extension served by
// `runtime-sdk serve`, with the CA inline and injected from a Secret, and writes in status exactly the handlers,
// timeouts and failure policies we advertise; our controller in --read-only mode beside it registers exactly what it
// wrote, and our runtime client calls those handlers.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { AfterControlPlaneInitialized, BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { runController } from '../../src/controller/run.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { counter } from '../helpers/prometheus.js'
import { API, call } from '../helpers/server.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(600_000)
const cp = await startControlPlane()
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { providers: ['core'] })
t.teardown(() => capi.stop())
const extension = await serveReferenceExtension(await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-discovery-')))
t.teardown(() => { extension.child.kill('SIGKILL') })

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}

interface Handler { name: string, requestHook: { apiVersion: string, hook: string }, timeoutSeconds?: number, failurePolicy?: string }
interface Status { conditions?: Array<{ type: string, status: string, message?: string }>, handlers?: Handler[] }
const getEC = async (name: string) => JSON.parse(await kubectl(['get', 'extensionconfigs.runtime.cluster.x-k8s.io', name, '-o', 'json', '--show-managed-fields'])) as
  { metadata: { managedFields: Array<{ manager: string }> }, spec: { clientConfig: { caBundle?: string } }, status?: Status }
const discovered = (name: string) => waitFor(async () => {
  const ec = await getEC(name)
  const condition = ec.status?.conditions?.find(c => c.type === 'Discovered')
  // Not yet: the condition's message becomes the timeout's "last error", saying what Cluster API objected to.
  if (condition?.status !== 'True') throw new Error(`Discovered=${condition?.status}: ${condition?.message}`)
  // Cluster API's patch helper writes the conditions before the rest of status, so handlers can lag the condition.
  if (ec.status?.handlers === undefined) throw new Error('Discovered=True, handlers not written yet')
  return ec
}, { timeoutMs: 60_000, intervalMs: 250, message: `Cluster API sets Discovered=True and writes the handlers on ${name}` })

// What our server advertises, with the defaults Cluster API documents for what a handler leaves out.
const advertised = async (ecName: string) => {
  const reply = await call(extension.url, `/${API}/discovery`, '{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryRequest"}', { ca: extension.ca, contentType: 'application/json' })
  const handlers = (reply.json as { handlers: Handler[] }).handlers
  return handlers.map(h => ({ name: `${h.name}.${ecName}`, requestHook: h.requestHook, timeoutSeconds: h.timeoutSeconds ?? 10, failurePolicy: h.failurePolicy ?? 'Fail' }))
}
const byName = (a: Handler, b: Handler) => a.name.localeCompare(b.name)

const extensionConfig = (name: string, clientConfig: Record<string, string>, annotations?: Record<string, string>) => JSON.stringify({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { clientConfig: { url: extension.url, ...clientConfig }, namespaceSelector: {} }
})

t.test('Cluster API discovers our extension with the CA inline: every handler as we advertise it', async t => {
  await kubectl(['apply', '-f', '-'], extensionConfig('inline', { caBundle: extension.caBundle }))
  const ec = await discovered('inline')
  const expected = (await advertised('inline')).sort(byName)
  t.ok(expected.length >= 16, `the reference extension advertises every hook (${expected.length} handlers)`)
  t.same(ec.status?.handlers?.slice().sort(byName), expected)
  t.ok(counter(await capi.manager('core').metrics(), 'capi_runtime_sdk_requests_total', { hook: 'Discovery', code: '200', status: 'Success' }) > 0, 'counted by Cluster API')
  t.ok(counter(await extension.metrics(), 'runtime_sdk_extension_requests_total', { hook: 'Discovery', status: 'Success' }) > 0, 'and by our server')
})

t.test('and with the CA injected from a Secret (runtime.cluster.x-k8s.io/inject-ca-from-secret)', async t => {
  await kubectl(['create', 'secret', 'generic', 'extension-ca', '-n', 'default', `--from-literal=ca.crt=${extension.ca}`])
  await kubectl(['apply', '-f', '-'], extensionConfig('injected', {}, { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'default/extension-ca' }))
  const ec = await discovered('injected')
  t.equal(ec.spec.clientConfig.caBundle, extension.caBundle, 'Cluster API wrote the CA into the spec')
  t.same(ec.status?.handlers?.slice().sort(byName), (await advertised('injected')).sort(byName))
})

t.test('our controller --read-only beside Cluster API registers exactly what it wrote, and calls it', async t => {
  const running = await runController({ kubeconfig: cp.kubeconfigPath, readOnly: true })
  t.teardown(() => running.stop())
  await running.controller.ready()
  const registry = running.controller.client.registry
  const written = [...(await getEC('inline')).status?.handlers ?? [], ...(await getEC('injected')).status?.handlers ?? []]
  await waitFor(() => registry.all().length === written.length, { timeoutMs: 30_000, message: `${written.length} handlers registered` })
  t.same(
    registry.all().map(r => ({ name: r.name, requestHook: { apiVersion: `${r.gvh.group}/${r.gvh.version}`, hook: r.gvh.hook }, timeoutSeconds: r.timeoutSeconds, failurePolicy: r.failurePolicy })).sort(byName),
    written.sort(byName))

  const cluster = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' } }
  for (const hook of [BeforeClusterCreate, AfterControlPlaneInitialized]) {
    const result = await running.controller.client.callAllExtensions(hook, cluster, { cluster })
    t.equal(result.response.status, 'Success', `${hook.hook} answers through our client`)
    t.same(result.handlers.map(h => h.outcome), ['success', 'success'], 'one handler per ExtensionConfig')
  }
  // Cluster API keeps writing status; no write is ours (the API server names each writer in managedFields).
  await new Promise(resolve => setTimeout(resolve, 1000))
  const writers = (await Promise.all(['inline', 'injected'].map(getEC))).flatMap(ec => ec.metadata.managedFields.map(f => f.manager))
  t.notOk(writers.some(w => w.startsWith('runtime-sdk')), `and writes nothing (writers: ${[...new Set(writers)].join(', ')})`)
})

t.test('Cluster API logged no error calling or decoding', async t => {
  t.notMatch(capi.manager('core').log(), /failed to (call|decode|unmarshal)|Discovery failed/i)
})

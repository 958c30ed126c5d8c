// The controller on the file source: discovery into status, CA injection waiting for its Secret, pause,
// deletion, invalid manifests, failures that degrade only their own ExtensionConfig, re-discovery.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { stringify } from 'yaml'
import type { ObservedCondition } from '../../src/api/extension-config/types.js'
import { createCatalog } from '../../src/catalog/default.js'
import { HttpRuntimeClient } from '../../src/client/client.js'
import { Controller, type ControllerOptions } from '../../src/controller/controller.js'
import { FileSource } from '../../src/controller/file-source.js'
import { testGroupVersions, TEST_GROUP } from '../helpers/test-hooks.js'
import { createPki, deadPort, json, type Route, startExtension } from '../helpers/test-extension.js'
import { waitFor } from '../helpers/wait.js'

const HOOKS = '/hooks.runtime.cluster.x-k8s.io/v1alpha1'
const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
const pki = await createPki()
const caCrt = Buffer.from(pki.ca.cert).toString('base64')

const handlers = [
  { name: 'bcc', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } },
  { name: 'acpi', requestHook: { apiVersion: API, hook: 'AfterControlPlaneInitialized' }, timeoutSeconds: 3, failurePolicy: 'Ignore' }
]
const discovery = (list: unknown[]): Route => (_r, res) => json(res, { status: 'Success', handlers: list })

function extensionConfig (name: string, url: string, extra: { annotations?: Record<string, string>, caBundle?: string | false, apiVersion?: string } = {}) {
  return {
    apiVersion: extra.apiVersion ?? 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { clientConfig: { url, ...(extra.caBundle === false ? {} : { caBundle: extra.caBundle ?? pki.caBundle }) } }
  }
}

const secret = (namespace: string, name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name }, data })

async function setup (t: Test, routes: Record<string, Route>, options: Partial<ControllerOptions> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-ctrl-'))
  const ext = await startExtension(pki.server, routes)
  let controller: Controller | undefined
  const write = (file: string, ...docs: unknown[]) => writeFile(join(dir, file), docs.map(d => stringify(d)).join('---\n'))
  const startController = async () => {
    const source = new FileSource({ dir, rescanIntervalMs: 0, debounceMs: 10 })
    controller = new Controller({ source, minIntervalMs: 0, baseDelayMs: 20, maxDelayMs: 200, ...options })
    await controller.start()
    return controller
  }
  t.teardown(async () => { await controller?.stop(); await ext.close(); await rm(dir, { recursive: true, force: true }) })
  return { dir, ext, write, startController }
}

const condition = (c: Controller, name: string, type: string): ObservedCondition | undefined =>
  c.reports().find(r => r.name === name)?.extensionConfig.status?.conditions?.find(x => x.type === type)

t.test('discovery fills status and the registry; the registry warms up once every ExtensionConfig was tried', async t => {
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  await write('ext.yaml', extensionConfig('ext', ext.url))
  const c = await startController()
  await c.ready()
  const ec = c.reports()[0]!.extensionConfig
  t.same(ec.status?.handlers, [
    { name: 'bcc.ext', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
    { name: 'acpi.ext', requestHook: { apiVersion: API, hook: 'AfterControlPlaneInitialized' }, timeoutSeconds: 3, failurePolicy: 'Ignore' }
  ])
  t.match(condition(c, 'ext', 'Discovered'), { status: 'True', reason: 'Discovered', message: '', observedGeneration: 1 })
  t.match(condition(c, 'ext', 'Paused'), { status: 'False', reason: 'NotPaused' })
  t.same(ec.status?.conditions?.map(x => x.type), ['Discovered', 'Paused'], 'Cluster API order: Paused last')
  t.match(ec.status?.deprecated?.v1beta1?.conditions, [{ type: 'Discovered', status: 'True' }])
  t.same(c.client.registry.all().map(r => r.name), ['acpi.ext', 'bcc.ext'])
  t.equal(ext.requests.filter(r => r.path.endsWith('/discovery')).length, 1)
})

t.test('an unreachable extension degrades only itself: condition, retries with backoff, the others register', async t => {
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  const port = await deadPort()
  await write('good.yaml', extensionConfig('good', ext.url))
  await write('down.yaml', extensionConfig('down', `https://127.0.0.1:${port}`))
  const c = await startController()
  await c.ready()
  t.same(c.client.registry.all().map(r => r.name), ['acpi.good', 'bcc.good'])
  const discovered = condition(c, 'down', 'Discovered')
  t.match(discovered, { status: 'False', reason: 'NotDiscovered' })
  t.match(discovered?.message, /^Error in discovery: failed to discover extension "down": http call failed: Post "https:\/\/127\.0\.0\.1:\d+\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/discovery\?timeout=10s": /)
  t.match(c.reports().find(r => r.name === 'down')?.extensionConfig.status?.deprecated?.v1beta1?.conditions, [{ type: 'Discovered', status: 'False', reason: 'DiscoveryFailed', severity: 'Error' }])
  await waitFor(() => (c.reports().find(r => r.name === 'down')?.failures ?? 0) >= 2, { timeoutMs: 5000, message: 'the failing ExtensionConfig is retried' })
  t.equal(c.reports().find(r => r.name === 'good')?.failures, 0)
  const metrics = await c.metrics.registry.metrics()
  t.match(metrics, /runtime_sdk_extensionconfig_discovered\{name="down"\} 0/)
  t.match(metrics, /runtime_sdk_extensionconfig_discovered\{name="good"\} 1/)
  t.match(metrics, /controller_runtime_reconcile_errors_total\{controller="extensionconfig"\} [1-9]/)
})

t.test('CA injection waits for the Secret without retrying, then discovers as soon as it appears', async t => {
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  await write('ext.yaml', extensionConfig('ext', ext.url, { caBundle: false, annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'certs/ext-ca' } }))
  const c = await startController()
  await c.ready()
  t.match(condition(c, 'ext', 'Discovered'), { status: 'False', reason: 'WaitingForCASecret', message: 'waiting for secret certs/ext-ca to exist' })
  t.match(c.reports()[0], { outcome: 'waiting', dependency: 'certs/ext-ca', failures: 0 })

  await write('secret.yaml', secret('certs', 'ext-ca', { 'tls.crt': caCrt }))
  await waitFor(() => condition(c, 'ext', 'Discovered')?.message === 'secret certs/ext-ca does not contain a "ca.crt" entry', { message: 'a Secret without ca.crt is reported' })
  t.equal(ext.requests.length, 0, 'no discovery while waiting')

  await write('secret.yaml', secret('certs', 'ext-ca', { 'ca.crt': caCrt }))
  await waitFor(() => condition(c, 'ext', 'Discovered')?.status === 'True', { message: 'discovered once the Secret has ca.crt' })
  const ec = c.reports()[0]!.extensionConfig
  t.equal(ec.spec.clientConfig.caBundle, caCrt, 'ca.crt injected into spec.clientConfig.caBundle')
  t.equal(ec.metadata.generation, 2, 'injection changes the spec')
  t.equal(condition(c, 'ext', 'Discovered')?.observedGeneration, 2)
  t.equal(c.reports()[0]!.failures, 0, 'waiting is not an error loop')
  t.equal(c.client.registry.all().length, 2)
})

t.test('an invalid annotation is reported and waits for a fix', async t => {
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  await write('ext.yaml', extensionConfig('ext', ext.url, { annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'no-namespace' } }))
  const c = await startController()
  await c.ready()
  t.match(condition(c, 'ext', 'Discovered'), { status: 'False', reason: 'InvalidCASecretReference', message: 'secret name "no-namespace" must be in the form <namespace>/<name>' })
})

t.test('paused: condition says so, no discovery; unpausing discovers', async t => {
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  await write('ext.yaml', extensionConfig('ext', ext.url, { annotations: { 'cluster.x-k8s.io/paused': '' } }))
  const c = await startController()
  await c.ready()
  t.match(condition(c, 'ext', 'Paused'), { status: 'True', reason: 'Paused', message: 'ExtensionConfig has the cluster.x-k8s.io/paused annotation' })
  t.equal(ext.requests.length, 0)
  await write('ext.yaml', extensionConfig('ext', ext.url))
  await waitFor(() => condition(c, 'ext', 'Discovered')?.status === 'True', { message: 'discovered after unpausing (an annotation change passes the generation filter)' })
  t.match(condition(c, 'ext', 'Paused'), { status: 'False', reason: 'NotPaused' })
})

t.test('deleting the manifest unregisters; an invalid manifest is rejected and keeps the last valid version', async t => {
  const { ext, dir, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  await write('a.yaml', extensionConfig('a', ext.url))
  await write('b.yaml', extensionConfig('b', ext.url))
  const c = await startController()
  await c.ready()
  t.equal(c.client.registry.all().length, 4)

  await write('b.yaml', { ...extensionConfig('b', 'http://insecure.example.com') })
  await waitFor(() => (c.source as FileSource).rejected().length > 0, { message: 'the invalid manifest is reported' })
  t.match((c.source as FileSource).rejected(), [{ file: 'b.yaml', kind: 'ExtensionConfig', name: 'b', errors: [/'https' is the only allowed URL scheme/] }])
  t.equal(c.client.registry.all().length, 4, 'the last valid b stays registered')
  t.equal(c.reports().find(r => r.name === 'b')?.extensionConfig.spec.clientConfig.url, ext.url)

  await rm(join(dir, 'a.yaml'))
  await waitFor(() => c.client.registry.all().every(r => r.extensionConfigName !== 'a'), { message: 'a is unregistered' })
  t.same(c.reports().map(r => r.name), ['b'])
})

t.test('v1alpha1 manifests are converted to v1beta2 with a deprecation warning', async t => {
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
  await write('old.yaml', extensionConfig('old', ext.url, { apiVersion: 'runtime.cluster.x-k8s.io/v1alpha1' }))
  const c = await startController()
  await c.ready()
  t.equal(c.reports()[0]!.extensionConfig.apiVersion, 'runtime.cluster.x-k8s.io/v1beta2')
  t.equal(c.client.registry.all().length, 2)
  t.match((c.source as FileSource).rejected(), [{ file: 'old.yaml', errors: [/^warning: .*deprecated/] }])
})

t.test('periodic re-discovery notices an extension that changed its handlers', async t => {
  let list: unknown[] = handlers
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: (r, res) => discovery(list)(r, res) }, { rediscoveryIntervalMs: 100 })
  await write('ext.yaml', extensionConfig('ext', ext.url))
  const c = await startController()
  await c.ready()
  t.equal(c.client.registry.all().length, 2)
  list = handlers.slice(0, 1)
  await waitFor(() => c.client.registry.all().length === 1, { message: 'the removed handler is unregistered' })
  t.same(c.reports()[0]!.extensionConfig.status?.handlers?.map(h => h.name), ['bcc.ext'])
})

t.test('handlers of a deprecated hook version get a DeprecatedHooks condition', async t => {
  const deprecated = [{ name: 'old', requestHook: { apiVersion: `${TEST_GROUP}/v1alpha1`, hook: 'FakeHook' } }]
  const { ext, write, startController } = await setup(t, { [`${HOOKS}/discovery`]: discovery(deprecated) }, {
    client: new HttpRuntimeClient({ catalog: createCatalog().add(...testGroupVersions), backoff: false })
  })
  await write('ext.yaml', extensionConfig('ext', ext.url))
  const c = await startController()
  await c.ready()
  t.match(condition(c, 'ext', 'DeprecatedHooks'), { status: 'True', reason: 'DeprecatedHookVersions', message: `handler old.ext uses ${TEST_GROUP}/v1alpha1/FakeHook, which is deprecated` })
  t.match(condition(c, 'ext', 'Discovered'), { status: 'True' })
})

t.test('no ExtensionConfigs: ready at once; a missing directory is a clear error', async t => {
  const { startController } = await setup(t, {})
  const c = await startController()
  await c.ready()
  t.same(c.reports(), [])
  const missing = new Controller({ source: new FileSource({ dir: '/nonexistent/runtime-sdk' }) })
  await t.rejects(missing.start(), /ExtensionConfig directory \/nonexistent\/runtime-sdk does not exist or is not a directory/)
})

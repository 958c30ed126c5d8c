// Discovery, conversion, selection, settings, aggregation, ordering, caching, backoff, metrics and the Agent pool.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { AfterControlPlaneInitialized, BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import type { HookGroupVersion } from '../../src/api/hooks/define.js'
import { createCatalog } from '../../src/catalog/default.js'
import { loadCABundle, HttpRuntimeClient, urlForExtension } from '../../src/client/index.js'
import { CABundleCache } from '../../src/client/transport.js'
import { ExtensionRegistry } from '../../src/registry/registry.js'
import { testGroupVersions, testV1alpha3, TEST_GROUP } from '../helpers/test-hooks.js'
import { cluster, createPki, json, type Route, startExtension } from '../helpers/test-extension.js'
import { extensionConfig } from '../../tools/harness/extension-config.js'

const HOOKS = '/hooks.runtime.cluster.x-k8s.io/v1alpha1'
const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
const pki = await createPki()

const discovery = (handlers: unknown[], extra: Record<string, unknown> = {}): Route => (_r, res) => json(res, { status: 'Success', handlers, ...extra })
const bcc = (name: string) => `${HOOKS}/beforeclustercreate/${name}`

async function setup (t: Test, routes: Record<string, Route>, options: ConstructorParameters<typeof HttpRuntimeClient>[0] = {}) {
  const ext = await startExtension(pki.server, routes)
  const client = new HttpRuntimeClient({ backoff: false, ...options })
  t.teardown(async () => { await client.close(); await ext.close() })
  return { ext, client }
}

t.test('discover: handlers named <handler>.<ec> with defaults, request like Cluster API', async t => {
  const { ext, client } = await setup(t, {
    [`${HOOKS}/discovery`]: discovery([
      { name: 'bcc', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } },
      { name: 'acpi', requestHook: { apiVersion: API, hook: 'AfterControlPlaneInitialized' }, timeoutSeconds: 3, failurePolicy: 'Ignore' }
    ])
  })
  const ec = extensionConfig('ext', ext.url, pki.caBundle, [])
  ec.status = { conditions: [{ type: 'Discovered' }], handlers: [{ name: 'stale.ext', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } }] }
  const discovered = await client.discover(ec)
  t.same(discovered.status, {
    conditions: [{ type: 'Discovered' }],
    handlers: [
      { name: 'bcc.ext', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' },
      { name: 'acpi.ext', requestHook: { apiVersion: API, hook: 'AfterControlPlaneInitialized' }, timeoutSeconds: 3, failurePolicy: 'Ignore' }
    ]
  })
  t.equal(ec.status.handlers?.[0]?.name, 'stale.ext', 'the input is not modified')
  const [req] = ext.requests
  t.equal(req?.method, 'POST')
  t.equal(req?.query.get('timeout'), '10s')
  t.equal(req?.headers['content-type'], undefined, 'no Content-Type, like Cluster API')
  t.same(req?.body, { kind: 'DiscoveryRequest', apiVersion: API })
})

t.test('discover: validation errors with Cluster API messages', async t => {
  const cases: Array<[string, unknown[], string]> = [
    ['duplicate name', [{ name: 'a', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } }, { name: 'a', requestHook: { apiVersion: API, hook: 'BeforeClusterDelete' } }],
      'failed to validate discovery response: duplicate name for handler a found'],
    ['bad name', [{ name: 'Bad_Name', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } }],
      'failed to validate discovery response: handler name Bad_Name is not valid: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', ' +
      'and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')]'],
    ['timeout 31', [{ name: 'a', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' }, timeoutSeconds: 31 }],
      'failed to validate discovery response: handler a timeoutSeconds 31 must be between 0 and 30'],
    ['unknown hook', [{ name: 'a', requestHook: { apiVersion: API, hook: 'NoSuchHook' } }],
      `failed to validate discovery response: handler a requestHook ${API}/NoSuchHook is not in the Runtime SDK catalog`],
    ['several errors', [{ name: 'a', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' }, timeoutSeconds: 31, failurePolicy: 'Maybe' }],
      'failed to validate discovery response: [handler a timeoutSeconds 31 must be between 0 and 30, handler a failurePolicy Maybe must equal "Ignore" or "Fail"]']
  ]
  for (const [name, handlers, message] of cases) {
    const { ext, client } = await setup(t, { [`${HOOKS}/discovery`]: discovery(handlers) })
    await t.rejects(client.discover(extensionConfig('ext', ext.url, pki.caBundle, [])), { message: `failed to discover extension "ext": ${message}` }, name)
  }
})

t.test('discover: status and transport errors', async t => {
  const { ext, client } = await setup(t, { [`${HOOKS}/discovery`]: (_r, res) => json(res, { status: 'Failure', message: 'not today' }) })
  await t.rejects(client.discover(extensionConfig('ext', ext.url, pki.caBundle, [])), { message: 'failed to discover extension "ext": got failure response with message: not today' })
  ext.routes.set(`${HOOKS}/discovery`, (_r, res) => json(res, { status: 'Maybe' }))
  await t.rejects(client.discover(extensionConfig('ext', ext.url, pki.caBundle, [])), { message: 'failed to discover extension "ext": got unknown response status "Maybe" with message: ' })
  ext.routes.set(`${HOOKS}/discovery`, (_r, res) => json(res, 'nope', 503))
  await t.rejects(client.discover(extensionConfig('ext', ext.url, pki.caBundle, [])), {
    message: 'failed to discover extension "ext": http call failed: got response with status code 503 != 200: response : "nope"'
  })
  ext.routes.set(`${HOOKS}/discovery`, (_r, res) => json(res, { status: 'Success', handlers: [{ name: 1 }] }))
  await t.rejects(client.discover(extensionConfig('ext', ext.url, pki.caBundle, [])), {
    message: 'failed to discover extension "ext": http call failed: failed to decode response: handlers[0].name: must be a string'
  })
  await t.rejects(client.discover(extensionConfig('ext', '', undefined, [])), {
    message: 'failed to discover extension "ext": failed to compute URL: at least one of service and url should be defined in config'
  })
  // Go decoding: keys match case-insensitively, empty handler list is valid.
  ext.routes.set(`${HOOKS}/discovery`, (_r, res) => json(res, { Status: 'Success' }))
  const discovered = await client.discover(extensionConfig('ext', ext.url, pki.caBundle, []))
  t.same(discovered.status?.handlers, [])
})

t.test('version conversion: a v1alpha1 handler gets a down-converted request and its response is up-converted', async t => {
  const catalog = createCatalog().add(...testGroupVersions)
  const fake = testV1alpha3.hooks[0] as typeof testV1alpha3.hooks[number]
  const { ext, client } = await setup(t, {
    [`/${TEST_GROUP}/v1alpha1/fakehook/old`]: (_r, res) => json(res, { status: 'Success', message: 'old', first: 2, second: 'two' }),
    [`/${TEST_GROUP}/v1alpha2/fakehook/mid`]: (r, res) => json(res, { status: 'Success', first: 3, second: 'three', third: r.body.third })
  }, { catalog })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [
    { name: 'old', hook: 'FakeHook', apiVersion: `${TEST_GROUP}/v1alpha1` },
    { name: 'mid', hook: 'FakeHook', apiVersion: `${TEST_GROUP}/v1alpha2` }
  ])])
  const request = { cluster, first: 1, second: 'one', third: 'three', fourth: true }
  const old = await client.callExtension(fake, cluster, 'old.ext', request)
  const sent = ext.requests.find(r => r.path.endsWith('/old'))
  t.same(sent?.body, { kind: 'FakeHookRequest', apiVersion: `${TEST_GROUP}/v1alpha1`, cluster, first: 1, second: 'one' }, 'no third, no fourth')
  t.same(old.response, { kind: 'FakeHookResponse', apiVersion: `${TEST_GROUP}/v1alpha3`, status: 'Success', message: 'old', first: 2, second: 'two' })
  t.same(old.handlers[0]?.gvh, { group: TEST_GROUP, version: 'v1alpha1', hook: 'FakeHook' })
  const all = await client.callAllExtensions(fake, cluster, request)
  const mid = ext.requests.find(r => r.path.endsWith('/mid'))
  t.same(mid?.body, { kind: 'FakeHookRequest', apiVersion: `${TEST_GROUP}/v1alpha2`, cluster, first: 1, second: 'one', third: 'three' }, 'v1alpha2 keeps third')
  t.same(all.handlers.map(h => h.name), ['mid.ext', 'old.ext'], 'ordered by name')
  t.equal((all.response as { message?: string }).message, 'old')
  t.same(request, { cluster, first: 1, second: 'one', third: 'three', fourth: true }, 'the caller\'s request is not modified')
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'old.ext', { cluster }), {
    message: 'failed to call extension handler "old.ext": handler does not match GroupHook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io"'
  })
})

t.test('conversion errors are never ignored', async t => {
  const [v1, v2, v3] = testGroupVersions as [HookGroupVersion, HookGroupVersion, HookGroupVersion]
  const broken: HookGroupVersion = { ...v1, conversions: { FakeHook: { to: 'v1alpha2', request: () => { throw new Error('boom') }, response: (r: unknown) => r } } }
  const fake = v3.hooks[0] as HookGroupVersion['hooks'][number]
  const { ext, client } = await setup(t, { [`/${TEST_GROUP}/v1alpha1/fakehook/old`]: (_r, res) => json(res, { status: 'Success', first: 1, second: 'x' }) },
    { catalog: createCatalog().add(broken, v2, v3) })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'old', hook: 'FakeHook', apiVersion: `${TEST_GROUP}/v1alpha1`, failurePolicy: 'Ignore' }])])
  await t.rejects(client.callAllExtensions(fake, cluster, { cluster, first: 1, second: 'x' }), {
    message: 'failed to call extension handlers for hook "FakeHook.test.runtime.cluster.x-k8s.io": failed to call extension handler "old.ext": http call failed: ' +
      `failed to convert request from ${TEST_GROUP}/v1alpha3.FakeHookRequest to ${TEST_GROUP}/v1alpha1.FakeHookRequest: boom`
  })
  t.equal(ext.requests.length, 0)
})

t.test('namespaceSelector: resolver, no lookup for {}, errors', async t => {
  const ok: Route = (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 })
  const { ext } = await setup(t, { [bcc('h')]: ok })
  const lookups: string[] = []
  const labels: Record<string, Record<string, string>> = { default: { env: 'prod', 'kubernetes.io/metadata.name': 'default' }, dev: { env: 'dev' } }
  const client = new HttpRuntimeClient({ backoff: false, namespaceLabels: async ns => { lookups.push(ns); return labels[ns] } })
  t.teardown(() => client.close())
  client.warmUp([
    extensionConfig('all', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }]),
    extensionConfig('prod', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }], { namespaceSelector: { matchLabels: { env: 'prod' } } }),
    extensionConfig('notdev', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }],
      { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] } })
  ])
  t.same(await client.getAllExtensions(BeforeClusterCreate, cluster), ['h.all', 'h.notdev', 'h.prod'])
  t.same(lookups, ['default'], 'one lookup per namespace and call')
  const devCluster = { ...cluster, metadata: { name: 'c2', namespace: 'dev' } }
  t.same(await client.getAllExtensions(BeforeClusterCreate, devCluster), ['h.all'])
  await t.rejects(client.callExtension(BeforeClusterCreate, devCluster, 'h.prod', { cluster: devCluster }), {
    message: 'failed to call extension handler "h.prod": namespaceSelector did not match object dev/c2'
  })
  const ghost = { ...cluster, metadata: { name: 'c3', namespace: 'ghost' } }
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, ghost, { cluster: ghost }), {
    message: 'failed to call extension handlers for hook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io": failed to get extension handler "h.notdev": ' +
      'failed to match namespace: failed to get namespace ghost: namespaces "ghost" not found'
  })
  lookups.length = 0
  const noResolver = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => noResolver.close())
  noResolver.warmUp([extensionConfig('all', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }])])
  t.same(await noResolver.getAllExtensions(BeforeClusterCreate, cluster), ['h.all'], 'empty selector needs no lookup')
  await t.rejects(noResolver.callExtension(BeforeClusterCreate, cluster, 'h.nope', { cluster }), {
    message: 'failed to call extension handler "h.nope": failed to get extension handler "h.nope" from registry: handler with name "h.nope" has not been registered'
  })
})

t.test('settings: ExtensionConfig settings overlaid by the request settings', async t => {
  const { ext, client } = await setup(t, { [bcc('h')]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }) })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }], { settings: { a: 'ec', b: 'ec' } })])
  const request = { cluster, settings: { b: 'request', c: 'request' } }
  await client.callAllExtensions(BeforeClusterCreate, cluster, request)
  t.same(ext.requests[0]?.body.settings, { a: 'ec', b: 'request', c: 'request' })
  t.same(request, { cluster, settings: { b: 'request', c: 'request' } }, 'the caller\'s request and its settings are not modified')
  t.same(Object.keys(ext.requests[0]?.body ?? {}).slice(0, 3), ['kind', 'apiVersion', 'settings'], 'Go field order')
  const plain = await setup(t, { [bcc('h')]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }) })
  plain.client.warmUp([extensionConfig('ext', plain.ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }])])
  await plain.client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.notOk('settings' in plain.ext.requests[0]?.body, 'empty settings are omitted')
})

t.test('aggregation: joined messages, lowest non-zero retryAfterSeconds, ignored handlers contribute nothing', async t => {
  const { ext, client } = await setup(t, {
    [bcc('a')]: (_r, res) => json(res, { status: 'Success', message: 'from a', retryAfterSeconds: 30 }),
    [bcc('b')]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }),
    [bcc('c')]: (_r, res) => json(res, { status: 'Success', message: 'from c', retryAfterSeconds: 7 }),
    [bcc('d')]: (_r, res) => json(res, 'down', 500)
  })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [
    { name: 'd', hook: 'BeforeClusterCreate', failurePolicy: 'Ignore' },
    { name: 'c', hook: 'BeforeClusterCreate' },
    { name: 'b', hook: 'BeforeClusterCreate' },
    { name: 'a', hook: 'BeforeClusterCreate' }
  ])])
  for (const sequential of [false, true]) {
    const result = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { sequential })
    t.same(result.response, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'from a, from c', retryAfterSeconds: 7 })
    t.same(result.handlers.map(h => [h.name, h.outcome]), [['a.ext', 'success'], ['b.ext', 'success'], ['c.ext', 'success'], ['d.ext', 'ignored']])
  }
  const none = await client.callAllExtensions(AfterControlPlaneInitialized, cluster, { cluster })
  t.same(none.response, { kind: 'AfterControlPlaneInitializedResponse', apiVersion: API, status: 'Success' }, 'no handlers: Success, no retry field for non-blocking hooks')
})

t.test('first error in name order wins; later handlers are cancelled or not called', async t => {
  const { ext, client } = await setup(t, {
    [bcc('a')]: (_r, res) => { setTimeout(() => json(res, { status: 'Success', retryAfterSeconds: 0 }), 200) },
    [bcc('b')]: (_r, res) => json(res, { status: 'Failure', message: 'b says no', retryAfterSeconds: 0 }),
    [bcc('c')]: () => {}
  })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, ['a', 'b', 'c'].map(name => ({ name, hook: 'BeforeClusterCreate', timeoutSeconds: 5 })))])
  const started = Date.now()
  const err = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }).catch((e: unknown) => e) as { message: string, handlers: Array<{ name: string, outcome: string }> }
  t.ok(Date.now() - started < 2000, 'the hanging handler is cancelled, not waited for')
  t.equal(err.message, 'failed to call extension handlers for hook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "b.ext": got failure response with message: b says no')
  t.same(err.handlers.map(h => [h.name, h.outcome]), [['a.ext', 'success'], ['b.ext', 'failure'], ['c.ext', 'cancelled']])
  ext.requests.length = 0
  const seq = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { sequential: true }).catch((e: unknown) => e) as typeof err
  t.equal(seq.message, err.message, 'same aggregate error sequentially')
  t.same(seq.handlers.map(h => [h.name, h.outcome]), [['a.ext', 'success'], ['b.ext', 'failure'], ['c.ext', 'skipped']])
  t.same(ext.requests.map(r => r.path), [bcc('a'), bcc('b')], 'c is never called sequentially')
})

t.test('backoff: after a calling error the handler fails fast until the delay passed', async t => {
  let now = 1_000_000
  let healthy = false
  const { ext, client } = await setup(t, {
    [bcc('h')]: (_r, res) => healthy ? json(res, { status: 'Success', retryAfterSeconds: 0 }) : json(res, 'down', 500)
  }, { backoff: { initialMs: 1000, maxMs: 4000 }, now: () => now })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate', failurePolicy: 'Ignore' }])])
  const first = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.match(first.handlers[0]?.error, /status code 500/)
  const second = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(second.handlers[0]?.outcome, 'ignored', 'backing off is a calling error: ignored')
  t.equal(second.handlers[0]?.error, `http call failed: not sent: backing off until ${new Date(1_001_000).toISOString()} after a failed call`)
  t.equal(ext.requests.length, 1, 'no request while backing off')
  t.match(await client.metrics.registry.metrics(), /capi_runtime_sdk_backoff_rejections_total\{group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate",name="h.ext"\} 1/)
  t.match(await client.metrics.registry.metrics(), /capi_runtime_sdk_handlers_backing_off 1/)
  now += 1001
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(ext.requests.length, 2)
  const third = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.match(third.handlers[0]?.error, `until ${new Date(now + 2000).toISOString()} `, 'the delay doubles')
  now += 2001
  healthy = true
  const ok = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(ok.handlers[0]?.outcome, 'success')
  healthy = false
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  const reset = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.match(reset.handlers[0]?.error, `until ${new Date(now + 1000).toISOString()} `, 'success resets the delay')
})

t.test('cacheBlockingResponses: a blocking response is reused until retryAfterSeconds expires', async t => {
  let now = 5_000_000
  let calls = 0
  const { ext, client } = await setup(t, {
    [bcc('h')]: (_r, res) => { calls++; json(res, { status: 'Success', message: `call ${calls}`, retryAfterSeconds: 5 }) },
  }, { cacheBlockingResponses: true, now: () => now })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }])])
  const first = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  const second = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(calls, 1)
  t.equal(second.handlers[0]?.cached, true)
  t.same(second.response, first.response)
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster, settings: { other: 'request' } })
  t.equal(calls, 2, 'a different request is a different key')
  now += 5001
  const third = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(calls, 3, 'expired')
  t.equal(third.response.message, 'call 3')
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { cacheBlockingResponses: false })
  t.equal(calls, 4, 'per-call opt-out')
})

t.test('metrics: Cluster API names, labels and buckets', async t => {
  const { ext, client } = await setup(t, {
    [bcc('ok')]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }),
    [bcc('no')]: (_r, res) => json(res, { status: 'Failure', retryAfterSeconds: 0 })
  })
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'ok', hook: 'BeforeClusterCreate' }, { name: 'no', hook: 'BeforeClusterCreate' }])])
  await client.callExtension(BeforeClusterCreate, cluster, 'ok.ext', { cluster })
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'no.ext', { cluster }))
  const text = await client.metrics.registry.metrics()
  const host = new URL(ext.url).host
  t.match(text, `capi_runtime_sdk_requests_total{code="200",host="${host}",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate",status="Success"} 1`)
  t.match(text, `capi_runtime_sdk_requests_total{code="200",host="${host}",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate",status="Failure"} 1`)
  t.match(text, `capi_runtime_sdk_request_duration_seconds_count{host="${host}",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate"} 2`)
  const buckets = [...text.matchAll(/capi_runtime_sdk_request_duration_seconds_bucket\{le="([^"]+)",host/g)].map(m => m[1])
  t.same(buckets, ['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf'])
  const dead = new HttpRuntimeClient({ backoff: false, metricsRegistry: client.metrics.registry })
  t.teardown(() => dead.close())
  dead.warmUp([extensionConfig('dead', 'https://127.0.0.1:1', pki.caBundle, [{ name: 'x', hook: 'BeforeClusterCreate' }])])
  await t.rejects(dead.callAllExtensions(BeforeClusterCreate, cluster, { cluster }))
  t.match(await client.metrics.registry.metrics(), 'capi_runtime_sdk_requests_total{code="<error>",host="127.0.0.1:1",group="hooks.runtime.cluster.x-k8s.io",version="v1alpha1",hook="BeforeClusterCreate",status="Unknown"} 1',
    'a shared registry; transport errors have code <error>')
})

t.test('agent pool: reused across calls, replaced when the CA changes, closed on close()', async t => {
  const { ext, client } = await setup(t, { [bcc('h')]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }) })
  const ec = extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }])
  client.warmUp([ec])
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  const host = new URL(ext.url).host
  const agent = client.agents.get(host, '127.0.0.1', pki.ca.cert)
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(client.agents.get(host, '127.0.0.1', pki.ca.cert), agent, 'same agent for the next call')
  t.equal(client.agents.size, 1)
  for (let i = 0; i < 4; i++) await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(ext.requests.length, 6)
  const ports = new Set(ext.requests.map(r => r.remotePort))
  t.ok(ports.size <= 2, `6 calls over ${ports.size} kept-alive connection(s)`)
  // a second CA that also signs the server: a bundle with both certificates is a different key.
  const both = Buffer.from(pki.ca.cert + pki.ca.cert).toString('base64')
  client.register(extensionConfig('ext', ext.url, both, [{ name: 'h', hook: 'BeforeClusterCreate' }]))
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(client.agents.size, 1, 'the old agent was replaced')
  const replaced = client.agents.get(host, '127.0.0.1', pki.ca.cert + pki.ca.cert)
  t.not(replaced, agent)
  t.equal(agent.closed, true, 'the old agent is closed')
  await client.close()
  t.equal(client.agents.size, 0)
  t.equal(replaced.closed, true)
})

t.test('service references: URL, TLS server name and resolve()', async t => {
  t.equal(String(urlForExtension({ service: { name: 'ext-svc', namespace: 'ext-ns', port: 443, path: '/runtime' } }, `${HOOKS}/beforeclustercreate/before-cluster-create`)),
    'https://ext-svc.ext-ns.svc/runtime/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/before-cluster-create')
  t.equal(String(urlForExtension({ url: 'https://127.0.0.1:8443/base//x/../' }, `${HOOKS}/discovery`)), `https://127.0.0.1:8443/base${HOOKS}/discovery`)
  t.throws(() => urlForExtension({ url: 'not a url' }, '/'), { message: 'failed to compute URL: failed to parse url from clientConfig' })
  const { ext } = await setup(t, { [`/prefix${bcc('h')}`]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }) })
  const resolved: string[] = []
  const client = new HttpRuntimeClient({
    backoff: false,
    resolve: url => { resolved.push(url.host); const u = new URL(url); u.hostname = '127.0.0.1'; u.port = String(ext.port); return u }
  })
  t.teardown(() => client.close())
  const ec = extensionConfig('ext', '', pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }])
  ec.spec.clientConfig = { service: { name: 'ext', namespace: 'ns', path: '/prefix' }, caBundle: pki.caBundle }
  client.warmUp([ec])
  const result = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(result.handlers[0]?.outcome, 'success', 'the certificate is verified for ext.ns.svc')
  t.same(resolved, ['ext.ns.svc'])
  t.equal(ext.requests[0]?.path, `/prefix${bcc('h')}`)
  t.match(await client.metrics.registry.metrics(), 'host="ext.ns.svc:443"')
})

t.test('mTLS: the client certificate is presented; replacing it replaces the agents', async t => {
  const clientCert = await pki.ca.issue({ commonName: 'capi', usage: 'client' })
  const ext = await startExtension({ ...pki.server, ca: pki.ca.cert, requestCert: true }, {
    [bcc('h')]: (_r, res) => {
      const peer = (res.socket as import('node:tls').TLSSocket).getPeerCertificate()
      json(res, { status: 'Success', message: peer.subject?.CN ?? 'anonymous', retryAfterSeconds: 0 })
    }
  })
  const client = new HttpRuntimeClient({ backoff: false, clientCertificate: clientCert })
  const anonymous = new HttpRuntimeClient({ backoff: false })
  t.teardown(async () => { await client.close(); await anonymous.close(); await ext.close() })
  const ec = extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate' }])
  client.warmUp([ec])
  anonymous.warmUp([ec])
  t.equal((await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })).response.message, 'capi')
  await t.rejects(anonymous.callAllExtensions(BeforeClusterCreate, cluster, { cluster }), /http call failed: Post/)
  const before = client.agents.get(new URL(ext.url).host, '127.0.0.1', pki.ca.cert)
  const other = await pki.ca.issue({ commonName: 'rotated', usage: 'client' })
  client.agents.setClientCertificate(other)
  t.equal(before.closed, true)
  t.equal((await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })).response.message, 'rotated')

  // certificate files, reloaded on demand (e.g. from a file watcher) when they rotate
  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-mtls-'))
  const certFile = join(dir, 'tls.crt')
  const keyFile = join(dir, 'tls.key')
  await writeFile(certFile, clientCert.cert)
  await writeFile(keyFile, clientCert.key)
  const fromFiles = new HttpRuntimeClient({ backoff: false, clientCertificate: { certFile, keyFile } })
  t.teardown(() => fromFiles.close())
  fromFiles.warmUp([ec])
  t.equal((await fromFiles.callAllExtensions(BeforeClusterCreate, cluster, { cluster })).response.message, 'capi')
  t.equal(fromFiles.agents.reloadClientCertificate(), false, 'unchanged files keep the agents')
  await writeFile(certFile, other.cert)
  await writeFile(keyFile, other.key)
  t.equal(fromFiles.agents.reloadClientCertificate(), true)
  t.equal((await fromFiles.callAllExtensions(BeforeClusterCreate, cluster, { cluster })).response.message, 'rotated')
  t.throws(() => new HttpRuntimeClient({ clientCertificate: { certFile, keyFile: '' } }), { message: 'both the client certificate file and the client key file must be set' })
  const watching = new HttpRuntimeClient({ backoff: false, clientCertificate: { certFile, keyFile }, clientCertificateReloadMs: 20 })
  t.teardown(() => watching.close())
  watching.warmUp([ec])
  t.equal((await watching.callAllExtensions(BeforeClusterCreate, cluster, { cluster })).response.message, 'rotated')
  await writeFile(certFile, clientCert.cert)
  await writeFile(keyFile, clientCert.key)
  await new Promise(resolve => setTimeout(resolve, 100))
  t.equal((await watching.callAllExtensions(BeforeClusterCreate, cluster, { cluster })).response.message, 'capi', 'rotated files are picked up')
})

t.test('a changed caBundle is used from the next call: broken, then fixed again', async t => {
  const { ext, client } = await setup(t, { [bcc('h')]: (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }) })
  const handlers = [{ name: 'h', hook: 'BeforeClusterCreate' }]
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, handlers)])
  t.equal((await client.callExtension(BeforeClusterCreate, cluster, 'h.ext', { cluster })).response.status, 'Success')
  client.register(extensionConfig('ext', ext.url, Buffer.from('not a pem').toString('base64'), handlers))
  const broken = 'failed to call extension handler "h.ext": failed to get http client: unable to load root certificates: unable to parse bytes as PEM block'
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'h.ext', { cluster }), { message: broken })
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'h.ext', { cluster }), { message: broken }, 'the same error on every call')
  client.register(extensionConfig('ext', ext.url, pki.caBundle, handlers))
  t.equal((await client.callExtension(BeforeClusterCreate, cluster, 'h.ext', { cluster })).response.status, 'Success')
  t.equal(ext.requests.length, 2)
})

t.test('CABundleCache: the same PEM or error as loadCABundle, loaded again when the caBundle changes', async t => {
  const cache = new CABundleCache()
  const config: { caBundle?: string } = { caBundle: pki.caBundle }
  t.equal(cache.load(config), loadCABundle(pki.caBundle))
  t.equal(cache.load(config), pki.ca.cert)
  config.caBundle = Buffer.from('not a pem').toString('base64')
  for (let i = 0; i < 2; i++) t.throws(() => cache.load(config), { name: 'TransportError', message: 'unable to load root certificates: unable to parse bytes as PEM block' })
  delete config.caBundle
  t.equal(cache.load(config), undefined, 'no caBundle: the system roots')
  t.equal(cache.load({ caBundle: pki.caBundle }), pki.ca.cert)
})

t.test('a CA bundle with a broken certificate is refused', async t => {
  const broken = Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64')
  t.throws(() => loadCABundle(broken), { message: /^unable to load root certificates: / })
  t.equal(loadCABundle(''), undefined)
})

t.test('an unready registry and an unknown hook are errors', async t => {
  const client = new HttpRuntimeClient({ registry: new ExtensionRegistry() })
  t.teardown(() => client.close())
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }), {
    message: 'failed to call extension handlers for hook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io": invalid operation: List cannot be called on a registry which has not been warmed up'
  })
  t.equal(client.isReady(), false)
  await t.rejects(client.callAllExtensions({ group: 'x.io', version: 'v1', hook: 'Nope' } as never, cluster, {} as never), /is not registered in catalog/)
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, cluster, { cluster: 'nope' } as never), {
    message: /^failed to call extension handlers for hook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io": request object is invalid for hook: cluster/
  })
})

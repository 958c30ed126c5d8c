// Registration is checked up front; deadlines and durations; path prefix; routing through inject.
import t from 'tap'
import { Catalog } from '../../src/catalog/catalog.js'
import { createCatalog } from '../../src/catalog/default.js'
import { createExtensionServer, parseGoDuration, ExtensionHandlerError, type ExtensionHandler } from '../../src/server/index.js'
import { handlerBudgetMs } from '../../src/server/call.js'
import { isJsonContentType } from '../../src/http/content-type.js'
import { BeforeClusterCreate, Discovery, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { testGroupVersions } from '../helpers/test-hooks.js'
import { API, silent } from '../helpers/server.js'

const ok = () => ({ status: 'Success' as const })
const create = (handlers: ExtensionHandler[], catalog?: Catalog) => createExtensionServer({ handlers, insecureHttp: true, logger: silent, ...(catalog ? { catalog } : {}) })

t.test('registration errors are thrown up front, all at once, naming the handler', async (t) => {
  const cases: Array<[string, ExtensionHandler[], RegExp]> = [
    ['bad name', [{ hook: BeforeClusterCreate, name: 'Before_Create', handler: ok }], /handler "Before_Create": handler name Before_Create is not valid: \[a lowercase RFC 1123 label/],
    ['long name', [{ hook: BeforeClusterCreate, name: 'a'.repeat(64), handler: ok }], /must be no more than 63 characters/],
    ['duplicate across hooks', [{ hook: BeforeClusterCreate, name: 'x', handler: ok }, { hook: GeneratePatches, name: 'x', handler: ok }], /handler "x": duplicate name; handler names must be unique across the extension/],
    ['timeout 31', [{ hook: BeforeClusterCreate, name: 'x', handler: ok, timeoutSeconds: 31 }], /handler "x": handler x timeoutSeconds 31 must be between 0 and 30/],
    ['timeout 1.5', [{ hook: BeforeClusterCreate, name: 'x', handler: ok, timeoutSeconds: 1.5 }], /timeoutSeconds 1.5 must be between 0 and 30/],
    ['policy', [{ hook: BeforeClusterCreate, name: 'x', handler: ok, failurePolicy: 'Retry' as 'Fail' }], /failurePolicy Retry must equal "Ignore" or "Fail"/],
    ['unknown hook', [{ hook: testGroupVersions[0]!.hooks[0]!, name: 'x', handler: ok }], /handler "x": hook FakeHook is not a hook definition of catalog "runtime-sdk"/],
    ['not a hook', [{ hook: undefined as never, name: 'x', handler: ok }], /hook <missing> is not a hook definition/],
    ['discovery', [{ hook: Discovery, name: 'discovery', handler: ok }], /Discovery is answered by the server from the registered handlers/],
    ['no function', [{ hook: BeforeClusterCreate, name: 'x', handler: 'nope' as never }], /handler "x": handler must be a function/],
    ['no name', [{ hook: BeforeClusterCreate, name: undefined as never, handler: ok }], /handler #0: name must be a string/]
  ]
  for (const [name, handlers, message] of cases) {
    t.throws(() => create(handlers), message, name)
    t.throws(() => create(handlers), ExtensionHandlerError, `${name}: ExtensionHandlerError`)
  }
  const both = (() => { try { create([{ hook: BeforeClusterCreate, name: 'A', handler: ok, timeoutSeconds: 99 }]) } catch (err) { return (err as Error).message } })()
  t.match(both, /not valid[\s\S]*timeoutSeconds 99/, 'every problem reported')
  t.throws(() => create('x' as never), /handlers must be an array/)
  t.throws(() => create([], new Catalog('empty')), /has no hooks.runtime.cluster.x-k8s.io Discovery hook; start from createCatalog\(\)/)
})

t.test('a definition loaded through another module copy is found by its schemas', async (t) => {
  const copy = structuredClone({ hook: BeforeClusterCreate.hook, request: BeforeClusterCreate.request, response: BeforeClusterCreate.response, meta: BeforeClusterCreate.meta })
  const server = create([{ hook: copy as never, name: 'copied', handler: ok }])
  t.same(server.discovery.handlers, [{ name: 'copied', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } }])
})

t.test('user groups: every version of a hook can be served', async (t) => {
  const catalog = createCatalog().add(...testGroupVersions)
  const [v1, v2, v3] = ['v1alpha1', 'v1alpha2', 'v1alpha3'].map(version => catalog.get({ group: 'test.runtime.cluster.x-k8s.io', version, hook: 'FakeHook' }).definition)
  const server = create([{ hook: v1!, name: 'fake-v1', handler: ok }, { hook: v2!, name: 'fake-v2', handler: ok }, { hook: v3!, name: 'fake-v3', handler: ok }], catalog)
  t.same(server.routes.map(r => r.path), [
    `/${API}/discovery`,
    '/test.runtime.cluster.x-k8s.io/v1alpha1/fakehook/fake-v1',
    '/test.runtime.cluster.x-k8s.io/v1alpha2/fakehook/fake-v2',
    '/test.runtime.cluster.x-k8s.io/v1alpha3/fakehook/fake-v3'
  ])
})

t.test('the path prefix goes in front of every hook path, not the operations routes', async (t) => {
  for (const prefix of ['ext/v2', '/ext/v2/', '//ext//v2']) {
    const server = createExtensionServer({ handlers: [{ hook: BeforeClusterCreate, name: 'x', handler: ok }], insecureHttp: true, logger: silent, pathPrefix: prefix, docs: false })
    t.teardown(() => server.close())
    t.same(server.routes.map(r => r.path), [`/ext/v2/${API}/discovery`, `/ext/v2/${API}/beforeclustercreate/x`], prefix)
    const reply = await server.inject({ method: 'POST', url: `/ext/v2/${API}/beforeclustercreate/x`, payload: '{"cluster":{"metadata":{}}}' })
    t.equal(reply.json().status, 'Success')
    t.equal((await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/x`, payload: '{"cluster":{"metadata":{}}}' })).statusCode, 404)
    t.equal((await server.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
    t.equal((await server.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 404, 'docs: false')
  }
  const root = create([], undefined)
  t.same(root.routes.map(r => r.path), [`/${API}/discovery`])
})

t.test('a handler returning nothing, or a broken discovery request', async (t) => {
  const server = create([{ hook: BeforeClusterCreate, name: 'x', handler: () => undefined as never }])
  const reply = await server.inject({ method: 'POST', url: `/${API}/beforeclustercreate/x`, payload: '{"cluster":{"metadata":{}}}' })
  t.same(reply.json(), { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Failure', message: 'handler "x" returned an invalid response: (root): must be an object', retryAfterSeconds: 0 })
  const discovery = await server.inject({ method: 'POST', url: `/${API}/discovery`, payload: '{"kind":5}' })
  t.same(discovery.json(), { kind: 'DiscoveryResponse', apiVersion: API, status: 'Failure', message: 'error unmarshalling request: kind: json: cannot unmarshal number into Go value of type string' })
  const thrown = create([{ hook: BeforeClusterCreate, name: 'x', handler: () => { throw 'a string' } }]) // eslint-disable-line no-throw-literal
  const reply2 = await thrown.inject({ method: 'POST', url: `/${API}/beforeclustercreate/x`, payload: '{"cluster":{"metadata":{}}}' })
  t.equal(reply2.json().message, 'handler "x" failed with an unexpected string; see the extension\'s log')
})

t.test('Go durations and handler budgets', async (t) => {
  t.equal(parseGoDuration('10s'), 10_000)
  t.equal(parseGoDuration('1m30s'), 90_000)
  t.equal(parseGoDuration('500ms'), 500)
  t.equal(parseGoDuration('1.5h'), 5_400_000)
  t.equal(parseGoDuration('2us'), 0.002)
  t.equal(parseGoDuration('0'), 0)
  t.equal(parseGoDuration('+3s'), 3000)
  for (const bad of ['', '10', 's', '1x', '-1s', '.s', 'abc', '+']) t.equal(parseGoDuration(bad), undefined, JSON.stringify(bad))
  t.equal(handlerBudgetMs({}, '10s', 500), 9500)
  t.equal(handlerBudgetMs({}, undefined, 500), 9500, 'default 10 s')
  t.equal(handlerBudgetMs({ timeoutSeconds: 3 }, undefined, 500), 2500, 'declared timeout')
  t.equal(handlerBudgetMs({ timeoutSeconds: 3 }, 'garbage', 500), 2500, 'unparsable query ignored')
  t.equal(handlerBudgetMs({}, '600ms', 500), 300, 'a margin over half the timeout is cut to half')
  t.equal(handlerBudgetMs({ timeoutSeconds: 0 }, undefined, 500), 29_500, 'no timeout: bounded by 30 s')
  t.equal(handlerBudgetMs({}, '1h', 500), 29_500, 'beyond 30 s: bounded')
})

t.test('JSON content types', async (t) => {
  for (const ct of [undefined, 'application/json', 'application/json; charset=utf-8', ' APPLICATION/JSON ', 'application/merge-patch+json']) t.equal(isJsonContentType(ct), true, String(ct))
  for (const ct of ['text/xml', 'text/plain', 'application/jsonx', 'multipart/form-data', '']) t.equal(isJsonContentType(ct), false, ct)
})

t.test('unexpected route errors are 500 without details; default metrics on request', async (t) => {
  const server = createExtensionServer({ handlers: [], insecureHttp: true, logger: silent, defaultMetrics: true })
  t.teardown(() => server.close())
  server.app.get('/boom', async () => { throw new Error('password=hunter2') })
  const reply = await server.inject({ method: 'GET', url: '/boom' })
  t.equal(reply.statusCode, 500)
  t.same(reply.json(), { code: 'InternalError', message: 'internal server error' })
  const metrics = await server.inject({ method: 'GET', url: '/metrics' })
  t.match(metrics.body, /process_cpu_user_seconds_total/)
})

// The hook wire protocol over real HTTPS: what Cluster API's client sends and what it gets back.
import t from 'tap'
import { createCatalog } from '../../src/catalog/default.js'
import { MAX_BODY_BYTES } from '../../src/catalog/handlers.js'
import { defineHandler, HookError } from '../../src/server/index.js'
import { AfterClusterUpgrade, AfterControlPlaneInitialized, BeforeClusterCreate, BeforeClusterDelete, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { testGroupVersions, TEST_GROUP } from '../helpers/test-hooks.js'
import { API, call, sleep, start, tlsFixture } from '../helpers/server.js'

const catalog = createCatalog().add(...testGroupVersions)
const fakeV2 = catalog.get({ group: TEST_GROUP, version: 'v1alpha2', hook: 'FakeHook' }).definition

const seen: unknown[] = []
let slowAborted: boolean | undefined
const handlers = [
  defineHandler({ hook: BeforeClusterCreate, name: 'echo', handler: (request, ctx) => { seen.push(request); return { status: 'Success', message: `hello ${request.cluster.metadata?.name} ${ctx.name}` } } }),
  defineHandler({ hook: BeforeControlPlaneUpgrade, name: 'blocking', timeoutSeconds: 5, failurePolicy: 'Ignore', handler: async () => ({ status: 'Success', message: 'wait', retryAfterSeconds: 7 }) }),
  defineHandler({ hook: BeforeClusterDelete, name: 'thrower', handler: () => { throw new TypeError('cannot read password=hunter2 of undefined') } }),
  defineHandler({ hook: AfterControlPlaneInitialized, name: 'hook-error', handler: async () => { throw new HookError('the CNI is not installed yet') } }),
  defineHandler({ hook: BeforeClusterUpgrade, name: 'bad-status', handler: () => ({ status: 'Maybe' as 'Success' }) }),
  defineHandler({
    hook: AfterClusterUpgrade,
    name: 'slow',
    timeoutSeconds: 2,
    handler: async (_request, ctx) => {
      await sleep(5000, ctx.signal)
      slowAborted = ctx.signal.aborted
      return { status: 'Success' }
    }
  }),
  defineHandler({ hook: GeneratePatches, name: 'no-items', handler: () => ({ status: 'Success', items: [] }) }),
  { hook: fakeV2, name: 'fake', handler: (request: { first: number, second: string }) => ({ status: 'Success' as const, first: request.first + 1, second: request.second.toUpperCase() }) }
]

const tls = await tlsFixture(t.testdir())
const { url, server } = await start(t, tls, { catalog, handlers })
const ca = tls.ca.cert
const cluster = { kind: 'Cluster', apiVersion: 'cluster.x-k8s.io/v1beta2', metadata: { name: 'c1', namespace: 'default' }, spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.33.0', futureField: { nested: [1, 'two', null] } }, futureSpec: true } }
const bccPath = `/${API}/beforeclustercreate/echo`
const bccBody = (extra: object = {}) => JSON.stringify({ kind: 'BeforeClusterCreateRequest', apiVersion: API, settings: { extensionConfigName: 'ext' }, cluster, ...extra })

t.test('discovery lists the handlers in registration order, with options when given', async (t) => {
  const reply = await call(url, `/${API}/discovery`, JSON.stringify({ kind: 'DiscoveryRequest', apiVersion: API }), { ca })
  t.equal(reply.status, 200)
  t.same(reply.json, {
    kind: 'DiscoveryResponse',
    apiVersion: API,
    status: 'Success',
    handlers: [
      { name: 'echo', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } },
      { name: 'blocking', requestHook: { apiVersion: API, hook: 'BeforeControlPlaneUpgrade' }, timeoutSeconds: 5, failurePolicy: 'Ignore' },
      { name: 'thrower', requestHook: { apiVersion: API, hook: 'BeforeClusterDelete' } },
      { name: 'hook-error', requestHook: { apiVersion: API, hook: 'AfterControlPlaneInitialized' } },
      { name: 'bad-status', requestHook: { apiVersion: API, hook: 'BeforeClusterUpgrade' } },
      { name: 'slow', requestHook: { apiVersion: API, hook: 'AfterClusterUpgrade' }, timeoutSeconds: 2 },
      { name: 'no-items', requestHook: { apiVersion: API, hook: 'GeneratePatches' } },
      { name: 'fake', requestHook: { apiVersion: `${TEST_GROUP}/v1alpha2`, hook: 'FakeHook' } }
    ]
  })
  t.same(server.discovery.handlers.map(h => h.name), ['echo', 'blocking', 'thrower', 'hook-error', 'bad-status', 'slow', 'no-items', 'fake'])
  t.ok(catalog.validateResponse({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook: 'Discovery' }, reply.json).valid)
})

t.test('a call without Content-Type is JSON; unknown fields reach the handler intact', async (t) => {
  seen.length = 0
  const reply = await call(url, `${bccPath}?timeout=10s`, bccBody(), { ca })
  t.equal(reply.status, 200)
  t.same(reply.json, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'hello c1 echo', retryAfterSeconds: 0 })
  t.match(reply.headers['content-type'], /^application\/json/)
  t.match(reply.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  t.same(seen, [JSON.parse(bccBody())], 'the handler got the body exactly as sent')
})

t.test('application/json (with charset) works the same', async (t) => {
  for (const contentType of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
    const reply = await call(url, bccPath, bccBody(), { ca, contentType })
    t.equal(reply.json.status, 'Success', contentType)
  }
})

t.test('blocking answers keep retryAfterSeconds and the message', async (t) => {
  const body = JSON.stringify({ cluster, fromKubernetesVersion: 'v1.32.0', toKubernetesVersion: 'v1.33.0' })
  const reply = await call(url, `/${API}/beforecontrolplaneupgrade/blocking`, body, { ca })
  t.same(reply.json, { kind: 'BeforeControlPlaneUpgradeResponse', apiVersion: API, status: 'Success', message: 'wait', retryAfterSeconds: 7 })
})

t.test('a body of 20 MiB + 1 is refused with a Failure, the handler is not called', async (t) => {
  seen.length = 0
  const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20)
  const reply = await call(url, bccPath, big, { ca })
  t.equal(reply.status, 200)
  t.same(reply.json, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Failure', message: `error reading request: request body is larger than ${MAX_BODY_BYTES} bytes`, retryAfterSeconds: 0 })
  t.same(seen, [], 'handler not called')
  const exact = Buffer.alloc(MAX_BODY_BYTES, 0x20)
  const body = Buffer.from(bccBody())
  body.copy(exact)
  const ok = await call(url, bccPath, exact, { ca, contentType: 'application/json' })
  t.equal(ok.json.status, 'Success', 'exactly 20 MiB is accepted')
})

t.test('a declared body far beyond the limit is answered 413 without reading it', async (t) => {
  const reply = await call(url, bccPath, undefined, { ca, headers: { 'content-length': String(10 * MAX_BODY_BYTES) } })
  t.equal(reply.status, 413)
  t.same(reply.json, { code: 'PayloadTooLarge', message: `request body of ${10 * MAX_BODY_BYTES} bytes exceeds the limit of ${MAX_BODY_BYTES} bytes` })
})

t.test('bad inputs are Failures with deterministic messages, with and without Content-Type', async (t) => {
  const cases: Array<[string, string | undefined, string]> = [
    ['malformed JSON', '{"cluster": {', 'error unmarshalling request: invalid JSON at position 13'],
    ['trailing garbage', '{"cluster": {}} x', 'error unmarshalling request: invalid JSON at position 16'],
    ['empty body', '', 'error unmarshalling request: empty body'],
    ['type confusion', bccBody({ settings: { n: 10 } }), 'error unmarshalling request: settings["n"]: json: cannot unmarshal number into Go value of type string'],
    ['not an object', '[1,2]', 'error unmarshalling request: json: cannot unmarshal array into Go value of type v1alpha1.BeforeClusterCreateRequest'],
    ['nested 100,000 deep', bccBody().replace('"cluster":', `"future":${'['.repeat(100000)}${']'.repeat(100000)},"cluster":`), 'error unmarshalling request: invalid character \'[\' exceeded max depth']
  ]
  for (const [name, body, message] of cases) {
    for (const contentType of [undefined, 'application/json']) {
      const reply = await call(url, bccPath, body, { ca, ...(contentType ? { contentType } : {}) })
      t.equal(reply.status, 200, `${name} (${contentType ?? 'no content type'}): HTTP 200`)
      t.same(reply.json, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Failure', message, retryAfterSeconds: 0 }, `${name} (${contentType ?? 'no content type'})`)
    }
  }
})

t.test('what Go\'s decoder accepts reaches the handler as Go\'s handler reads it: any kind and apiVersion, zero values for what is left out', async (t) => {
  seen.length = 0
  const other = await call(url, bccPath, bccBody({ kind: 'BeforeClusterDeleteRequest', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha2' }), { ca })
  t.same(other.json, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'hello c1 echo', retryAfterSeconds: 0 })
  const empty = await call(url, bccPath, JSON.stringify({ kind: 'BeforeClusterCreateRequest', cluster: null }), { ca })
  t.same(empty.json, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'hello undefined echo', retryAfterSeconds: 0 })
  t.same(seen[1], { kind: 'BeforeClusterCreateRequest', cluster: { metadata: {} } }, 'the zero Cluster, as Go encodes it')
})

t.test('a thrown error is a Failure without its details; a HookError message is passed on', async (t) => {
  const thrown = await call(url, `/${API}/beforeclusterdelete/thrower`, JSON.stringify({ cluster }), { ca })
  t.same(thrown.json, { kind: 'BeforeClusterDeleteResponse', apiVersion: API, status: 'Failure', message: 'handler "thrower" failed with an unexpected TypeError; see the extension\'s log', retryAfterSeconds: 0 })
  t.notMatch(thrown.text, /hunter2|at .*\.ts/, 'no secret, no stack')
  const hookError = await call(url, `/${API}/aftercontrolplaneinitialized/hook-error`, JSON.stringify({ cluster }), { ca })
  t.same(hookError.json, { kind: 'AfterControlPlaneInitializedResponse', apiVersion: API, status: 'Failure', message: 'the CNI is not installed yet' }, 'non-blocking hook: no retryAfterSeconds')
})

t.test('a response violating the response schema (unknown status) is a Failure', async (t) => {
  const reply = await call(url, `/${API}/beforeclusterupgrade/bad-status`, JSON.stringify({ cluster, fromKubernetesVersion: 'v1.32.0', toKubernetesVersion: 'v1.33.0' }), { ca })
  t.same(reply.json, { kind: 'BeforeClusterUpgradeResponse', apiVersion: API, status: 'Failure', message: 'handler "bad-status" returned an invalid response: status: must be one of "Success", "Failure", got "Maybe"', retryAfterSeconds: 0 })
})

t.test('a handler past its ?timeout= deadline: Failure in time, signal aborted', async (t) => {
  slowAborted = undefined
  const started = Date.now()
  const reply = await call(url, `/${API}/afterclusterupgrade/slow?timeout=1s`, JSON.stringify({ cluster, kubernetesVersion: 'v1.33.0' }), { ca })
  const elapsed = Date.now() - started
  t.same(reply.json, { kind: 'AfterClusterUpgradeResponse', apiVersion: API, status: 'Failure', message: 'handler "slow" did not answer within 0.5s', retryAfterSeconds: 0 })
  t.ok(elapsed >= 450 && elapsed < 1000, `answered before the caller's 1 s timeout (${elapsed} ms)`)
  await sleep(20)
  t.equal(slowAborted, true, 'the handler saw its signal abort')
  const fallback = Date.now()
  const declared = await call(url, `/${API}/afterclusterupgrade/slow`, JSON.stringify({ cluster, kubernetesVersion: 'v1.33.0' }), { ca })
  t.equal(declared.json.message, 'handler "slow" did not answer within 1.5s', 'without ?timeout the declared 2 s less the margin')
  t.ok(Date.now() - fallback < 2000)
})

t.test('a user-defined hook group is served the same way', async (t) => {
  const body = JSON.stringify({ kind: 'FakeHookRequest', apiVersion: `${TEST_GROUP}/v1alpha2`, cluster, first: 41, second: 'abc', third: 'x' })
  const reply = await call(url, `/${TEST_GROUP}/v1alpha2/fakehook/fake`, body, { ca })
  t.same(reply.json, { kind: 'FakeHookResponse', apiVersion: `${TEST_GROUP}/v1alpha2`, status: 'Success', first: 42, second: 'ABC' })
  const bad = await call(url, `/${TEST_GROUP}/v1alpha2/fakehook/fake`, JSON.stringify({ cluster, first: 'one', second: 'abc' }), { ca })
  t.same(bad.json.message, 'invalid request: first: must be an integer, got a string')
})

t.test('non-hook outcomes are JSON errors with stable codes', async (t) => {
  const notFound = await call(url, `/${API}/beforeclustercreate/nope`, bccBody(), { ca })
  t.equal(notFound.status, 404)
  t.same(notFound.json, { code: 'NotFound', message: `no route for POST /${API}/beforeclustercreate/nope` })
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const wrong = await call(url, bccPath, method === 'GET' ? undefined : '{}', { ca, method })
    t.equal(wrong.status, 405, method)
    t.equal(wrong.headers.allow, 'POST')
    t.same(wrong.json, { code: 'MethodNotAllowed', message: `${method} is not allowed on ${bccPath}: hooks are called with POST` })
  }
  const xml = await call(url, bccPath, '<cluster/>', { ca, contentType: 'text/xml' })
  t.equal(xml.status, 415)
  t.same(xml.json, { code: 'UnsupportedMediaType', message: 'hook requests are JSON: send Content-Type application/json or none, not "text/xml"' })
  const invalid = await call(url, bccPath, '{}', { ca, contentType: 'not a media type' })
  t.equal(invalid.status, 415)
  t.equal(invalid.json.code, 'UnsupportedMediaType')
})

t.test('operations routes: health, readiness, metrics, OpenAPI, docs', async (t) => {
  t.same((await call(url, '/healthz', undefined, { ca, method: 'GET' })).json, { status: 'ok' })
  t.same((await call(url, '/readyz', undefined, { ca, method: 'GET' })).json, { status: 'ok' })
  const metrics = await call(url, '/metrics', undefined, { ca, method: 'GET' })
  t.equal(metrics.status, 200)
  t.match(metrics.text, /runtime_sdk_extension_requests_total\{hook="BeforeClusterCreate",handler="echo",status="Success"\} [1-9]/)
  t.match(metrics.text, /runtime_sdk_extension_requests_total\{hook="BeforeClusterCreate",handler="echo",status="Failure"\} [1-9]/)
  t.match(metrics.text, /runtime_sdk_extension_failures_total\{hook="AfterClusterUpgrade",handler="slow",reason="deadline_exceeded"\} 2/)
  t.match(metrics.text, /runtime_sdk_extension_failures_total\{hook="BeforeClusterCreate",handler="echo",reason="body_too_large"\} 1/)
  t.match(metrics.text, /runtime_sdk_extension_request_duration_seconds_count\{hook="Discovery",handler=""\} 1/)
  const openapi = await call(url, '/openapi.json', undefined, { ca, method: 'GET' })
  t.ok(openapi.json.paths[`/${API}/beforeclustercreate/{name}`], 'OpenAPI document of the catalog')
  t.ok(openapi.json.paths[`/${TEST_GROUP}/v1alpha3/fakehook/{name}`], 'user groups included')
  const docs = await call(url, '/docs/', undefined, { ca, method: 'GET' })
  t.equal(docs.status, 200)
  t.match(docs.text, /swagger/i)
  const docJson = await call(url, '/docs/json', undefined, { ca, method: 'GET' })
  t.same(docJson.json.paths[`/${API}/discovery`] !== undefined, true, 'swagger UI serves the same document')
  const missing = await call(url, '/docs/no-such-file', undefined, { ca, method: 'GET' })
  t.equal(missing.status, 404)
  t.equal(missing.json.code, 'NotFound', 'a path Swagger UI does not serve is a JSON 404 like any other')
})

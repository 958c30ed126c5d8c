// Every entrance of the serving core answers alike: createExtensionServer (node's request listener), the
// runtimeExtension plugin in a user's fastify app and the in-process entrance give the same answers, byte for byte,
// whatever the request; the server's request logs are the ones fastify writes; a user's fastify request hooks run for
// hook calls.
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { pino } from 'pino'
import t from 'tap'
import { AfterControlPlaneInitialized, BeforeClusterCreate, BeforeClusterDelete, BeforeClusterUpgrade, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { MAX_BODY_BYTES } from '../../src/catalog/handlers.js'
import { operationsRoutes } from '../../src/http/index.js'
import { createExtensionServer, createInProcessExtension, defineHandler, ExtensionHandlerError, HookError, runtimeExtension } from '../../src/server/index.js'
import { API, call, type CallOptions, silent } from '../helpers/server.js'

const handlers = [
  defineHandler({ hook: BeforeClusterCreate, name: 'sync', handler: (request) => ({ status: 'Success', message: `hello ${request.cluster.metadata?.name}` }) }),
  defineHandler({ hook: BeforeClusterUpgrade, name: 'async', handler: async () => ({ status: 'Success', retryAfterSeconds: 3 }) }),
  defineHandler({ hook: BeforeClusterDelete, name: 'thrower', handler: () => { throw new TypeError('secret') } }),
  defineHandler({ hook: AfterControlPlaneInitialized, name: 'rejecter', handler: async () => { throw new HookError('not yet') } }),
  defineHandler({ hook: GeneratePatches, name: 'invalid', handler: () => ({ status: 'Maybe' as 'Success' }) })
]

const server = createExtensionServer({ handlers, insecureHttp: true, logger: silent, docs: false })
const fast = await server.listen({ port: 0, host: '127.0.0.1' })
t.teardown(() => server.close())
// The plugin in a user's app without a logger, with the server's JSON errors (the answers fastify gives in both).
const app = Fastify({ logger: false })
operationsRoutes(app)
await app.register(runtimeExtension({ handlers }))
const plugin = await app.listen({ port: 0, host: '127.0.0.1' })
t.teardown(() => app.close())

const cluster = { kind: 'Cluster', apiVersion: 'cluster.x-k8s.io/v1beta2', metadata: { name: 'c1', namespace: 'default' }, spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.33.0' } } }
const body = (hook: string, extra: object = {}) => JSON.stringify({ kind: `${hook}Request`, apiVersion: API, cluster, ...extra })
const path = (hook: string, name: string, query = '?timeout=10s') => `/${API}/${hook.toLowerCase()}/${name}${query}`

const cases: Array<[string, string, string | Buffer | undefined, CallOptions?]> = [
  ['a synchronous handler, no Content-Type', path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate')],
  ['application/json with a charset', path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate'), { contentType: 'application/json; charset=utf-8' }],
  ['an asynchronous blocking handler', path('BeforeClusterUpgrade', 'async'), body('BeforeClusterUpgrade', { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0' })],
  ['a throwing handler', path('BeforeClusterDelete', 'thrower'), body('BeforeClusterDelete')],
  ['a HookError', path('AfterControlPlaneInitialized', 'rejecter'), body('AfterControlPlaneInitialized')],
  ['an invalid response', path('GeneratePatches', 'invalid'), JSON.stringify({ kind: 'GeneratePatchesRequest', apiVersion: API, items: [] })],
  ['malformed JSON', path('BeforeClusterCreate', 'sync'), '{"kind":'],
  ['an empty body', path('BeforeClusterCreate', 'sync'), ''],
  ['a schema violation', path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate', { cluster: { metadata: { name: 7 } } })],
  ['no query', path('BeforeClusterCreate', 'sync', ''), body('BeforeClusterCreate')],
  ['a repeated and an encoded timeout', path('BeforeClusterCreate', 'sync', '?timeout=1s&timeout=%32s'), body('BeforeClusterCreate')],
  ['a body over 20 MiB', path('BeforeClusterCreate', 'sync'), Buffer.alloc(MAX_BODY_BYTES + 1, 0x20)],
  ['text/plain', path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate'), { contentType: 'text/plain' }],
  ['GET on a hook path', path('BeforeClusterCreate', 'sync'), undefined, { method: 'GET' }],
  ['an unknown handler', path('BeforeClusterCreate', 'nope'), body('BeforeClusterCreate')],
  ['a trailing slash', `/${API}/beforeclustercreate/sync/`, body('BeforeClusterCreate')],
  ['GET /healthz', '/healthz', undefined, { method: 'GET' }],
  ['GET /readyz with a query', '/readyz?verbose', undefined, { method: 'GET' }],
  ['HEAD /readyz', '/readyz', undefined, { method: 'HEAD' }],
  ['POST /healthz', '/healthz', '{}', { method: 'POST' }]
]

for (const [name, target, payload, options] of cases) {
  t.test(`${name}: the server answers as the fastify plugin`, async (t) => {
    const [ours, theirs] = await Promise.all([call(fast, target, payload, options), call(plugin, target, payload, options)])
    t.equal(ours.status, theirs.status, 'status')
    t.equal(ours.headers['content-type'], theirs.headers['content-type'], 'content type')
    t.equal(ours.headers.allow, theirs.headers.allow, 'allow')
    t.equal(ours.headers['content-length'], theirs.headers['content-length'], 'content length')
    t.equal(ours.text, theirs.text, 'body')
    t.match(ours.headers['x-request-id'], /^[0-9a-f-]{36}$/)
  })
}

t.test('a request id from the caller is kept', async (t) => {
  const reply = await call(fast, path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate'), { headers: { 'x-request-id': 'call-42' } })
  t.equal(reply.headers['x-request-id'], 'call-42')
})

t.test('at level info the server writes the request lines fastify writes', async (t) => {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({ write (chunk: Buffer, _encoding, done) { lines.push(JSON.parse(chunk.toString())); done() } })
  const logged = createExtensionServer({ handlers, insecureHttp: true, logger: pino({ level: 'info' }, sink), docs: false })
  const url = await logged.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => logged.close())
  await call(url, path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate'), { headers: { 'x-request-id': 'r1' } })
  await new Promise(resolve => setImmediate(resolve))
  const mine = lines.filter(l => l['reqId'] === 'r1')
  t.same(mine.map(l => l['msg']), ['incoming request', 'request completed'])
  t.match(mine[0], { req: { method: 'POST', url: path('BeforeClusterCreate', 'sync'), remoteAddress: '127.0.0.1' } })
  t.match(mine[1], { res: { statusCode: 200 }, responseTime: Number })
})

const inProcess = createInProcessExtension({ handlers })

t.test('the in-process entrance answers every POST as the server does', async (t) => {
  for (const [name, target, payload, options] of cases) {
    if (options?.method !== undefined || options?.contentType === 'text/plain' || !target.startsWith(`/${API}/`)) continue
    const hookPath = target.split('?')[0] as string
    if (!inProcess.paths.includes(hookPath)) continue
    const query = new URLSearchParams(target.split('?')[1] ?? '').getAll('timeout')
    const served = await call(fast, target, payload, options)
    const answered = await inProcess.callPath(hookPath, payload ?? '', query.length === 1 ? { timeout: query[0] as string } : {})
    t.same(answered, served.json, name)
  }
})

t.test('the in-process entrance is typed by the hook and refuses a path it does not serve', async (t) => {
  const response = await inProcess.call(BeforeClusterCreate, 'sync', { kind: 'BeforeClusterCreateRequest', apiVersion: API, cluster: cluster as never })
  t.same(response, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'hello c1', retryAfterSeconds: 0 })
  t.same((await inProcess.call(BeforeClusterUpgrade, 'async', { kind: 'BeforeClusterUpgradeRequest', apiVersion: API, cluster: cluster as never, fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0' })).retryAfterSeconds, 3)
  t.match(inProcess.discovery.handlers.map(h => h.name), ['sync', 'async', 'thrower', 'rejecter', 'invalid'])
  await t.rejects(inProcess.callPath(`/${API}/beforeclustercreate/nope`, '{}'), ExtensionHandlerError)
})

t.test("a user's onRequest hook runs for hook calls: in their own app and through server.app", async (t) => {
  const seen: string[] = []
  const userApp = Fastify({ logger: false })
  userApp.addHook('onRequest', async (request, reply) => {
    seen.push(request.url)
    if (request.headers.authorization !== 'Bearer ok') await reply.code(401).send({ code: 'Unauthorized', message: 'no token' })
  })
  await userApp.register(runtimeExtension({ handlers }), { prefix: '/ext' })
  const userUrl = await userApp.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => userApp.close())
  t.equal((await call(userUrl, `/ext${path('BeforeClusterCreate', 'sync')}`, body('BeforeClusterCreate'))).status, 401, 'the hook refused the call')
  const allowed = await call(userUrl, `/ext${path('BeforeClusterCreate', 'sync')}`, body('BeforeClusterCreate'), { headers: { authorization: 'Bearer ok' } })
  t.same([allowed.status, allowed.json.message], [200, 'hello c1'])

  const server = createExtensionServer({ handlers, insecureHttp: true, logger: silent, docs: false })
  server.app.addHook('onRequest', async (request, reply) => {
    seen.push(`server ${request.url}`)
    if (request.headers.authorization !== 'Bearer ok') await reply.code(401).send({ code: 'Unauthorized', message: 'no token' })
  })
  const url = await server.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  t.equal((await call(url, path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate'))).status, 401, 'the hook added through server.app refused the call')
  const served = await call(url, path('BeforeClusterCreate', 'sync'), body('BeforeClusterCreate'), { headers: { authorization: 'Bearer ok' } })
  t.same([served.status, served.json.message], [200, 'hello c1'])
  t.equal(seen.filter(s => s.startsWith('server ')).length, 2)
})

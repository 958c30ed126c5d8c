import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { KubeConfig } from '@kubernetes/client-node'
import { KubeApi, LineSplitter, type KubeWatchEvent } from '../../src/kube/api.js'
import { isAlreadyExists, isConflict, isKubeApiError, KubeApiError, isNotFound, isResourceExpired } from '../../src/kube/errors.js'
import { createCertificateAuthority, type PemPair } from '../../src/tls/certificates.js'
import { kubeConfigOptions, startFakeApiServer, type FakeApiServer, type Obj } from '../helpers/fake-apiserver.js'
import { waitFor } from '../helpers/wait.js'

const CM = '/api/v1/namespaces/default/configmaps'
const b64 = (s: string) => Buffer.from(s).toString('base64')

function apiFor (server: string, user?: Record<string, unknown>, cluster?: Record<string, unknown>, timeoutMs?: number): KubeApi {
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server, user, cluster))
  return new KubeApi(kc, timeoutMs === undefined ? {} : { timeoutMs })
}

async function fake (t: Test, ...args: Parameters<typeof startFakeApiServer>): Promise<FakeApiServer> {
  const server = await startFakeApiServer(...args)
  t.teardown(() => server.close())
  return server
}

const cm = (name: string, data: Record<string, string> = {}): Obj =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data })

t.test('CRUD against a collection: bearer token, JSON bodies, merge patch content type', async (t) => {
  const server = await fake(t, [CM])
  const api = apiFor(server.url)
  t.teardown(() => api.close())

  const created = await api.create<Obj>(CM, cm('a', { k: 'v' }))
  t.equal(created.metadata.name, 'a')
  t.ok(created.metadata.resourceVersion, 'the server assigned a resourceVersion')
  const post = server.requests.at(-1)
  t.equal(post?.headers.authorization, 'Bearer test-token')
  t.equal(post?.headers['content-type'], 'application/json')
  t.equal(post?.headers.accept, 'application/json')
  t.equal(post?.headers['user-agent'], 'runtime-sdk-controller')

  t.same((await api.get<Obj>(`${CM}/a`)).data, { k: 'v' })
  const list = await api.list<Obj>(CM, { query: { limit: 10, labelSelector: undefined } })
  t.same(list.items.map((o) => o.metadata.name), ['a'])
  t.equal(server.requests.at(-1)?.query.get('limit'), '10')
  t.notOk(server.requests.at(-1)?.query.has('labelSelector'), 'undefined query values are left out')

  const replaced = await api.replace<Obj>(`${CM}/a`, { ...created, data: { k: 'w' } })
  t.same(replaced.data, { k: 'w' })
  const stale = await api.replace(`${CM}/a`, created).catch((e: unknown) => e)
  t.ok(isConflict(stale) && stale.code === 409, 'a stale resourceVersion is a Conflict')

  const patched = await api.mergePatch<Obj>(`${CM}/a`, { data: { k: null, n: 'x' } })
  t.same(patched.data, { n: 'x' })
  t.equal(server.requests.at(-1)?.method, 'PATCH')
  t.equal(server.requests.at(-1)?.headers['content-type'], 'application/merge-patch+json')

  // Strings go as they are, with the content type asked for.
  await api.request('POST', CM, { body: JSON.stringify(cm('raw')), contentType: 'application/json; charset=utf-8' })
  t.equal(server.requests.at(-1)?.headers['content-type'], 'application/json; charset=utf-8')
  t.equal((await api.get<Obj>(`${CM}/raw`)).metadata.name, 'raw')

  await api.delete(`${CM}/a`)
  const gone = await api.get(`${CM}/a`).catch((e: unknown) => e)
  t.ok(isNotFound(gone) && gone.message === '"a" not found', 'deleted')
})

t.test('errors carry the Status: code, reason, message', async (t) => {
  const server = await fake(t, [CM])
  const api = apiFor(server.url)
  t.teardown(() => api.close())
  await api.create(CM, cm('dup'))
  const err = await api.create(CM, cm('dup')).catch((e: unknown) => e) as KubeApiError
  t.ok(err instanceof KubeApiError)
  t.equal(err.code, 409)
  t.equal(err.reason, 'AlreadyExists')
  t.equal(err.message, '"dup" already exists')
  t.equal(err.status?.kind, 'Status')
  t.ok(isAlreadyExists(err))
  t.notOk(isConflict(err), 'AlreadyExists is not a Conflict although both are 409')

  server.intercept = () => 503
  const unavailable = await api.get(`${CM}/dup`).catch((e: unknown) => e) as KubeApiError
  t.equal(unavailable.code, 503)
  t.ok(isKubeApiError(unavailable, 'InternalError'), 'reason from the Status body')
})

t.test('errors without a Status body get a reason from the HTTP code', async (t) => {
  const replies: Array<[number, string]> = [[500, '<html>boom</html>'], [404, ''], [410, '{"not":"status"}'], [418, 'teapot']]
  const srv = http.createServer((req, res) => {
    const [code, body] = replies.shift() ?? [200, '']
    res.writeHead(code, { 'content-type': 'text/plain' })
    res.end(body)
  })
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => srv.close(resolve)))
  const api = apiFor(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`)
  t.teardown(() => api.close())

  const e500 = await api.get('/x').catch((e: unknown) => e) as KubeApiError
  t.match(e500, { code: 500, reason: 'InternalError', message: 'GET /x: 500 InternalError: <html>boom</html>' })
  const e404 = await api.get('/y').catch((e: unknown) => e) as KubeApiError
  t.match(e404, { code: 404, reason: 'NotFound', message: 'GET /y: 404 NotFound' })
  t.ok(isNotFound(e404))
  const e410 = await api.get('/z').catch((e: unknown) => e) as KubeApiError
  t.ok(isResourceExpired(e410))
  t.equal(e410.status, undefined)
  const e418 = await api.get('/t').catch((e: unknown) => e) as KubeApiError
  t.equal(e418.reason, 'Unknown')
  t.equal(await api.get('/empty'), undefined, 'an empty 200 answer is undefined')
})

t.test('an answer asking to retry (429 or 5xx with Retry-After) is retried after it, as client-go does, ten times at most', async (t) => {
  const status = (code: number, message: string) => JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason: 'TooManyRequests', message })
  let calls = 0
  const srv = http.createServer((req, res) => {
    calls++
    if (req.url === '/initializing' && calls <= 2) res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end(status(429, 'storage is (re)initializing'))
    else if (req.url === '/initializing') res.end('{"ok":true}')
    else if (req.url === '/always') res.writeHead(503, { 'retry-after': '0' }).end(status(503, 'busy'))
    else res.writeHead(429, { 'content-type': 'application/json' }).end(status(429, 'no retry-after'))
  })
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => srv.close(resolve)))
  const api = apiFor(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`)
  t.teardown(() => api.close())
  t.same(await api.get('/initializing'), { ok: true })
  t.equal(calls, 3, 'the answer after two 429s')
  calls = 0
  await t.rejects(api.get('/always'), { code: 503 })
  t.equal(calls, 11, 'the first try and ten retries')
  calls = 0
  await t.rejects(api.get('/plain'), { code: 429, message: /no retry-after/ })
  t.equal(calls, 1, 'without Retry-After, no retry')
})

t.test('an answer that is not JSON is an error naming the request', async (t) => {
  const srv = http.createServer((req, res) => { res.end('not json') })
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => srv.close(resolve)))
  const api = apiFor(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`)
  t.teardown(() => api.close())
  await t.rejects(api.get('/p'), /GET \/p: answer is not JSON: not json/)
})

t.test('timeoutMs and signal abort a request', async (t) => {
  const srv = http.createServer(() => { /* never answers */ })
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { srv.closeAllConnections(); return new Promise((resolve) => srv.close(resolve)) })
  const api = apiFor(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`, undefined, undefined, 100)
  t.teardown(() => api.close())
  await t.rejects(api.get('/slow'), { name: 'TimeoutError', message: 'GET /slow timed out after 100 ms' }, 'client default timeout')
  await t.rejects(api.get('/slow', { timeoutMs: 50 }), { name: 'TimeoutError', message: 'GET /slow timed out after 50 ms' })
  await t.rejects(api.get('/slow', { timeoutMs: 0, signal: AbortSignal.timeout(50) }), { name: 'TimeoutError' }, 'caller signal')
})

t.test('HTTPS: CA from the kubeconfig, client certificate, insecure-skip-tls-verify, basic auth, path prefix, kubeconfig file', async (t) => {
  const ca = await createCertificateAuthority('fake apiserver CA')
  const serving = await ca.issue({ commonName: 'localhost', ipAddresses: ['127.0.0.1'] })
  const client = await ca.issue({ commonName: 'controller', usage: 'client' })
  const server = await fake(t, ['/prefix/api/v1/secrets'], { tls: { ...serving, ca: ca.cert } })

  const api = apiFor(`${server.url}/prefix/`, { certData: b64(client.cert), keyData: b64(client.key) }, { caData: b64(ca.cert) })
  t.teardown(() => api.close())
  t.equal(api.server, `${server.url}/prefix`)
  t.same((await api.list('/api/v1/secrets')).items, [])
  t.same(server.clientCertificates, ['controller'], 'the client certificate was presented')
  t.equal(server.requests.at(-1)?.path, '/prefix/api/v1/secrets', 'the server path prefix is kept')
  t.equal(server.requests.at(-1)?.headers.authorization, undefined, 'no token configured, no Authorization header')

  const untrusting = apiFor(server.url, { token: 't' })
  t.teardown(() => untrusting.close())
  await t.rejects(untrusting.list('/prefix/api/v1/secrets'), 'without the CA the serving certificate is not trusted')

  const impersonating = apiFor(`${server.url}/prefix`, { token: 'admin', impersonateUser: 'someone' }, { caData: b64(ca.cert), tlsServerName: 'localhost' })
  t.teardown(() => impersonating.close())
  await impersonating.list('/api/v1/secrets')
  t.equal(server.requests.at(-1)?.headers['impersonate-user'], 'someone')
  t.equal(server.requests.at(-1)?.headers.authorization, 'Bearer admin')

  const insecure = apiFor(server.url, { username: 'u', password: 'p' }, { skipTLSVerify: true })
  t.teardown(() => insecure.close())
  await insecure.list('/prefix/api/v1/secrets')
  t.equal(server.requests.at(-1)?.headers.authorization, `Basic ${b64('u:p')}`)

  const dir = await mkdtemp(join(tmpdir(), 'kube-api-'))
  await writeFile(join(dir, 'ca.crt'), ca.cert)
  const kubeconfig = join(dir, 'kubeconfig')
  await writeFile(kubeconfig, JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority': join(dir, 'ca.crt') } }],
    users: [{ name: 'u', user: { token: 'from-file' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x'
  }))
  const fromFile = new KubeApi(kubeconfig)
  t.teardown(() => fromFile.close())
  await fromFile.list('/prefix/api/v1/secrets')
  t.equal(server.requests.at(-1)?.headers.authorization, 'Bearer from-file')

  t.throws(() => new KubeApi(new KubeConfig()), /no current cluster/)
  await fromFile.close()
  await t.rejects(fromFile.list('/prefix/api/v1/secrets'), /kube api: closed/, 'no requests after close()')
  t.throws(() => apiFor('http://127.0.0.1:1', {}, { skipTLSVerify: false }), /plain HTTP server http:\/\/127.0.0.1:1 needs insecure-skip-tls-verify/)
})

t.test('credentials: static ones resolved once (a failure is retried), auth providers asked per request', async (t) => {
  const server = await fake(t, [CM])
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server.url, { token: 'static' }))
  const resolve = kc.applyToHTTPSOptions.bind(kc)
  let calls = 0
  kc.applyToHTTPSOptions = async (opts) => {
    if (++calls === 1) throw new Error('credentials not readable yet')
    return resolve(opts)
  }
  const api = new KubeApi(kc)
  t.teardown(() => api.close())
  await t.rejects(api.list(CM), /credentials not readable yet/)
  for (let i = 0; i < 3; i++) await api.list(CM)
  t.equal(calls, 2)
  t.equal(server.requests.at(-1)?.headers.authorization, 'Bearer static')

  const rotating = new KubeConfig()
  rotating.loadFromOptions(kubeConfigOptions(server.url, { authProvider: { name: 'rotating', config: {} } }))
  let issued = 0
  rotating.addAuthenticator({
    isAuthProvider: (user) => user.authProvider?.name === 'rotating',
    applyAuthentication: async (user, opts) => { opts.headers = { ...opts.headers, Authorization: `Bearer token-${++issued}` } }
  })
  const dynamic = new KubeApi(rotating)
  t.teardown(() => dynamic.close())
  await dynamic.list(CM)
  await dynamic.list(CM)
  t.same(server.requests.slice(-2).map((r) => r.headers.authorization), ['Bearer token-1', 'Bearer token-2'])
})

t.test('watch: events in order, resumable, with query parameters and Accept', async (t) => {
  const server = await fake(t, [CM])
  const api = apiFor(server.url)
  t.teardown(() => api.close())
  server.put(CM, cm('a'))
  const rv = server.resourceVersion
  server.put(CM, cm('b'))
  server.put(CM, cm('a', { x: '1' }))
  const events: Array<KubeWatchEvent<Obj>> = []
  const done = api.watch<Obj>(CM, { resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 60, labelSelector: 'l=1', fieldSelector: 'f=2', accept: 'application/json;x=y' }, (e) => {
    events.push(e)
    if (events.length === 3) server.endWatches(CM)
  })
  await t.resolves(async () => {
    while (server.watcherCount(CM) === 0 && events.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    server.remove(CM, 'default/b')
    await done
  })
  t.same(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED b', 'MODIFIED a', 'DELETED b'])
  const q = server.requests.at(-1)?.query
  t.equal(q?.get('watch'), 'true')
  t.equal(q?.get('resourceVersion'), rv)
  t.equal(q?.get('allowWatchBookmarks'), 'true')
  t.equal(q?.get('timeoutSeconds'), '60')
  t.equal(q?.get('labelSelector'), 'l=1')
  t.equal(q?.get('fieldSelector'), 'f=2')
  t.equal(server.requests.at(-1)?.headers.accept, 'application/json;x=y')
})

t.test('watch: partial lines, multi-byte characters and a big object across many chunks', async (t) => {
  const server = await fake(t, [CM])
  const api = apiFor(server.url)
  t.teardown(() => api.close())
  server.chunkSize = 7
  const big = 'ü€'.repeat(200_000) // ~1 MB of multi-byte text, split at arbitrary byte offsets
  server.put(CM, cm('big', { big }))
  server.put(CM, cm('small'))
  const events: Array<KubeWatchEvent<Obj>> = []
  server.chunkSize = 4093
  await api.watch<Obj>(CM, { resourceVersion: '1' }, (e) => {
    events.push(e)
    if (events.length === 2) server.endWatches(CM)
  })
  t.equal(events.length, 2)
  t.equal((events[0]?.object.data as Record<string, string>).big, big)
  t.equal(events[1]?.object.metadata.name, 'small')
})

t.test('watch: an ERROR event rejects with its Status', async (t) => {
  const server = await fake(t, [CM])
  const api = apiFor(server.url)
  t.teardown(() => api.close())
  server.put(CM, cm('a'))
  server.compact()
  const err = await api.watch(CM, { resourceVersion: '1' }, () => t.fail('no events')).catch((e: unknown) => e) as KubeApiError
  t.ok(isResourceExpired(err))
  t.match(err, { code: 410, reason: 'Expired', message: /too old resource version/ })

  const seen: string[] = []
  const watching = api.watch<Obj>(CM, {}, (e) => {
    seen.push(e.type)
    server.watchError(CM, 500, 'InternalError', 'etcd went away')
  })
  await t.rejects(watching, { code: 500, reason: 'InternalError', message: 'etcd went away' })
  t.same(seen, ['ADDED'])
})

t.test('watch: failures', async (t) => {
  const server = await fake(t, [CM])
  const api = apiFor(server.url)
  t.teardown(() => api.close())

  server.intercept = (r) => r.query.get('watch') ? 403 : undefined
  await t.rejects(api.watch(CM, {}, () => {}), { code: 403 }, 'a failed response')
  server.intercept = undefined

  const malformed = api.watch(CM, {}, () => {})
  await until(() => server.watcherCount(CM) === 1)
  server.sendRaw(CM, '{"type":"ADDED","object":{"metad\n')
  await t.rejects(malformed, /undecodable event/)
  await until(() => server.watcherCount(CM) === 0)

  for (const [raw, message] of [['{"type":"WEIRD","object":{}}\n', /unknown event type "WEIRD"/], ['{"type":"ADDED"}\n', /ADDED event without an object/]] as const) {
    const watching = api.watch(CM, {}, () => {})
    await until(() => server.watcherCount(CM) === 1)
    server.sendRaw(CM, raw)
    await t.rejects(watching, message)
    await until(() => server.watcherCount(CM) === 0)
  }

  server.put(CM, cm('a'))
  await t.rejects(api.watch(CM, {}, () => { throw new Error('handler failed') }), /handler failed/, 'what onEvent throws')
  await until(() => server.watcherCount(CM) === 0)
  t.pass('the stream was closed when the handler threw')

  const controller = new AbortController()
  const aborted = api.watch(CM, { signal: controller.signal }, () => {})
  await until(() => server.watcherCount(CM) === 1)
  controller.abort()
  await t.rejects(aborted, { name: 'AbortError' })
  await until(() => server.watcherCount(CM) === 0)
})

t.test('exec plugin client certificates: a new one on a new connection, requests on the old one finish; a 401 runs the plugin again', async (t) => {
  const ca = await createCertificateAuthority('fake apiserver CA')
  const serving = await ca.issue({ commonName: 'localhost', ipAddresses: ['127.0.0.1'] })
  const first = await ca.issue({ commonName: 'exec-first', usage: 'client' })
  const second = await ca.issue({ commonName: 'exec-second', usage: 'client' })
  const server = await fake(t, [CM], { tls: { ...serving, ca: ca.cert } })
  const dir = await mkdtemp(join(tmpdir(), 'kube-api-exec-'))
  const answer = join(dir, 'credential.json')
  const runs = join(dir, 'runs')
  await writeFile(join(dir, 'plugin.sh'), `#!/bin/sh\necho x >> '${runs}'\ncat '${answer}'\n`)
  await chmod(join(dir, 'plugin.sh'), 0o755)
  const V1 = 'client.authentication.k8s.io/v1'
  const issue = (pair: PemPair, validMs: number) => writeFile(answer, JSON.stringify({
    apiVersion: V1,
    kind: 'ExecCredential',
    status: { clientCertificateData: pair.cert, clientKeyData: pair.key, expirationTimestamp: new Date(Date.now() + validMs).toISOString() }
  }))
  const kubeconfig = join(dir, 'kubeconfig')
  await writeFile(kubeconfig, JSON.stringify({
    clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority-data': b64(ca.cert) } }],
    users: [{ name: 'u', user: { exec: { apiVersion: V1, command: './plugin.sh' } } }],
    contexts: [{ name: 'exec', context: { cluster: 'c', user: 'u' } }]
  }))
  const api = new KubeApi({ kubeconfig, context: 'exec' })
  t.teardown(() => api.close())
  const runCount = async () => (await readFile(runs, 'utf8')).trim().split('\n').length

  await issue(first, 0) // already expired: the plugin runs for every request
  await api.list(CM)
  t.same(server.clientCertificates, ['exec-first'])
  const events: string[] = []
  const watching = api.watch<Obj>(CM, {}, (e) => { events.push(e.object.metadata.name) })
  await until(() => server.watcherCount(CM) === 1)
  await issue(second, 3_600_000)
  await api.list(CM)
  t.same(server.clientCertificates, ['exec-first', 'exec-second'], 'the new certificate is presented, on a new connection')
  server.put(CM, cm('during-rotation'))
  await until(() => events.length === 1)
  server.endWatches(CM)
  await watching
  t.same(events, ['during-rotation'], 'the watch on the old certificate went on until it ended')

  const before = await runCount()
  await api.list(CM)
  t.equal(await runCount(), before, 'a certificate good for an hour is reused')
  t.same(server.clientCertificates, ['exec-first', 'exec-second'], 'and so is its connection')
  server.intercept = () => { server.intercept = undefined; return 401 }
  await t.rejects(api.list(CM), { code: 401 })
  await api.list(CM)
  t.equal(await runCount(), before + 1, 'after a 401 the plugin runs again')
})

t.test('LineSplitter: lines across chunks, a last line without newline, blank lines skipped', async (t) => {
  const lines: string[] = []
  const s = new LineSplitter()
  const bytes = Buffer.from('{"a":"€"}\n\n{"b":1}\n{"c"')
  for (const b of bytes) s.push(Uint8Array.of(b), (l) => lines.push(l))
  s.push(Buffer.from(':2}'), (l) => lines.push(l))
  s.end((l) => lines.push(l))
  t.same(lines, ['{"a":"€"}', '{"b":1}', '{"c":2}'])
  s.end((l) => lines.push(l))
  t.equal(lines.length, 3, 'nothing left after end')
})

t.test('KubeApiError.fromStatus defaults', async (t) => {
  t.match(KubeApiError.fromStatus({}), { code: 500, reason: 'InternalError', message: 'InternalError (500)' })
  t.match(KubeApiError.fromStatus({ code: 410 }), { code: 410, reason: 'Gone' })
  t.match(KubeApiError.fromStatus({ reason: 'Expired' }, 410), { code: 410, reason: 'Expired' })
  t.match(KubeApiError.fromStatus({ code: 599 }), { reason: 'Unknown' })
  t.notOk(isKubeApiError(new Error('x')))
})

const until = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  await waitFor(check, { timeoutMs, intervalMs: 5, message: 'condition' })
}

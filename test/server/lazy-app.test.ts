// fastify is loaded when first needed, so that a server answering hook calls starts without it (start-up time,
// see docs/benchmarks.md); what it serves is the same either way.
import { createRequire } from 'node:module'
import { sep } from 'node:path'
import t from 'tap'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { createExtensionServer, defineHandler } from '../../src/server/index.js'
import { API, call, silent, start, tlsFixture } from '../helpers/server.js'

const fastifyLoaded = () => Object.keys(createRequire(import.meta.url).cache).some(path => path.includes(`${sep}node_modules${sep}fastify${sep}`))
const handlers = [defineHandler({ hook: BeforeClusterCreate, name: 'pass', handler: () => ({ status: 'Success' }) })]
const body = JSON.stringify({ cluster: { metadata: { name: 'c1' } } })

t.test('hook calls and probes are answered before fastify is loaded; the first other request loads it', async (t) => {
  const tls = await tlsFixture(t.testdir())
  t.equal(fastifyLoaded(), false, 'importing the server does not load fastify')
  const { url } = await start(t, tls, { handlers })
  const discovery = await call(url, `/${API}/discovery`, '{}', { ca: tls.ca.cert })
  t.equal(discovery.status, 200)
  t.equal((await call(url, `/${API}/beforeclustercreate/pass`, body, { ca: tls.ca.cert })).json.status, 'Success')
  t.equal(fastifyLoaded(), false, 'hook calls do not load fastify')

  const ready = await call(url, '/readyz', undefined, { ca: tls.ca.cert, method: 'GET' })
  t.same([ready.status, ready.json], [200, { status: 'ok' }])
  t.equal((await call(url, '/healthz', undefined, { ca: tls.ca.cert, method: 'GET' })).status, 200)
  t.equal(fastifyLoaded(), false, 'nor do the probes')

  const metrics = await call(url, '/metrics', undefined, { ca: tls.ca.cert, method: 'GET' })
  t.match(metrics.text, /runtime_sdk_extension_requests_total\{hook="BeforeClusterCreate",handler="pass",status="Success"\} 1/)
  t.equal(fastifyLoaded(), true, 'another route loads it')
  const wrongMethod = await call(url, `/${API}/beforeclustercreate/pass`, undefined, { ca: tls.ca.cert, method: 'GET' })
  t.same([wrongMethod.status, wrongMethod.json.code, wrongMethod.headers.allow], [405, 'MethodNotAllowed', 'POST'])
  t.match(metrics.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'fastify routes carry request ids too')
})

t.test('routes and hooks added through app before listen: fastify listens, runs onListen and serves them', async (t) => {
  const tls = await tlsFixture(t.testdir())
  const server = createExtensionServer({ handlers, tls: { certFile: tls.certFile, keyFile: tls.keyFile }, logger: silent })
  t.teardown(() => server.close())
  let listened = 0
  server.app.addHook('onListen', async () => { listened++ })
  server.app.get('/version', async () => ({ version: '1.2.3' }))
  const url = await server.listen({ port: 0, host: '127.0.0.1' })
  t.equal(listened, 1, 'onListen ran once')
  t.same((await call(url, '/version', undefined, { ca: tls.ca.cert, method: 'GET' })).json, { version: '1.2.3' })
  t.equal((await call(url, `/${API}/beforeclustercreate/pass`, body, { ca: tls.ca.cert })).json.status, 'Success')
  t.equal(server.address()?.port, Number(new URL(url).port))
  await server.close()
  await t.rejects(call(url, '/version', undefined, { ca: tls.ca.cert, method: 'GET' }), 'closed with the app')
})

t.test('a server whose fastify app was never made closes and stops accepting connections', async (t) => {
  const tls = await tlsFixture(t.testdir())
  const server = createExtensionServer({ handlers, tls: { certFile: tls.certFile, keyFile: tls.keyFile }, logger: silent })
  const url = await server.listen({ port: 0, host: '127.0.0.1' })
  t.equal((await call(url, `/${API}/beforeclustercreate/pass`, body, { ca: tls.ca.cert })).status, 200)
  await server.close()
  t.equal(server.address(), undefined)
  await t.rejects(call(url, `/${API}/beforeclustercreate/pass`, body, { ca: tls.ca.cert }))
})

// Graceful shutdown and connection limits.
import { connect } from 'node:tls'
import t from 'tap'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { defineHandler } from '../../src/server/index.js'
import { API, call, sleep, start, tlsFixture } from '../helpers/server.js'

const body = JSON.stringify({ cluster: { metadata: { name: 'c1' } } })

t.test('close() lets an in-flight request complete and makes /readyz fail meanwhile', async (t) => {
  const tls = await tlsFixture(t.testdir())
  let entered!: () => void
  const inHandler = new Promise<void>(resolve => { entered = resolve })
  const handlers = [defineHandler({
    hook: BeforeClusterCreate,
    name: 'slow',
    handler: async () => { entered(); await sleep(400); return { status: 'Success', message: 'finished' } }
  })]
  const { url, server } = await start(t, tls, { handlers })
  t.equal((await call(url, '/readyz', undefined, { ca: tls.ca.cert, method: 'GET' })).status, 200, 'ready once listening')
  const inFlight = call(url, `/${API}/beforeclustercreate/slow`, body, { ca: tls.ca.cert })
  await inHandler
  let closed = false
  const closing = server.close().then(() => { closed = true })
  await sleep(50)
  t.equal(closed, false, 'close() waits for the request')
  const reply = await inFlight
  t.same(reply.json, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'finished', retryAfterSeconds: 0 })
  await closing
  t.equal(closed, true)
  await t.rejects(call(url, '/healthz', undefined, { ca: tls.ca.cert, method: 'GET' }), 'no new connections after close')
})

t.test('/readyz is not ready before listen', async (t) => {
  const tls = await tlsFixture(t.testdir())
  const { createExtensionServer } = await import('../../src/server/index.js')
  const server = createExtensionServer({ handlers: [], tls: { certFile: tls.certFile, keyFile: tls.keyFile }, logLevel: 'silent' })
  t.teardown(() => server.close())
  const ready = await server.inject({ method: 'GET', url: '/readyz' })
  t.equal(ready.statusCode, 503)
  t.same(ready.json(), { code: 'ServiceUnavailable', message: 'the server is not listening yet' })
})

t.test('a client that never finishes its headers is cut off at headersTimeout', async (t) => {
  const tls = await tlsFixture(t.testdir())
  const { port } = await start(t, tls, { handlers: [], limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } })
  const started = Date.now()
  const closedAfter = await new Promise<number>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca: tls.ca.cert, servername: 'localhost' }, () => {
      socket.write(`POST /${API}/discovery HTTP/1.1\r\nHost: localhost\r\n`) // and never the blank line
    })
    socket.on('data', () => {})
    socket.on('error', reject)
    socket.on('close', () => resolve(Date.now() - started))
  })
  t.ok(closedAfter < 3000, `the slow client was disconnected after ${closedAfter} ms`)
})

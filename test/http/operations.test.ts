// The operations routes every HTTP server of the project shares: one answer shape for /healthz, /readyz, 404, 405.
import Fastify from 'fastify'
import t from 'tap'
import { listenAt, methodNotAllowed, operationsRoutes } from '../../src/http/operations.js'

t.test('health, readiness with its reason, metrics, JSON 404 and 405 with Allow', async t => {
  let reason: string | undefined = 'warming up'
  const app = Fastify()
  operationsRoutes(app, { notReady: () => reason, metrics: { contentType: 'text/plain; version=0.0.4', metrics: async () => 'up 1\n' } })
  app.post('/work', async () => ({ done: true }))
  methodNotAllowed(app, '/work', ['POST'], ': work is posted')
  t.teardown(() => app.close())

  t.same((await app.inject('/healthz')).json(), { status: 'ok' })
  const notReady = await app.inject('/readyz')
  t.same([notReady.statusCode, notReady.json()], [503, { code: 'ServiceUnavailable', message: 'warming up' }])
  reason = undefined
  t.same((await app.inject('/readyz')).json(), { status: 'ok' })
  const metrics = await app.inject('/metrics')
  t.same([metrics.body, metrics.headers['content-type']], ['up 1\n', 'text/plain; version=0.0.4'])
  const missing = await app.inject('/nowhere?x=1')
  t.same([missing.statusCode, missing.json()], [404, { code: 'NotFound', message: 'no route for GET /nowhere' }])
  const wrong = await app.inject({ method: 'DELETE', url: '/work' })
  t.same([wrong.statusCode, wrong.headers['allow'], wrong.json()], [405, 'POST', { code: 'MethodNotAllowed', message: 'DELETE is not allowed on /work: work is posted' }])
})

t.test('listenAt prints localhost for the wildcard address and the scheme asked for', async t => {
  const app = Fastify()
  operationsRoutes(app)
  t.teardown(() => app.close())
  t.match(await listenAt(app, { host: '127.0.0.1', port: 0, https: false }), /^http:\/\/127\.0\.0\.1:\d+$/)
  t.same((await app.inject('/readyz')).json(), { status: 'ok' }, 'ready unless told otherwise')
})

// Our apps load fastify's schema compilers only when a route declares a schema: a route a user adds to
// `server.app` with a schema must still be validated and serialized by fastify as usual.
import Fastify from 'fastify'
import t from 'tap'
import { appOptions } from '../../src/shims/fastify-options.js'

t.test('a route with a body and a response schema is validated and serialized, the compilers loaded on demand', async t => {
  const app = Fastify({ ...appOptions })
  app.post('/things', {
    schema: {
      body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } },
      response: { 200: { type: 'object', properties: { name: { type: 'string' } } } }
    }
  }, async (request) => ({ ...(request.body as object), secret: 'not in the response schema' }))
  t.teardown(() => app.close())

  const ok = await app.inject({ method: 'POST', url: '/things', payload: { name: 'abc' } })
  t.same([ok.statusCode, ok.json()], [200, { name: 'abc' }], 'the response schema drops what it does not declare')
  const bad = await app.inject({ method: 'POST', url: '/things', payload: { name: 'toolong' } })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().message, /body\/name must NOT have more than 5 characters/)
})

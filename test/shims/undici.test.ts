// src/shims/undici.ts reaches into undici's files to load only its Agent and request: these fail when an undici
// release moves those files or changes what they are.
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import t from 'tap'
import { Agent, request } from '../../src/shims/undici.js'

const require = createRequire(import.meta.url)
const undici = require('undici') as typeof import('undici')

t.test('Agent is undici\'s Agent and request is the request method undici gives every dispatcher', async t => {
  t.equal(Agent, undici.Agent)
  const agent = new Agent()
  t.teardown(() => agent.close())
  t.type(agent, undici.Dispatcher)
  t.equal(require('undici/lib/api/api-request.js'), undici.Dispatcher.prototype.request, 'the file request() calls is the method undici\'s index installs')
})

t.test('request sends the method, path, query, headers and body to the URL\'s origin through the dispatcher', async t => {
  const seen: Array<{ method?: string, url?: string, header?: string, body: string }> = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString() })
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, header: req.headers['x-test'] as string, body })
      res.setHeader('x-answer', 'yes')
      res.end('{"ok":true}')
    })
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.close() })
  const agent = new Agent()
  t.teardown(() => agent.close())
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/a/b?timeout=10s`)

  const res = await request(agent, url, { method: 'POST', headers: { 'x-test': 'on' }, body: 'hello' })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['x-answer'], 'yes')
  t.same(await res.body.json(), { ok: true })
  t.same(seen, [{ method: 'POST', url: '/a/b?timeout=10s', header: 'on', body: 'hello' }])

  const aborted = request(agent, url, { method: 'GET', signal: AbortSignal.abort(new Error('stopped')) })
  await t.rejects(aborted, { message: 'stopped' }, 'an aborted signal rejects with its reason')
})

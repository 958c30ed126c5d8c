// Requests of Cluster API's hooks are read by the server as Cluster API's Go server reads them: nesting beyond Go's
// limit is a Failure on every hook, wherever it is (never an HTTP 500); the choices where a typed TypeScript handler
// cannot get what Go reads (a key in another letter case, a key sent twice) are docs/differences.md's "Differences from
// Cluster API".
import t from 'tap'
import { hooks, sampleRequest } from '../../src/api/hooks/v1alpha1/index.js'
import type { HookDefinition } from '../../src/api/hooks/define.js'
import { API, call, start, tlsFixture } from '../helpers/server.js'

const seen = new Map<string, unknown>()
/** One handler per hook (Discovery is the server's own): it records the request and answers Success. */
const handlers = hooks.filter(h => h.hook !== 'Discovery').map(h => ({
  hook: h as HookDefinition,
  name: h.hook.toLowerCase(),
  handler: (request: unknown) => {
    seen.set(h.hook, request)
    return { status: 'Success' as const }
  }
}))
const tls = await tlsFixture(t.testdir())
const { url } = await start(t, tls, { handlers })
const ca = tls.ca.cert
const path = (hook: string) => hook === 'Discovery' ? `/${API}/discovery` : `/${API}/${hook.toLowerCase()}/${hook.toLowerCase()}`
const DEEP = '"nested deep"'
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
/** The hook's sample request with `key` of the object `at` picks (the request itself, or an object it carries) nested `levels` deep. */
function requestWith (hook: string, at: (request: Record<string, unknown>) => Record<string, unknown> | undefined, key: string, levels: number): string | undefined {
  const request = structuredClone(sampleRequest(hook) ?? {}) as Record<string, unknown>
  const target = at(request)
  if (!target) return undefined
  target[key] = 'nested deep'
  return JSON.stringify(request).replace(DEEP, deep(levels))
}
const firstObject = (request: Record<string, unknown>) =>
  Object.values(request).find((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v))

t.test('a body nested 100,000 deep is a Failure on every hook, wherever the nesting is, never an HTTP 500', async t => {
  for (const { hook } of hooks) {
    const bodies = {
      'the kind': requestWith(hook, r => r, 'kind', 100000),
      'an unknown field': requestWith(hook, r => r, 'future', 100000),
      'an unknown field of the first object it carries': requestWith(hook, firstObject, 'future', 100000)
    }
    for (const [where, text] of Object.entries(bodies)) {
      if (text === undefined) continue
      const reply = await call(url, path(hook), text, { ca })
      t.equal(reply.status, 200, `${hook}, ${where}: HTTP 200`)
      t.match(reply.json, { status: 'Failure', message: 'error unmarshalling request: invalid character \'[\' exceeded max depth' }, `${hook}, ${where}`)
    }
  }
})

t.test('10,000 levels, Go\'s limit, reach the handler', async t => {
  seen.clear()
  const reply = await call(url, path('BeforeClusterCreate'), requestWith('BeforeClusterCreate', r => r, 'future', 9999) ?? '', { ca })
  t.match(reply.json, { status: 'Success' })
  let levels = 0
  for (let v = (seen.get('BeforeClusterCreate') as Record<string, unknown>)['future']; Array.isArray(v); v = v[0]) levels++
  t.equal(levels, 9999, 'with the request object, 10,000')
})

t.test('a key sent twice: the handler gets the last one (Go merges objects, see docs/differences.md)', async t => {
  seen.clear()
  const body = '{"cluster":{"metadata":{"name":"first","namespace":"n"}},"settings":{"a":"1"},"cluster":{"metadata":{"name":"last"}},"settings":{"b":"2"}}'
  t.match((await call(url, path('BeforeClusterCreate'), body, { ca })).json, { status: 'Success' })
  t.same(seen.get('BeforeClusterCreate'), { cluster: { metadata: { name: 'last' } }, settings: { b: '2' } })
})

t.test('a key in another letter case than its field is refused: Go would read it as the field (see docs/differences.md)', async t => {
  const reply = await call(url, path('BeforeClusterCreate'), '{"cluster":{"Metadata":{"name":"c1"}}}', { ca })
  t.match(reply.json, {
    status: 'Failure',
    message: 'error unmarshalling request: cluster.Metadata: key differs from field "metadata" only in letter case: Go would read it as that field, runtime-sdk refuses it'
  })
})

// The wire of a hook call as Cluster API's client speaks it (src/client/wire.ts): the URL, the POST, bounded answers,
// Go-style decoding of responses, one-line errors and stable JSON.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { Agent } from '../../src/shims/undici.js'
import { BeforeClusterUpgrade, Discovery } from '../../src/api/hooks/v1alpha1/index.js'
import { createCatalog } from '../../src/catalog/default.js'
import { CallingError } from '../../src/client/errors.js'
import { decodeResponse, describeError, hookUrl, postHook, stableJson } from '../../src/client/wire.js'

const catalog = createCatalog()
const upgrade = catalog.of(BeforeClusterUpgrade)!
const discovery = catalog.of(Discovery)!
const decode = (hook: typeof upgrade, value: unknown) => decodeResponse(catalog, hook, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)))

t.test('hookUrl joins the extension URL and the hook path and sends the timeout as a Go duration, query sorted', async t => {
  const url = hookUrl({ url: 'https://ext.example.com:9443/prefix?b=2&a=1' }, '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/h', 10)
  t.equal(url.toString(), 'https://ext.example.com:9443/prefix/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/h?a=1&b=2&timeout=10s')
})

t.test('postHook sends a POST without Content-Type and reads at most maxBytes + 1 bytes of the answer', async t => {
  const seen: Array<{ method?: string, contentType?: string, body: string }> = []
  const server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString() })
    req.on('end', () => {
      seen.push({ ...(req.method ? { method: req.method } : {}), ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}), body })
      res.end('x'.repeat(1000))
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const dispatcher = new Agent()
  t.teardown(async () => { await dispatcher.close(); server.close() })
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`)
  const result = await postHook(url, { dispatcher, body: '{"a":1}', signal: AbortSignal.timeout(5000), backstopMs: 5000, maxBytes: 100 })
  t.same(seen, [{ method: 'POST', body: '{"a":1}' }], 'no Content-Type, like Cluster API')
  t.equal(result.statusCode, 200)
  t.ok(result.body.length > 100 && result.body.length <= 1000, `cut after the limit (${result.body.length} bytes read)`)
  await t.rejects(postHook(url, { dispatcher, body: '{}', signal: AbortSignal.abort(new Error('gone')), backstopMs: 5000 }), /gone/, 'an aborted signal rejects with its reason')
})

t.test('decodeResponse reads an answer as Go decodes it into the hook response', async t => {
  t.same(decode(upgrade, { kind: 'x', apiVersion: 'y', status: 'Success', unknownField: 1 }), { status: 'Success', unknownField: 1, retryAfterSeconds: 0 }, 'kind and apiVersion dropped, absent retryAfterSeconds is 0')
  t.same(decode(upgrade, { STATUS: 'Failure', Message: 'no', RetryAfterSeconds: 5 }), { status: 'Failure', message: 'no', retryAfterSeconds: 5 }, 'top-level keys match case-insensitively')
  t.same(decode(upgrade, 'null'), { status: '', retryAfterSeconds: 0 }, 'null is the zero value')
  t.throws(() => decode(upgrade, '[1]'), new CallingError('failed to decode response: json: cannot unmarshal array into Go value of type BeforeClusterUpgradeResponse'))
  t.throws(() => decode(upgrade, '{"status":'), /^failed to decode response: /)
  t.throws(() => decode(upgrade, { status: 7 }), /status: must be a string/)
  t.throws(() => decode(upgrade, { status: 'Success', retryAfterSeconds: 1.5 }), /failed to decode response: retryAfterSeconds/)
  t.throws(() => decode(discovery, { status: 'Success', handlers: [{ name: 'a', requestHook: { apiVersion: 'v', hook: 'h' }, timeoutSeconds: 'ten' }] }), /handlers\[0\]\.timeoutSeconds: must be an int32/)
})

t.test('describeError says a failed call in one line with its code', async t => {
  const cause = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' })
  t.equal(describeError(new Error('fetch failed: ', { cause })), 'fetch failed: certificate has expired (CERT_HAS_EXPIRED)', 'the cause and its code')
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })
  t.equal(describeError(new Error('fetch failed', { cause: refused })), 'fetch failed: connect ECONNREFUSED 127.0.0.1:1', 'a code already in the text is not repeated')
  t.equal(describeError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })), 'other side closed (UND_ERR_SOCKET)')
})

t.test('stableJson gives the same text for the same value, whatever the key order', async t => {
  t.equal(stableJson({ b: [2, { d: 1, c: null }], a: 'x' }), stableJson({ a: 'x', b: [2, { c: null, d: 1 }] }))
  t.equal(stableJson({ b: 1, a: 2 }), '{"a":2,"b":1}')
})

// Fault injection: every way calling a handler can fail, under failurePolicy Fail and Ignore.
import { createServer as createHttpServer } from 'node:http'
import t from 'tap'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { MAX_BODY_BYTES } from '../../src/catalog/handlers.js'
import { RuntimeCallError, HttpRuntimeClient } from '../../src/client/index.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { cluster, createPki, deadPort, hang, json, type Route, startExtension, type TestExtension } from '../helpers/test-extension.js'
import { extensionConfig } from '../../tools/harness/extension-config.js'

const PATH = '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/h'
const GH = 'BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io'
const pki = await createPki()
const otherCA = await createCertificateAuthority('other CA')
const wrongSan = await pki.ca.issue({ commonName: 'other', dnsNames: ['other.example'] })

interface Fault {
  name: string
  /** setup returns the URL and CA bundle to register, and a cleanup. */
  setup: () => Promise<{ url: string, caBundle?: string, close: () => Promise<void> }>
  error: RegExp
  /** ignorable: Ignore turns the error into Success. */
  ignorable: boolean
  /** timeoutSeconds of the handler: 1, or more where a 20 MiB body must arrive in time on a loaded machine. */
  timeoutSeconds?: number
}

const withRoute = (route: Route, caBundle = pki.caBundle, cert = pki.server) => async () => {
  const ext: TestExtension = await startExtension(cert, { [PATH]: route })
  return { url: ext.url, caBundle, close: ext.close }
}

const prefix = 'failed to call extension handler "h.ext": '
const post = 'http call failed: Post "https://127\\.0\\.0\\.1:\\d+/hooks\\.runtime\\.cluster\\.x-k8s\\.io/v1alpha1/beforeclustercreate/h\\?timeout=1s": '
const longBody = 'x'.repeat(600)

const faults: Fault[] = [
  { name: 'hang past the timeout', setup: withRoute(hang), ignorable: true, error: new RegExp(`^${post}context deadline exceeded \\(http request timeout expired after 1s\\)$`) },
  { name: 'connection reset', setup: withRoute((_req, res) => { res.socket?.destroy() }), ignorable: true, error: new RegExp(`^${post}.*(ECONNRESET|other side closed|socket hang up)`) },
  {
    name: 'connection refused',
    setup: async () => ({ url: `https://127.0.0.1:${await deadPort()}`, caBundle: pki.caBundle, close: async () => {} }),
    ignorable: true,
    error: new RegExp(`^${post}connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+`)
  },
  { name: 'TLS with the wrong CA', setup: withRoute((_r, res) => json(res, { status: 'Success' }), Buffer.from(otherCA.cert).toString('base64')), ignorable: true, error: new RegExp(`^${post}.*(certificate|self.signed)`, 'i') },
  { name: 'wrong SAN', setup: withRoute((_r, res) => json(res, { status: 'Success' }), pki.caBundle, wrongSan), ignorable: true, error: new RegExp(`^${post}Hostname/IP does not match certificate's altnames`) },
  {
    name: 'plain HTTP server',
    setup: async () => {
      const ext = await startExtension({ ...pki.server, plain: true }, { [PATH]: (_r, res) => json(res, { status: 'Success' }) })
      return { url: ext.url, caBundle: pki.caBundle, close: ext.close }
    },
    ignorable: true,
    error: new RegExp(`^${post}.*(wrong version number|packet length|EPROTO|SSL)`, 'i')
  },
  {
    name: '3xx redirect (not followed)',
    setup: withRoute((_r, res) => { res.writeHead(307, { location: 'https://169.254.169.254/' }); res.end() }),
    ignorable: true,
    error: /^http call failed: got response with status code 307 != 200: response : ""$/
  },
  { name: '500', setup: withRoute((_r, res) => json(res, 'boom', 500)), ignorable: true, error: /^http call failed: got response with status code 500 != 200: response : "boom"$/ },
  {
    name: '500 with a long body (truncated to 512 characters)',
    setup: withRoute((_r, res) => json(res, longBody, 500)),
    ignorable: true,
    error: new RegExp(`^http call failed: got response with status code 500 != 200: response : "${'x'.repeat(512)}\\.\\.\\."$`)
  },
  {
    name: '500 with a 20 MiB + 1 body',
    setup: withRoute((_r, res) => json(res, 'e'.repeat(MAX_BODY_BYTES + 1), 500)),
    ignorable: true,
    timeoutSeconds: 30,
    error: /^http call failed: got response with status code 500 != 200: failed to read response body$/
  },
  { name: 'invalid JSON', setup: withRoute((_r, res) => json(res, '{"status": "Succ')), ignorable: true, error: /^http call failed: failed to decode response: .*JSON/ },
  {
    name: 'schema-violating body',
    setup: withRoute((_r, res) => json(res, { status: 'Success', retryAfterSeconds: 'soon' })),
    ignorable: true,
    error: /^http call failed: failed to decode response: retryAfterSeconds: json: cannot unmarshal string into Go value of type int32$/
  },
  {
    name: '20 MiB + 1 body',
    setup: withRoute((_r, res) => json(res, `{"status":"Success","message":"${'m'.repeat(MAX_BODY_BYTES + 1 - 33)}"}`)),
    ignorable: true,
    timeoutSeconds: 30,
    error: /^http call failed: failed to decode response: the response is larger than 20971520 bytes \(maxResponseBytes\)$/
  },
  { name: 'status Failure', setup: withRoute((_r, res) => json(res, { status: 'Failure', message: 'nope', retryAfterSeconds: 0 })), ignorable: false, error: /^got failure response with message: nope$/ },
  { name: 'unknown status', setup: withRoute((_r, res) => json(res, { status: 'Maybe', retryAfterSeconds: 0 })), ignorable: false, error: /^got unknown response status "Maybe" with message: $/ },
  { name: 'empty status', setup: withRoute((_r, res) => json(res, { retryAfterSeconds: 0 })), ignorable: false, error: /^got unknown response status "" with message: $/ }
]

for (const policy of ['Fail', 'Ignore'] as const) {
  for (const fault of faults) {
    t.test(`${fault.name} (${policy})`, async t => {
      const target = await fault.setup()
      const client = new HttpRuntimeClient({ backoff: false })
      t.teardown(async () => { await client.close(); await target.close() })
      client.warmUp([extensionConfig('ext', target.url, target.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate', timeoutSeconds: fault.timeoutSeconds ?? 1, failurePolicy: policy }])])
      const call = client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
      if (policy === 'Ignore' && fault.ignorable) {
        const result = await call
        t.same(result.response, { kind: 'BeforeClusterCreateResponse', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', status: 'Success', retryAfterSeconds: 0 })
        const [outcome] = result.handlers
        t.equal(outcome?.outcome, 'ignored')
        t.equal(outcome?.ignored, true)
        t.match(outcome?.error, fault.error, 'the ignored error is reported')
        const metric = await client.metrics.ignoredFailures.get()
        t.equal(metric.values[0]?.value, 1, 'fail-open counter')
        t.equal(metric.values[0]?.labels['name'], 'h.ext')
        return
      }
      const err = await call.then(() => undefined, (e: unknown) => e)
      t.type(err, RuntimeCallError)
      const message = (err as Error).message
      const expectedPrefix = `failed to call extension handlers for hook "${GH}": ${prefix}`
      t.ok(message.startsWith(expectedPrefix), message)
      t.match(message.slice(expectedPrefix.length), fault.error)
      const outcome = (err as RuntimeCallError).handlers[0]
      t.equal(outcome?.ignored, false)
      t.ok(outcome?.outcome === 'error' || outcome?.outcome === 'failure')
      if (fault.name === 'status Failure') t.equal(outcome?.outcome, 'failure')
    })
  }
}

t.test('callExtension reports the same errors without the hook prefix', async t => {
  const target = await withRoute((_r, res) => json(res, { status: 'Failure', message: 'no', retryAfterSeconds: 0 }))()
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(async () => { await client.close(); await target.close() })
  client.warmUp([extensionConfig('ext', target.url, target.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate', failurePolicy: 'Ignore' }])])
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'h.ext', { cluster }), { message: `${prefix}got failure response with message: no` })
})

t.test('a plain http URL is refused before any request', async t => {
  const server = createHttpServer((_req, res) => json(res, { status: 'Success' }))
  let hits = 0
  server.on('request', () => { hits++ })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(async () => { await client.close(); await new Promise(resolve => server.close(resolve)) })
  client.warmUp([extensionConfig('ext', `http://127.0.0.1:${port}`, undefined, [{ name: 'h', hook: 'BeforeClusterCreate', failurePolicy: 'Ignore' }])])
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }), {
    message: `failed to call extension handlers for hook "${GH}": ${prefix}http call failed: failed to compute URL: expected https scheme, got http`
  })
  t.equal(hits, 0)
})

t.test('an invalid caBundle is never ignored', async t => {
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('ext', 'https://127.0.0.1:1', Buffer.from('not a pem').toString('base64'), [{ name: 'h', hook: 'BeforeClusterCreate', failurePolicy: 'Ignore' }])])
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }), {
    message: `failed to call extension handlers for hook "${GH}": ${prefix}failed to get http client: unable to load root certificates: unable to parse bytes as PEM block`
  })
})

t.test('maxResponseBytes: Infinity reads an answer of any size, as Cluster API\'s client does', async t => {
  const target = await withRoute((_r, res) => json(res, `{"status":"Success","message":"${'m'.repeat(MAX_BODY_BYTES + 1 - 33)}"}`))()
  const client = new HttpRuntimeClient({ backoff: false, maxResponseBytes: Infinity })
  t.teardown(async () => { await client.close(); await target.close() })
  client.warmUp([extensionConfig('ext', target.url, target.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate', timeoutSeconds: 5 }])])
  const result = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(result.handlers[0]?.outcome, 'success')
  t.equal(result.response.message?.length, MAX_BODY_BYTES + 1 - 33)
})

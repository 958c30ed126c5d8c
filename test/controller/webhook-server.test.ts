// The conversion webhook server: ConversionReviews on POST /convert, JSON errors with stable codes for
// everything else, and a real TLS round trip.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertExtensionConfig } from '../../src/api/extension-config/conversion.js'
import { createWebhookServer, DEFAULT_WEBHOOK_PORT, MAX_CONVERSION_BODY_BYTES } from '../../src/controller/webhook-server.js'
import { call, silent, tlsFixture } from '../helpers/server.js'

const V1BETA2 = 'runtime.cluster.x-k8s.io/v1beta2'
const V1ALPHA1 = 'runtime.cluster.x-k8s.io/v1alpha1'
const hub = {
  apiVersion: V1BETA2,
  kind: 'ExtensionConfig',
  metadata: { name: 'ext', uid: 'abc' },
  spec: { clientConfig: { url: 'https://ext.example.com' }, namespaceSelector: {} },
  status: { conditions: [{ type: 'Discovered', status: 'True', reason: 'Discovered', message: '', lastTransitionTime: '2025-01-01T00:00:00Z' }] }
}
const review = (objects: unknown[], desiredAPIVersion = V1ALPHA1) =>
  JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'req-1', desiredAPIVersion, objects } })

const dir = await mkdtemp(join(tmpdir(), 'webhook-server-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))
const tls = await tlsFixture(dir)
const server = createWebhookServer({ tls: { certFile: tls.certFile, keyFile: tls.keyFile }, host: '127.0.0.1', port: 0, logger: silent, maxBodyBytes: 64 * 1024 })
t.teardown(() => server.close())

const inject = (options: { method?: string, url?: string, body?: string, headers?: Record<string, string> }) =>
  server.app.inject({
    method: (options.method ?? 'POST') as 'POST',
    url: options.url ?? '/convert',
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.body !== undefined ? { payload: options.body } : {})
  })

t.test('defaults: controller-runtime\'s port, 16 MiB bodies', async t => {
  t.equal(DEFAULT_WEBHOOK_PORT, 9443)
  t.equal(MAX_CONVERSION_BODY_BYTES, 16 * 1024 * 1024)
})

t.test('POST /convert answers the ConversionReview', async t => {
  const res = await inject({ body: review([hub]) })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  t.same(res.json(), {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    response: { uid: 'req-1', convertedObjects: [convertExtensionConfig(hub, V1ALPHA1)], result: { status: 'Success' } }
  })
  const failed = await inject({ body: review([{ ...hub, kind: 'Cluster' }]) })
  t.equal(failed.statusCode, 200, 'conversion problems are answered in the review, as the API server expects')
  t.same(failed.json().response.result, { status: 'Failure', message: 'objects[0]: expected kind ExtensionConfig, got "Cluster"' })
})

t.test('errors outside the review are JSON with a stable code', async t => {
  const cases: Array<[string, Parameters<typeof inject>[0], number, string]> = [
    ['wrong method', { method: 'GET' }, 405, 'MethodNotAllowed'],
    ['not JSON', { body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, 'UnsupportedMediaType'],
    ['malformed JSON', { body: '{"apiVersion":' }, 400, 'BadRequest'],
    ['no body', { headers: {} }, 400, 'BadRequest'],
    ['JSON not acceptable', { body: review([]), headers: { accept: 'text/html' } }, 406, 'NotAcceptable'],
    ['too large', { body: review([{ ...hub, metadata: { name: 'x'.repeat(70 * 1024) } }]) }, 413, 'PayloadTooLarge'],
    ['unknown path', { url: '/mutate' }, 404, 'NotFound']
  ]
  for (const [name, request, status, code] of cases) {
    const res = await inject(request)
    t.equal(res.statusCode, status, name)
    t.equal(res.json().code, code, name)
    t.type(res.json().message, 'string', name)
  }
  const wrongMethod = await inject({ method: 'PUT', body: review([]) })
  t.equal(wrongMethod.headers['allow'], 'POST')
  const anyJson = await inject({ body: review([]), headers: { accept: 'application/json, */*;q=0.5', 'content-type': 'application/json; charset=utf-8' } })
  t.equal(anyJson.statusCode, 200, 'parameters and lists in the headers are understood')
})

t.test('GET /healthz', async t => {
  const res = await inject({ method: 'GET', url: '/healthz' })
  t.same([res.statusCode, res.json()], [200, { status: 'ok' }])
})

t.test('a real TLS round trip', async t => {
  const url = await server.listen()
  t.match(url, /^https:\/\/127\.0\.0\.1:\d+$/)
  const res = await call(url, '/convert', review([convertExtensionConfig(hub, V1ALPHA1)], V1BETA2), { contentType: 'application/json', ca: tls.ca.cert })
  t.equal(res.status, 200)
  t.same(res.json.response.convertedObjects, [hub], 'converted back to the hub')
  t.equal(res.peerCertificateIssuer, 'test CA')
  await t.rejects(call(url, '/convert', review([]), { contentType: 'application/json' }), /self-signed|unable to verify|self signed/, 'clients must trust the CA')
})

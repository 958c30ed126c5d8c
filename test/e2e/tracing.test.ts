// Traces end to end on a real control plane: `runtime-sdk controller` and `runtime-sdk serve`, both with the standard
// OTEL_* variables pointing at an OTLP/HTTP receiver this test runs, and the runtime client of this process with
// the SDK started the same way. A discovery made by the controller's client reaches the extension in the same trace
// (the server span's parent is the client span, itself under the reconcile); a lifecycle hook's server span carries
// the hook, handler, status, retry and the Cluster's namespace and name; a bad request its refusal reason.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { BeforeClusterCreate, sampleRequest } from '../../src/api/hooks/v1alpha1/index.js'
import { HttpRuntimeClient } from '../../src/client/client.js'
import { startTracing } from '../../src/telemetry/sdk.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { startCli } from '../helpers/run-cli.js'
import { call } from '../helpers/server.js'
import { waitFor } from '../helpers/wait.js'

interface Span { traceId: string, spanId: string, parentSpanId?: string, name: string, kind: number, attributes: Record<string, unknown>, status?: { code?: number }, service: string }

// The receiver: OTLP/HTTP with JSON bodies (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
const spans: Span[] = []
const value = (v: Record<string, unknown>): unknown => v['stringValue'] ?? (v['intValue'] !== undefined ? Number(v['intValue']) : v['boolValue'] ?? v['doubleValue'])
const attributes = (list: Array<{ key: string, value: Record<string, unknown> }> = []) => Object.fromEntries(list.map(a => [a.key, value(a.value)]))
const receiver = createServer((req: IncomingMessage, res) => {
  let body = ''
  req.setEncoding('utf8').on('data', (c: string) => { body += c }).on('end', () => {
    if (req.url === '/v1/traces') {
      const doc = JSON.parse(body) as { resourceSpans: Array<{ resource: { attributes: Array<{ key: string, value: Record<string, unknown> }> }, scopeSpans: Array<{ spans: Array<Record<string, any>> }> }> }
      for (const rs of doc.resourceSpans) {
        const service = String(attributes(rs.resource.attributes)['service.name'])
        for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ traceId: s['traceId'], spanId: s['spanId'], ...(s['parentSpanId'] ? { parentSpanId: s['parentSpanId'] } : {}), name: s['name'], kind: s['kind'], attributes: attributes(s['attributes']), status: s['status'], service })
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
})
await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve))
t.teardown(() => { receiver.close() })
const otel = {
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
  OTEL_BSP_SCHEDULE_DELAY: '200'
}

const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-tracing-'))
const responses = join(dir, 'responses.yaml')
writeFileSync(responses, 'BeforeClusterCreate: {retryAfterSeconds: 7, message: held}\n')
const cp = await startControlPlane()
t.teardown(() => cp.stop())
const extension = await serveReferenceExtension(join(dir, 'certs'), { responses, env: { ...otel, OTEL_SERVICE_NAME: 'extension' } })
t.teardown(() => { extension.child.kill('SIGKILL') })
await waitFor(() => /exporting traces over OTLP \(http\/json\)/.test(extension.out()), { timeoutMs: 10_000, message: 'serve says it exports traces' })

t.test('the controller\'s discovery reaches the extension in the same trace', async t => {
  const crd = await cp.kubectl(['apply', '-k', join(import.meta.dirname, '../../deploy/crd')])
  t.equal(crd.code, 0, crd.stderr)
  await cp.kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/extensionconfigs.runtime.cluster.x-k8s.io'])
  const controller = startCli(['controller', '--kubeconfig', cp.kubeconfigPath, '--metrics-port', '0', '--log-level', 'info'], { env: { ...otel, OTEL_SERVICE_NAME: 'controller' } })
  t.teardown(() => { controller.child.kill('SIGTERM') })
  await cp.kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'traced' }, spec: { clientConfig: { url: extension.url, caBundle: extension.caBundle }, namespaceSelector: {} } }) })
  const reconcile = await waitFor(() => spans.find(s => s.service === 'controller' && s.name === 'reconcile ExtensionConfig' && s.attributes['cluster_api.extension_config'] === 'traced'), { timeoutMs: 60_000, message: `the reconcile span (output: ${controller.out().slice(-2000)})` })
  const client = await waitFor(() => spans.find(s => s.service === 'controller' && s.name === 'Discovery traced'), { timeoutMs: 60_000, message: 'the client span' })
  const server = await waitFor(() => spans.find(s => s.service === 'extension' && s.attributes['cluster_api.hook'] === 'Discovery' && s.traceId === client.traceId), { timeoutMs: 60_000, message: 'the server span in the same trace' })
  t.equal(client.traceId, reconcile.traceId, 'the discovery is under the reconcile')
  t.equal(client.parentSpanId, reconcile.spanId)
  t.equal(client.kind, 3, 'a CLIENT span')
  t.match(client.attributes, { 'cluster_api.hook': 'Discovery', 'http.response.status_code': 200, 'cluster_api.response.status': 'Success' })
  t.equal(server.parentSpanId, client.spanId, 'the extension continues the traceparent the client sent')
  t.equal(server.kind, 2, 'a SERVER span')
  t.match(server.attributes, { 'cluster_api.response.status': 'Success' })
})

t.test('a lifecycle hook\'s span: hook, handler, status, retry, the Cluster; a bad request: its refusal reason', async t => {
  const before = { ...process.env }
  Object.assign(process.env, otel)
  t.teardown(() => { for (const key of Object.keys(otel)) if (before[key] === undefined) Reflect.deleteProperty(process.env, key) })
  const tracing = await startTracing('test-client')
  t.ok(tracing, 'the SDK starts in this process too')
  const client = new HttpRuntimeClient({ namespaceLabels: ns => ({ 'kubernetes.io/metadata.name': ns }), backoff: false })
  const discovered = await client.discover({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'direct' }, spec: { clientConfig: { url: extension.url, caBundle: extension.caBundle }, namespaceSelector: {} } } as never)
  client.warmUp([discovered])
  const request = sampleRequest(BeforeClusterCreate)
  const { response } = await client.callAllExtensions(BeforeClusterCreate, request.cluster as never, request)
  t.equal(response.retryAfterSeconds, 7)
  await client.close()
  await tracing?.shutdown()
  const server = await waitFor(() => spans.find(s => s.service === 'extension' && s.name === 'BeforeClusterCreate before-cluster-create'), { timeoutMs: 30_000, message: 'the server span' })
  const clientSpan = spans.find(s => s.service === 'test-client' && s.name === 'BeforeClusterCreate before-cluster-create.direct')
  t.equal(server.traceId, clientSpan?.traceId, 'one trace across both processes')
  t.match(server.attributes, {
    'cluster_api.hook': 'BeforeClusterCreate',
    'cluster_api.handler': 'before-cluster-create',
    'cluster_api.response.status': 'Success',
    'cluster_api.response.retry_after_seconds': 7,
    'k8s.namespace.name': request.cluster?.metadata?.namespace,
    'cluster_api.cluster.name': request.cluster?.metadata?.name
  })

  const bad = await call(extension.url, '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/before-cluster-create', '{not json', { ca: extension.ca, headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } })
  t.equal(bad.status, 200)
  const refused = await waitFor(() => spans.find(s => s.service === 'extension' && s.traceId === '0af7651916cd43dd8448eb211c80319c'), { timeoutMs: 30_000, message: 'the refused call\'s span, in the caller\'s trace' })
  t.equal(refused.parentSpanId, 'b7ad6b7169203331', 'continues the caller\'s traceparent')
  t.match(refused.attributes, { 'cluster_api.response.status': 'Failure', 'cluster_api.failure_reason': 'malformed_json' })
  t.equal(refused.status?.code, 2, 'an ERROR status')
})

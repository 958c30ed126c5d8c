// runtime-sdk conformance against Cluster API's own server SDK: the Go extension from tools/capi-interop
// (CAPI v1.14.2's exp/runtime/server) must pass every required case, and fail exactly "timeout" when its
// `slow` handler sleeps past its declared timeout of 1 s.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { extensionConfigForUrl } from '../../src/client/extension-configs.js'
import { type ConformanceReport, runConformance } from '../../src/conformance/index.js'
import { buildCapiInterop, goAvailable, startCapiExtension, type CapiExtension } from '../../tools/harness/capi-interop.js'
import { runCli } from '../helpers/run-cli.js'

t.setTimeout(900_000)
const skip = goAvailable() ? false : 'go is not installed'

const failed = (report: ConformanceReport) => report.cases.filter(c => c.status === 'fail').map(c => c.handler ? `${c.id} [${c.handler}]` : c.id).sort()

async function check (ext: CapiExtension, options: { hooks?: string[], client?: boolean } = {}): Promise<ConformanceReport> {
  const extension = extensionConfigForUrl(ext.url, 'capi-interop')
  extension.spec.clientConfig.caBundle = (await readFile(ext.caFile)).toString('base64')
  return runConformance({
    extension,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.client ? { clientCertificate: { certFile: ext.clientCertFile, keyFile: ext.clientKeyFile } } : {})
  })
}

t.test('Cluster API\'s Go extension passes every required case', { skip }, async t => {
  await buildCapiInterop()
  const ext = await startCapiExtension({ slowDelay: '50ms' })
  t.teardown(ext.stop)
  const report = await check(ext)
  t.same(failed(report), [])
  t.equal(report.passed, true)
  const handlers = new Set(report.cases.map(c => c.handler).filter(Boolean))
  t.equal(handlers.size, 19, 'the 16 hook handlers and blocking, failing, slow')
  t.equal(report.cases.length, 4 + 19 * 8 + 1)
  t.same(report.cases.filter(c => c.status === 'skip').map(c => `${c.id} [${c.handler}]`), ['timeout-query [slow]'], 'slow declares 1 s: no shorter ?timeout= to try')
  const result = (id: string, handler: string) => report.cases.find(c => c.id === id && c.handler === handler)
  t.match(result('response', 'failing')?.message, 'status "Failure": "failure from capi-interop"', 'a Failure answer to the sample is a valid answer')
  t.match(result('retry-after', 'blocking')?.message, 'retryAfterSeconds 30: blocks for about 30s')
  t.match(result('malformed-input', 'generate-patches')?.message, 'status "Failure": "error unmarshalling request: unexpected end of JSON input"', 'the Go SDK\'s own Failure for bad JSON')
  t.match(result('content-type-optional', 'before-cluster-create')?.evidence.exchanges?.[0]?.response?.headers, { 'content-type': 'text/plain; charset=utf-8' }, 'the Go SDK sends no Content-Type of its own')
})

t.test('the runtime-sdk conformance command: exit 0 and a JUnit report', { skip }, async t => {
  await buildCapiInterop()
  const ext = await startCapiExtension({ slowDelay: '50ms' })
  t.teardown(ext.stop)
  const dir = await mkdtemp(join(tmpdir(), 'conformance-interop-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const output = join(dir, 'junit.xml')
  const res = await runCli(['conformance', ext.url, '--certificate-authority', ext.caFile, '-o', 'junit', '--output-file', output], { timeoutMs: 120_000 })
  t.equal(res.code, 0, res.stdout + res.stderr)
  t.match(res.stdout, /\nPASSED: 156 passed, 0 failed \(0 required, 0 advisory\), 1 skipped in [\d.]+ s\n$/)
  const xml = await readFile(output, 'utf8')
  t.match(xml, '<testsuite name="runtime-sdk conformance (required)" tests="138" failures="0" skipped="0"')
  t.match(xml, '<testcase classname="runtime-sdk.conformance.advisory" name="timeout-query [slow]"')
})

t.test('a Go handler sleeping past its declared timeout fails exactly "timeout"', { skip }, async t => {
  await buildCapiInterop()
  const ext = await startCapiExtension({ slowDelay: '1500ms' })
  t.teardown(ext.stop)
  const report = await check(ext, { hooks: ['BeforeClusterCreate'] })
  t.same(failed(report), ['timeout [slow]'])
  t.match(report.cases.find(c => c.id === 'timeout' && c.handler === 'slow')?.message, /^answered after \d{4,}ms, later than the declared timeout of 1s/)
  t.equal(report.passed, false)
})

t.test('mTLS: the Go extension refuses a run without the client certificate and passes with it', { skip }, async t => {
  await buildCapiInterop()
  const certDir = await mkdtemp(join(tmpdir(), 'conformance-mtls-'))
  t.teardown(() => rm(certDir, { recursive: true, force: true }))
  const ext = await startCapiExtension({ certDir, clientCa: join(certDir, 'ca.crt'), slowDelay: '50ms' })
  t.teardown(ext.stop)
  const without = await check(ext, { hooks: ['AfterControlPlaneInitialized'] })
  t.ok(failed(without).includes('discovery'), `Discovery fails without a client certificate: ${failed(without).join(', ')}`)
  const withCert = await check(ext, { hooks: ['AfterControlPlaneInitialized'], client: true })
  t.same(failed(withCert), [])
  t.equal(withCert.cases.filter(c => c.handler === 'after-control-plane-initialized' && c.status === 'pass').length, 8)
})

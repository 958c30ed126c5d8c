// runConformance against our reference extension (which must pass) and against deliberately broken extensions
// (each must fail exactly the cases that name its fault).
import t, { type Test } from 'tap'
import { createCatalog } from '../../src/catalog/index.js'
import { extensionConfigForUrl } from '../../src/client/extension-configs.js'
import { ConformanceSetupError, type ConformanceOptions, type ConformanceReport, runConformance } from '../../src/conformance/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { discoveryAnswer, type FakeExtensionOptions, type FakeHandler, onReadable, send, startFakeExtension, wellBehaved } from '../helpers/broken-extensions.js'
import { start, tlsFixture } from '../helpers/server.js'
import { testGroupVersions, TEST_GROUP } from '../helpers/test-hooks.js'
import { createPki } from '../helpers/test-extension.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const pki = await createPki()
const caBundle = Buffer.from(pki.ca.cert).toString('base64')

async function check (url: string, options: Partial<ConformanceOptions> = {}): Promise<ConformanceReport> {
  const extension = extensionConfigForUrl(url, 'test')
  extension.spec.clientConfig.caBundle = caBundle
  return runConformance({ extension, graceMs: 1000, ...options })
}

const failed = (report: ConformanceReport) => report.cases.filter(c => c.status === 'fail').map(c => c.handler ? `${c.id} [${c.handler}]` : c.id).sort()
const result = (report: ConformanceReport, id: string, handler?: string) => report.cases.find(c => c.id === id && c.handler === handler)

/** Runs against a fake extension with one well-behaved handler ("good") next to the broken ones. */
async function checkFake (t: Test, handlers: FakeHandler[], options: Partial<FakeExtensionOptions> = {}, run: Partial<ConformanceOptions> = {}) {
  const ext = await startFakeExtension({ ...pki.server, handlers: [{ name: 'good', hook: 'BeforeClusterCreate' }, ...handlers], ...options })
  t.teardown(ext.close)
  return { report: await check(ext.url, run), ext }
}

t.test('the reference extension passes every case', async t => {
  const tls = await tlsFixture(t.testdir())
  const { url } = await start(t, tls, { handlers: referenceHandlers() })
  const extension = extensionConfigForUrl(url, 'reference')
  extension.spec.clientConfig.caBundle = Buffer.from(tls.ca.cert).toString('base64')
  const seen: string[] = []
  const report = await runConformance({ extension, onResult: r => seen.push(r.id) })
  t.same(failed(report), [])
  t.equal(report.passed, true)
  t.equal(report.summary.skipped, 0, 'nothing skipped: every handler declares a timeout above 1 s')
  t.equal(report.cases.length, 4 + 16 * 8 + 1, 'TLS and Discovery, 8 cases for each of 16 handlers, no-redirect')
  t.same(seen, report.cases.map(c => c.id), 'progress is reported for every case, in order')
  t.match(result(report, 'tls-handshake'), { evidence: { facts: { protocol: /^TLSv1\.[23]$/ } } })
  t.match(result(report, 'retry-after', 'update-machine')?.message, 'retryAfterSeconds 5')
})

t.test('a well-behaved fake extension passes, so every fault below is the only difference', async t => {
  const { report, ext } = await checkFake(t, [{ name: 'patches', hook: 'GeneratePatches' }])
  t.same(failed(report), [])
  const withoutType = ext.requests.filter(r => r.contentType === undefined).map(r => r.path)
  t.same(withoutType, ['/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/good', '/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/patches'],
    'only the content-type-optional calls go without Content-Type')
  t.ok(ext.requests.every(r => r.query.get('timeout') === '10s' || r.query.get('timeout') === '1s'), 'every call carries ?timeout=')
})

t.test('a response that does not match the schema fails "response"', async t => {
  const { report } = await checkFake(t, [{ name: 'patches', hook: 'GeneratePatches', behaviour: onReadable('GeneratePatches', (_req, res) => send(res, { status: 'Success', items: {} })) }])
  t.same(failed(report), ['response [patches]'])
  t.match(result(report, 'response', 'patches')?.message, 'the answer does not match the GeneratePatchesResponse schema: items: json: cannot unmarshal object into Go value of type []v1alpha1.GeneratePatchesResponseItem')
  t.equal(report.passed, false)
})

t.test('a handler slower than its declared timeout fails "timeout"', async t => {
  const slow = onReadable('BeforeClusterCreate', async (_req, res) => {
    await new Promise(resolve => setTimeout(resolve, 1300))
    send(res, { status: 'Success', retryAfterSeconds: 0 })
  })
  const { report } = await checkFake(t, [{ name: 'slow', hook: 'BeforeClusterCreate', timeoutSeconds: 1, behaviour: slow }], {}, { graceMs: 3000 })
  t.same(failed(report), ['timeout [slow]'])
  t.match(result(report, 'timeout', 'slow')?.message, /^answered after \d{4,}ms, later than the declared timeout of 1s/)
  t.match(result(report, 'timeout-query', 'slow'), { status: 'skip', message: 'the declared timeout (1s) is not longer than ?timeout=1s' })
})

t.test('a handler that never answers fails "response" and "timeout" after the grace period', async t => {
  const { report } = await checkFake(t, [{ name: 'hang', hook: 'AfterControlPlaneInitialized', timeoutSeconds: 1, behaviour: onReadable('AfterControlPlaneInitialized', () => {}) }],
    {}, { graceMs: 200, hooks: ['AfterControlPlaneInitialized'] })
  t.same(failed(report), ['content-type-optional [hang]', 'response [hang]', 'timeout [hang]'])
  t.match(result(report, 'timeout', 'hang')?.message, /^no answer within 1s/)
  t.match(result(report, 'idempotent', 'hang'), { status: 'skip' })
  t.notOk(report.cases.some(c => c.handler === 'good'), '--hooks left the BeforeClusterCreate handler out')
})

t.test('a handler that crashes on malformed input (connection reset) fails "malformed-input"', async t => {
  const crash = (req: Parameters<ReturnType<typeof wellBehaved>>[0], res: Parameters<ReturnType<typeof wellBehaved>>[1]) => {
    if (req.json === undefined) res.socket?.destroy()
    else wellBehaved('BeforeClusterDelete')(req, res)
  }
  const { report } = await checkFake(t, [{ name: 'crashy', hook: 'BeforeClusterDelete', behaviour: crash }])
  t.same(failed(report), ['malformed-input [crashy]'])
  t.match(result(report, 'malformed-input', 'crashy')?.message, /^truncated JSON: no HTTP answer: /)
})

t.test('malformed input answered with an HTTP error or a Success fails "malformed-input"', async t => {
  const strict = (req: Parameters<ReturnType<typeof wellBehaved>>[0], res: Parameters<ReturnType<typeof wellBehaved>>[1]) =>
    req.json === undefined ? send(res, { code: 'BadRequest' }, 400) : send(res, { status: 'Success' })
  const { report } = await checkFake(t, [{ name: 'strict', hook: 'ValidateTopology', behaviour: strict }])
  t.same(failed(report), ['malformed-input [strict]'])
  t.match(result(report, 'malformed-input', 'strict')?.message,
    'truncated JSON: HTTP 400 instead of 200: Cluster API reports an error (hook failures must be HTTP 200 with status Failure); settings of the wrong type: answered status "Success" instead of status Failure')
})

t.test('Discovery listing a handler that is not served (404) fails its cases', async t => {
  const { report } = await checkFake(t, [{ name: 'ghost', hook: 'AfterClusterUpgrade', served: false }])
  t.same(failed(report), ['content-type-optional [ghost]', 'malformed-input [ghost]', 'response [ghost]'])
  t.match(result(report, 'response', 'ghost')?.message, /^HTTP 404 instead of 200/)
  t.match(result(report, 'response', 'ghost')?.evidence.exchanges?.[0], { response: { status: 404 }, request: { url: /\/afterclusterupgrade\/ghost\?timeout=10s$/ } })
})

t.test('a certificate for another host fails "tls-hostname" and Discovery', async t => {
  const other = await pki.ca.issue({ commonName: 'other', dnsNames: ['other.example'] })
  const { report } = await checkFake(t, [], { ...other })
  t.same(failed(report), ['discovery', 'tls-hostname'])
  t.match(result(report, 'tls-hostname')?.message, /does not match the host Cluster API connects to: .*127\.0\.0\.1/)
  t.match(result(report, 'tls-handshake'), { status: 'pass' }, 'the chain itself is trusted')
  t.match(result(report, 'discovery')?.message, /^no HTTP answer: .*ERR_TLS_CERT_ALTNAME_INVALID/)
  t.match(result(report, 'response'), { status: 'skip', message: 'Discovery failed' })
})

t.test('a server speaking only TLS 1.0/1.1 fails the TLS cases and Discovery', async t => {
  const { report } = await checkFake(t, [], { tls: { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' } })
  t.same(failed(report), ['discovery', 'tls-handshake', 'tls-legacy-refused'])
  t.match(result(report, 'tls-legacy-refused')?.message, /negotiated TLSv1\.1/)
  t.match(result(report, 'tls-hostname'), { status: 'skip' })
})

t.test('a server that also accepts TLS 1.0/1.1 fails only "tls-legacy-refused"', async t => {
  const { report } = await checkFake(t, [], { tls: { minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' } })
  t.same(failed(report), ['tls-legacy-refused'])
})

t.test('a certificate the CA bundle does not trust fails "tls-handshake"', async t => {
  const ext = await startFakeExtension({ ...pki.server, handlers: [] })
  t.teardown(ext.close)
  const report = await runConformance({ extension: extensionConfigForUrl(ext.url, 'untrusted') })
  t.same(failed(report), ['discovery', 'tls-handshake'])
  t.match(result(report, 'tls-handshake')?.message, 'does not verify against the system roots')
})

t.test('a redirect is reported, never followed', async t => {
  const redirect = (_req: unknown, res: Parameters<typeof send>[0]) => send(res, '', 307, { location: '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/good' })
  const { report, ext } = await checkFake(t, [{ name: 'moved', hook: 'BeforeClusterUpgrade', behaviour: redirect }])
  t.same(failed(report), ['content-type-optional [moved]', 'malformed-input [moved]', 'no-redirect', 'response [moved]'])
  t.match(result(report, 'response', 'moved')?.message, 'HTTP 307 redirect to /hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/good: Cluster API does not follow redirects')
  t.match(result(report, 'no-redirect')?.message, /^7 of \d+ answers were redirects/)
  const goodCalls = ext.requests.filter(r => r.path.endsWith('/good')).length
  t.equal(goodCalls, 7, 'the redirect target was only called by the good handler\'s own cases')
})

t.test('a stack trace in a message fails "no-stack-trace"', async t => {
  const leaky = (req: Parameters<ReturnType<typeof wellBehaved>>[0], res: Parameters<ReturnType<typeof wellBehaved>>[1]) => req.json === undefined
    ? send(res, { status: 'Failure', message: 'SyntaxError: Unexpected end of JSON input\n    at JSON.parse (<anonymous>)\n    at IncomingMessage.<anonymous> (/srv/extension/server.js:41:23)', retryAfterSeconds: 0 })
    : wellBehaved('BeforeWorkersUpgrade')(req, res)
  const { report } = await checkFake(t, [{ name: 'leaky', hook: 'BeforeWorkersUpgrade', behaviour: leaky }])
  t.same(failed(report), ['no-stack-trace [leaky]'])
  t.match(result(report, 'no-stack-trace', 'leaky')?.message, 'the answer to "truncated JSON" carries a JavaScript stack frame: "at IncomingMessage.<anonymous> (/srv/extension/server.js:41:23)"')
})

t.test('requiring a Content-Type (415 without one) fails "content-type-optional"', async t => {
  const picky = (req: Parameters<ReturnType<typeof wellBehaved>>[0], res: Parameters<ReturnType<typeof wellBehaved>>[1]) => req.contentType === undefined
    ? send(res, { code: 'UnsupportedMediaType', message: 'Content-Type must be application/json' }, 415)
    : wellBehaved('DiscoverVariables')(req, res)
  const { report } = await checkFake(t, [{ name: 'picky', hook: 'DiscoverVariables', behaviour: picky }])
  t.same(failed(report), ['content-type-optional [picky]'])
  t.match(result(report, 'content-type-optional', 'picky')?.message, 'without a Content-Type header (Cluster API\'s Go client sends none): HTTP 415 instead of 200')
})

t.test('different answers to identical calls fail "idempotent"', async t => {
  let calls = 0
  const counting = onReadable('AfterWorkersUpgrade', (_req, res) => send(res, { status: 'Success', message: `call ${++calls}`, retryAfterSeconds: 0 }))
  const { report } = await checkFake(t, [{ name: 'counter', hook: 'AfterWorkersUpgrade', behaviour: counting }])
  t.same(failed(report), ['idempotent [counter]'])
  t.match(result(report, 'idempotent', 'counter')?.message, /message: "call \d+" then "call \d+"$/)
})

t.test('retryAfterSeconds out of place fails "retry-after"', async t => {
  const answer = (hook: string, body: Record<string, unknown>) => onReadable(hook, (_req, res) => send(res, body))
  const { report } = await checkFake(t, [
    { name: 'non-blocking', hook: 'AfterControlPlaneInitialized', behaviour: answer('AfterControlPlaneInitialized', { status: 'Success', retryAfterSeconds: 5 }) },
    { name: 'forever', hook: 'BeforeClusterDelete', behaviour: answer('BeforeClusterDelete', { status: 'Success', retryAfterSeconds: 604800 }) },
    { name: 'failing', hook: 'BeforeClusterUpgrade', behaviour: answer('BeforeClusterUpgrade', { status: 'Failure', message: 'no', retryAfterSeconds: 30 }) },
    { name: 'negative', hook: 'AfterClusterUpgrade', behaviour: answer('AfterClusterUpgrade', { status: 'Success', retryAfterSeconds: -5 }) }
  ])
  t.same(failed(report), ['retry-after [failing]', 'retry-after [forever]', 'retry-after [negative]', 'retry-after [non-blocking]'])
  t.match(result(report, 'retry-after', 'non-blocking')?.message, 'AfterControlPlaneInitialized cannot block, yet the answer has retryAfterSeconds 5')
  t.match(result(report, 'retry-after', 'forever')?.message, 'retryAfterSeconds 604800 is more than 86400')
  t.match(result(report, 'retry-after', 'failing')?.message, 'a Failure answer has retryAfterSeconds 30')
  t.match(result(report, 'retry-after', 'negative')?.message, 'retryAfterSeconds -5 must be an integer of at least 0')
})

t.test('Discovery: invalid handlers get the runtime client\'s messages; the valid ones are still tested', async t => {
  const handlers: FakeHandler[] = [{ name: 'good', hook: 'BeforeClusterCreate' }]
  const listed = discoveryAnswer(handlers)
  const bad = [{ name: 'Bad_Name', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' }, timeoutSeconds: 60 }]
  const ext = await startFakeExtension({ ...pki.server, handlers, discovery: (_req, res) => send(res, { ...listed, handlers: [...listed['handlers'] as unknown[], ...bad] }) })
  t.teardown(ext.close)
  const report = await check(ext.url)
  t.same(failed(report), ['discovery'])
  t.match(result(report, 'discovery')?.message, /^failed to validate discovery response: \[handler name Bad_Name is not valid: \[.*\], handler Bad_Name timeoutSeconds 60 must be between 0 and 30\] \(Cluster API rejects the extension; the 1 valid handlers are still tested\)$/)
  t.equal(report.cases.filter(c => c.handler === 'good').length, 8)
})

t.test('Discovery problems: Failure, unknown status, HTTP error, unreadable handler list, no handlers', async t => {
  const answers: Array<[unknown, number, RegExp | string]> = [
    [{ status: 'Failure', message: 'not ready' }, 200, 'got failure response with message: not ready'],
    [{ status: '' }, 200, 'got unknown response status "" with message: '],
    [{ code: 'InternalError' }, 500, /^HTTP 500 instead of 200/],
    [{ status: 'Success', handlers: [{ name: 7 }] }, 200, 'the handler list cannot be read: handlers[0].name: must be a string'],
    [{ status: 'Success', handlers: {} }, 200, 'the handler list cannot be read: handlers: must be an array'],
    [{ status: 'Success', message: 42 }, 200, 'the answer does not match the DiscoveryResponse schema: message: json: cannot unmarshal number into Go value of type string'],
    ['[]', 200, 'the body is not a JSON object'],
    ['not json', 200, /^the body is not JSON: /]
  ]
  for (const [body, status, message] of answers) {
    const ext = await startFakeExtension({ ...pki.server, handlers: [], discovery: (_req, res) => send(res, body, status) })
    const report = await check(ext.url)
    await ext.close()
    t.match(result(report, 'discovery'), { status: 'fail', message }, JSON.stringify(body))
  }
  const empty = await startFakeExtension({ ...pki.server, handlers: [] })
  t.teardown(empty.close)
  const report = await check(empty.url)
  t.same(failed(report), [])
  t.match(result(report, 'response'), { status: 'skip', message: 'Discovery lists no handlers' })
})

t.test('--hooks naming nothing discovered skips the handler cases', async t => {
  const { report } = await checkFake(t, [], {}, { hooks: ['GenerateUpgradePlan'] })
  t.match(result(report, 'response'), { status: 'skip', message: 'no discovered handler implements GenerateUpgradePlan' })
  t.equal(report.passed, true)
})

t.test('a handler of a hook without a sample is skipped with a hint; --request-dir style overrides fill in', async t => {
  const catalog = createCatalog().add(...testGroupVersions)
  const fake = { name: 'fake', requestHook: { apiVersion: `${TEST_GROUP}/v1alpha3`, hook: 'FakeHook' } }
  const ext = await startFakeExtension({ ...pki.server, handlers: [], discovery: (_req, res) => send(res, { status: 'Success', handlers: [fake] }) })
  t.teardown(ext.close)
  const skipped = await check(ext.url, { catalog })
  t.match(result(skipped, 'response', 'fake'), { status: 'skip', message: `no sample request for ${TEST_GROUP}/v1alpha3 FakeHook: put one in --request-dir as FakeHook.json` })
  const overridden = await check(ext.url, { catalog, requests: { FakeHook: { cluster: { metadata: {} }, first: 1, second: 'two' } } })
  t.match(result(overridden, 'response', 'fake'), { status: 'fail', message: /^HTTP 404/ }, 'the override was sent (the fake server has no such route)')
  t.match(ext.requests.at(-1)?.json, { kind: 'FakeHookRequest', apiVersion: `${TEST_GROUP}/v1alpha3`, first: 1 })
})

t.test('mTLS: the client certificate (PEM strings) is presented; without it Discovery fails', async t => {
  const dir = t.testdir()
  const tls = await tlsFixture(dir)
  writeFileSync(join(dir, 'client-ca.crt'), pki.ca.cert)
  const { url } = await start(t, tls, { handlers: referenceHandlers(), tls: { certFile: tls.certFile, keyFile: tls.keyFile, clientCaFile: join(dir, 'client-ca.crt') } })
  const client = await pki.ca.issue({ commonName: 'capi-controller-manager', usage: 'client' })
  const extension = extensionConfigForUrl(url, 'mtls')
  extension.spec.clientConfig.caBundle = Buffer.from(tls.ca.cert).toString('base64')
  const withCert = await runConformance({ extension, hooks: ['BeforeClusterDelete'], clientCertificate: { cert: client.cert, key: client.key } })
  t.same(failed(withCert), [])
  const without = await runConformance({ extension, hooks: ['BeforeClusterDelete'] })
  t.ok(failed(without).includes('discovery'), failed(without).join(', '))
})

t.test('options that cannot describe a run are rejected before anything is sent', async t => {
  await t.rejects(runConformance({ extension: extensionConfigForUrl('http://127.0.0.1:1', 'plain') }),
    new ConformanceSetupError('failed to compute URL: expected https scheme, got http'))
  const bad = extensionConfigForUrl('https://127.0.0.1:1', 'bad-ca')
  bad.spec.clientConfig.caBundle = Buffer.from('not a certificate').toString('base64')
  await t.rejects(runConformance({ extension: bad }), { name: 'ConformanceSetupError', message: 'unable to load root certificates: unable to parse bytes as PEM block' })
})

// runtime-sdk conformance: progress, summary, reports and exit codes (0 passed, 1 a required case failed, 2 usage).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { conformanceCommand } from '../../src/cli/conformance.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { onReadable, send, startFakeExtension } from '../helpers/broken-extensions.js'
import { runCliHere } from '../helpers/run-cli.js'
import { start, tlsFixture } from '../helpers/server.js'
import { createPki } from '../helpers/test-extension.js'

const dir = t.testdir()
const tls = await tlsFixture(dir)
const caFile = join(dir, 'ca.crt')
const { url } = await start(t, tls, { handlers: referenceHandlers() })

const pki = await createPki()
const pkiCa = join(dir, 'pki-ca.crt')
await writeFile(pkiCa, pki.ca.cert)

async function run (args: string[]) {
  let stdout = ''
  let stderr = ''
  process.exitCode = 0
  await conformanceCommand({ stdout: s => { stdout += s }, stderr: s => { stderr += s } }).exitOverride().parseAsync(args, { from: 'user' })
  const code = process.exitCode
  process.exitCode = 0
  return { stdout, stderr, code }
}

t.test('a conforming extension: progress per case, a summary table, exit 0, a JSON report file', async t => {
  const output = join(dir, 'report.json')
  const res = await run([url, '--certificate-authority', caFile, '--hooks', 'beforeclustercreate,GeneratePatches', '-o', 'json', '--output-file', output])
  t.equal(res.code, 0, res.stderr)
  t.equal(res.stderr, '')
  const lines = res.stdout.split('\n')
  t.equal(lines[0], `runtime-sdk conformance: testing ${url}/`)
  t.match(lines[1], /^pass {2}tls-handshake: negotiated TLSv1\.[23] .* \(\d+ ms\)$/)
  t.match(res.stdout, /^pass {2}timeout-query \[generate-patches\] \(advisory\): answered in \d+ms with HTTP 200, within \?timeout=1s \(\d+ ms\)$/m)
  t.match(res.stdout, /^CASE +LEVEL +PASS +FAIL +SKIP +FAILED FOR\n/m)
  t.match(res.stdout, /^response +required +2 +0 +0 *$/m)
  t.match(res.stdout, /^no-redirect +required +1 +0 +0 *$/m)
  t.match(res.stdout, /\nPASSED: 21 passed, 0 failed \(0 required, 0 advisory\), 0 skipped in [\d.]+ s\n$/)
  const report = JSON.parse(await readFile(output, 'utf8'))
  t.match(report, { target: `${url}/`, passed: true, summary: { total: 21, failed: 0 } })
  t.same([...new Set(report.cases.map((c: { handler?: string }) => c.handler).filter(Boolean))], ['before-cluster-create', 'generate-patches'])
})

t.test('a report on stdout moves the progress to stderr', async t => {
  const markdown = await run([url, '--certificate-authority', caFile, '--hooks', 'UpdateMachine', '-o', 'markdown'])
  t.equal(markdown.code, 0)
  t.match(markdown.stdout, /^# Runtime SDK conformance of https:\/\/127\.0\.0\.1:\d+\/\n\n\*\*PASSED: 13 passed/)
  t.match(markdown.stdout, '| retry-after | update-machine | required | pass |')
  t.match(markdown.stderr, /^runtime-sdk conformance: testing /)
  const junit = await run([url, '--certificate-authority', caFile, '--hooks', 'UpdateMachine', '--report', 'junit'])
  t.match(junit.stdout, /^<\?xml /)
  t.match(junit.stdout, '<testcase classname="runtime-sdk.conformance.required" name="idempotent [update-machine]"')
})

t.test('a failing required case: exit 1, failures with evidence', async t => {
  const ext = await startFakeExtension({
    ...pki.server,
    handlers: [{ name: 'patches', hook: 'GeneratePatches', behaviour: onReadable('GeneratePatches', (_req, res) => send(res, { status: 'Success', items: {} })) }]
  })
  t.teardown(ext.close)
  const res = await run([ext.url, '--ca-bundle', pkiCa])
  t.equal(res.code, 1)
  t.match(res.stdout, /^FAIL {2}response \[patches\]: the answer does not match the GeneratePatchesResponse schema: items: json: cannot unmarshal object into Go value of type \[\]v1alpha1\.GeneratePatchesResponseItem \(\d+ ms\)$/m)
  t.match(res.stdout, /^response +required +0 +1 +0 +patches$/m)
  t.match(res.stdout, '\nFailures:\n\n--- response [patches] (required): the answer does not match')
  t.match(res.stdout, /# sample request\nPOST https:\/\/127\.0\.0\.1:\d+\/hooks\.runtime\.cluster\.x-k8s\.io\/v1alpha1\/generatepatches\/patches\?timeout=10s\ncontent-type: application\/json\n/)
  t.match(res.stdout, '-> HTTP 200 after ')
  t.match(res.stdout, /\nFAILED: 12 passed, 1 failed \(1 required, 0 advisory\), 0 skipped/)
})

t.test('an advisory failure alone keeps exit 0', async t => {
  const ext = await startFakeExtension({
    ...pki.server,
    handlers: [{
      name: 'late',
      hook: 'AfterControlPlaneInitialized',
      behaviour: onReadable('AfterControlPlaneInitialized', async (req, res) => {
        if (req.query.get('timeout') === '1s') await new Promise(resolve => setTimeout(resolve, 1200))
        send(res, { status: 'Success' })
      })
    }]
  })
  t.teardown(ext.close)
  const res = await run([ext.url, '--certificate-authority', pkiCa])
  t.equal(res.code, 0, res.stdout)
  t.match(res.stdout, /^FAIL {2}timeout-query \[late\] \(advisory\): answered after \d{4,}ms although the request said \?timeout=1s/m)
  t.match(res.stdout, 'PASSED: 12 passed, 1 failed (0 required, 1 advisory)')
})

t.test('--extension-config: url, caBundle and settings come from the file; --request-dir replaces a sample', async t => {
  const ext = await startFakeExtension({ ...pki.server, handlers: [{ name: 'bcc', hook: 'BeforeClusterCreate' }] })
  t.teardown(ext.close)
  const ecFile = join(dir, 'ec.yaml')
  await writeFile(ecFile, stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: 'mine' },
    spec: { clientConfig: { url: ext.url, caBundle: Buffer.from(pki.ca.cert).toString('base64') }, settings: { extensionConfigName: 'mine' } }
  }))
  const requests = t.testdir({ 'beforeclustercreate.json': JSON.stringify({ cluster: { metadata: { name: 'from-dir', namespace: 'ns' } } }) })
  const res = await run(['--extension-config', ecFile, '--request-dir', requests])
  t.equal(res.code, 0, res.stdout)
  const sample = ext.requests.find(r => r.path.endsWith('/bcc'))
  t.same(sample?.json, { kind: 'BeforeClusterCreateRequest', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', settings: { extensionConfigName: 'mine' }, cluster: { metadata: { name: 'from-dir', namespace: 'ns' } } })
})

t.test('usage errors exit 2 before anything is sent', async t => {
  const notPem = join(dir, 'not-a-ca.crt')
  await writeFile(notPem, 'hello')
  const badRequests = t.testdir({ 'GeneratePatches.json': '{"items": 3}' })
  const cases: Array<[string[], RegExp | string]> = [
    [[], 'error: pass the https URL of the extension or --extension-config <file> (one of them)'],
    [[url, '--extension-config', 'x.yaml'], 'error: pass the https URL of the extension or --extension-config <file> (one of them)'],
    [['localhost:9443'], 'error: "localhost:9443" is not a URL: pass https://<host>:<port>[/<path>] or --extension-config <file>'],
    [['http://127.0.0.1:9443'], 'error: failed to compute URL: expected https scheme, got http'],
    [[url, '--certificate-authority', join(dir, 'missing.crt')], /^error: --certificate-authority .*missing\.crt: ENOENT/],
    [[url, '--certificate-authority', notPem], 'error: unable to load root certificates: unable to parse bytes as PEM block'],
    [[url, '--client-certificate', caFile], 'error: --client-certificate and --client-key go together'],
    [[url, '--client-certificate', join(dir, 'nope.crt'), '--client-key', caFile], /^error: --client-certificate .*nope\.crt: ENOENT/],
    [[url, '--hooks', 'BeforeClusterCreate,Nope'], /^error: --hooks: unknown hook "Nope"; the hooks with handlers are BeforeClusterCreate, /],
    [[url, '--hooks', ' , '], 'error: --hooks needs at least one hook name'],
    [[url, '--request-dir', badRequests], /^error: .*GeneratePatches\.json: not a valid GeneratePatchesRequest: items: /],
    [[url, '--output-file', 'r.xml'], 'error: --output-file needs -o junit|json|markdown'],
    [['--extension-config', join(dir, 'missing.yaml')], /^error: --extension-config .*missing\.yaml: ENOENT/],
    [['--extension-config', caFile], /^error: --extension-config: .*no ExtensionConfig found/],
    [[url, '--client-certificate', caFile, '--client-key', dir], /^error: --client-key .*: EISDIR/]
  ]
  for (const [args, message] of cases) {
    const res = await run(args)
    t.equal(res.code, 2, args.join(' '))
    t.match(res.stderr, message)
    t.equal(res.stdout, '')
  }
})

t.test('--client-cert and --client-key are presented to an extension that requires them', async t => {
  const mtlsDir = t.testdir()
  const mtls = await tlsFixture(mtlsDir)
  const client = await pki.ca.issue({ commonName: 'capi-controller-manager', usage: 'client' })
  await writeFile(join(mtlsDir, 'client.crt'), client.cert)
  await writeFile(join(mtlsDir, 'client.key'), client.key)
  const server = await start(t, mtls, { handlers: referenceHandlers(), tls: { certFile: mtls.certFile, keyFile: mtls.keyFile, clientCaFile: pkiCa } })
  const args = [server.url, '--certificate-authority', join(mtlsDir, 'ca.crt'), '--hooks', 'AfterClusterUpgrade']
  const withCert = await run([...args, '--client-certificate', join(mtlsDir, 'client.crt'), '--client-key', join(mtlsDir, 'client.key')])
  t.equal(withCert.code, 0, withCert.stdout)
  const without = await run(args)
  t.equal(without.code, 1)
  t.match(without.stdout, /^FAIL {2}discovery: no HTTP answer: /m)
})

t.test('a report file that cannot be written is a usage error', async t => {
  const res = await run([url, '--certificate-authority', caFile, '--hooks', 'BeforeClusterDelete', '-o', 'json', '--output-file', join(dir, 'no', 'such', 'dir', 'r.json')])
  t.equal(res.code, 2)
  t.match(res.stderr, /^error: --output-file .*r\.json: ENOENT/)
})

t.test('--help lists the cases and the exit codes', async t => {
  let help = ''
  const command = conformanceCommand().exitOverride().configureOutput({ writeOut: s => { help += s } })
  await t.rejects(command.parseAsync(['--help'], { from: 'user' }), { code: 'commander.helpDisplayed', exitCode: 0 })
  t.match(help, /^ {2}content-type-optional +required +A request without Content-Type/m)
  t.match(help, /^ {2}timeout-query +advisory +/m)
  t.match(help, 'Exit codes: 0 every required case passed, 1 a required case failed, 2 usage error.')
})

t.test('bad flags exit 2 (commander itself would exit 1)', async t => {
  const bad = await runCliHere(['conformance', 'https://127.0.0.1:1', '--report', 'xml'])
  t.equal(bad.code, 2)
  t.match(bad.stderr, /Allowed choices are table, junit, json, markdown/)
})

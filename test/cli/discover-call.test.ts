// The discover and call subcommands against a local test extension.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { callCommand } from '../../src/cli/call.js'
import { defaultIO } from '../../src/cli/command.js'
import { discoverCommand } from '../../src/cli/discover.js'
import { cluster, createPki, json, startExtension } from '../helpers/test-extension.js'

const HOOKS = '/hooks.runtime.cluster.x-k8s.io/v1alpha1'
const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
const pki = await createPki()
const ext = await startExtension(pki.server, {
  [`${HOOKS}/discovery`]: (_r, res) => json(res, {
    status: 'Success',
    handlers: [
      { name: 'bcc', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' }, timeoutSeconds: 5 },
      { name: 'down', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' }, failurePolicy: 'Ignore' }
    ]
  }),
  [`${HOOKS}/beforeclustercreate/bcc`]: (r, res) => json(res, { status: 'Success', message: `hello ${String(r.body.cluster?.metadata?.name)}`, retryAfterSeconds: 4 }),
  [`${HOOKS}/beforeclustercreate/down`]: (_r, res) => json(res, 'down', 500)
})
t.teardown(() => ext.close())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-cli-'))
const caFile = join(dir, 'ca.crt')
await writeFile(caFile, pki.ca.cert)
const configs = join(dir, 'configs')
await import('node:fs/promises').then(fs => fs.mkdir(configs))
const ec = { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'test-ext' }, spec: { clientConfig: { url: ext.url }, namespaceSelector: {} } }
await writeFile(join(configs, 'ext.yaml'), stringify(ec) + '---\n' + stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ignored' } }))
const objectFile = join(dir, 'cluster.yaml')
await writeFile(objectFile, stringify(cluster))

async function run (command: typeof discoverCommand, args: string[]) {
  let stdout = ''
  let stderr = ''
  process.exitCode = 0
  await command({ stdout: s => { stdout += s }, stderr: s => { stderr += s } }).exitOverride().parseAsync(args, { from: 'user' })
  const code = process.exitCode
  process.exitCode = 0
  return { stdout, stderr, code }
}

t.test('discover prints the handlers as a table or JSON', async t => {
  const tableOut = await run(discoverCommand, [ext.url, '--ca-file', caFile, '--name', 'x'])
  t.equal(tableOut.code, 0, tableOut.stderr)
  t.equal(tableOut.stdout,
    'NAME    HOOK                 API VERSION                              TIMEOUT  FAILURE POLICY\n' +
    `bcc.x   BeforeClusterCreate  ${API}  5s       Fail\n` +
    `down.x  BeforeClusterCreate  ${API}  10s      Ignore\n`)
  const jsonOut = await run(discoverCommand, [join(configs, 'ext.yaml'), '--ca-file', caFile, '--output', 'json'])
  t.same(JSON.parse(jsonOut.stdout).map((h: { name: string }) => h.name), ['bcc.test-ext', 'down.test-ext'])
  const failing = await run(discoverCommand, [ext.url])
  t.equal(failing.code, 1, 'system roots do not trust the test CA')
  t.match(failing.stderr, /^error: failed to discover extension "extension": http call failed: Post/)
})

t.test('call prints every outcome and the aggregate', async t => {
  const out = await run(callCommand, ['BeforeClusterCreate', '--object', objectFile, '--extension-configs', configs, '--ca-file', caFile])
  t.equal(out.code, 0, out.stderr)
  t.match(out.stdout, /^HANDLER\s+OUTCOME\s+STATUS\s+RETRY\s+DURATION\s+MESSAGE\n/)
  t.match(out.stdout, /bcc\.test-ext\s+success\s+Success\s+4\s+\d+ms\s+hello c1\n/)
  t.match(out.stdout, /down\.test-ext\s+ignored\s+Success\s+\d+ms\s+http call failed: got response with status code 500 != 200: response : "down"\n/)
  t.match(out.stdout, /\nBeforeClusterCreate: status=Success retryAfterSeconds=4 message="hello c1"\n$/)
  const asJson = await run(callCommand, ['BeforeClusterCreate', '--object', objectFile, '--url', ext.url, '--certificate-authority', caFile, '-o', 'json', '--sequential'])
  const parsed = JSON.parse(asJson.stdout)
  t.same(parsed.response, { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', message: 'hello c1', retryAfterSeconds: 4 })
  t.same(parsed.handlers.map((h: { name: string }) => h.name), ['bcc.extension-1', 'down.extension-1'])
  t.same(parsed.handlers[0].response, { status: 'Success', message: 'hello c1', retryAfterSeconds: 4 }, 'each handler\'s response is shown')
})

t.test('call --certificate-authority replaces the ExtensionConfig\'s caBundle, as in discover and conformance', async t => {
  const other = await createPki()
  const staleDir = join(dir, 'stale')
  await import('node:fs/promises').then(fs => fs.mkdir(staleDir))
  await writeFile(join(staleDir, 'ext.json'), JSON.stringify({ ...ec, spec: { ...ec.spec, clientConfig: { url: ext.url, caBundle: Buffer.from(other.ca.cert).toString('base64') } } }))
  const args = ['BeforeClusterCreate', '--object', objectFile, '--extension-configs', staleDir, '-o', 'json']
  t.equal((await run(callCommand, args)).code, 1, 'the stale caBundle does not verify the extension')
  const replaced = await run(callCommand, [...args, '--certificate-authority', caFile])
  t.equal(replaced.code, 0, replaced.stderr)
  t.equal(JSON.parse(replaced.stdout).response.status, 'Success')
})

t.test('call exits 1 when the aggregate is an error', async t => {
  ext.routes.set(`${HOOKS}/beforeclustercreate/bcc`, (_r, res) => json(res, { status: 'Failure', message: 'no way', retryAfterSeconds: 0 }))
  const out = await run(callCommand, ['hooks.runtime.cluster.x-k8s.io/v1alpha1/BeforeClusterCreate', '--object', objectFile, '--extension-configs', configs, '--ca-file', caFile])
  t.equal(out.code, 1)
  t.match(out.stdout, /bcc\.test-ext\s+failure\s+Failure/)
  t.equal(out.stderr, 'error: failed to call extension handlers for hook "BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "bcc.test-ext": got failure response with message: no way\n')
  const none = await run(callCommand, ['BeforeClusterCreate', '--object', objectFile])
  t.equal(none.code, 2)
  t.equal(none.stderr, 'error: no extensions to call: pass --extension-configs <path> or --url <url>\n')
})

t.test('call: namespace labels, resolve and service references', async t => {
  ext.routes.set(`${HOOKS}/beforeclustercreate/bcc`, (_r, res) => json(res, { status: 'Success', message: 'via service', retryAfterSeconds: 0 }))
  const svcDir = join(dir, 'svc')
  await import('node:fs/promises').then(fs => fs.mkdir(svcDir))
  await writeFile(join(svcDir, 'svc.json'), JSON.stringify({
    ...ec,
    metadata: { name: 'svc' },
    spec: { clientConfig: { service: { name: 'ext', namespace: 'ns' } }, namespaceSelector: { matchLabels: { team: 'a' } } }
  }))
  const args = ['BeforeClusterCreate', '--object', objectFile, '--extension-configs', svcDir, '--ca-file', caFile, '--resolve', `ext.ns.svc:443=127.0.0.1:${ext.port}`]
  const unmatched = await run(callCommand, args)
  t.equal(unmatched.code, 1, 'no handler matched: the call did not happen')
  t.equal(unmatched.stdout, '')
  t.equal(unmatched.stderr, 'error: no BeforeClusterCreate handler to call: none of the 1 discovered ExtensionConfigs (of 1) has one whose namespaceSelector matches namespace default\n')
  const matched = await run(callCommand, [...args, '--namespace-labels', 'team=a'])
  t.match(matched.stdout, /bcc\.svc\s+success\s+Success\s+0\s+\d+ms\s+via service/)
  await t.rejects(run(callCommand, [...args, '--namespace-labels', 'nonsense']),
    { code: 'commander.invalidArgument', message: 'error: option \'--namespace-labels <labels>\' argument \'nonsense\' is invalid. "nonsense" is not key=value' },
    'a malformed label is a usage error')
})

t.test('the default IO writes to the process streams', async t => {
  process.exitCode = 0
  await discoverCommand().exitOverride().parseAsync(['https://127.0.0.1:1', '--name', 'default-io'], { from: 'user' })
  t.equal(process.exitCode, 1)
  process.exitCode = 0
  defaultIO.stdout('')
  t.pass()
})

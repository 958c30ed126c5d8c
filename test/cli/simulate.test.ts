// runtime-sdk simulate: the example through its life (exit 0, the timeline and the templates), broken extensions
// (exit 1, one line naming the hook and the template), unusable input (exit 2, one line naming the file and field).
import t from 'tap'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { runCliHere } from '../helpers/run-cli.js'
import { start, tlsFixture } from '../helpers/server.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const BROKEN = fileURLToPath(new URL('../helpers/broken-simulate-extension.ts', import.meta.url))
t.setTimeout(300_000)

/** Runs with the broken extension's RUNTIME_SDK_BROKEN set (read at every call). */
async function withBroken<T> (broken: string, run: () => Promise<T>): Promise<T> {
  process.env['RUNTIME_SDK_BROKEN'] = broken
  try {
    return await run()
  } finally {
    delete process.env['RUNTIME_SDK_BROKEN']
  }
}
const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-simulate-cli-'))

t.test('the example goes through its life against the reference extension', async t => {
  const out = join(dir, 'templates')
  const r = await runCliHere(['simulate', '-f', EXAMPLE, '--to-version', 'v1.35.0', '--output-dir', out])
  t.equal(r.code, 0, r.stderr)
  t.match(r.stdout, /^TIME +HOOK +HANDLER +STATUS +RETRY +MESSAGE\n0s +DiscoverVariables +discover-variables\.reference +Success/)
  t.match(r.stdout, /AfterClusterUpgrade +after-cluster-upgrade\.reference +Success/)
  t.match(r.stdout, /Templates after the ClusterClass's patches \(upgraded to v1\.35\.0\):\n {2}infrastructureCluster: DevClusterTemplate loop-cluster -> loop-\w{5} \(1 change\)/)
  t.match(r.stdout, /The cluster was created, upgraded to v1\.35\.0 and deleted: \d+ handler calls/)
  const files = readdirSync(out).sort()
  t.equal(files.length, 5, 'one file per template')
  const worker = parse(readFileSync(join(out, 'machinedeployment-md-0-bootstrap-kubeadmconfigtemplate-loop-worker.yaml'), 'utf8')) as { metadata: { annotations: Record<string, string> } }
  t.equal(worker.metadata.annotations['runtime-sdk.x-k8s.io/patched-by'], 'team-a')
})

t.test('-o json holds every request and response', async t => {
  const r = await runCliHere(['simulate', '-f', EXAMPLE, '-o', 'json'])
  t.equal(r.code, 0, r.stderr)
  const result = JSON.parse(r.stdout) as { outcome: string, timeline: Array<{ hook: string, request?: { kind?: string }, response?: { status?: string } }> }
  t.equal(result.outcome, 'completed')
  const create = result.timeline.find(e => e.hook === 'BeforeClusterCreate')
  t.equal(create?.request?.kind, 'BeforeClusterCreateRequest')
  t.equal(create?.response?.status, 'Success')
})

t.test('--url and --extension-configs call a running extension over HTTPS, with the CA given', async t => {
  const tls = await tlsFixture(mkdtempSync(join(tmpdir(), 'runtime-sdk-simulate-tls-')))
  const { url } = await start(t, tls, { handlers: referenceHandlers() })
  const byUrl = await runCliHere(['simulate', '-f', EXAMPLE, '--url', url, '--certificate-authority', join(tls.dir, 'ca.crt')])
  t.equal(byUrl.code, 0, byUrl.stderr)
  t.match(byUrl.stdout, /BeforeClusterDelete +before-cluster-delete\.reference +Success/, 'registered as the ExtensionConfig the ClusterClass names')
  const configs = join(dir, 'extensionconfig.yaml')
  writeFileSync(configs, JSON.stringify({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'reference' }, spec: { clientConfig: { url }, namespaceSelector: { matchLabels: { team: 'a' } } } }))
  const unmatched = await runCliHere(['simulate', '-f', EXAMPLE, '--extension-configs', configs, '--certificate-authority', join(tls.dir, 'ca.crt')])
  t.equal(unmatched.code, 1, 'the namespaceSelector does not match the Cluster\'s namespace')
  t.match(unmatched.stderr, /^error: DiscoverVariables \(patch reference\): failed to call extension handler "discover-variables\.reference": namespaceSelector did not match object default\/loop\n$/)
  const matched = await runCliHere(['simulate', '-f', EXAMPLE, '--extension-configs', configs, '--certificate-authority', join(tls.dir, 'ca.crt'), '--namespace-labels', 'team=a'])
  t.equal(matched.code, 0, matched.stderr)
})

for (const [broken, message] of [
  ['patch', /^error: GeneratePatches generate-patches\.reference \(patch reference\): the patch of DevClusterTemplate loop-cluster \(infrastructureCluster\) does not apply: operation 0 \(replace \/spec\/nope\)/],
  ['blocking', /^error: BeforeClusterCreate still blocks after 5m0s \(--max-blocked\): "waiting for a quota", retryAfterSeconds 60\n$/],
  ['changing', /^error: BeforeClusterCreate before-cluster-create\.reference answered the same request twice differently: Success "attempt 1", then Success "attempt 2"/]
] as const) {
  t.test(`an extension that is broken (${broken}) exits 1 with one line naming the hook`, async t => {
    const r = await withBroken(broken, async () => await runCliHere(['simulate', '-f', EXAMPLE, '--handlers', BROKEN, '--max-blocked', '5m']))
    t.equal(r.code, 1)
    t.match(r.stderr, message)
    t.equal(r.stderr.trim().split('\n').length, 1, 'one line')
  })
}

t.test('unusable input exits 2 with one line naming the file and the field', async t => {
  const cluster = readFileSync(join(EXAMPLE, 'cluster.yaml'), 'utf8').replace('version: v1.34.0', 'version: 1.34')
  const file = join(dir, 'cluster.yaml')
  writeFileSync(file, cluster)
  const r = await runCliHere(['simulate', '-f', file, '-f', join(EXAMPLE, 'clusterclass.yaml'), '-f', join(EXAMPLE, 'templates.yaml')])
  t.equal(r.code, 2)
  t.equal(r.stderr, `error: Cluster default/loop (${file}): Cluster.cluster.x-k8s.io "loop" is invalid: [spec.topology.version: Invalid value: "number": spec.topology.version in body must be of type string: "number", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]\n`)
  const missing = await runCliHere(['simulate', '-f', join(EXAMPLE, 'cluster.yaml')])
  t.equal(missing.code, 2)
  t.match(missing.stderr, /^error: Cluster default\/loop \(.*cluster\.yaml\): spec\.topology\.classRef names ClusterClass default\/loop, which is not among the inputs: pass the file that holds it\n$/)
  const both = await runCliHere(['simulate', '-f', EXAMPLE, '--handlers', BROKEN, '--url', 'https://127.0.0.1:1'])
  t.equal(both.code, 2)
  t.match(both.stderr, /^error: pass the extension once/)
})

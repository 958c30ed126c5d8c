// The ExtensionConfig CRD on a real kube-apiserver: `kubectl apply -k deploy/crd` is accepted; the API server
// enforces every rule with the same messages as validateExtensionConfig; it applies the same defaults;
// objects of both versions are read back in both versions through our conversion webhook; the status
// subresource and the printer columns work.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { V1ALPHA1_DEPRECATION_WARNING } from '../../src/api/extension-config/constants.js'
import { convertExtensionConfig } from '../../src/api/extension-config/conversion.js'
import { RULES_NOT_CHECKED, validateExtensionConfig } from '../../src/api/extension-config/validate.js'
import { createWebhookServer } from '../../src/controller/webhook-server.js'
import { ec, ruleCases, serviceSpec } from '../helpers/extension-config-rule-cases.js'
import { silent, tlsFixture } from '../helpers/server.js'
import { conversionWebhookPatch, startControlPlane, UNREACHABLE_CONVERSION_URL } from '../../tools/harness/control-plane.js'
import { waitFor } from '../helpers/wait.js'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const CRD = 'customresourcedefinition.apiextensions.k8s.io/extensionconfigs.runtime.cluster.x-k8s.io'
const V1BETA2 = 'runtime.cluster.x-k8s.io/v1beta2'
const V1ALPHA1 = 'runtime.cluster.x-k8s.io/v1alpha1'
const resource = (version: string, name: string) => `extensionconfigs.${version}.runtime.cluster.x-k8s.io/${name}`

const cp = await startControlPlane({ log: (message) => t.comment(message) })
const dir = await mkdtemp(join(tmpdir(), 'crd-e2e-'))
const tls = await tlsFixture(dir)
const webhook = createWebhookServer({ tls: { certFile: tls.certFile, keyFile: tls.keyFile }, host: '127.0.0.1', port: 0, logger: silent })
let conversions = 0
// The API server calls /convert?timeout=30s.
webhook.app.addHook('onResponse', async (request) => { if (request.url.startsWith('/convert')) conversions++ })
t.teardown(async () => {
  await cp.stop()
  await webhook.close()
  await rm(dir, { recursive: true, force: true })
})

const kubectl = (args: string[], input?: unknown) => cp.kubectl(args, input === undefined ? {} : { input: JSON.stringify(input) })

async function getJSON (version: string, name: string): Promise<Record<string, any>> {
  const res = await kubectl(['get', resource(version, name), '-o', 'json'])
  if (res.code !== 0) throw new Error(`kubectl get ${name} (${version}): ${res.stderr}`)
  return JSON.parse(res.stdout)
}

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> => {
  await waitFor(check, { timeoutMs, intervalMs: 200, message: what })
}

const v1alpha1Object = {
  apiVersion: V1ALPHA1,
  kind: 'ExtensionConfig',
  metadata: { name: 'alpha', labels: { team: 'a' }, annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'ns/ca' } },
  spec: {
    clientConfig: { service: { name: 'ext-webhook', namespace: 'ext-system', path: '/hooks' }, caBundle: Buffer.from('ca').toString('base64') },
    namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] },
    settings: { mode: 'fast' }
  }
}

t.test('kubectl apply -k deploy/crd is accepted and the CRD becomes Established', async t => {
  const applied = await kubectl(['apply', '-k', join(repo, 'deploy/crd')])
  t.equal(applied.code, 0, applied.stderr)
  t.match(applied.stdout, `${CRD} created`)
  t.equal(applied.stderr.trim(), '', 'no warnings')
  const established = await kubectl(['wait', '--for=condition=Established', CRD, '--timeout=60s'])
  t.equal(established.code, 0, established.stderr)
  // Before any object goes through it: the shipped conversion webhook is a `service:`, which must not be dialled here.
  const loopback = await kubectl(['patch', CRD, '--type=merge', '-p', conversionWebhookPatch(UNREACHABLE_CONVERSION_URL)])
  t.equal(loopback.code, 0, loopback.stderr)
})

t.test('without the conversion webhook, v1alpha1 objects cannot be stored', async t => {
  const created = await kubectl(['create', '-f', '-'], v1alpha1Object)
  t.not(created.code, 0)
  t.match(created.stderr, /conversion webhook/)
})

t.test('with the webhook on 127.0.0.1, the API server converts through it', async t => {
  const url = await webhook.listen()
  const patched = await kubectl(['patch', CRD, '--type=merge', '-p', conversionWebhookPatch(`${url}/convert`, Buffer.from(tls.ca.cert).toString('base64'))])
  t.equal(patched.code, 0, patched.stderr)
  // The CRD change reaches the API server's handlers asynchronously: retry a v1alpha1 write until it converts.
  const probe = { ...v1alpha1Object, metadata: { name: 'probe' } }
  await until('conversion through the webhook', async () => (await kubectl(['create', '-f', '-'], probe)).code === 0)
  t.ok(conversions > 0, `${conversions} ConversionReviews answered`)
  const deleted = await kubectl(['delete', resource('v1alpha1', 'probe')])
  t.equal(deleted.code, 0, deleted.stderr)
})

t.test('every rule: the API server rejects the object with the message validateExtensionConfig gives', async t => {
  for (const { name, invalid, valid, error } of ruleCases) {
    const expected = validateExtensionConfig(invalid)
    t.same(expected.ok ? [] : expected.errors, [error], `${name}: the TypeScript validator's error`)
    const rejected = await kubectl(['create', '-f', '-'], invalid)
    t.not(rejected.code, 0, `${name}: rejected`)
    t.ok(rejected.stderr.includes(error), `${name}: the API server gives the same message`, { error, stderr: rejected.stderr })
    const accepted = await kubectl(['create', '--dry-run=server', '-f', '-'], valid)
    t.equal(accepted.code, 0, `${name}: the valid neighbour is accepted`, { stderr: accepted.stderr })
  }
})

t.test('schema errors read the same from both sources', async t => {
  const cases: Array<[string, unknown]> = [
    ['unknown field', ec({ clientConfig: { url: 'https://x.example', timeout: 5 } })],
    ['wrong type', ec({ clientConfig: { url: 443 } })],
    ['missing field', ec({ clientConfig: { service: { namespace: 'ns' } } })],
    ['unknown operator', ec({ clientConfig: { url: 'https://x.example' }, namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'Like' }] } })],
    ['too long', ec({ clientConfig: { url: `https://${'x'.repeat(505)}` } })],
    ['too many', ec({ clientConfig: { url: 'https://x.example' }, settings: Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`k${i}`, 'v'])) })],
    ['not base64', ec({ clientConfig: { url: 'https://x.example', caBundle: 'not base64!' } })],
    ['minProperties and a rule', ec({ clientConfig: {} })],
    ['port beyond int32', ec(serviceSpec({ port: 2 ** 31 }))],
    ['v1alpha1 too', { ...v1alpha1Object, spec: { clientConfig: { url: 'http://x.example?x=1' } } }]
  ]
  let rulesSkipped = 0
  for (const [name, object] of cases) {
    const result = validateExtensionConfig(object)
    t.notOk(result.ok, name)
    const errors = result.ok ? [] : result.errors
    const rejected = await kubectl(['create', '-f', '-'], object)
    t.not(rejected.code, 0, `${name}: rejected`)
    const missing = errors.filter(e => !rejected.stderr.includes(e))
    if (errors.includes(RULES_NOT_CHECKED)) rulesSkipped++
    t.same(missing, [], `${name}: every error of the TypeScript validator is in the API server's answer`, { stderr: rejected.stderr })
  }
  t.ok(rulesSkipped >= 5, `both sources skip the rules after ${rulesSkipped} blocking schema errors`)
})

t.test('the API server applies the defaults validateExtensionConfig applies', async t => {
  const input = ec(serviceSpec({}), 'defaults')
  const created = await kubectl(['create', '-f', '-', '-o', 'json'], input)
  t.equal(created.code, 0, created.stderr)
  const stored = JSON.parse(created.stdout)
  t.same(stored.spec, { clientConfig: { service: { name: 'svc', namespace: 'ns', port: 443 } }, namespaceSelector: {} })
  const expected = validateExtensionConfig(input)
  t.same(stored.spec, expected.ok && expected.value.spec)
})

t.test('a v1alpha1 object is stored as v1beta2 and read back in both versions', async t => {
  const created = await kubectl(['create', '-f', '-'], v1alpha1Object)
  t.equal(created.code, 0, created.stderr)
  t.ok(created.stderr.includes(`Warning: ${V1ALPHA1_DEPRECATION_WARNING}`), created.stderr)
  const expected = validateExtensionConfig(v1alpha1Object)
  t.same(expected.ok && expected.warnings, [V1ALPHA1_DEPRECATION_WARNING], 'the validator warns the same')

  const asHub = await getJSON('v1beta2', 'alpha')
  t.equal(asHub['apiVersion'], V1BETA2)
  t.same(asHub['spec'], expected.ok && expected.value.spec, 'spec as validateExtensionConfig converts it')
  t.same(asHub['metadata'].labels, v1alpha1Object.metadata.labels)
  t.same(asHub['metadata'].annotations, v1alpha1Object.metadata.annotations)
  const asSpoke = await getJSON('v1alpha1', 'alpha')
  t.equal(asSpoke['apiVersion'], V1ALPHA1)
  t.same(asSpoke['spec'], { ...v1alpha1Object.spec, clientConfig: { ...v1alpha1Object.spec.clientConfig, service: { ...v1alpha1Object.spec.clientConfig.service, port: 443 } } })
})

t.test('a v1beta2 object reads back as v1alpha1', async t => {
  const input = ec({ clientConfig: { url: 'https://ext.example.com/prefix' }, settings: { a: 'b' } }, 'beta')
  const created = await kubectl(['create', '-f', '-'], input)
  t.equal(created.code, 0, created.stderr)
  const asSpoke = await getJSON('v1alpha1', 'beta')
  const asHub = await getJSON('v1beta2', 'beta')
  t.same(asSpoke, convertExtensionConfig(asHub, V1ALPHA1))
  t.same(asSpoke['spec'], { clientConfig: { url: 'https://ext.example.com/prefix' }, settings: { a: 'b' }, namespaceSelector: {} })
})

const lastTransitionTime = '2025-06-01T12:00:00Z'
const discovered = { type: 'Discovered', status: 'True', reason: 'Discovered', message: '', observedGeneration: 1, lastTransitionTime }
const paused = { type: 'Paused', status: 'False', reason: 'NotPaused', message: '', observedGeneration: 1, lastTransitionTime }
const legacy = { type: 'Discovered', status: 'True', lastTransitionTime }
const handler = { name: 'bcc.beta', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' }, timeoutSeconds: 10, failurePolicy: 'Fail' }

t.test('the status subresource is writable in both versions', async t => {
  const status = { conditions: [discovered, paused], handlers: [handler], deprecated: { v1beta1: { conditions: [legacy] } } }
  const patched = await kubectl(['patch', resource('v1beta2', 'beta'), '--subresource=status', '--type=merge', '-p', JSON.stringify({ spec: { settings: { a: 'changed' } }, status })])
  t.equal(patched.code, 0, patched.stderr)
  const asHub = await getJSON('v1beta2', 'beta')
  t.same(asHub['status'], status)
  t.same(asHub['spec'].settings, { a: 'b' }, 'spec is not writable through /status')
  t.equal(asHub['metadata'].generation, 1, 'status writes do not bump the generation')
  const asSpoke = await getJSON('v1alpha1', 'beta')
  t.same(asSpoke['status'], { handlers: [handler], conditions: [legacy], v1beta2: { conditions: [discovered, paused] } })

  const nowPaused = { ...paused, status: 'True', reason: 'Paused', message: 'ExtensionConfig has the cluster.x-k8s.io/paused annotation' }
  const viaSpoke = await kubectl(['patch', resource('v1alpha1', 'beta'), '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { v1beta2: { conditions: [discovered, nowPaused] } } })])
  t.equal(viaSpoke.code, 0, viaSpoke.stderr)
  t.same((await getJSON('v1beta2', 'beta'))['status'].conditions, [discovered, nowPaused])

  const invalid = await kubectl(['patch', resource('v1beta2', 'beta'), '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { handlers: [{ ...handler, failurePolicy: 'Sometimes' }] } })])
  t.not(invalid.code, 0, 'the status schema is enforced')
  t.match(invalid.stderr, 'status.handlers[0].failurePolicy: Unsupported value: "Sometimes"')
})

t.test('printer columns: kubectl get ext', async t => {
  const table = await kubectl(['get', 'ext'])
  t.equal(table.code, 0, table.stderr)
  const [header, ...rows] = table.stdout.trim().split('\n')
  t.same(header?.split(/\s+/), ['NAME', 'DISCOVERED', 'AGE'])
  t.match(rows.find(r => r.startsWith('beta ')), /^beta\s+True\s+\d+s$/)
  t.match(rows.find(r => r.startsWith('alpha ')), /^alpha\s+\d+s$/, 'no status yet: empty column')
  const wide = await kubectl(['get', 'ext', '-o', 'wide'])
  t.same(wide.stdout.trim().split('\n')[0]?.split(/\s+/), ['NAME', 'PAUSED', 'DISCOVERED', 'AGE'])
  t.match(wide.stdout, /beta\s+True\s+True\s+\d+s/)
  const spoke = await kubectl(['get', 'extensionconfigs.v1alpha1.runtime.cluster.x-k8s.io'])
  t.same(spoke.stdout.trim().split('\n')[0]?.split(/\s+/), ['NAME', 'AGE'], 'v1alpha1 shows Age only')
  const byCategory = await kubectl(['get', 'cluster-api', '-o', 'name'])
  t.match(byCategory.stdout, 'extensionconfig.runtime.cluster.x-k8s.io/beta', 'listed in the cluster-api category')
})

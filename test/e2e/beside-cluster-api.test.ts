// Living beside Cluster API on a real kube-apiserver that holds Cluster API's own ExtensionConfig CRD (from its
// module, labelled as its release manifests label it): preflight and the controller refuse to write status there
// unless told to; a server-side apply of our CRD refuses to replace it; deploy/beside-cluster-api applies without
// touching it, with read-only rights that suffice for `controller --read-only`, which registers what Cluster
// API's controller wrote in status, writes nothing, and calls the handlers.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { parse, stringify } from 'yaml'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { CLUSTER_API_PROVIDER_LABEL, EXTENSION_CONFIG_CRD_NAME } from '../../src/api/extension-config/constants.js'
import { EXIT_FAILED, EXIT_OK } from '../../src/cli/command.js'
import { ForeignCrdError } from '../../src/controller/crd-owner.js'
import { runController } from '../../src/controller/run.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createExtensionServer } from '../../src/server/server.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { readClusterApiExtensionConfigCrd } from '../../tools/harness/capi-interop.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { runCli } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait.js'

const root = join(import.meta.dirname, '..', '..')
const cp = await startControlPlane()
t.teardown(() => cp.stop())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-e2e-beside-'))

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
const crdJSON = async () => JSON.parse(await kubectl(['get', 'crd', EXTENSION_CONFIG_CRD_NAME, '-o', 'json'])) as { metadata: { labels?: Record<string, string>, resourceVersion: string } }

// Cluster API's CRD as clusterctl installs it: the kustomization's provider label on Cluster API's generated CRD
// (its bases declare no conversion webhook, so nothing is dialled).
const capiCrd = parse(await readClusterApiExtensionConfigCrd()) as { metadata: { labels?: Record<string, string> } }
capiCrd.metadata.labels = { ...capiCrd.metadata.labels, [CLUSTER_API_PROVIDER_LABEL]: 'cluster-api' }
await kubectl(['create', '-f', '-'], JSON.stringify(capiCrd))
await kubectl(['wait', '--for=condition=Established', '--timeout=60s', `crd/${EXTENSION_CONFIG_CRD_NAME}`])
const installed = await crdJSON()

// An extension on loopback, and an ExtensionConfig whose status reads as Cluster API's controller writes it.
const ca = await createCertificateAuthority('e2e CA')
const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' })
await writeFile(join(dir, 'tls.crt'), leaf.cert)
await writeFile(join(dir, 'tls.key'), leaf.key)
const extension = createExtensionServer({ handlers: referenceHandlers(), tls: { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') }, logLevel: 'silent' })
const extensionUrl = await extension.listen({ host: '127.0.0.1', port: 0 })
t.teardown(() => extension.close())
await kubectl(['apply', '-f', '-'], JSON.stringify({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: 'capi-discovered' },
  spec: { clientConfig: { url: extensionUrl, caBundle: Buffer.from(ca.cert).toString('base64') }, namespaceSelector: {} }
}))
const generation = JSON.parse(await kubectl(['get', 'ext', 'capi-discovered', '-o', 'json'])).metadata.generation as number
await kubectl(['patch', 'ext', 'capi-discovered', '--subresource=status', '--type=merge', '-p', JSON.stringify({
  status: {
    handlers: [{
      name: 'before-cluster-create.capi-discovered',
      requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterCreate' },
      timeoutSeconds: 10,
      failurePolicy: 'Fail'
    }],
    conditions: [{ type: 'Discovered', status: 'True', reason: 'Discovered', message: '', observedGeneration: generation, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }]
  }
})])
const discovered = JSON.parse(await kubectl(['get', 'ext', 'capi-discovered', '-o', 'json'])).metadata.resourceVersion as string

t.test('preflight names Cluster API as the CRD\'s owner and refuses, unless the controller is to be read-only', async t => {
  const refused = await runCli(['preflight', '--kubeconfig', cp.kubeconfigPath])
  t.equal(refused.code, EXIT_FAILED, refused.stderr)
  t.match(refused.stdout, `the ExtensionConfig CRD ${EXTENSION_CONFIG_CRD_NAME} belongs to Cluster API (label cluster.x-k8s.io/provider=cluster-api): do not apply deploy/default`)
  t.match(refused.stdout, /run beside it with deploy\/beside-cluster-api \(--read-only\), or pass --take-over-crd\n/)
  t.equal(refused.stderr, '', 'the report is the message')
  const readOnly = await runCli(['preflight', '--kubeconfig', cp.kubeconfigPath, '--read-only', '-o', 'json'])
  t.equal(readOnly.code, EXIT_OK, readOnly.stderr)
  t.match(JSON.parse(readOnly.stdout), { crd: { installed: true, owner: 'Cluster API', foreign: true }, handlers: 1, problems: [] })
})

t.test('the controller refuses to write status on Cluster API\'s CRD unless --take-over-crd', async t => {
  const cli = await runCli(['controller', '--kubeconfig', cp.kubeconfigPath, '--metrics-port', '0'])
  t.equal(cli.code, EXIT_FAILED)
  t.match(cli.stderr, /^error: the ExtensionConfig CRD .* belongs to Cluster API .*: run beside it with --read-only \(deploy\/beside-cluster-api\), or pass --take-over-crd/)
  t.notMatch(cli.stderr, /\n\s+at /, 'no stack trace')
  await t.rejects(runController({ kubeconfig: cp.kubeconfigPath }), ForeignCrdError)
  const electing = runController({ kubeconfig: cp.kubeconfigPath, leaderElection: { namespace: 'default', name: 'would-lead' } })
  await t.rejects(electing, ForeignCrdError, 'a replica that may become leader is refused too')
  t.equal((await crdJSON()).metadata.resourceVersion, installed.metadata.resourceVersion)
})

t.test('a server-side apply of our CRD refuses to replace Cluster API\'s', async t => {
  const applied = await cp.kubectl(['apply', '--server-side', '-k', join(root, 'deploy/crd')])
  t.not(applied.code, 0)
  t.match(applied.stderr, /conflict/i)
  t.same((await crdJSON()).metadata.labels?.[CLUSTER_API_PROVIDER_LABEL], 'cluster-api')
  t.equal((await crdJSON()).metadata.resourceVersion, installed.metadata.resourceVersion, 'untouched')
})

t.test('deploy/beside-cluster-api applies without a CRD or webhook, and its rights are read-only', async t => {
  const rendered = await kubectl(['kustomize', join(root, 'deploy/beside-cluster-api')])
  t.notMatch(rendered, /kind: CustomResourceDefinition/)
  t.notMatch(rendered, /runtime-sdk-webhook-service|--webhook-port|--leader-elect/)
  t.match(rendered, /- --read-only\n/)
  await kubectl(['apply', '-k', join(root, 'deploy/beside-cluster-api')])
  t.equal((await crdJSON()).metadata.resourceVersion, installed.metadata.resourceVersion, 'Cluster API\'s CRD untouched')
  const can = async (verb: string, resource: string, subresource?: string) => (await cp.kubectl(['auth', 'can-i', verb, resource,
    '--as=system:serviceaccount:runtime-sdk-system:runtime-sdk-controller', ...(subresource ? [`--subresource=${subresource}`] : [])])).stdout.trim()
  t.equal(await can('watch', 'extensionconfigs.runtime.cluster.x-k8s.io'), 'yes')
  t.equal(await can('watch', 'namespaces'), 'yes')
  t.equal(await can('patch', 'extensionconfigs.runtime.cluster.x-k8s.io'), 'no')
  t.equal(await can('update', 'extensionconfigs.runtime.cluster.x-k8s.io', 'status'), 'no')
  t.equal(await can('list', 'secrets'), 'no')
  t.equal(await can('update', 'leases.coordination.k8s.io'), 'no')
})

t.test('controller --read-only with those rights registers what Cluster API discovered, writes nothing, and calls it', async t => {
  // The deployment's own identity: a token of its ServiceAccount.
  const token = (await kubectl(['create', 'token', 'runtime-sdk-controller', '-n', 'runtime-sdk-system'])).trim()
  const admin = JSON.parse(await readFile(cp.kubeconfigPath, 'utf8')) as { clusters: unknown[] }
  const kubeconfig = join(dir, 'service-account.kubeconfig')
  await writeFile(kubeconfig, stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: admin.clusters,
    users: [{ name: 'sa', user: { token } }],
    contexts: [{ name: 'sa', context: { cluster: (admin.clusters[0] as { name: string }).name, user: 'sa' } }],
    'current-context': 'sa'
  }))
  const running = await runController({ kubeconfig, readOnly: true })
  t.teardown(() => running.stop())
  await running.controller.ready()
  const registry = running.controller.client.registry
  await waitFor(() => registry.all().some(r => r.extensionConfigName === 'capi-discovered'), { message: 'registered from status' })
  t.same(registry.all().map(r => r.name), ['before-cluster-create.capi-discovered'])
  const cluster = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' } }
  const result = await running.controller.client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  t.equal(result.response.status, 'Success', 'the handler Cluster API discovered answers through our client')
  t.same(result.handlers.map(h => h.outcome), ['success'])
  t.equal(JSON.parse(await kubectl(['get', 'ext', 'capi-discovered', '-o', 'json'])).metadata.resourceVersion, discovered, 'no writes')
})

// runtime-sdk held as an operator runs it at night: what holds a Cluster, in a table or JSON, from a management
// cluster it only reads; a Cluster that does not exist or has no topology, an unreachable cluster: one line, the
// exit code. (On Cluster API itself, a Cluster held by BeforeClusterUpgrade: test/capi/lifecycle.test.ts.)
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { age } from '../../src/cli/held.js'
import { startFakeApiServer, writeKubeconfig } from '../helpers/fake-apiserver.js'
import { runCliHere } from '../helpers/run-cli.js'

const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-held-'))
const kubeconfig = (server: string) => writeKubeconfig(dir, server)
const CLUSTERS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters'
const CONFIGS = '/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs'

t.test('a held Cluster: the hook, its message, for how long, its handler', async t => {
  const server = await startFakeApiServer([CLUSTERS, CONFIGS, '/api/v1/namespaces'])
  t.teardown(() => server.close())
  const since = new Date(Date.now() - 125_000).toISOString().replace(/\.\d+Z$/, 'Z')
  server.put(CLUSTERS, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'loop', namespace: 'default' }, spec: { topology: { classRef: { name: 'loop' }, version: 'v1.35.0' } }, status: { conditions: [{ type: 'TopologyReconciled', status: 'False', reason: 'ClusterUpgrading', message: 'Cluster is upgrading to v1.35.0\n  * Following hooks are blocking upgrade: BeforeClusterUpgrade: backing up etcd\n  * KubeadmControlPlane pending upgrade to version v1.35.0', lastTransitionTime: since }] } })
  server.put(CLUSTERS, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'plain', namespace: 'default' }, spec: {} })
  server.put(CONFIGS, { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'reference' }, spec: { clientConfig: { url: 'https://127.0.0.1:1' }, namespaceSelector: {} }, status: { handlers: [{ name: 'before-cluster-upgrade.reference', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterUpgrade' }, timeoutSeconds: 10, failurePolicy: 'Fail' }], conditions: [{ type: 'Discovered', status: 'True', reason: 'Discovered', lastTransitionTime: since }] } })
  server.put('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } })
  const table = await runCliHere(['held', '--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'loop'])
  t.equal(table.code, 0, table.stderr)
  t.match(table.stdout, /^CLUSTER\s+HOOK\s+STATE\s+FOR\s+HANDLERS\s+MESSAGE\n/)
  t.match(table.stdout, /default\/loop\s+BeforeClusterUpgrade\s+blocking\s+2m\d+s\s+before-cluster-upgrade\.reference\s+backing up etcd\n/)
  t.match(table.stdout, /1 of 1 Clusters held by a hook\.\n$/)
  const json = await runCliHere(['held', '--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'loop', '-o', 'json'])
  t.match(JSON.parse(json.stdout), [{ cluster: 'default/loop', holding: [{ hook: 'BeforeClusterUpgrade', state: 'blocking', since, message: 'backing up etcd' }] }])
  t.ok(server.requests.every(r => r.method === 'GET'), 'nothing but GETs')

  const plain = await runCliHere(['held', '--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'plain'])
  t.equal(plain.code, 2)
  t.equal(plain.stderr, 'error: Cluster default/plain: spec.topology is not set: only Clusters with a managed topology are held by hooks\n')
  const missing = await runCliHere(['held', '--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'nope'])
  t.equal(missing.code, 2)
  t.equal(missing.stderr, 'error: Cluster default/nope does not exist\n')
})

t.test('an unreachable cluster and bad flags: one line, exit 1 and 2', async t => {
  const unreachable = await runCliHere(['held', '--kubeconfig', kubeconfig('http://127.0.0.1:1'), '-A'])
  t.equal(unreachable.code, 1)
  t.match(unreachable.stderr, /^error: cannot reach the API server at http:\/\/127\.0\.0\.1:1: .*\n$/)
  const usage = await runCliHere(['held', '--kubeconfig', kubeconfig('http://127.0.0.1:1')])
  t.equal(usage.code, 2)
  t.match(usage.stderr, /^error: choose the Clusters/)
})

t.test('how long: minutes, hours, days', async t => {
  const now = Date.parse('2026-11-28T12:00:00Z')
  t.equal(age('2026-11-28T11:55:48Z', now), '4m12s')
  t.equal(age('2026-11-28T09:55:00Z', now), '2h5m')
  t.equal(age('2026-11-25T08:00:00Z', now), '3d4h')
})

// runtime-sdk simulate on a management cluster refuses what it cannot do before it reads anything else or makes a
// client: --html for more than one Cluster, and a selection that matches no Cluster with a topology.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startFakeApiServer, writeKubeconfig } from '../helpers/fake-apiserver.js'
import { runCliHere } from '../helpers/run-cli.js'

const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-simulate-live-'))
const CLUSTERS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters'
const CONFIGS = '/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs'
const topologyCluster = (name: string) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name, namespace: 'default' }, spec: { topology: { classRef: { name: 'loop' }, version: 'v1.35.0' } } })

t.test('--html for two Clusters, and no Cluster with a topology: one line, before any ExtensionConfig is read', async t => {
  const server = await startFakeApiServer([CLUSTERS, CONFIGS, '/api/v1/namespaces'])
  t.teardown(() => server.close())
  const kubeconfig = writeKubeconfig(dir, server.url)

  const none = await runCliHere(['simulate', '--kubeconfig', kubeconfig, '-n', 'default'])
  t.equal(none.code, 1)
  t.equal(none.stderr, 'error: no Cluster with a managed topology matches\n')

  server.put(CLUSTERS, topologyCluster('a'))
  server.put(CLUSTERS, topologyCluster('b'))
  const html = await runCliHere(['simulate', '--kubeconfig', kubeconfig, '-n', 'default', '--html', join(dir, 'life.html')])
  t.equal(html.code, 2)
  t.equal(html.stderr, 'error: --html draws one Cluster\'s life and 2 were chosen: pick one with --namespace and --cluster\n')
  t.same(server.requests.filter(r => r.path.startsWith(CONFIGS)), [], 'no ExtensionConfig was read, no client made')
})

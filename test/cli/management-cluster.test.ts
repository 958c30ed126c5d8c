// ManagementCluster, the one way simulate, rollout-impact and held read a management cluster: what it opened (the
// connection to the API server, the runtime clients of the registered extensions) is closed when its scope ends,
// whether the command finished or a read failed half-way.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { ManagementCluster, ManagementClusterError } from '../../src/cli/management-cluster.js'
import { startFakeApiServer, writeKubeconfig } from '../helpers/fake-apiserver.js'

const CLUSTERS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters'
const CONFIGS = '/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs'

t.test('closing it closes the runtime client it made and the connection, also when a read fails after', async t => {
  const server = await startFakeApiServer([CLUSTERS, CONFIGS, '/api/v1/namespaces'])
  t.teardown(() => server.close())
  server.put(CLUSTERS, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'loop', namespace: 'default' }, spec: { topology: { classRef: { name: 'loop' }, version: 'v1.35.0' } } })
  server.put('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } })
  const kubeconfig = writeKubeconfig(mkdtempSync(join(tmpdir(), 'runtime-sdk-management-cluster-unit-')), server.url)

  let closedClients = 0
  let opened: ManagementCluster | undefined
  const failure = await (async () => {
    await using cluster = new ManagementCluster({ kubeconfig, namespace: 'default' })
    opened = cluster
    const registered = await cluster.registeredExtensions(await cluster.clusters('read'))
    const close = registered.client.close.bind(registered.client)
    registered.client.close = async () => { closedClients++; await close() }
    await cluster.api.get(`${CLUSTERS}/gone`)
  })().catch((err: unknown) => err)
  t.ok(failure instanceof ManagementClusterError, 'the failed read, worded')
  t.equal((failure as Error).message, `cannot read clusters.cluster.x-k8s.io "gone" in namespace "default" from ${server.url}: "gone" not found`)
  t.equal(closedClients, 1, 'the runtime client is closed')
  await t.rejects(opened?.api.get(CLUSTERS) ?? Promise.resolve(), /kube api: closed/, 'the connection is closed')
})

t.test('the flags are checked before anything is opened', async t => {
  t.throws(() => new ManagementCluster({ kubeconfig: '/nonexistent/kubeconfig', cluster: 'loop' }), /--cluster names a Cluster of a namespace/)
  t.throws(() => new ManagementCluster({ kubeconfig: '/nonexistent/kubeconfig', namespace: 'default', clientCertificate: 'tls.crt' }), /--client-certificate and --client-key go together/)
})

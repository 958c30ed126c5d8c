// simulate, rollout-impact and held read a management cluster one way (src/cli/management-cluster.ts): a misspelt
// --cluster, an API server that is not there and a read the user's RBAC forbids are the same one line and the same
// exit code in all three (2 for the name to fix; 1 for the server and the permission), never a stack trace.
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { describeRead } from '../../src/cli/management-cluster.js'
import { type FakeApiServer, startFakeApiServer, writeKubeconfig } from '../helpers/fake-apiserver.js'
import { type CliResult, runCliHere } from '../helpers/run-cli.js'

const V2 = fileURLToPath(new URL('../helpers/reference-extension-v2.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-management-cluster-'))
const CLUSTERS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters'
const CONFIGS = '/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs'

const kubeconfig = (server: string) => writeKubeconfig(dir, server)

/** The three commands with the same selection (rollout-impact with a candidate, which it asks for). */
const commands = (selection: string[]): Record<string, string[]> => ({
  simulate: ['simulate', ...selection],
  'rollout-impact': ['rollout-impact', ...selection, '--handlers', V2],
  held: ['held', ...selection]
})

/** Runs the three and checks each gives `code` and exactly `stderr`. */
async function sameInAll (t: Test, selection: string[], code: number, stderr: string | RegExp): Promise<CliResult[]> {
  const results: CliResult[] = []
  for (const [name, args] of Object.entries(commands(selection))) {
    const r = await runCliHere(args)
    t.equal(r.code, code, `${name}: exit ${code}`)
    if (typeof stderr === 'string') t.equal(r.stderr, stderr, `${name}: the one line`)
    else t.match(r.stderr, stderr, `${name}: the one line`)
    t.notMatch(r.stderr, /\n\s+at /, `${name}: no stack trace`)
    results.push(r)
  }
  return results
}

/** A server with one Cluster with a managed topology (default/loop) and an ExtensionConfig. */
async function managementCluster (t: Test): Promise<FakeApiServer> {
  const server = await startFakeApiServer([CLUSTERS, CONFIGS, '/api/v1/namespaces'])
  t.teardown(() => server.close())
  server.put(CLUSTERS, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'loop', namespace: 'default' }, spec: { topology: { classRef: { name: 'loop' }, version: 'v1.35.0' } } })
  server.put(CONFIGS, { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'reference' }, spec: { clientConfig: { url: 'https://127.0.0.1:1' }, namespaceSelector: {} } })
  server.put('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } })
  return server
}

t.test('a misspelt --cluster: "does not exist", exit 2, in all three; nothing but GETs', async t => {
  const server = await managementCluster(t)
  await sameInAll(t, ['--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'lopo'], 2, 'error: Cluster default/lopo does not exist\n')
  t.ok(server.requests.every(r => r.method === 'GET'), 'nothing but GETs')
  t.same(server.requests.filter(r => r.path.startsWith(CONFIGS)), [], 'no ExtensionConfig read, no client made')
})

t.test('a --cluster without spec.topology: an input error, exit 2, in all three', async t => {
  const server = await managementCluster(t)
  server.put(CLUSTERS, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'plain', namespace: 'default' }, spec: {} })
  await sameInAll(t, ['--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'plain'], 2, /^error: Cluster default\/plain: spec\.topology is not set: only Clusters with a managed topology are (simulated|computed|held by hooks)\n$/)
})

t.test('a --cluster whose ClusterClass is gone: an input error in simulate and rollout-impact, which read it (held does not)', async t => {
  const server = await managementCluster(t)
  const flags = ['--kubeconfig', kubeconfig(server.url), '-n', 'default', '--cluster', 'loop']
  const { held, ...reading } = commands(flags)
  for (const [name, args] of Object.entries(reading)) {
    const r = await runCliHere(args)
    t.equal(r.code, 2, `${name}: exit 2`)
    t.equal(r.stderr, 'error: Cluster default/loop: spec.topology.classRef names ClusterClass default/loop, which does not exist\n', `${name}: the one line`)
  }
  const r = await runCliHere(held ?? [])
  t.equal(r.code, 0, r.stderr)
})

t.test('an API server that is not there (a closed port): the same line, exit 1, in all three', async t => {
  const closed = await new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(err => err ? reject(err) : resolve(port))
    })
  })
  const server = `http://127.0.0.1:${closed}`
  const [first, ...others] = await sameInAll(t, ['--kubeconfig', kubeconfig(server), '-n', 'default', '--cluster', 'loop'], 1,
    new RegExp(`^error: cannot reach the API server at ${server.replace(/\./g, '\\.')}: .*ECONNREFUSED.*: check --kubeconfig and --context\\n$`))
  for (const other of others) t.equal(other.stderr, first?.stderr, 'word for word')
})

// Worded as kube-apiserver words a refusal of its authorizer: k8s.io/apiserver's forbiddenMessage inside
// apimachinery's NewForbidden (`<resource>.<group> is forbidden: User "<user>" cannot <verb> resource ...`).
const forbidden = (verb: string, resource: string, group: string, scope: string) =>
  ({ code: 403, reason: 'Forbidden', message: `${resource}.${group} is forbidden: User "reader" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}` })

t.test('a read RBAC forbids: what, from which server, the API server\'s reason and the ClusterRole to bind, exit 1, in all three', async t => {
  const server = await managementCluster(t)
  const flags = ['--kubeconfig', kubeconfig(server.url), '-n', 'default']
  const hint = ': bind the user to the runtime-sdk-cluster-reader ClusterRole (deploy/rbac/cluster-reader-role.yaml)\n'

  server.intercept = req => req.path === CLUSTERS ? forbidden('list', 'clusters', 'cluster.x-k8s.io', 'in the namespace "default"') : undefined
  await sameInAll(t, flags, 1, `error: cannot read clusters.cluster.x-k8s.io in namespace "default" from ${server.url}: forbidden: User "reader" cannot list resource "clusters" in API group "cluster.x-k8s.io" in the namespace "default"${hint}`)

  server.intercept = req => req.path === CONFIGS ? forbidden('list', 'extensionconfigs', 'runtime.cluster.x-k8s.io', 'at the cluster scope') : undefined
  await sameInAll(t, flags, 1, `error: cannot read extensionconfigs.runtime.cluster.x-k8s.io from ${server.url}: forbidden: User "reader" cannot list resource "extensionconfigs" in API group "runtime.cluster.x-k8s.io" at the cluster scope${hint}`)
  t.ok(server.requests.every(r => r.method === 'GET'), 'nothing but GETs')
})

t.test('what a request path reads, as kubectl names it', async t => {
  t.equal(describeRead('/apis/cluster.x-k8s.io/v1beta2/namespaces/team-a/clusters?labelSelector=env%3Dprod'), 'clusters.cluster.x-k8s.io in namespace "team-a"')
  t.equal(describeRead('/apis/cluster.x-k8s.io/v1beta2/namespaces/team-a/clusters/loop'), 'clusters.cluster.x-k8s.io "loop" in namespace "team-a"')
  t.equal(describeRead('/apis/cluster.x-k8s.io/v1beta2/clusters'), 'clusters.cluster.x-k8s.io')
  t.equal(describeRead('/api/v1/namespaces/team-a'), 'namespaces "team-a"')
  t.equal(describeRead('/apis/controlplane.cluster.x-k8s.io/v1beta2'), 'the API discovery of controlplane.cluster.x-k8s.io/v1beta2')
})

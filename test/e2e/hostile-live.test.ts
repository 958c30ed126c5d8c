// Hostile ClusterClasses on a live management cluster (a real kube-apiserver with Cluster API's CRDs), beside an
// ordinary Cluster: `runtime-sdk rollout-impact -A` as a user runs it reads them all, answers the backtracking
// regexMatch as Go does (false) and refuses the alias bomb with Go's message, each for its own Cluster, at once
// (the time is printed), and still reports the ordinary Cluster. (The same through an in-memory API server, and held and the
// budget's cut: test/impact/live.test.ts, test/diagnose/held.test.ts.)
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import type { RolloutImpactReport } from '../../src/impact/live.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { InProcessRuntimeClient, type Unstructured, simulate } from '../../src/simulate/index.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { hostileObjects } from '../helpers/hostile.js'
import { inNamespace, liveObjects } from '../helpers/memory-cluster.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { runCli } from '../helpers/run-cli.js'

t.setTimeout(600_000)
const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const V2 = fileURLToPath(new URL('../helpers/reference-extension-v2.ts', import.meta.url))

const cp = await startControlPlane()
t.teardown(() => cp.stop())
// Cluster API's CRDs only: the objects are written as its controllers left them, and no manager changes them.
await startClusterApi(cp, { providers: [] })
const served = await serveReferenceExtension(join(await mkdtemp(join(tmpdir(), 'runtime-sdk-hostile-live-')), 'certs'))
t.teardown(() => { served.child.kill('SIGKILL') })

const kubectl = async (args: string[], input?: string): Promise<string> => {
  const r = await cp.kubectl(args, { ...(input !== undefined ? { input } : {}), timeoutMs: 120_000 })
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}

const client = () => new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlers() }), 'reference')

/** The objects of a Cluster that Cluster API created, whose ClusterClass was then replaced (Clusters outlive it). */
async function created (objects: Unstructured[], replacedClass?: Unstructured): Promise<Unstructured[]> {
  const result = await simulate({ client: client(), objects, delete: false, checkDeterminism: false })
  // Machines are left out: the Cluster's objects are what rollout-impact compares.
  return liveObjects(objects, result).filter(o => o.kind !== 'Machine').map(o => o.kind === 'ClusterClass' && replacedClass ? replacedClass : o)
}

/** Writes the objects, then their status through the status subresource, as Cluster API's controllers do. */
async function write (objects: Unstructured[]): Promise<void> {
  for (const namespace of new Set(objects.map(o => o.metadata?.namespace).filter(Boolean))) await kubectl(['create', 'namespace', namespace as string])
  const bare = objects.map(({ status: _status, ...o }) => ({ ...o, metadata: { name: o.metadata?.name, namespace: o.metadata?.namespace, labels: o.metadata?.labels, annotations: o.metadata?.annotations } }))
  await kubectl(['apply', '--server-side', '-f', '-'], bare.map(o => JSON.stringify(o)).join('\n'))
  for (const o of objects) {
    if (o['status'] === undefined) continue
    await kubectl(['patch', `${o.kind}.${(o.apiVersion ?? '').split('/')[0] ?? ''}`, o.metadata?.name ?? '', ...(o.metadata?.namespace ? ['-n', o.metadata.namespace] : []), '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: o['status'] })])
  }
}

const example = [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)] as Unstructured[]
const hostile = async (namespace: string, patch: 'regex' | 'alias') => await created(hostileObjects(namespace, 'hostile', []), hostileObjects(namespace, 'hostile', [patch]).find(o => o.kind === 'ClusterClass'))
const extensionConfig = {
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: 'reference' },
  spec: { clientConfig: { url: served.url, caBundle: served.caBundle }, namespaceSelector: {} },
  status: (await client().discover({ metadata: { name: 'reference' }, spec: { clientConfig: {} } } as never)).status
} as unknown as Unstructured
await write([extensionConfig, ...inNamespace(await created(example), 'ordinary'), ...await hostile('regex', 'regex'), ...await hostile('alias', 'alias')])

t.test('rollout-impact -A: the hostile classes answered as Go answers them, each for its own Cluster, the ordinary one reported', async t => {
  const start = performance.now()
  const r = await runCli(['rollout-impact', '-A', '--kubeconfig', cp.kubeconfigPath, '--handlers', V2, '-o', 'json'], { timeoutMs: 120_000 })
  const ms = performance.now() - start
  t.equal(r.code, 1, 'exit 1: one Cluster could not be computed')
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace')
  const report = JSON.parse(r.stdout) as RolloutImpactReport
  const byCluster = Object.fromEntries(report.clusters.map(c => [c.cluster, 'error' in c ? c.error : Object.fromEntries(c.objects.map(o => [o.role, o.effect]))]))
  t.match(byCluster, {
    'alias/hostile': /yaml: document contains excessive aliasing$/,
    'ordinary/loop': { infrastructureCluster: 'none', controlPlane: 'none', 'machineDeployment md-0': 'rollout' },
    'regex/hostile': { infrastructureCluster: 'none', controlPlane: 'none', 'machineDeployment md-0': 'none' }
  })
  t.equal(report.clusters.length, 3)
  t.match(r.stderr, /^error: the impact on 1 of 3 Clusters could not be computed: alias\/hostile: .*excessive aliasing\n$/)
  t.comment(`3 Clusters read and computed in ${Math.round(ms)} ms, the process's start included`)
})

// rollout-impact's predictions held to what Cluster API v1.14.2 does, on second versions nobody chose: the corpus of
// test/helpers/second-versions.ts (one generated change per Cluster: declared fields added, removed, replaced,
// undeclared fields, wrong types, reorders, metadata, defaults, KubeadmControlPlane paths ignored or updated in
// place, on every template of examples/simulate's class and of Cluster API's quick-start-runtimesdk class).
//
// Cluster API's managers create every Cluster against the reference extension; then, as the reader, `rollout-impact`
// predicts per Cluster and object what the corpus version would do (none, in-place, rollout, refused); then the
// ExtensionConfig points at the corpus version and Cluster API does it: new MachineSets, control plane Machines
// replaced or changed in place, TopologyReconciled False with the API server's refusal. Predicted = observed for
// every Cluster and object, the refusal's message included; `simulate` on the same live Clusters halts exactly where
// Cluster API halts. What the reader read and what Cluster API did are written to
// test/fixtures/second-versions/recorded.json.gz when RUNTIME_SDK_RECORD_CAPI=1: test/impact/second-versions.test.ts
// replays the comparison without a cluster.
import { mkdirSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { registeredExtensions } from '../../src/client/registered-extensions.js'
import { isFailure, rolloutImpact } from '../../src/impact/live.js'
import { readRecording } from '../../src/impact/recording.js'
import { KubeApi } from '../../src/kube/index.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { InProcessRuntimeClient, listClusters, readLiveCluster, simulate } from '../../src/simulate/index.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { clusterApiClass, type Obj } from '../helpers/capi-classes.js'
import { conditionOf, kubectlOf } from '../helpers/capi-kubectl.js'
import { recordingReader } from '../helpers/recorded-reads.js'
import { extensionServers, type ServedExtension } from '../helpers/reference-extension-process.js'
import { secondVersionChanges, secondVersionHandlers } from '../helpers/second-versions.js'
import { type MachinesSnapshot, type Observed, observedEffects, type SecondVersionsRecording } from '../helpers/second-versions-observed.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(1_800_000)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(ROOT, 'examples/simulate')
const CORPUS = join(ROOT, 'test/helpers/second-versions.ts')
const EC = 'reference'
const LONG = { timeoutMs: 900_000, intervalMs: 2000 }
const LOOP_NAMESPACE = 'sv-loop'
const QUICK_START_NAMESPACE = 'sv-quick-start'

const cp = await startControlPlane({ users: [{ name: 'reader' }] })
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { log: (m) => t.comment(m) })
t.teardown(() => capi.stop())
const { kubectl, get, list } = kubectlOf(cp, 600_000)
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-second-versions-'))
const { serve, stop } = extensionServers(dir)
t.teardown(stop)

const pointAt = async (served: ServedExtension) => {
  await kubectl(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: EC },
    spec: { clientConfig: { url: served.url, caBundle: served.caBundle }, namespaceSelector: {} }
  }))
  await waitFor(async () => {
    const ec = await get('extensionconfigs.runtime.cluster.x-k8s.io', EC)
    const discovered = conditionOf(ec, 'Discovered')
    return discovered?.status === 'True' && discovered.observedGeneration === (ec.metadata as { generation?: number }).generation
  }, { ...LONG, message: `Discovered ${served.url}` })
}

/**
 * Cluster API's quick-start-runtimesdk class on CAPD's in-memory backend only: its DevClusterTemplate's docker backend
 * would give every DevCluster the port 6443, and the in-memory backend serves each Cluster on a port of its own (its
 * patches are the extension's, so none of them is lost).
 */
function quickStartClass (): Obj[] {
  return clusterApiClass('e2e/data/infrastructure-docker/main/clusterclass-quick-start-runtimesdk.yaml', QUICK_START_NAMESPACE, { variables: { EXTENSION_CONFIG_NAME: EC } }).map(o => {
    if (o.kind !== 'DevClusterTemplate') return o
    const copy = structuredClone(o)
    delete copy['spec'].template.spec.backend.docker
    return copy
  })
}

const changes = secondVersionChanges()
const key = (c: { namespace: string, name: string }) => `${c.namespace}/${c.name}`
// The Clusters of each class share a namespace and the class.
const CLUSTERS = changes.map(c => ({ change: c, name: c.cluster, namespace: c.clusterClass === 'loop' ? LOOP_NAMESPACE : QUICK_START_NAMESPACE }))
const [exampleCluster] = await readDocuments(join(EXAMPLE, 'cluster.yaml')) as [Obj]
const inNamespace = (o: Obj, namespace: string): Obj => ({ ...o, metadata: { ...o.metadata, namespace } })
const exampleClass = [...await readDocuments(join(EXAMPLE, 'clusterclass.yaml')), ...await readDocuments(join(EXAMPLE, 'templates.yaml'))].map(o => inNamespace(o as Obj, LOOP_NAMESPACE))
const clusterObject = (c: typeof CLUSTERS[number]): Obj => c.change.clusterClass === 'loop'
  ? { ...inNamespace(exampleCluster, c.namespace), metadata: { name: c.name, namespace: c.namespace } }
  : {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: c.name, namespace: c.namespace },
      spec: {
        clusterNetwork: { services: { cidrBlocks: ['10.128.0.0/12'] }, pods: { cidrBlocks: ['192.168.0.0/16'] }, serviceDomain: 'cluster.local' },
        topology: { classRef: { name: 'quick-start-runtimesdk' }, version: 'v1.34.0', controlPlane: { replicas: 1 }, workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] }, variables: [{ name: 'referenceAnnotation', value: 'from-the-cluster' }] }
      }
    } as Obj

const start = Date.now()
const seconds = () => Math.round((Date.now() - start) / 1000)
await pointAt(await serve('v1'))
// Read-only: the role deploy/ ships, bound to a user of its own.
await kubectl(['apply', '-f', join(ROOT, 'deploy/rbac/cluster-reader-role.yaml')])
await kubectl(['create', 'clusterrolebinding', 'reader', '--clusterrole=runtime-sdk-cluster-reader', '--user=reader'])
const reader = new KubeApi({ kubeconfig: cp.kubeconfigPath, context: 'reader' })
t.teardown(() => reader.close())
const recorded = recordingReader(reader)
const candidate = () => new InProcessRuntimeClient(createInProcessExtension({ handlers: secondVersionHandlers() }), EC)

await t.test(`Cluster API creates ${CLUSTERS.length} Clusters with the reference extension`, async t => {
  const loop = CLUSTERS.filter(c => c.namespace === LOOP_NAMESPACE)
  const quickStart = CLUSTERS.filter(c => c.namespace !== LOOP_NAMESPACE)
  await kubectl(['create', 'namespace', LOOP_NAMESPACE])
  await kubectl(['create', 'namespace', QUICK_START_NAMESPACE])
  await kubectl(['apply', '-f', '-'], [...exampleClass, ...quickStartClass()].map(o => JSON.stringify(o)).join('\n'))
  for (const [namespace, name] of [[LOOP_NAMESPACE, 'loop'], [QUICK_START_NAMESPACE, 'quick-start-runtimesdk']] as const) {
    await waitFor(async () => conditionOf(await get('clusterclass', name, namespace), 'VariablesReady')?.status === 'True', { ...LONG, message: `${namespace}/${name}: VariablesReady` })
  }
  await kubectl(['apply', '-f', '-'], loop.map(c => JSON.stringify(clusterObject(c))).join('\n'))
  await kubectl(['apply', '-f', '-'], quickStart.map(c => JSON.stringify(clusterObject(c))).join('\n'))
  await waitFor(async () => {
    const machines = await list('machines')
    return CLUSTERS.every(c => machines.filter(m => m.metadata.namespace === c.namespace && m.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === c.name && m['status']?.phase === 'Running').length === 2)
  }, { ...LONG, message: 'every Cluster has its two Machines running' })
  await waitFor(async () => (await list('clusters')).every(c => conditionOf(c, 'TopologyReconciled')?.status === 'True'), { ...LONG, message: 'every Cluster\'s topology reconciled' })
  t.comment(`${CLUSTERS.length} Clusters running after ${seconds()} s`)
  t.pass('created')
})

/** Each Cluster's MachineSets and control plane Machines, with what KCP updates in place. */
async function snapshot (): Promise<Record<string, MachinesSnapshot>> {
  const [machineSets, machines] = [await list('machinesets'), await list('machines')]
  const ofCluster = (o: Obj, c: { namespace: string, name: string }) => o.metadata.namespace === c.namespace && o.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === c.name
  return Object.fromEntries(CLUSTERS.map(c => [key(c), {
    machineSets: machineSets.filter(m => ofCluster(m, c)).map(m => m.metadata.name).sort(),
    controlPlane: Object.fromEntries(machines.filter(m => ofCluster(m, c) && m.metadata['labels' as never]?.['cluster.x-k8s.io/control-plane'] !== undefined)
      .map(m => [m.metadata.name, { deletion: m['spec']?.deletion, taints: m['spec']?.taints, labels: m.metadata['labels' as never] }]))
  }]))
}

const predicted: Record<string, Record<string, string>> = {}
const predictedCondition: Record<string, string | undefined> = {}
const simulatedHalt: Record<string, string | undefined> = {}
await t.test('rollout-impact predicts, as the reader, what the corpus version does to each Cluster', async t => {
  const { client: registered } = await registeredExtensions(recorded.api, [...new Set(CLUSTERS.map(c => c.namespace))])
  t.teardown(() => registered.close())
  const report = await rolloutImpact({ api: recorded.api, selection: {}, name: EC, registered, candidate: candidate() })
  for (const c of report.clusters) {
    if (isFailure(c)) {
      t.fail(`${c.cluster}: ${c.error}`)
      continue
    }
    predicted[c.cluster] = Object.fromEntries(c.objects.map(o => [o.role, o.effect]))
    predictedCondition[c.cluster] = c.topologyReconciled?.message
  }
  t.equal(Object.keys(predicted).length, CLUSTERS.length, 'every Cluster predicted')
  t.comment(`summary: ${JSON.stringify(report.summary)}`)
  // simulate from where each Cluster stands, with the corpus version: where does its life halt?
  for (const cluster of await listClusters(recorded.api, {})) {
    try {
      const live = await readLiveCluster(recorded.api, cluster)
      const result = await simulate({ client: candidate(), objects: live.objects, current: live.state, delete: false, checkDeterminism: false })
      simulatedHalt[key(cluster.metadata)] = result.topologyReconciled?.message
    } catch (err) {
      t.fail(`simulate ${key(cluster.metadata)}: ${(err as Error).message}`)
    }
  }
})

const observed: Record<string, Observed> = {}
await t.test('pointed at the corpus version, Cluster API does what was predicted, Cluster by Cluster and object by object', async t => {
  const before = await snapshot()
  const recording = join(dir, 'corpus.recording.jsonl')
  await pointAt(await serve('corpus', { handlers: CORPUS, args: ['--record', recording] }))
  // Cluster API calls the new version on each Cluster's next reconcile: an annotation brings it now, as an operator would.
  for (const c of CLUSTERS) await kubectl(['annotate', 'cluster', c.name, '-n', c.namespace, '--overwrite', 'example.com/second-version=corpus'])
  const called = async () => new Set((await readRecording(recording).catch(() => [])).filter(r => r.hook === 'GeneratePatches').map(r => (r.request as any).variables?.find((v: any) => v.name === 'builtin')?.value?.cluster?.name as string))
  await waitFor(async () => (await called()).size >= CLUSTERS.length, { ...LONG, message: 'the corpus version called for every Cluster' })
  // What a reconcile starts shows within seconds (a rotated template's new MachineSet, KCP's new Machine); a minute more lets it.
  await new Promise(resolve => setTimeout(resolve, 60_000))
  const after = await snapshot()
  const clusters = await list('clusters')
  for (const c of CLUSTERS) {
    const condition = conditionOf(clusters.find(o => o.metadata.namespace === c.namespace && o.metadata.name === c.name) as Obj, 'TopologyReconciled')
    // A reconcile that failed (not one waiting for the control plane, say) is what a refusal leaves.
    const failed = condition?.status === 'False' && condition.reason === 'ReconcileFailed' ? { status: condition.status, reason: condition.reason, message: condition.message ?? '' } : undefined
    observed[key(c)] = observedEffects(before[key(c)] as MachinesSnapshot, after[key(c)] as MachinesSnapshot, failed)
    t.same(predicted[key(c)], observed[key(c)]?.effects, `${key(c)} (${c.change.role} ${c.change.kind}): predicted = observed`)
    t.equal(predictedCondition[key(c)], observed[key(c)]?.condition?.message, `${key(c)}: the same TopologyReconciled message`)
  }
  const refused = Object.values(observed).filter(o => Object.values(o.effects).includes('refused')).length
  t.ok(refused >= 5, `${refused} of ${CLUSTERS.length} Clusters refused by Cluster API (at least 5)`)
  t.comment(`observed after ${seconds()} s: ${JSON.stringify(countEffects(observed))}`)
})

function countEffects (all: Record<string, Observed>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const o of Object.values(all)) for (const e of Object.values(o.effects)) counts[e] = (counts[e] ?? 0) + 1
  return counts
}

await t.test('simulate on the live Clusters with the corpus version halts where Cluster API halts, and only there', async t => {
  for (const c of CLUSTERS) t.equal(simulatedHalt[key(c)], observed[key(c)]?.condition?.message, `${key(c)}: ${simulatedHalt[key(c)] === undefined ? 'goes through' : 'halts'}`)
})

if (process.env['RUNTIME_SDK_RECORD_CAPI'] === '1') {
  const recording: SecondVersionsRecording = { clusterApi: 'v1.14.2', changes, reads: recorded.reads, observed }
  mkdirSync(join(ROOT, 'test/fixtures/second-versions'), { recursive: true })
  writeFileSync(join(ROOT, 'test/fixtures/second-versions/recorded.json.gz'), gzipSync(JSON.stringify(recording) + '\n', { level: 9 }))
}

// Rollout impact and live simulate proven against Cluster API v1.14.2 itself. Its managers run three Clusters of two
// ClusterClasses (examples/simulate's, whose MachineDeployments the reference extension patches, twice; Cluster API's
// own quick-start, inline patches with Go templates only, once) against the reference extension, which records its
// traffic (`serve --record`). Then, with nothing but the runtime-sdk-cluster-reader role:
// - `simulate` reads each live Cluster and makes the topology calls Cluster API makes for it;
// - `rollout-impact` predicts what three second versions of the reference extension would do
//   (test/helpers/reference-extension-v2.ts): a label on the MachineDeployments' templates rolls out nothing, a
//   preKubeadmCommands entry rolls out the MachineDeployments of examples/simulate's Clusters and nothing else, the
//   same taken by CanUpdateMachineSet is reported in place;
// - the ExtensionConfig is pointed at the label version, then at the command version, and Cluster API does what was
//   predicted: new MachineSets exactly where predicted, the same control plane Machines everywhere;
// - the recorded traffic replays against version 1 with no difference, and against the command version with the
//   GeneratePatches answers for examples/simulate's Clusters named, and nothing else.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { KubeApi } from '../../src/kube/index.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { readRecording } from '../../src/impact/recording.js'
import type { RolloutImpactReport } from '../../src/impact/live.js'
import type { ReplayReport } from '../../src/impact/replay.js'
import { listClusters, readLiveCluster, simulate } from '../../src/simulate/index.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { clusterApiClass, inMemoryEndpointPorts, type Obj } from '../helpers/capi-classes.js'
import { type LoggedRequest, recordingHandlers } from '../helpers/recording-extension.js'
import { extensionServers, type ServedExtension } from '../helpers/reference-extension-process.js'
import { runCliHere } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(2_400_000)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(ROOT, 'examples/simulate')
const V2 = join(ROOT, 'test/helpers/reference-extension-v2.ts')
const EC = 'reference'
const LONG = { timeoutMs: 420_000, intervalMs: 1000 }

const cp = await startControlPlane({ users: [{ name: 'reader' }] })
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { log: (m) => t.comment(m) })
t.teardown(() => capi.stop())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-impact-'))
const recording = join(dir, 'v1.recording.jsonl')
const { serve, stop } = extensionServers(dir)
t.teardown(stop)
const v1 = await serve('v1', { args: ['--record', recording] })

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input, timeoutMs: 120_000 } : { timeoutMs: 120_000 })
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
const get = async (kind: string, name: string, namespace = 'default') => JSON.parse(await kubectl(['get', kind, name, '-n', namespace, '-o', 'json'])) as Obj
const list = async (kind: string, namespace?: string) => (JSON.parse(await kubectl(['get', kind, ...(namespace ? ['-n', namespace] : ['-A']), '-o', 'json'])) as { items: Obj[] }).items
const condition = (o: Obj, type: string) => (o['status']?.conditions as Array<{ type: string, status: string, observedGeneration?: number }> | undefined)?.find(c => c.type === type)
const pointAt = async (served: ServedExtension) => {
  await kubectl(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: EC },
    spec: { clientConfig: { url: served.url, caBundle: served.caBundle }, namespaceSelector: {} }
  }))
  await waitFor(async () => {
    const ec = await get('extensionconfigs.runtime.cluster.x-k8s.io', EC)
    const discovered = condition(ec, 'Discovered')
    return discovered?.status === 'True' && discovered.observedGeneration === ec.metadata['generation' as never]
  }, { ...LONG, message: `Discovered ${served.url}` })
  // Cluster API calls the new version on each Cluster's next reconcile (its sync period is 10 minutes): an annotation
  // brings that reconcile now, as an operator would.
  if (served === v1) return
  for (const c of CLUSTERS) await kubectl(['annotate', 'cluster', c.name, '-n', c.namespace, '--overwrite', `example.com/extension-url=${served.url}`])
}

// Two classes: examples/simulate's in team-a (two Clusters), Cluster API's quick-start in team-b (one).
interface ClusterCase { namespace: string, name: string, object: Obj }
const [exampleCluster] = await readDocuments(join(EXAMPLE, 'cluster.yaml')) as [Obj]
const inNamespace = (o: Obj, namespace: string): Obj => ({ ...o, metadata: { ...o.metadata, namespace } })
const exampleClass = [...await readDocuments(join(EXAMPLE, 'clusterclass.yaml')), ...await readDocuments(join(EXAMPLE, 'templates.yaml'))].map(o => inNamespace(o as Obj, 'team-a'))
const [endpointPort] = await inMemoryEndpointPorts(1)
const quickStart = clusterApiClass('e2e/data/infrastructure-docker/main/clusterclass-quick-start.yaml', 'team-b', { variables: { EXTENSION_CONFIG_NAME: EC, DOCKER_PRELOAD_IMAGES: '[]' }, ...(endpointPort ? { endpointPort } : {}) })
const CLUSTERS: ClusterCase[] = [
  ...['a-1', 'a-2'].map(name => ({ namespace: 'team-a', name, object: { ...inNamespace(exampleCluster, 'team-a'), metadata: { name, namespace: 'team-a' } } })),
  {
    namespace: 'team-b',
    name: 'b-1',
    object: {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: 'b-1', namespace: 'team-b' },
      spec: {
        clusterNetwork: { services: { cidrBlocks: ['10.128.0.0/12'] }, pods: { cidrBlocks: ['192.168.0.0/16'] }, serviceDomain: 'cluster.local' },
        topology: {
          classRef: { name: 'quick-start' },
          version: 'v1.34.0',
          controlPlane: { replicas: 1 },
          workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] },
          variables: [{ name: 'etcdImageTag', value: '3.6.4-0' }, { name: 'kubeControlPlaneLogLevel', value: '4' }]
        }
      }
    } as Obj
  }
]
const key = (c: { namespace: string, name: string }) => `${c.namespace}/${c.name}`

await pointAt(v1)
for (const ns of ['team-a', 'team-b']) await kubectl(['create', 'namespace', ns])
await kubectl(['apply', '-f', '-'], [...exampleClass, ...quickStart].map(o => JSON.stringify(o)).join('\n'))
for (const [ns, name] of [['team-a', 'loop'], ['team-b', 'quick-start']] as const) {
  await waitFor(async () => condition(await get('clusterclass', name, ns), 'VariablesReady')?.status === 'True', { ...LONG, message: `${ns}/${name}: VariablesReady` })
}
await kubectl(['apply', '-f', '-'], CLUSTERS.map(c => JSON.stringify(c.object)).join('\n'))
const machinesOf = async (c: ClusterCase) => (await list('machines', c.namespace)).filter(m => m.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === c.name)
await Promise.all(CLUSTERS.map(async c => await waitFor(async () => (await machinesOf(c)).filter(m => m['status']?.phase === 'Running').length === 2, { ...LONG, message: `${key(c)}: both machines running` })))

// Read-only: the role deploy/ ships, bound to a user of its own.
await kubectl(['apply', '-f', join(ROOT, 'deploy/rbac/cluster-reader-role.yaml')])
await kubectl(['create', 'clusterrolebinding', 'reader', '--clusterrole=runtime-sdk-cluster-reader', '--user=reader'])
const asReader = ['--kubeconfig', cp.kubeconfigPath, '--context', 'reader']

// What differs per run: uids, resourceVersions, timestamps, generated names' random suffix.
const RANDOM_SUFFIX = /^(.+-)[bcdfghjklmnpqrstvwxz2456789]{5}$/
function normalise (value: unknown, k = ''): unknown {
  if (['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'managedFields'].includes(k)) return `<${k}>`
  if (Array.isArray(value)) return value.map(v => normalise(v))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a < b ? -1 : 1).map(([kk, v]) => [kk, normalise(v, kk)]))
  return typeof value === 'string' ? value.replace(RANDOM_SUFFIX, '$1<random>') : value
}

/** The Cluster a topology request is about (its builtin variable). */
function clusterOf (request: Record<string, unknown>): string | undefined {
  const cluster = (request['variables'] as Array<{ name: string, value: any }> | undefined)?.find(v => v.name === 'builtin')?.value?.cluster
  return cluster ? `${cluster.namespace}/${cluster.name}` : undefined
}

/** What Cluster API asked the extension, as recorded: (hook, request) per call. */
const recorded = async (file: string) => (await readRecording(file)).map(c => ({ hook: c.hook, name: c.handler, request: c.request as Record<string, unknown> }))
const capiTraffic = join(dir, 'capi.recording.jsonl')

await t.test('the reader can read and cannot write', async t => {
  const can = async (verb: string, resource: string) => (await cp.kubectl(['auth', 'can-i', verb, resource, '-A', ...asReader.slice(2)])).stdout.trim()
  t.equal(await can('list', 'clusters.cluster.x-k8s.io'), 'yes')
  t.equal(await can('get', 'kubeadmconfigtemplates.bootstrap.cluster.x-k8s.io'), 'yes')
  for (const verb of ['create', 'update', 'patch', 'delete']) t.equal(await can(verb, 'clusters.cluster.x-k8s.io'), 'no', `${verb} clusters: no`)
  t.equal(await can('patch', 'machinedeployments.cluster.x-k8s.io'), 'no')
})

await t.test('simulate on the live Clusters, read-only, makes the topology calls Cluster API makes', async t => {
  // Settled: each Cluster of examples/simulate's class had GeneratePatches called after AfterControlPlaneInitialized.
  await waitFor(async () => {
    const calls = await recorded(recording)
    return CLUSTERS.slice(0, 2).every(c => {
      const initialized = calls.findIndex(l => l.hook === 'AfterControlPlaneInitialized' && (l.request['cluster'] as Obj | undefined)?.metadata.name === c.name)
      return initialized >= 0 && calls.slice(initialized).some(l => l.hook === 'GeneratePatches' && clusterOf(l.request) === key(c))
    })
  }, { ...LONG, message: 'GeneratePatches after AfterControlPlaneInitialized' })
  copyFileSync(recording, capiTraffic)
  const theirs = await recorded(capiTraffic)
  const api = new KubeApi({ kubeconfig: cp.kubeconfigPath, context: 'reader' })
  t.teardown(() => api.close())
  const clusters = await listClusters(api, {})
  t.same(clusters.map(c => `${c.metadata.namespace}/${c.metadata.name}`), CLUSTERS.map(key), 'every Cluster, in namespace and name order')
  for (const cluster of clusters) {
    const live = await readLiveCluster(api, cluster)
    const log = join(dir, `simulated-${cluster.metadata.name}.jsonl`)
    writeFileSync(log, '')
    const result = await simulate({ handlers: recordingHandlers(log), extensionName: EC, objects: live.objects, current: live.state, delete: false, checkDeterminism: false })
    t.equal(result.outcome, 'completed', result.error ?? `${cluster.metadata.name}: completed`)
    const ours = readFileSync(log, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as LoggedRequest)
    const topology = (l: { hook: string }) => ['GeneratePatches', 'ValidateTopology'].includes(l.hook)
    const ofCluster = (l: { request: Record<string, unknown> }) => clusterOf(l.request) === `${cluster.metadata.namespace}/${cluster.metadata.name}`
    const capiRequests = new Set(theirs.filter(topology).filter(ofCluster).map(l => `${l.hook} ${JSON.stringify(normalise(l.request))}`))
    const ourRequests = [...new Set(ours.filter(topology).map(l => `${l.hook} ${JSON.stringify(normalise(l.request))}`))]
    if (cluster.metadata.namespace === 'team-b') {
      t.same(ourRequests, [], 'b-1: its class has inline patches only: no topology hook is called')
      continue
    }
    t.ok(ourRequests.length >= 2, `${cluster.metadata.name}: GeneratePatches and ValidateTopology called`)
    for (const request of ourRequests) t.ok(capiRequests.has(request), `${cluster.metadata.name}: Cluster API sent the same ${request.slice(0, request.indexOf(' '))} request`)
  }
  // The command itself, against the extensions the ExtensionConfigs register, as the reader.
  const cli = await runCliHere(['simulate', ...asReader, '-A'])
  t.equal(cli.code, 0, cli.stderr)
  for (const c of CLUSTERS) t.match(cli.stdout, `Cluster ${key(c)}:`)
  t.match(cli.stdout, /The cluster went on from where it stands/)
})

/** A module serving one second version (its default export), for --handlers. */
const variant = (change: string) => {
  const file = join(ROOT, 'test/helpers', `.impact-v2-${change}.tmp.ts`)
  writeFileSync(file, `import { referenceHandlersV2 } from './reference-extension-v2.js'\nexport default referenceHandlersV2('${change}')\n`)
  t.teardown(() => { rmSync(file, { force: true }) })
  return file
}

const effects = (report: RolloutImpactReport) => Object.fromEntries(report.clusters.map(c => [c.cluster, 'error' in c ? `error: ${c.error}` : Object.fromEntries(c.objects.map(o => [o.role, o.effect]))]))

await t.test('rollout-impact predicts what each second version would do, as the reader', async t => {
  const impact = async (change: string, ...more: string[]) => await runCliHere(['rollout-impact', ...asReader, '-A', '--handlers', variant(change), '-o', 'json', ...more])
  const label = await impact('label')
  t.equal(label.code, 0, label.stderr)
  const noChange = { infrastructureCluster: 'none', controlPlane: 'none', 'machineDeployment md-0': 'none' }
  t.same(effects(JSON.parse(label.stdout) as RolloutImpactReport), { 'team-a/a-1': noChange, 'team-a/a-2': noChange, 'team-b/b-1': noChange }, 'a label rolls nothing out')
  const command = await impact('command', '--fail-on-rollout')
  t.equal(command.code, 1, 'exit 1 with --fail-on-rollout')
  const report = JSON.parse(command.stdout) as RolloutImpactReport
  const rollout = { ...noChange, 'machineDeployment md-0': 'rollout' }
  t.same(effects(report), { 'team-a/a-1': rollout, 'team-a/a-2': rollout, 'team-b/b-1': noChange }, 'the MachineDeployments of examples/simulate\'s Clusters roll out, nothing else')
  t.match(report.summary, { clusters: 3, rollingOut: 2, unchanged: 1, failed: 0, machines: 2 })
  const md = report.clusters.flatMap(c => 'error' in c ? [] : c.objects).find(o => o.role === 'machineDeployment md-0' && o.effect === 'rollout')
  t.match(md?.changes, [{ path: '/spec/template/spec/preKubeadmCommands/1', after: 'echo v2', effect: 'rollout' }], 'why: the command added to the bootstrap template')
  const inPlace = await impact('in-place')
  t.equal(inPlace.code, 0, inPlace.stderr)
  t.same(effects(JSON.parse(inPlace.stdout) as RolloutImpactReport), { 'team-a/a-1': { ...noChange, 'machineDeployment md-0': 'in-place' }, 'team-a/a-2': { ...noChange, 'machineDeployment md-0': 'in-place' }, 'team-b/b-1': noChange }, 'CanUpdateMachineSet takes it in place')
})

/** Each MachineDeployment's MachineSets and each Cluster's control plane Machines, by Cluster. */
const snapshot = async () => {
  const machineSets = await list('machinesets')
  const machines = await list('machines')
  return Object.fromEntries(CLUSTERS.map(c => [key(c), {
    machineSets: machineSets.filter(m => m.metadata.namespace === c.namespace && m.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === c.name).map(m => m.metadata.name).sort(),
    controlPlane: machines.filter(m => m.metadata.namespace === c.namespace && m.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === c.name && m.metadata['labels' as never]?.['cluster.x-k8s.io/control-plane'] !== undefined).map(m => m.metadata.name).sort()
  }]))
}

await t.test('pointed at the new versions, Cluster API does what was predicted', async t => {
  const before = await snapshot()
  const bootstrapLabels = async (c: ClusterCase) => {
    const md = (await list('machinedeployments', c.namespace)).find(m => m.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === c.name) as Obj
    const template = await get('kubeadmconfigtemplates', md['spec'].template.spec.bootstrap.configRef.name, c.namespace)
    return template.metadata['labels' as never] as Record<string, string> | undefined
  }
  await pointAt(await serve('label', { handlers: V2, env: { RUNTIME_SDK_V2_CHANGE: 'label' } }))
  for (const c of CLUSTERS.slice(0, 2)) await waitFor(async () => (await bootstrapLabels(c))?.['example.com/extension-version'] === 'v2', { ...LONG, message: `${key(c)}: the label reached the bootstrap template in place` })
  await new Promise(resolve => setTimeout(resolve, 15_000))
  t.same(await snapshot(), before, 'a label: no new MachineSet, the same control plane Machines')

  await pointAt(await serve('command', { handlers: V2, env: { RUNTIME_SDK_V2_CHANGE: 'command' } }))
  for (const c of CLUSTERS.slice(0, 2)) {
    await waitFor(async () => {
      const now = await snapshot()
      return (now[key(c)]?.machineSets.length ?? 0) > (before[key(c)]?.machineSets.length ?? 0)
    }, { ...LONG, message: `${key(c)}: a new MachineSet` })
  }
  await new Promise(resolve => setTimeout(resolve, 15_000))
  const after = await snapshot()
  for (const c of CLUSTERS) {
    const was = before[key(c)]
    const now = after[key(c)]
    t.same(now?.controlPlane, was?.controlPlane, `${key(c)}: the same control plane Machines`)
    if (c.namespace === 'team-a') t.equal(now?.machineSets.filter(m => !was?.machineSets.includes(m)).length, 1, `${key(c)}: one new MachineSet, as predicted`)
    else t.same(now?.machineSets, was?.machineSets, `${key(c)}: no new MachineSet, as predicted`)
  }
})

await t.test('the recorded traffic replays: the same version answers alike, the command version differs in the GeneratePatches answers of examples/simulate\'s Clusters only', async t => {
  const same = await runCliHere(['replay', capiTraffic, '--name', EC, '--fail-on-difference', '-o', 'json'])
  t.equal(same.code, 0, same.stderr)
  const sameReport = JSON.parse(same.stdout) as ReplayReport
  t.ok(sameReport.calls.length > 10, `${sameReport.calls.length} recorded calls replayed`)
  const changed = await runCliHere(['replay', capiTraffic, '--name', EC, '--handlers', variant('command'), '-o', 'json'])
  t.equal(changed.code, 0, changed.stderr)
  const report = JSON.parse(changed.stdout) as ReplayReport
  const differing = report.calls.filter(c => !c.same)
  const expected = (await readRecording(capiTraffic)).filter(c => c.hook === 'GeneratePatches' && JSON.stringify(c.request).includes('MachineDeployment'))
  t.ok(differing.length > 0)
  t.same([...new Set(differing.map(c => c.hook))], ['GeneratePatches'], 'only GeneratePatches answers differ')
  t.equal(differing.length, expected.length, 'every GeneratePatches call with a MachineDeployment template, and no other')
  t.ok(differing.every(c => c.templates.some(x => /KubeadmConfigTemplate/.test(x.template) && x.operations.some(op => JSON.stringify(op).includes('echo v2')))), 'each names the bootstrap template and the command added')
})

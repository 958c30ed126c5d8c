// In-place updates end to end: Cluster API v1.14.2's managers with the InPlaceUpdates feature gate, driving the
// reference extension (`runtime-sdk serve`, its in-place hooks written with runtime-sdk/in-place) through an update of
// a KubeadmControlPlane (files and the etcd image tag, as Cluster API's own e2e changes them) and of a
// MachineDeployment's bootstrap template (files), as Cluster API's own in-place e2e sets them up: three control plane
// replicas with maxSurge 0, two workers with maxSurge 1 and maxUnavailable 1.
//
// Two Clusters, one per namespace and ExtensionConfig: `in-place` lets the extension update in place; `no-in-place`
// carries the setting disableInPlaceUpdates, and the same change rolls out. Before the change, `rollout-impact` as
// the reader predicts in-place for the first and rollout for the second; after, Cluster API has done just that: the
// same Machines, each updated (UpdateMachine called until done, its retryAfterSeconds honoured, the Machines' in-place
// annotation and Updating condition set meanwhile and cleared after), the file on every Machine's KubeadmConfig; new
// Machines for the other. Cluster API's own test extension, built from its test module, answers the CanUpdateMachine
// and CanUpdateMachineSet requests Cluster API sent with the same patched objects as runtime-sdk/in-place.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import type { RolloutImpactReport } from '../../src/impact/live.js'
import { readRecording } from '../../src/impact/recording.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import type { Obj } from '../helpers/capi-classes.js'
import { conditionOf, kubectlOf } from '../helpers/capi-kubectl.js'
import { extensionServers, type ServedExtension } from '../helpers/reference-extension-process.js'
import { runCliHere } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait.js'
import { startTestExtension } from '../helpers/capi-test-extension.js'
import { patchedObjects } from '../helpers/in-place-compare.js'

t.setTimeout(2_400_000)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(ROOT, 'examples/simulate')
const V2 = join(ROOT, 'test/helpers/reference-extension-v2.ts')
const LONG = { timeoutMs: 900_000, intervalMs: 2000 }
const CASES = [
  { namespace: 'accepts', extensionConfig: 'in-place', settings: {} },
  { namespace: 'refuses', extensionConfig: 'no-in-place', settings: { disableInPlaceUpdates: 'true' } }
] as const
const FILE = '/etc/runtime-sdk/v2'

const cp = await startControlPlane({ users: [{ name: 'reader' }] })
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { featureGates: { InPlaceUpdates: true }, log: (m) => t.comment(m) })
t.teardown(() => capi.stop())
const { kubectl, get, list } = kubectlOf(cp, 600_000)
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-in-place-'))
const { serve, stop } = extensionServers(dir)
t.teardown(stop)

/** Both ExtensionConfigs at one server, each selecting its namespace. */
const pointAt = async (served: ServedExtension) => {
  await kubectl(['apply', '-f', '-'], CASES.map(c => JSON.stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: c.extensionConfig },
    spec: { clientConfig: { url: served.url, caBundle: served.caBundle }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': c.namespace } }, settings: c.settings }
  })).join('\n'))
  for (const c of CASES) {
    await waitFor(async () => {
      const ec = await get('extensionconfigs.runtime.cluster.x-k8s.io', c.extensionConfig)
      const discovered = conditionOf(ec, 'Discovered')
      return discovered?.status === 'True' && discovered.observedGeneration === (ec.metadata as { generation?: number }).generation
    }, { ...LONG, message: `${c.extensionConfig}: Discovered ${served.url}` })
  }
}

/** examples/simulate's class in a namespace, its handlers the ExtensionConfig's, KCP scaling in (maxSurge 0). */
async function classIn (namespace: string, extensionConfig: string): Promise<Obj[]> {
  const objects = [...await readDocuments(join(EXAMPLE, 'clusterclass.yaml')), ...await readDocuments(join(EXAMPLE, 'templates.yaml'))] as Obj[]
  return objects.map(o => {
    const copy = JSON.parse(JSON.stringify(o).replaceAll('.reference"', `.${extensionConfig}"`)) as Obj
    copy.metadata.namespace = namespace
    if (copy.kind === 'KubeadmControlPlaneTemplate') copy['spec'].template.spec.rollout = { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } } }
    return copy
  })
}
const [example] = await readDocuments(join(EXAMPLE, 'cluster.yaml')) as [Obj]
const clusterIn = (namespace: string): Obj => {
  const cluster = structuredClone(example)
  cluster.metadata = { name: 'c', namespace }
  cluster['spec'].topology.controlPlane.replicas = 3
  cluster['spec'].topology.workers.machineDeployments[0] = { ...cluster['spec'].topology.workers.machineDeployments[0], replicas: 2, rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } } }
  return cluster
}
const machinesOf = async (namespace: string) => (await list('machines', namespace)).filter(m => m.metadata['labels' as never]?.['cluster.x-k8s.io/cluster-name'] === 'c')
const names = (machines: Obj[]) => machines.map(m => m.metadata.name).sort()

const recordingV2 = join(dir, 'v2.recording.jsonl')
await pointAt(await serve('v1'))
await kubectl(['apply', '-f', join(ROOT, 'deploy/rbac/cluster-reader-role.yaml')])
await kubectl(['create', 'clusterrolebinding', 'reader', '--clusterrole=runtime-sdk-cluster-reader', '--user=reader'])

await t.test('Cluster API creates a Cluster per ExtensionConfig: three control plane Machines, two workers', async t => {
  for (const c of CASES) {
    await kubectl(['create', 'namespace', c.namespace])
    await kubectl(['apply', '-f', '-'], (await classIn(c.namespace, c.extensionConfig)).map(o => JSON.stringify(o)).join('\n'))
    await waitFor(async () => conditionOf(await get('clusterclass', 'loop', c.namespace), 'VariablesReady')?.status === 'True', { ...LONG, message: `${c.namespace}: VariablesReady` })
    await kubectl(['apply', '-f', '-'], JSON.stringify(clusterIn(c.namespace)))
  }
  for (const c of CASES) await waitFor(async () => (await machinesOf(c.namespace)).filter(m => m['status']?.phase === 'Running').length === 5, { ...LONG, message: `${c.namespace}: five Machines running` })
  t.pass('created')
})

const before: Record<string, string[]> = {}
let simulatedCalls: Array<{ hook: string, request?: Record<string, any>, retryAfterSeconds?: number }> = []
await t.test('rollout-impact, as the reader, predicts in place where the extension takes the change and a rollout where its setting refuses', async t => {
  for (const c of CASES) before[c.namespace] = names(await machinesOf(c.namespace))
  const impact = async (name: string) => {
    const r = await runCliHere(['rollout-impact', '--kubeconfig', cp.kubeconfigPath, '--context', 'reader', '-A', '--name', name, '--handlers', V2, '-o', 'json'])
    t.equal(r.code, 0, r.stderr)
    return JSON.parse(r.stdout) as RolloutImpactReport
  }
  process.env['RUNTIME_SDK_V2_CHANGE'] = 'files'
  const effects = (report: RolloutImpactReport, cluster: string) => Object.fromEntries((report.clusters.find(c => c.cluster === cluster) as { objects: Array<{ role: string, effect: string }> }).objects.map(o => [o.role, o.effect]))
  t.same(effects(await impact('in-place'), 'accepts/c'), { infrastructureCluster: 'none', controlPlane: 'in-place', 'machineDeployment md-0': 'in-place' })
  t.same(effects(await impact('no-in-place'), 'refuses/c'), { infrastructureCluster: 'none', controlPlane: 'rollout', 'machineDeployment md-0': 'rollout' })
  // simulate, from where the first Cluster stands, with the new version and the gate on: its in-place calls.
  const simulated = await runCliHere(['simulate', '--kubeconfig', cp.kubeconfigPath, '--context', 'reader', '-n', 'accepts', '--cluster', 'c', '--handlers', V2, '--feature-gates', 'InPlaceUpdates=true', '-o', 'json'])
  t.equal(simulated.code, 0, simulated.stderr)
  simulatedCalls = (JSON.parse(simulated.stdout) as Array<{ result: { timeline: Array<{ hook: string, request?: Record<string, any>, retryAfterSeconds?: number }> } }>)[0]?.result.timeline.filter(e => ['CanUpdateMachine', 'CanUpdateMachineSet', 'UpdateMachine'].includes(e.hook)) ?? []
})

await t.test('pointed at the new version, Cluster API updates the first Cluster\'s Machines in place and replaces the second\'s', async t => {
  await pointAt(await serve('v2', { handlers: V2, env: { RUNTIME_SDK_V2_CHANGE: 'files' }, args: ['--record', recordingV2] }))
  for (const c of CASES) await kubectl(['annotate', 'cluster', 'c', '-n', c.namespace, '--overwrite', 'example.com/extension=v2'])
  const seenUpdating = new Set<string>()
  const started = Date.now()
  await waitFor(async () => {
    const machines = await machinesOf('accepts')
    for (const m of machines) {
      const updating = conditionOf(m, 'Updating')
      if (updating?.status === 'True' && updating.reason === 'InPlaceUpdating' && m.metadata['annotations' as never]?.['in-place-updates.internal.cluster.x-k8s.io/update-in-progress'] !== undefined) seenUpdating.add(m.metadata.name)
    }
    const configs = await list('kubeadmconfigs', 'accepts')
    const done = machines.every(m => conditionOf(m, 'Updating')?.status === 'False' && conditionOf(m, 'UpToDate')?.status === 'True')
    return done && machines.length === 5 && configs.filter(k => (k['spec']?.files as Array<{ path: string }> | undefined)?.some(f => f.path === FILE)).length === 5
  }, { ...LONG, intervalMs: 500, message: 'accepts: every Machine updated in place, the file in every KubeadmConfig' })
  const seconds = Math.round((Date.now() - started) / 1000)
  t.same(names(await machinesOf('accepts')), before['accepts'], 'the same five Machines')
  t.same([...seenUpdating].sort(), before['accepts'], 'each was seen updating in place (the annotation and Updating InPlaceUpdating)')
  t.ok((await machinesOf('accepts')).every(m => m.metadata['annotations' as never]?.['in-place-updates.internal.cluster.x-k8s.io/update-in-progress'] === undefined), 'and none is annotated after')

  const calls = (await readRecording(recordingV2)).filter(c => c.hook === 'UpdateMachine')
  const byMachine = new Map<string, Array<{ time: string, retry: number }>>()
  for (const c of calls) {
    const name = (c.request as { desired?: { machine?: { metadata?: { name?: string } } } }).desired?.machine?.metadata?.name ?? ''
    byMachine.set(name, [...byMachine.get(name) ?? [], { time: c.time, retry: Number((c.response as { retryAfterSeconds?: number }).retryAfterSeconds ?? 0) }])
  }
  t.same([...byMachine.keys()].sort(), before['accepts'], 'UpdateMachine called for each Machine')
  for (const [machine, list] of byMachine) {
    t.ok(list.length >= 2 && list.at(-1)?.retry === 0 && list.slice(0, -1).every(c => c.retry > 0), `${machine}: in progress, then done (${list.length} calls)`)
    const gaps = list.slice(1).map((c, i) => (Date.parse(c.time) - Date.parse(list[i]?.time ?? '')) / 1000)
    t.ok(gaps.every(g => g >= 4), `${machine}: called again after retryAfterSeconds (gaps ${gaps.map(g => g.toFixed(1)).join(', ')} s)`)
  }
  t.comment(`in-place update of 5 Machines: ${calls.length} UpdateMachine calls, ${seconds} s`)

  await waitFor(async () => names(await machinesOf('refuses')).some(n => !before['refuses']?.includes(n)), { ...LONG, message: 'refuses: new Machines' })
  t.pass('the Cluster whose ExtensionConfig refuses in-place updates gets new Machines')
})

await t.test('Cluster API\'s own test extension answers the CanUpdate requests Cluster API sent with the same patched objects', async t => {
  const extension = await startTestExtension(cp, join(dir, 'test-extension'))
  t.teardown(() => extension.stop())
  // The requests of the Cluster whose ExtensionConfig lets the extension update in place (the other's carries a setting
  // of the reference extension's own).
  const ofAccepts = (request: any) => [request?.current?.machine, request?.current?.machineSet].some(o => o?.metadata?.namespace === 'accepts')
  const recorded = (await readRecording(recordingV2)).filter(c => (c.hook === 'CanUpdateMachine' || c.hook === 'CanUpdateMachineSet') && ofAccepts(c.request))
  t.ok(recorded.some(c => c.hook === 'CanUpdateMachine') && recorded.some(c => c.hook === 'CanUpdateMachineSet'), `${recorded.length} CanUpdate requests Cluster API sent`)
  for (const call of recorded) {
    const request = { ...call.request as Record<string, unknown>, settings: {} }
    const theirs = await extension.call(call.hook, request)
    t.same(patchedObjects(call.hook, request, call.response as Record<string, unknown>), patchedObjects(call.hook, request, theirs), `${call.hook}: the same objects once patched`)
  }
})

const ofControlPlane = (c: any) => c?.request?.desired?.machine?.metadata?.labels?.['cluster.x-k8s.io/control-plane'] !== undefined
const files = (config: any) => config?.spec?.files?.map((f: { path: string }) => f.path)

await t.test('simulate made the control plane\'s in-place calls Cluster API made, with the same changes', async t => {
  const theirs = (await readRecording(recordingV2)).filter(c => c.hook === 'CanUpdateMachine' && (c.request as any)?.current?.machine?.metadata?.namespace === 'accepts')
  const ours = simulatedCalls.filter(c => c.hook === 'CanUpdateMachine')
  t.equal(ours.length, theirs.length, `CanUpdateMachine asked for ${theirs.length} Machines (three replicas, maxSurge 0)`)
  // KCP's objects are compared on what the change touches (the KubeadmConfig's files, the local etcd image tag) and
  // the Machine's version: KCP's KubeadmConfigs are its own rendering of kubeadmConfigSpec (init or join).
  const changed = (request: any) => ['current', 'desired'].map(side => ({
    files: files(request?.[side]?.bootstrapConfig),
    etcdImageTag: request?.[side]?.bootstrapConfig?.spec?.clusterConfiguration?.etcd?.local?.imageTag,
    version: request?.[side]?.machine?.spec?.version
  }))
  for (const [i, call] of ours.entries()) t.same(changed(call.request), changed(theirs[i]?.request), `CanUpdateMachine ${i + 1}: the same files, etcd image tag and version, current and desired`)
  const [current, desired] = changed(ours[0]?.request)
  t.ok(desired?.files?.includes(FILE) && !current?.files?.includes(FILE) && desired.etcdImageTag !== undefined && desired.etcdImageTag !== current?.etcdImageTag, 'what was compared is the change: the file added, the etcd image tag changed')
  const updates = simulatedCalls.filter(c => c.hook === 'UpdateMachine' && ofControlPlane(c))
  t.equal(updates.filter(c => c.retryAfterSeconds === 0).length, 3, 'UpdateMachine until done for each of the three control plane Machines')
  const capiUpdates = (await readRecording(recordingV2)).filter(c => c.hook === 'UpdateMachine' && ofControlPlane(c) && (c.request as any)?.desired?.machine?.metadata?.namespace === 'accepts')
  t.same(files(updates[0]?.request?.['desired']?.bootstrapConfig), files((capiUpdates[0]?.request as any)?.desired?.bootstrapConfig), 'UpdateMachine asked to reach the same KubeadmConfig files')
})

await t.test('simulate made the MachineDeployment\'s in-place calls Cluster API made, with the same templates', async t => {
  const theirs = (await readRecording(recordingV2)).filter(c => c.hook === 'CanUpdateMachineSet' && (c.request as any)?.current?.machineSet?.metadata?.namespace === 'accepts')
  const ours = simulatedCalls.filter(c => c.hook === 'CanUpdateMachineSet')
  t.equal(ours.length, 1, 'simulate asked CanUpdateMachineSet once')
  const templates = (request: any) => ['current', 'desired'].map(side => ['bootstrapConfigTemplate', 'infrastructureMachineTemplate'].map(k => request?.[side]?.[k]?.spec?.template?.spec))
  t.same(templates(ours[0]?.request), templates(theirs[0]?.request), 'the current and desired templates (spec.template.spec) Cluster API sent')
  const machineSpec = (request: any) => ['current', 'desired'].map(side => request?.[side]?.machineSet?.spec?.template?.spec?.version)
  t.same(machineSpec(ours[0]?.request), machineSpec(theirs[0]?.request), 'the MachineSets\' version')
  const updates = simulatedCalls.filter(c => c.hook === 'UpdateMachine' && !ofControlPlane(c))
  t.equal(updates.filter(c => c.retryAfterSeconds === 0).length, 2, 'UpdateMachine until done for each of the two workers')
  const capiUpdates = (await readRecording(recordingV2)).filter(c => c.hook === 'UpdateMachine' && (c.request as any)?.desired?.machine?.metadata?.labels?.['cluster.x-k8s.io/deployment-name'] !== undefined)
  t.same(files(updates[0]?.request?.['desired']?.bootstrapConfig), files((capiUpdates[0]?.request as any)?.desired?.bootstrapConfig), 'UpdateMachine asked to reach the same KubeadmConfig files')
})

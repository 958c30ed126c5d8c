// simulate() in the corners Cluster API goes through: a Failure answer, a hook that holds an upgrade and lets go,
// merge patches, an upgrade of several steps planned from the ClusterClass's versions, MachinePools and variable
// overrides, and variable schemas with nullable, int-or-string and required values.
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { defineHandler, type ExtensionHandler } from '../../src/server/types.js'
import { AfterControlPlaneInitialized, BeforeClusterUpgrade, DiscoverVariables, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { simulate, SimulationInputError } from '../../src/simulate/index.js'
import { referenceHandlersV2 } from '../helpers/reference-extension-v2.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const read = async (file: string) => await readDocuments(`${EXAMPLE}${file}`) as Array<Record<string, any>>
const [cluster] = await read('cluster.yaml') as [Record<string, any>]
const [clusterClass] = await read('clusterclass.yaml') as [Record<string, any>]
const templates = await read('templates.yaml')
const copy = <T>(v: T): T => structuredClone(v)
const extensionWith = (...replacements: ExtensionHandler[]) => referenceHandlers().map(h => replacements.find(r => r.hook.hook === h.hook.hook) ?? h)

t.test('a Failure answer stops the life with Cluster API\'s message', async t => {
  const failing = defineHandler({ hook: AfterControlPlaneInitialized, name: 'after-control-plane-initialized', handler: () => ({ status: 'Failure' as const, message: 'no CNI' }) })
  const result = await simulate({ handlers: extensionWith(failing), cluster, clusterClass, templates })
  t.equal(result.outcome, 'failed')
  t.equal(result.error, 'AfterControlPlaneInitialized: failed to call extension handlers for hook "AfterControlPlaneInitialized.hooks.runtime.cluster.x-k8s.io": failed to call extension handler "after-control-plane-initialized.reference": got failure response with message: no CNI')
  t.equal(result.timeline.at(-1)?.status, 'Failure')
})

t.test('a BeforeClusterUpgrade that holds the upgrade is called again after retryAfterSeconds, and patches go on meanwhile', async t => {
  const seen = new Set<string>()
  const holding = defineHandler({
    hook: BeforeClusterUpgrade,
    name: 'before-cluster-upgrade',
    // Holds on the first request it sees and lets go when asked again (the same answer to the same request twice in a row).
    handler: async (request) => {
      const key = JSON.stringify(request.cluster.metadata.resourceVersion)
      const first = !seen.has(key) && seen.size === 0
      seen.add(key)
      return first ? { status: 'Success' as const, retryAfterSeconds: 45, message: 'backup running' } : { status: 'Success' as const }
    }
  })
  const result = await simulate({ handlers: extensionWith(holding), cluster, clusterClass, templates, toVersion: 'v1.35.0', checkDeterminism: false })
  t.equal(result.outcome, 'completed', result.error ?? '')
  t.same(result.timeline.filter(e => e.hook === 'BeforeClusterUpgrade').map(e => [e.at, e.retryAfterSeconds]), [[0, 45], [45, 0]])
  const held = result.timeline.find(e => e.hook === 'GeneratePatches' && e.at === 0 && JSON.stringify(e.request).includes('"version":"v1.35.0","classRef"'))
  t.ok(held, 'GeneratePatches is called while the upgrade is held, with the topology at v1.35.0')
})

t.test('merge patches, and patches for a uid that is not in the request', async t => {
  const merging = defineHandler({
    hook: GeneratePatches,
    name: 'generate-patches',
    handler: (request) => ({ status: 'Success' as const, items: (request.items ?? []).map(i => ({ uid: i.uid, patchType: 'JSONMergePatch' as const, patch: Buffer.from(JSON.stringify({ spec: { template: { metadata: { labels: { merged: 'yes' } } } } })).toString('base64') })) })
  })
  const merged = await simulate({ handlers: extensionWith(merging), cluster, clusterClass, templates })
  t.equal(merged.outcome, 'completed', merged.error ?? '')
  t.match(merged.templates.find(x => x.role === 'machineDeployment md-0 infrastructure')?.diff, [{ op: 'add', path: '/spec/template/metadata', value: { labels: { merged: 'yes' } } }])
  const stranger = defineHandler({ hook: GeneratePatches, name: 'generate-patches', handler: () => ({ status: 'Success' as const, items: [{ uid: 'nope', patchType: 'JSONPatch' as const, patch: Buffer.from('[]').toString('base64') }] }) })
  const failed = await simulate({ handlers: extensionWith(stranger), cluster, clusterClass, templates })
  t.match(failed.error, /the answer patches uid "nope", which is no template of the request/)
})

t.test('an upgrade of two minors planned from the ClusterClass\'s kubernetesVersions, one control plane step at a time', async t => {
  const versions = copy(clusterClass)
  delete versions.spec.upgrade
  versions.spec.kubernetesVersions = ['v1.33.0', 'v1.34.0', 'v1.34.2', 'v1.35.0']
  const old = copy(cluster)
  old.spec.topology.version = 'v1.33.0'
  const result = await simulate({ handlers: referenceHandlers(), cluster: old, clusterClass: versions, templates, toVersion: 'v1.35.0' })
  t.equal(result.outcome, 'completed', result.error ?? '')
  t.same(result.timeline.filter(e => e.hook === 'BeforeControlPlaneUpgrade').map(e => (e.request as { toKubernetesVersion: string }).toKubernetesVersion), ['v1.34.2', 'v1.35.0'])
  t.match(result.timeline.find(e => e.hook === 'BeforeClusterUpgrade')?.request, { controlPlaneUpgrades: [{ version: 'v1.34.2' }, { version: 'v1.35.0' }], workersUpgrades: [{ version: 'v1.35.0' }] })
  t.notOk(result.timeline.some(e => e.hook === 'GenerateUpgradePlan'), 'no upgrade plan extension, no GenerateUpgradePlan')
  const tooFar = copy(clusterClass)
  delete tooFar.spec.upgrade
  const oneMinor = await simulate({ handlers: referenceHandlers(), cluster: old, clusterClass: tooFar, templates, toVersion: 'v1.35.0' })
  t.match(oneMinor.error, /one minor at a time/)
})

t.test('MachinePools, variable overrides and schemas with int-or-string, formats and required values', async t => {
  const pools = copy(clusterClass)
  pools.spec.workers.machinePools = [{ class: 'pool', bootstrap: { templateRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', name: 'loop-worker' } }, infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', name: 'loop-worker' } } }]
  pools.spec.variables = [
    { name: 'size', required: false, schema: { openAPIV3Schema: { 'x-kubernetes-int-or-string': true, default: 3 } } },
    { name: 'owner', required: false, schema: { openAPIV3Schema: { type: 'object', properties: { team: { type: 'string', default: 'core' }, email: { type: 'string', format: 'email' } } } } }
  ]
  const withPool = copy(cluster)
  withPool.spec.topology.workers.machinePools = [{ class: 'pool', name: 'mp-0', replicas: 2 }]
  withPool.spec.topology.variables = [{ name: 'referenceAnnotation', value: 'team-a' }, { name: 'owner', value: {} }]
  withPool.spec.topology.workers.machineDeployments[0].variables = { overrides: [{ name: 'referenceAnnotation', value: 'md-team' }] }
  const result = await simulate({ handlers: referenceHandlers(), cluster: withPool, clusterClass: pools, templates })
  t.equal(result.outcome, 'completed', result.error ?? '')
  t.same(result.variables, [{ name: 'referenceAnnotation', value: 'team-a' }, { name: 'owner', value: { team: 'core' } }, { name: 'size', value: 3 }], 'defaults applied, the unset variables added in name order')
  t.same(result.templates.map(x => x.role).slice(-2), ['machinePool mp-0 bootstrap', 'machinePool mp-0 infrastructure'])
  t.equal(result.templates.find(x => x.role === 'machineDeployment md-0 bootstrap')?.patched.metadata?.annotations?.['runtime-sdk.x-k8s.io/patched-by'], 'md-team', 'the override wins for the MachineDeployment')
  t.same(result.notes, ['MachinePools: their templates are patched as Cluster API patches them; their upgrades are not simulated'])

  const extra = copy(withPool)
  extra.spec.topology.variables = [{ name: 'owner', value: { team: 'a', boss: 'b' } }]
  const refused = 'admission webhook "default.cluster.cluster.x-k8s.io" denied the request: Cluster.cluster.x-k8s.io "loop" is invalid: '
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: extra, clusterClass: pools, templates }), new SimulationInputError(`${refused}spec.topology.variables[owner]: Invalid value: "{\\"boss\\":\\"b\\",\\"team\\":\\"a\\"}": failed validation: "boss" field(s) are not specified in the variable schema of variable "owner"`))
  const badEmail = copy(withPool)
  badEmail.spec.topology.workers.machineDeployments[0].variables = { overrides: [{ name: 'owner', value: { email: 'nobody' } }] }
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: badEmail, clusterClass: pools, templates }), new SimulationInputError(`${refused}spec.topology.workers.machineDeployments[md-0].variables.overrides[owner].value.email: Invalid value: "{\\"email\\":\\"nobody\\",\\"team\\":\\"core\\"}": email in body must be of type email: "nobody"`))
  const required = copy(pools)
  required.spec.variables.push({ name: 'region', required: true, schema: { openAPIV3Schema: { type: 'string' } } })
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: withPool, clusterClass: required, templates }), new SimulationInputError(`${refused}spec.topology.variables: Required value: required variable "region" must be set`))
})

t.test('two definitions of a variable that differ make the ClusterClass unusable, as Cluster API\'s VariablesReady', async t => {
  const conflicting = copy(clusterClass)
  conflicting.spec.variables = [{ name: 'referenceAnnotation', required: true, schema: { openAPIV3Schema: { type: 'integer' } } }]
  const result = await simulate({ handlers: referenceHandlers(), cluster, clusterClass: conflicting, templates })
  t.equal(result.outcome, 'failed')
  t.match(result.error, /the following variables have conflicting schemas: referenceAnnotation/)
  const broken = defineHandler({ hook: DiscoverVariables, name: 'discover-variables', handler: () => ({ status: 'Failure' as const, message: 'no schema today' }) })
  const failed = await simulate({ handlers: extensionWith(broken), cluster, clusterClass, templates })
  t.match(failed.error, /^DiscoverVariables \(patch reference\): failed to call extension handler "discover-variables\.reference": got failure response with message: no schema today/)
})

t.test('metadata flows as Cluster API sends it: merged labels, dropped annotations, no network without one', async t => {
  const labelled = copy(clusterClass)
  labelled.spec.controlPlane.metadata = { labels: { tier: 'class', plane: 'control' }, annotations: { note: 'class' } }
  labelled.spec.workers.machineDeployments[0].metadata = { labels: { tier: 'class' } }
  const ownMetadata = copy(templates)
  const worker = ownMetadata.find(o => o.kind === 'KubeadmConfigTemplate') as Record<string, any>
  worker.metadata.labels = { own: 'label' }
  worker.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}', own: 'annotation' }
  const bare = copy(cluster)
  delete bare.spec.clusterNetwork
  bare.spec.topology.controlPlane.metadata = { labels: { tier: 'topology' } }
  bare.spec.topology.workers.machineDeployments[0].metadata = { annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '', keep: 'me' } }
  const result = await simulate({ handlers: referenceHandlers(), cluster: bare, clusterClass: labelled, templates: ownMetadata })
  t.equal(result.outcome, 'completed', result.error ?? '')
  const request = result.timeline.find(e => e.hook === 'GeneratePatches')?.request as { variables: Array<{ value: { cluster: Record<string, unknown> } }>, items: Array<{ object: Record<string, any>, variables?: Array<{ value: Record<string, any> }> }> }
  t.notOk('network' in (request.variables.at(-1)?.value.cluster ?? {}), 'no network builtin for a Cluster without clusterNetwork')
  const [, controlPlane, , bootstrap] = request.items
  t.same(controlPlane?.variables?.[0]?.value['controlPlane'].metadata, {
    labels: { tier: 'topology', plane: 'control', 'cluster.x-k8s.io/cluster-name': 'loop', 'topology.cluster.x-k8s.io/owned': '' },
    annotations: { note: 'class', 'cluster.x-k8s.io/cloned-from-name': 'loop-control-plane', 'cluster.x-k8s.io/cloned-from-groupkind': 'KubeadmControlPlaneTemplate.controlplane.cluster.x-k8s.io' }
  }, 'the topology\'s labels win over the class\'s')
  t.same(bootstrap?.variables?.[0]?.value['machineDeployment'].metadata, {
    labels: { tier: 'class', 'cluster.x-k8s.io/cluster-name': 'loop', 'topology.cluster.x-k8s.io/owned': '', 'topology.cluster.x-k8s.io/deployment-name': 'md-0' },
    annotations: { keep: 'me' }
  }, 'the upgrade-sequence annotations are not propagated')
  t.same(bootstrap?.object['metadata'].annotations, { own: 'annotation', 'cluster.x-k8s.io/cloned-from-name': 'loop-worker', 'cluster.x-k8s.io/cloned-from-groupkind': 'KubeadmConfigTemplate.bootstrap.cluster.x-k8s.io' }, 'last-applied-configuration is dropped')
  t.same(bootstrap?.object['metadata'].labels, { own: 'label', 'cluster.x-k8s.io/cluster-name': 'loop', 'topology.cluster.x-k8s.io/owned': '', 'topology.cluster.x-k8s.io/deployment-name': 'md-0' })
})

t.test('a merge patch applies as RFC 7386 says, a key named __proto__ included', async t => {
  const { applyMergePatch } = await import('../../src/topology/merge-patch.js')
  const target = { spec: { a: 1, b: { c: 2 } } }
  t.same(applyMergePatch(target, { spec: { a: null, b: { d: 3 } } }), { spec: { b: { c: 2, d: 3 } } })
  t.same(target, { spec: { a: 1, b: { c: 2 } } }, 'the target is left as it is')
  const patched = applyMergePatch({}, JSON.parse('{"__proto__": {"x": 1}}')) as Record<string, unknown>
  t.ok(Object.hasOwn(patched, '__proto__'), '__proto__ is an own key, not the prototype')
  t.same(applyMergePatch({ a: 1 }, [1]), [1], 'a patch that is not an object replaces the target')
})

t.test('an object the API server refuses halts the life where Cluster API halts it, with its TopologyReconciled condition', async t => {
  const result = await simulate({ handlers: referenceHandlersV2('conflicting-file'), cluster, clusterClass, templates, toVersion: 'v1.35.0' })
  t.equal(result.outcome, 'failed')
  const message = 'error reconciling the Cluster topology: failed to create MachineDeployment: failed to create KubeadmConfigTemplate.bootstrap.cluster.x-k8s.io: FieldValueInvalid: spec.template.spec.files[0]: Invalid value: {"path":"/etc/v2","content":"v2","contentFrom":{"secret":{"name":"v2","key":"v2"}}}: only one of content or contentFrom may be specified for a single file'
  t.same(result.topologyReconciled, { status: 'False', reason: 'ReconcileFailed', message }, 'the creation of the MachineDeployment\'s bootstrap template is refused (createErrorWithoutObjectName: no generated name)')
  t.equal(result.error, message)
  t.match(result.timeline.at(-1), { status: 'Event', step: 'topology not reconciled', message: `TopologyReconciled False ReconcileFailed: ${message}` })
  t.notOk(result.timeline.some(e => e.hook === 'BeforeClusterUpgrade'), 'the upgrade never starts: the Cluster was never created whole')
  t.same(result.phases, [], 'no phase completes')
})

t.test('with InPlaceUpdates on, a MachineDeployment the extension updates in place: CanUpdateMachineSet, then UpdateMachine until done', async t => {
  // Version 2's CanUpdateMachineSet takes any change of the templates; the reference extension's UpdateMachine is done at its second call.
  const update = referenceHandlers({ updateMachineDurationMs: 0, updateMachineRetryAfterSeconds: 5 }).find(h => h.hook.hook === 'UpdateMachine') as ExtensionHandler
  const handlers = referenceHandlersV2('in-place').map(h => h.hook.hook === 'UpdateMachine' ? update : h)
  const result = await simulate({ handlers, cluster, clusterClass, templates, toVersion: 'v1.35.0', featureGates: { InPlaceUpdates: true }, checkDeterminism: false })
  t.equal(result.outcome, 'completed', result.error ?? 'completed')
  const inPlace = result.timeline.filter(e => ['CanUpdateMachineSet', 'UpdateMachine'].includes(e.hook) || e.step === 'machine updated in place')
  t.match(inPlace[0], { hook: 'CanUpdateMachineSet', status: 'Success', step: /^MachineDeployment loop-md-0-\w+$/ }, 'asked when the workers\' version changes')
  t.match(inPlace[0]?.request, { current: { machineSet: { spec: { template: { spec: { version: 'v1.34.0' } } } } }, desired: { machineSet: { spec: { template: { spec: { version: 'v1.35.0' } } } } } })
  const updates = inPlace.filter(e => e.hook === 'UpdateMachine')
  t.same(updates.map(e => e.retryAfterSeconds), [5, 0], 'UpdateMachine: in progress, then (after retryAfterSeconds on the virtual clock) done')
  t.equal((updates[1]?.at ?? 0) - (updates[0]?.at ?? 0), 5)
  t.match(updates[0]?.request, { desired: { machine: { kind: 'Machine', spec: { version: 'v1.35.0' } }, bootstrapConfig: { kind: 'KubeadmConfig' }, infrastructureMachine: { kind: 'DevMachine' } } })
  t.match(inPlace.at(-1), { status: 'Event', step: 'machine updated in place', message: /^Machine loop-md-0-\w+-\w+-\w+ of MachineDeployment loop-md-0-\w+ updated in place$/ })
  t.notOk(result.timeline.some(e => /rolled out/.test(e.message ?? '')), 'no Machine replaced')
  const off = await simulate({ handlers, cluster, clusterClass, templates, toVersion: 'v1.35.0', checkDeterminism: false })
  t.notOk(off.timeline.some(e => e.hook === 'CanUpdateMachineSet'), 'the gate off (Cluster API\'s default): never asked')
})

t.test('with InPlaceUpdates on, the control plane\'s Machines: CanUpdateMachine for each KCP takes in place (replicas less maxSurge), one at a time', async t => {
  const update = referenceHandlers({ updateMachineDurationMs: 0, updateMachineRetryAfterSeconds: 5 }).find(h => h.hook.hook === 'UpdateMachine') as ExtensionHandler
  const handlers = referenceHandlersV2('in-place').map(h => h.hook.hook === 'UpdateMachine' ? update : h)
  const threeReplicas = copy(cluster)
  threeReplicas['spec'].topology.controlPlane.replicas = 3
  const withSurge = (maxSurge: number) => templates.map(o => {
    if (o['kind'] !== 'KubeadmControlPlaneTemplate') return o
    const c = copy(o)
    c['spec'].template.spec.rollout = { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge } } }
    return c
  })
  const result = await simulate({ handlers, cluster: threeReplicas, clusterClass, templates: withSurge(0), toVersion: 'v1.35.0', featureGates: { InPlaceUpdates: true }, checkDeterminism: false })
  t.equal(result.outcome, 'completed', result.error ?? 'completed')
  const calls = result.timeline.filter(e => ['CanUpdateMachine', 'CanUpdateMachineSet', 'UpdateMachine'].includes(e.hook))
  const controlPlane = calls.slice(0, 9)
  t.same(controlPlane.map(e => e.hook), Array.from({ length: 3 }, () => ['CanUpdateMachine', 'UpdateMachine', 'UpdateMachine']).flat(), 'each of the three Machines asked, then updated until done, before the next')
  t.match(controlPlane[0]?.request, {
    current: { machine: { kind: 'Machine', metadata: { labels: { 'cluster.x-k8s.io/control-plane': '' } }, spec: { version: 'v1.34.0' } }, bootstrapConfig: { kind: 'KubeadmConfig', spec: { clusterConfiguration: {} } }, infrastructureMachine: { kind: 'DevMachine' } },
    desired: { machine: { spec: { version: 'v1.35.0' } } }
  })
  t.same(controlPlane.filter(e => e.hook === 'UpdateMachine').map(e => e.retryAfterSeconds), [5, 0, 5, 0, 5, 0])
  t.equal(calls[9]?.hook, 'CanUpdateMachineSet', 'the workers after the control plane')
  t.equal(result.timeline.filter(e => e.step === 'machine updated in place' && / of KubeadmControlPlane /.test(e.message ?? '')).length, 3)

  const surge = await simulate({ handlers, cluster: threeReplicas, clusterClass, templates: withSurge(1), toVersion: 'v1.35.0', featureGates: { InPlaceUpdates: true }, checkDeterminism: false })
  t.equal(surge.timeline.filter(e => e.hook === 'CanUpdateMachine').length, 2, 'maxSurge 1: one new Machine first, two old ones asked')
  const one = await simulate({ handlers, cluster, clusterClass, templates, toVersion: 'v1.35.0', featureGates: { InPlaceUpdates: true }, checkDeterminism: false })
  t.notOk(one.timeline.some(e => e.hook === 'CanUpdateMachine'), 'one replica, maxSurge 1 (the defaults): replaced, never asked')
})

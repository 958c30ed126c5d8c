// simulate(): the example Cluster's life against the reference extension and against broken extensions, the
// Cluster's variables defaulted and checked, inline patches, and input that cannot be used.
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { defineHandler } from '../../src/server/types.js'
import { BeforeClusterCreate, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { simulate, SimulationInputError } from '../../src/simulate/index.js'
import type { ExtensionHandler } from '../../src/server/types.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const read = async (file: string) => await readDocuments(`${EXAMPLE}${file}`) as Array<Record<string, any>>
const [cluster] = await read('cluster.yaml') as [Record<string, any>]
const [clusterClass] = await read('clusterclass.yaml') as [Record<string, any>]
const templates = await read('templates.yaml')
const copy = <T>(v: T): T => structuredClone(v)

/** The reference extension with some handlers replaced. */
function extensionWith (...replacements: ExtensionHandler[]): ExtensionHandler[] {
  return referenceHandlers().map(h => replacements.find(r => r.hook.hook === h.hook.hook) ?? h)
}

/** The sequence of hooks called, repeats of one hook collapsed. */
const hooksOf = (timeline: Array<{ hook: string }>) => timeline.map(e => e.hook).filter(h => h !== '').filter((h, i, all) => h !== all[i - 1])

t.test('the example Cluster goes through its life in Cluster API\'s order', async t => {
  const result = await simulate({ handlers: referenceHandlers(), cluster, clusterClass, templates, toVersion: 'v1.35.0' })
  t.equal(result.outcome, 'completed', result.error ?? 'completed')
  t.same(hooksOf(result.timeline), [
    'DiscoverVariables', 'BeforeClusterCreate', 'GeneratePatches', 'ValidateTopology', 'GeneratePatches', 'ValidateTopology',
    'GeneratePatches', 'ValidateTopology', 'AfterControlPlaneInitialized', 'GeneratePatches', 'ValidateTopology',
    'GenerateUpgradePlan', 'BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'GeneratePatches', 'ValidateTopology', 'GenerateUpgradePlan',
    'GeneratePatches', 'ValidateTopology', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'GeneratePatches', 'ValidateTopology',
    'GeneratePatches', 'ValidateTopology', 'AfterWorkersUpgrade', 'GeneratePatches', 'ValidateTopology', 'AfterClusterUpgrade',
    'GeneratePatches', 'ValidateTopology', 'GeneratePatches', 'ValidateTopology', 'BeforeClusterDelete'
  ])
  t.same(result.templates.map(t => t.role), ['infrastructureCluster', 'controlPlane', 'controlPlaneMachineInfrastructure', 'machineDeployment md-0 bootstrap', 'machineDeployment md-0 infrastructure'])
  for (const template of result.templates) t.equal(template.patched.metadata?.annotations?.['runtime-sdk.x-k8s.io/patched-by'], 'team-a', `${template.role} patched`)
  t.same(result.phases.map(p => [p.phase, p.version]), [['create', 'v1.34.0'], ['upgrade', 'v1.35.0']])
  const upgrade = result.timeline.find(e => e.hook === 'BeforeClusterUpgrade')
  t.match(upgrade?.request, { fromKubernetesVersion: 'v1.34.0', toKubernetesVersion: 'v1.35.0', controlPlaneUpgrades: [{ version: 'v1.35.0' }], workersUpgrades: [{ version: 'v1.35.0' }] })
  const deleting = result.timeline.find(e => e.hook === 'BeforeClusterDelete')?.request as { cluster: { metadata: Record<string, unknown> } }
  t.ok(deleting.cluster.metadata['deletionTimestamp'], 'BeforeClusterDelete sees the Cluster marked for deletion')
  t.same(result.notes, [], 'nothing left unsimulated')
  const again = await simulate({ handlers: referenceHandlers(), cluster, clusterClass, templates, toVersion: 'v1.35.0' })
  t.same(again.timeline, result.timeline, 'the same input gives the same timeline, uids and names included')
})

t.test('the Cluster\'s variables are defaulted from the discovered schema and checked against it', async t => {
  const bare = copy(cluster)
  delete bare.spec.topology.variables
  const defaulted = await simulate({ handlers: referenceHandlers(), cluster: bare, clusterClass, templates })
  t.same(defaulted.variables, [{ name: 'referenceAnnotation', value: 'reference-extension' }])
  t.equal(defaulted.templates[0]?.patched.metadata?.annotations?.['runtime-sdk.x-k8s.io/patched-by'], 'reference-extension')

  const wrong = copy(cluster)
  wrong.spec.topology.variables = [{ name: 'referenceAnnotation', value: 42 }]
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: wrong, clusterClass, templates }), new SimulationInputError('admission webhook "default.cluster.cluster.x-k8s.io" denied the request: Cluster.cluster.x-k8s.io "loop" is invalid: spec.topology.variables[referenceAnnotation].value: Invalid value: "42": must be of type string: "integer"'))
  const unknown = copy(cluster)
  unknown.spec.topology.variables = [{ name: 'nope', value: 1 }]
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: unknown, clusterClass, templates }), /spec\.topology\.variables\[nope\]: Invalid value: "1": variable is not defined/)
})

t.test('a GeneratePatches answer that does not apply fails the simulation, naming the hook and the template', async t => {
  const broken = defineHandler({
    hook: GeneratePatches,
    name: 'generate-patches',
    handler: (request) => ({ status: 'Success' as const, items: (request.items ?? []).map(i => ({ uid: i.uid, patchType: 'JSONPatch' as const, patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/template/spec/nope', value: 1 }])).toString('base64') })) })
  })
  const result = await simulate({ handlers: extensionWith(broken), cluster, clusterClass, templates })
  t.equal(result.outcome, 'failed')
  t.match(result.error, /^GeneratePatches generate-patches\.reference \(patch reference\): the patch of DevClusterTemplate loop-cluster \(infrastructureCluster\) does not apply: operation 0 \(replace \/spec\/template\/spec\/nope\)/)
})

t.test('a BeforeClusterCreate that never stops blocking is called every retryAfterSeconds until --max-blocked', async t => {
  const holding = defineHandler({ hook: BeforeClusterCreate, name: 'before-cluster-create', handler: async () => ({ status: 'Success' as const, retryAfterSeconds: 30, message: 'waiting for approval' }) })
  const result = await simulate({ handlers: extensionWith(holding), cluster, clusterClass, templates, maxBlockedSeconds: 120 })
  t.equal(result.outcome, 'failed')
  t.equal(result.error, 'BeforeClusterCreate still blocks after 2m0s (--max-blocked): "waiting for approval", retryAfterSeconds 30')
  t.same(result.timeline.filter(e => e.hook === 'BeforeClusterCreate').map(e => e.at), [0, 30, 60, 90, 120])
})

t.test('a hook answering the same request with a different message fails the determinism check', async t => {
  let n = 0
  const changing = defineHandler({ hook: BeforeClusterCreate, name: 'before-cluster-create', handler: async () => ({ status: 'Success' as const, message: `call ${++n}` }) })
  const result = await simulate({ handlers: extensionWith(changing), cluster, clusterClass, templates })
  t.equal(result.outcome, 'failed')
  t.match(result.error, /^BeforeClusterCreate before-cluster-create\.reference answered the same request twice differently: Success "call 1", then Success "call 2"/)
  const unchecked = await simulate({ handlers: extensionWith(changing), cluster, clusterClass, templates, checkDeterminism: false })
  t.equal(unchecked.outcome, 'completed', 'checkDeterminism: false lets it through')
})

t.test('inline patches: value, valueFrom.variable and valueFrom.template applied in the class\'s order', async t => {
  const inline = copy(clusterClass)
  inline.spec.variables = [{ name: 'region', required: true, schema: { openAPIV3Schema: { type: 'string', default: 'eu-1', 'x-kubernetes-validations': [{ rule: 'self != ""' }] } } }]
  inline.spec.patches = [{
    name: 'region',
    definitions: [{
      selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', matchResources: { machineDeploymentClass: { names: ['default-*'] } } },
      jsonPatches: [
        { op: 'add', path: '/spec/template/spec/providerID', valueFrom: { variable: 'region' } },
        { op: 'add', path: '/spec/template/spec/backend/inMemory/vm/provisioning/startupJitter', valueFrom: { template: '{{ .region }}-a' } },
        { op: 'add', path: '/spec/template/spec/backend/inMemory/node/provisioning/startupJitter', valueFrom: { variable: 'builtin.machineDeployment.version' } }
      ]
    }]
  }, ...clusterClass.spec.patches]
  const noVariables = copy(cluster)
  delete noVariables.spec.topology.variables
  const result = await simulate({ handlers: referenceHandlers(), cluster: noVariables, clusterClass: inline, templates })
  t.equal(result.outcome, 'completed', result.error ?? 'completed')
  const worker = result.templates.find(t => t.role === 'machineDeployment md-0 infrastructure')
  // Fields the DevMachineTemplate's schema declares: the API server refuses any other (server-side apply).
  t.same(worker?.diff.filter(op => op.path.startsWith('/spec/template/spec')).sort((a, b) => a.path < b.path ? -1 : 1), [
    { op: 'add', path: '/spec/template/spec/backend/inMemory/node/provisioning/startupJitter', value: 'v1.34.0' },
    { op: 'add', path: '/spec/template/spec/backend/inMemory/vm/provisioning/startupJitter', value: 'eu-1-a' },
    { op: 'add', path: '/spec/template/spec/providerID', value: 'eu-1' }
  ])
  t.same(result.templates.find(t => t.role === 'controlPlaneMachineInfrastructure')?.diff.filter(op => op.path.startsWith('/spec/template/spec')), [], 'the selector picks the worker class only')
  t.notOk(result.notes.some(n => /template/.test(n)), 'the Go template is rendered')
})

t.test('inline patches: matchResources.controlPlane and infrastructureCluster pick their templates and no other', async t => {
  const inline = copy(clusterClass)
  const mark = (kind: string, value: string, matchResources: Record<string, boolean>) => ({
    selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind, matchResources },
    // An annotation: every template takes one (a field its schema does not declare would be refused).
    jsonPatches: [{ op: 'add', path: '/metadata/annotations', value: { marked: value } }]
  })
  inline.spec.patches = [{
    name: 'mark',
    definitions: [mark('DevMachineTemplate', 'control plane', { controlPlane: true }), mark('DevClusterTemplate', 'cluster', { infrastructureCluster: true })]
  }, ...clusterClass.spec.patches]
  const result = await simulate({ handlers: referenceHandlers(), cluster, clusterClass: inline, templates })
  t.equal(result.outcome, 'completed', result.error ?? 'completed')
  const marked = (role: string) => result.templates.find(t => t.role === role)?.patched.metadata?.annotations?.['marked']
  t.equal(marked('controlPlaneMachineInfrastructure'), 'control plane', 'the control plane\'s machine template')
  t.equal(marked('infrastructureCluster'), 'cluster', 'the infrastructure cluster template')
  t.equal(marked('machineDeployment md-0 infrastructure'), undefined, 'not a worker\'s machine template of the same kind')
})

t.test('input that cannot be used is refused, naming the object, its source and the field', async t => {
  const sourceOf = (o: unknown) => o === clusterClass ? 'clusterclass.yaml' : o === cluster ? 'cluster.yaml' : undefined
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster, clusterClass, templates: templates.slice(1), sourceOf }),
    new SimulationInputError('ClusterClass default/loop (clusterclass.yaml): spec.infrastructure.templateRef names DevClusterTemplate default/loop-cluster (infrastructure.cluster.x-k8s.io/v1beta2), which is not among the inputs: pass the file that holds it'))
  const bad = copy(cluster)
  bad.spec.topology.version = 134
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: bad, clusterClass, templates, sourceOf: o => o === bad ? 'cluster.yaml' : undefined }),
    new SimulationInputError('Cluster default/loop (cluster.yaml): Cluster.cluster.x-k8s.io "loop" is invalid: [spec.topology.version: Invalid value: "integer": spec.topology.version in body must be of type string: "integer", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]'))
  const unknown = copy(cluster)
  unknown.spec.topology.colour = 'blue'
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster: unknown, clusterClass, templates }), new SimulationInputError('Cluster default/loop: strict decoding error: unknown field "spec.topology.colour"'))
  await t.rejects(simulate({ handlers: referenceHandlers(), clusterClass, templates }), /no Cluster with a spec\.topology among the inputs/)
  await t.rejects(simulate({ handlers: referenceHandlers(), cluster, clusterClass, templates, toVersion: 'v1.33.0' }), /toVersion v1\.33\.0 must be newer/)
})

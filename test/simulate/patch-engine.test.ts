// Cluster API's patch engine, one function at a time (simulate/patch-engine.ts, builtins.ts, inline-patches.ts):
// createRequest, addVariablesForPatch (variables.Global, ControlPlane, MachineDeployment), the inline generator's
// matchesSelector and Generate, applyPatchToRequest and updateDesiredState's preserved fields.
import t from 'tap'
import { computeDesiredObjects } from '../../src/simulate/desired-state.js'
import { generateInlinePatches, InlinePatchError, matchesSelector } from '../../src/simulate/inline-patches.js'
import { addVariablesForPatch, applyPatches, createRequest, type PatchEngineContext, PatchFailure } from '../../src/simulate/patch-engine.js'
import { seededRandom } from '../../src/simulate/seeded.js'
import type { Scope } from '../../src/simulate/scope.js'
import { exampleScope, scriptedContext } from '../helpers/simulate-scope.js'

const random = seededRandom('default/loop')

async function desiredOf (scope?: Scope) {
  const s = scope ?? await exampleScope({ cluster: c => { c.metadata.labels = { team: 'a' } } })
  const desired = computeDesiredObjects(s, { random, contract: 'v1beta2', controlPlaneVersion: 'v1.35.0', workerVersion: () => 'v1.35.0', upgrading: false })
  return { s, desired }
}

function engine (definitionsFrom: Record<string, string[]> = {}): PatchEngineContext {
  return { caller: scriptedContext().caller, contract: 'v1beta2', definitionsFrom: new Map(Object.entries(definitionsFrom).map(([k, v]) => [k, new Set(v)])), itemUid: role => `uid-${role}` }
}

t.test('createRequest: the class\'s templates in Cluster API\'s order, the desired objects\' labels and annotations synced in', async t => {
  const { s, desired } = await desiredOf()
  const request = createRequest(s.blueprint, desired, engine())
  t.same(request.items.map(i => i.role), ['infrastructureCluster', 'controlPlane', 'controlPlaneMachineInfrastructure', 'machineDeployment md-0 bootstrap', 'machineDeployment md-0 infrastructure'])
  t.same(request.items.map(i => `${i.holderReference.kind} ${i.holderReference.fieldPath}`), [
    'Cluster spec.infrastructureRef', 'Cluster spec.controlPlaneRef', 'KubeadmControlPlane spec.machineTemplate.spec.infrastructureRef',
    'MachineDeployment spec.template.spec.bootstrap.configRef', 'MachineDeployment spec.template.spec.infrastructureRef'
  ])
  const cp = request.items[1]?.object as { spec: { template: { metadata: { labels: Record<string, string> } } } }
  t.equal(cp.spec.template.metadata.labels['cluster.x-k8s.io/cluster-name'], 'loop', 'an object\'s template gets the labels under spec.template.metadata')
  const bootstrap = request.items[3]?.object as { metadata: { labels: Record<string, string>, annotations: Record<string, string> } }
  t.equal(bootstrap.metadata.labels['topology.cluster.x-k8s.io/deployment-name'], 'md-0', 'a template gets them in its own metadata')
  t.equal(bootstrap.metadata.annotations['cluster.x-k8s.io/cloned-from-name'], 'loop-worker')
  t.equal(request.items[2]?.holderReference.name, desired.controlPlane.object.metadata?.name)
})

t.test('addVariablesForPatch: only the variables the patch defines, the builtins of the desired objects', async t => {
  const { s, desired } = await desiredOf()
  const request = createRequest(s.blueprint, desired, engine())
  addVariablesForPatch(request, s.blueprint, desired, 'reference', engine({ referenceAnnotation: ['reference'], preKubeadmCommands: ['other'] }))
  t.same(request.variables.map(v => v.name), ['referenceAnnotation', 'builtin'])
  t.match(request.variables[1]?.value, { cluster: { name: 'loop', namespace: 'default', metadata: { labels: { team: 'a' } }, topology: { version: 'v1.35.0', class: 'loop', classNamespace: 'default' }, network: { serviceDomain: 'cluster.local' } } })
  t.equal(request.items[0]?.variables, undefined, 'the infrastructure cluster has no variables of its own')
  t.match(request.items[1]?.variables?.[0]?.value, { controlPlane: { version: 'v1.35.0', replicas: 1, name: desired.controlPlane.object.metadata?.name, machineTemplate: { infrastructureRef: { name: desired.controlPlane.infrastructureMachineTemplate?.metadata?.name } } } })
  t.match(request.items[3]?.variables?.[0]?.value, { machineDeployment: { version: 'v1.35.0', class: 'default-worker', topologyName: 'md-0', replicas: 1, bootstrap: { configRef: { name: desired.machineDeployments.get('md-0')?.bootstrap.metadata?.name } } } })
  const orphan = createRequest(s.blueprint, desired, engine())
  const item = orphan.items[3] as NonNullable<typeof orphan.items[3]>
  item.holderReference = { ...item.holderReference, name: 'nope' }
  t.throws(() => addVariablesForPatch(orphan, s.blueprint, desired, 'inline', engine()), new PatchFailure('could not find desired state for MachineDeployment default/nope'))
})

t.test('inline patches: matchesSelector by kind and place; enabledIf; the values; errors aggregated as Cluster API aggregates them', async t => {
  const { s, desired } = await desiredOf()
  const request = createRequest(s.blueprint, desired, engine())
  addVariablesForPatch(request, s.blueprint, desired, 'inline', engine())
  const dev = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate' }
  t.ok(matchesSelector(request.items[2] as never, { ...dev, matchResources: { controlPlane: true } }))
  t.notOk(matchesSelector(request.items[4] as never, { ...dev, matchResources: { controlPlane: true } }))
  t.ok(matchesSelector(request.items[4] as never, { ...dev, matchResources: { machineDeploymentClass: { names: ['*-worker'] } } }))
  t.notOk(matchesSelector(request.items[4] as never, { ...dev, kind: 'Other', matchResources: { machineDeploymentClass: { names: ['*'] } } }))

  const answer = generateInlinePatches({ name: 'p', enabledIf: '{{ eq .builtin.machineDeployment.class "default-worker" }}', definitions: [{ selector: { ...dev, matchResources: { controlPlane: true, machineDeploymentClass: { names: ['default-*'] } } }, jsonPatches: [{ op: 'add', path: '/spec/x', valueFrom: { template: 'v: {{ .builtin.machineDeployment.version }}' } }, { op: 'remove', path: '/spec/y' }] }] }, request)
  t.equal(answer.items?.length, 1, 'enabled for the worker\'s template only')
  t.same(JSON.parse(Buffer.from(answer.items?.[0]?.patch ?? '', 'base64').toString()), [{ op: 'add', path: '/spec/x', value: { v: 'v1.35.0' } }, { op: 'remove', path: '/spec/y' }])

  const broken = (jsonPatches: object[]) => () => generateInlinePatches({ name: 'p', definitions: [{ selector: { ...dev, matchResources: { controlPlane: true, machineDeploymentClass: { names: ['*'] } } }, jsonPatches: jsonPatches as never }] }, request)
  t.throws(broken([{ op: 'add', path: '/a' }]), new InlinePatchError('[failed to generate JSON patches for "DevMachineTemplate": failed to calculate value: neither .value nor .valueFrom are set, failed to generate JSON patches for "DevMachineTemplate": failed to calculate value: neither .value nor .valueFrom are set]'))
  t.throws(broken([{ op: 'add', path: '/a', valueFrom: { variable: 'nope' } }]), /failed to calculate value: variable "nope" does not exist/)
  t.throws(broken([{ op: 'add', path: '/a', valueFrom: { variable: 'builtin.nope' } }]), /variable "builtin\.nope" does not exist: failed to lookup segment "nope"/)
  t.throws(broken([{ op: 'add', path: '/a', value: 1, valueFrom: { variable: 'x' } }]), /both \.value and \.valueFrom are set/)
  t.throws(broken([{ op: 'add', path: '/a', valueFrom: {} }]), /neither \.valueFrom\.variable nor \.valueFrom\.template are set/)
  t.throws(broken([{ op: 'add', path: '/a', valueFrom: { variable: 'x', template: 'y' } }]), /both \.valueFrom\.variable and \.valueFrom\.template are set/)
})

t.test('applyPatches: an inline template error fails with Cluster API\'s message; an answer that does not apply names the template', async t => {
  const { s, desired } = await desiredOf()
  s.blueprint.clusterClass.spec = { ...s.blueprint.clusterClass.spec, patches: [{ name: 'bad', definitions: [{ selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', valueFrom: { template: '{{ fail "no region" }}' } }] }] }] }
  await t.rejects(applyPatches(s.blueprint, desired, engine()), /^failed to apply patches: failed to generate patches for patch "bad": failed to generate JSON patches for "DevClusterTemplate": failed to calculate value for template: failed to render template: "\{\{ fail \\"no region\\" \}\}": template: tpl:1:3: executing "tpl" at <fail "no region">: error calling fail: no region$/)
  s.blueprint.clusterClass.spec = { ...s.blueprint.clusterClass.spec, patches: [{ name: 'missing', definitions: [{ selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', matchResources: { infrastructureCluster: true } }, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/nope', value: 1 }] }] }] }
  await t.rejects(applyPatches(s.blueprint, desired, engine()), /^inline patch missing: the patch of DevClusterTemplate loop-cluster \(infrastructureCluster\) does not apply: operation 0 \(replace \/spec\/template\/spec\/nope\)/)
  s.blueprint.clusterClass.spec = { ...s.blueprint.clusterClass.spec, patches: [{ name: 'nothing' }] }
  await t.rejects(applyPatches(s.blueprint, desired, engine()), new PatchFailure('failed to apply patches: failed to create patch generator for patch "nothing"'))
})

t.test('updateDesiredState: patched templates reach the objects; the control plane keeps what the topology sets', async t => {
  const { s, desired } = await desiredOf()
  const cpTemplate = { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } }
  s.blueprint.clusterClass.spec = {
    ...s.blueprint.clusterClass.spec,
    patches: [{
      name: 'both',
      definitions: [{
        selector: cpTemplate,
        jsonPatches: [
          { op: 'add', path: '/spec/template/spec/version', value: 'v9.9.9' },
          { op: 'add', path: '/spec/template/spec/kubeadmConfigSpec/preKubeadmCommands', value: ['echo'] },
          { op: 'add', path: '/spec/template/metadata/labels/patched', value: 'yes' }
        ]
      }]
    }]
  }
  await applyPatches(s.blueprint, desired, engine())
  const cp = desired.controlPlane.object as { metadata: { labels: Record<string, string> }, spec: { version: string, kubeadmConfigSpec: { preKubeadmCommands: string[] } } }
  t.equal(cp.spec.version, 'v1.35.0', 'the version is the topology\'s, whatever the patch says')
  t.same(cp.spec.kubeadmConfigSpec.preKubeadmCommands, ['echo'])
  t.equal(cp.metadata.labels['patched'], 'yes', 'spec.template.metadata becomes the object\'s metadata')
  t.equal(cp.metadata.labels['cluster.x-k8s.io/cluster-name'], 'loop')
})

// The rollout impact of a candidate extension (src/impact): the example Cluster created with the reference
// extension, then the desired state computed with version 1 and with a version 2 compared as Cluster API compares it.
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { clusterImpact } from '../../src/impact/impact.js'
import { ReplacedExtensionClient } from '../../src/impact/replaced-extension.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import type { ExtensionHandler } from '../../src/server/types.js'
import { InProcessRuntimeClient, simulate } from '../../src/simulate/index.js'
import { referenceHandlersV2 } from '../helpers/reference-extension-v2.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const classAndTemplates = [...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)]
const created = await simulate({ handlers: referenceHandlers(), objects: [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...classAndTemplates], delete: false })
const state = created.state
if (!state) throw new Error(`the example Cluster was not created: ${created.error ?? ''}`)
const client = (handlers: ExtensionHandler[]) => new InProcessRuntimeClient(createInProcessExtension({ handlers }), 'reference')
const impactOf = async (candidate: ExtensionHandler[]) => await clusterImpact({ objects: [state.cluster, ...classAndTemplates], current: state.current, registered: client(referenceHandlers()), candidate: client(candidate) })
const byRole = (impact: Awaited<ReturnType<typeof impactOf>>) => Object.fromEntries(impact.objects.map(o => [o.role, o]))

t.test('the same version changes nothing', async t => {
  const impact = await impactOf(referenceHandlers())
  t.equal(impact.cluster, 'default/loop')
  t.same(impact.objects.map(o => [o.role, o.effect, o.changes.length]), [['infrastructureCluster', 'none', 0], ['controlPlane', 'none', 0], ['machineDeployment md-0', 'none', 0]])
  t.ok(impact.calls > 0, 'both versions were called')
})

t.test('a spec change of a MachineDeployment\'s template rolls out that MachineDeployment only', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('command')))
  t.equal(impact['controlPlane']?.effect, 'none')
  t.equal(impact['machineDeployment md-0']?.effect, 'rollout')
  t.match(impact['machineDeployment md-0']?.changes, [{ object: /^KubeadmConfigTemplate /, path: '/spec/template/spec/preKubeadmCommands/1', after: 'echo v2', effect: 'rollout' }])
  t.match(impact['machineDeployment md-0']?.inPlace, { hook: 'CanUpdateMachineSet', accepted: false }, 'version 1\'s CanUpdateMachineSet only updates versions in place')
})

t.test('a label of a MachineDeployment\'s templates is patched in place: nothing rolls out', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('label')))
  t.equal(impact['machineDeployment md-0']?.effect, 'none')
  t.match(impact['machineDeployment md-0']?.changes, [{ path: '/metadata/labels/example.com~1extension-version', after: 'v2', effect: 'none' }, { path: '/metadata/labels/example.com~1extension-version', effect: 'none' }])
})

t.test('a change the candidate\'s CanUpdateMachineSet takes is reported in place', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('in-place')))
  t.equal(impact['machineDeployment md-0']?.effect, 'in-place')
  t.match(impact['machineDeployment md-0']?.inPlace, { hook: 'CanUpdateMachineSet', handler: 'can-update-machineset.reference', accepted: true })
})

t.test('what the API server refuses is predicted refused, with Cluster API\'s error, and what comes after it waits', async t => {
  const forbidden = await impactOf(referenceHandlersV2('forbidden'))
  const cp = byRole(forbidden)['controlPlane']
  t.equal(cp?.effect, 'refused', 'the KubeadmControlPlane webhook does not let certificatesDir change')
  t.match(cp?.refused, /^failed to create patch helper for KubeadmControlPlane default\/loop-\w+: server side apply dry-run failed for modified object: admission webhook "validation\.kubeadmcontrolplane\.controlplane\.cluster\.x-k8s\.io" denied the request: KubeadmControlPlane\.controlplane\.cluster\.x-k8s\.io "loop-\w+" is invalid: spec\.kubeadmConfigSpec\.clusterConfiguration\.certificatesDir: Forbidden: cannot be modified$/)
  t.match(forbidden.topologyReconciled, { status: 'False', reason: 'ReconcileFailed', message: /^error reconciling the Cluster topology: failed to create patch helper for KubeadmControlPlane / })

  const conflicting = await impactOf(referenceHandlersV2('conflicting-file'))
  const md = byRole(conflicting)['machineDeployment md-0']
  t.equal(md?.effect, 'refused')
  t.match(md?.refused, /^failed to reconcile MachineDeployment default\/loop-md-0-\w+: failed to create patch helper for KubeadmConfigTemplate default\/loop-md-0-\w+: server side apply dry-run failed for modified object: admission webhook "validation\.kubeadmconfigtemplate\.bootstrap\.cluster\.x-k8s\.io" denied the request: KubeadmConfigTemplate\.bootstrap\.cluster\.x-k8s\.io "loop-md-0-\w+" is invalid: spec\.template\.spec\.files\[0\]: Invalid value: \{"path":"\/etc\/v2","content":"v2","contentFrom":\{"secret":\{"name":"v2","key":"v2"\}\}\}: only one of content or contentFrom may be specified for a single file$/)
  t.notOk(md?.inPlace, 'a refused MachineDeployment is not asked to update in place')
  t.equal(byRole(conflicting)['controlPlane']?.effect, 'none', 'what Cluster API writes before it stands')
})

t.test('a value the API server or a webhook defaults anyway changes nothing: both sides are compared as dry runs return them', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('default-value')))
  t.equal(impact['machineDeployment md-0']?.effect, 'none', 'format: cloud-config is the KubeadmConfigTemplate webhook\'s default on dry runs')
  t.same(impact['machineDeployment md-0']?.changes, [])
})

t.test('a control plane change its Machines\' CanUpdateMachine takes is made in place, but for the Machine KCP surges first', async t => {
  const cp = state.current.controlPlane.object as Record<string, any>
  const machine = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name: 'loop-cp-1', namespace: 'default', labels: { 'cluster.x-k8s.io/control-plane': '' } }, spec: { clusterName: 'loop', version: cp['spec'].version, bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'loop-cp-1' } }, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachine', name: 'loop-cp-1' } } }
  const bootstrapConfig = { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: 'loop-cp-1', namespace: 'default' }, spec: structuredClone(cp['spec'].kubeadmConfigSpec) }
  const infrastructureMachine = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachine', metadata: { name: 'loop-cp-1', namespace: 'default' }, spec: { backend: { inMemory: {} } } }
  const current = { ...state.current, controlPlane: { ...state.current.controlPlane, machines: [{ machine, bootstrapConfig, infrastructureMachine }] } }
  const impact = async (candidate: InProcessRuntimeClient | ReplacedExtensionClient) => byRole(await clusterImpact({ objects: [state.cluster, ...classAndTemplates], current, registered: client(referenceHandlers()), candidate }))['controlPlane']
  const files = await impact(client(referenceHandlersV2('files')))
  t.match(files?.inPlace, { hook: 'CanUpdateMachine', handler: 'can-update-machine.reference', accepted: true, reason: /for every control plane Machine.*KCP first makes 1 new Machine \(maxSurge 1\)/ })
  t.match(files, { effect: 'rollout', machines: 1 }, 'one Machine replaced, the others updated in place')
  const disabled = await impact(new ReplacedExtensionClient(client(referenceHandlers()), client(referenceHandlersV2('files')), 'reference', { settings: { disableInPlaceUpdates: 'true' } }))
  t.match(disabled, { effect: 'rollout', inPlace: { accepted: false, reason: /leave Machine loop-cp-1 to a rollout: the KubeadmConfig still differs/ } }, 'the setting that refuses in-place updates reaches the candidate')
  const command = await impact(client(referenceHandlersV2('forbidden')))
  t.equal(command?.effect, 'refused', 'a refused control plane is not asked')
  t.notOk(command?.inPlace)
})

t.test('what a provider\'s webhook cannot decode is refused with its message; what KCP does not compare rolls nothing out', async t => {
  const duration = byRole(await impactOf(referenceHandlersV2('bad-duration')))['machineDeployment md-0']
  t.equal(duration?.effect, 'refused')
  t.match(duration?.refused, /: failed to create patch helper for DevMachineTemplate default\/loop-md-0-\w+: server side apply dry-run failed for modified object: admission webhook "default\.devmachinetemplate\.infrastructure\.cluster\.x-k8s\.io" denied the request: time: invalid duration "soon"$/)
  const init = byRole(await impactOf(referenceHandlersV2('init-configuration')))['controlPlane']
  t.equal(init?.effect, 'none')
  t.match(init?.changes, [{ path: /^\/spec\/kubeadmConfigSpec\/initConfiguration\//, effect: 'none', why: /first Machine's kubeadm init/ }])
})

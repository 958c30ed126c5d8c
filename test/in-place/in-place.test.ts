// runtime-sdk/in-place: the CanUpdate* answers computed from the declared fields, and UpdateMachine's updates as
// Cluster API drives them (called again after each retryAfterSeconds): accepted, refused, in progress, retried,
// cancelled by the deadline, failed. Through the serving core, as the extension server answers them.
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { applyPatch, type Operation } from 'rfc6902'
import { CanUpdateMachine, CanUpdateMachineSet, UpdateMachine } from '../../src/api/hooks/v1alpha1/index.js'
import { inPlaceUpdates, type InPlaceUpdaterOptions } from '../../src/in-place/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'

type Json = Record<string, any>
const decode = (p: { patch?: string } | undefined) => JSON.parse(Buffer.from(p?.patch ?? '', 'base64').toString()) as Operation[]
const patched = <T>(object: T, p: { patch?: string } | undefined): T => {
  const copy = structuredClone(object)
  applyPatch(copy, decode(p))
  return copy
}

const machine = (version: string, extra: Json = {}): Json => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name: 'm-1', namespace: 'default' }, spec: { clusterName: 'c', version, bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'm-1' } }, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachine', name: 'm-1' }, ...extra } })
const kubeadmConfig = (files: Json[], etcdTag = '3.6.4-0', extra: Json = {}): Json => ({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: 'm-1', namespace: 'default' }, spec: { files, clusterConfiguration: { etcd: { local: { imageTag: etcdTag } } }, ...extra } })
const devMachine = (): Json => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachine', metadata: { name: 'm-1', namespace: 'default' }, spec: { backend: { inMemory: {} } } })
const template = (kind: string, spec: Json): Json => ({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind, metadata: { name: 't', namespace: 'default' }, spec: { template: { spec } } })

function extension (options: Partial<InPlaceUpdaterOptions> = {}) {
  const handlers = inPlaceUpdates({
    fields: { machine: ['version'], bootstrap: { KubeadmConfig: ['files', 'clusterConfiguration.etcd.local.imageTag'] } },
    update: async () => {},
    retryAfterSeconds: 1,
    ...options
  })
  const ext = createInProcessExtension({ handlers })
  return {
    canUpdateMachine: async (request: Json) => (await ext.call(CanUpdateMachine, 'can-update-machine', request as never)) as Json,
    canUpdateMachineSet: async (request: Json) => (await ext.call(CanUpdateMachineSet, 'can-update-machineset', request as never)) as Json,
    updateMachine: async (request: Json) => (await ext.call(UpdateMachine, 'update-machine', request as never)) as Json
  }
}

t.test('a change of declared fields only: the patches make the current objects the desired ones', async t => {
  const current = { machine: machine('v1.34.0'), bootstrapConfig: kubeadmConfig([{ path: '/a', content: 'a' }]), infrastructureMachine: devMachine() }
  const desired = { machine: machine('v1.35.0'), bootstrapConfig: kubeadmConfig([{ path: '/a', content: 'b' }], '3.6.5-0'), infrastructureMachine: devMachine() }
  const answer = await extension().canUpdateMachine({ settings: {}, current, desired })
  t.equal(answer['status'], 'Success')
  t.same(patched(current.machine, answer['machinePatch']), desired.machine)
  t.same(patched(current.bootstrapConfig, answer['bootstrapConfigPatch']), desired.bootstrapConfig)
  t.same(decode(answer['infrastructureMachinePatch']), [], 'nothing declared for DevMachine: an empty patch')
})

t.test('a change of a field not declared stays: Cluster API sees the objects differ and rolls out', async t => {
  const current = { machine: machine('v1.34.0'), bootstrapConfig: kubeadmConfig([], '3.6.4-0', { preKubeadmCommands: ['a'] }), infrastructureMachine: devMachine() }
  const desired = { machine: machine('v1.34.0'), bootstrapConfig: kubeadmConfig([], '3.6.4-0', { preKubeadmCommands: ['b'] }), infrastructureMachine: devMachine() }
  const answer = await extension().canUpdateMachine({ settings: {}, current, desired })
  t.same(decode(answer['bootstrapConfigPatch']), [], 'preKubeadmCommands is not the updater\'s')
  t.notSame(patched(current.bootstrapConfig, answer['bootstrapConfigPatch']), desired.bootstrapConfig)
})

t.test('CanUpdateMachineSet: the same fields under spec.template.spec, a KubeadmConfigTemplate by KubeadmConfig\'s', async t => {
  const ms = (version: string) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', metadata: { name: 'ms', namespace: 'default' }, spec: { clusterName: 'c', template: { spec: { clusterName: 'c', version } } } })
  const current = { machineSet: ms('v1.34.0'), bootstrapConfigTemplate: template('KubeadmConfigTemplate', { files: [] }), infrastructureMachineTemplate: template('DevMachineTemplate', {}) }
  const desired = { machineSet: ms('v1.35.0'), bootstrapConfigTemplate: template('KubeadmConfigTemplate', { files: [{ path: '/x', content: 'x' }] }), infrastructureMachineTemplate: template('DevMachineTemplate', {}) }
  const answer = await extension().canUpdateMachineSet({ settings: {}, current, desired })
  t.same(patched(current.machineSet, answer['machineSetPatch']), desired.machineSet)
  t.same(patched(current.bootstrapConfigTemplate, answer['bootstrapConfigTemplatePatch']), desired.bootstrapConfigTemplate)
})

t.test('not enabled by the settings: no patches (Cluster API rolls out), and UpdateMachine fails', async t => {
  const ext = extension({ enabled: settings => settings['inPlace'] === 'on' })
  const answer = await ext.canUpdateMachine({ settings: {}, current: { machine: machine('v1.34.0') }, desired: { machine: machine('v1.35.0') } })
  t.same(answer, { kind: 'CanUpdateMachineResponse', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', status: 'Success' })
  const update = await ext.updateMachine({ settings: {}, desired: { machine: machine('v1.35.0') } })
  t.match(update, { status: 'Failure', message: 'in-place updates are not offered, yet UpdateMachine was called' })
})

t.test('UpdateMachine: in progress with the update\'s progress, retried calls find it running, then done, and done again', async t => {
  let started = 0
  let finish: () => void = () => {}
  const ext = extension({
    update: async (_desired, { progress }) => {
      started++
      progress('draining the node')
      await new Promise<void>(resolve => { finish = resolve })
    }
  })
  const request = { settings: {}, desired: { machine: machine('v1.35.0'), bootstrapConfig: kubeadmConfig([]), infrastructureMachine: devMachine() } }
  t.match(await ext.updateMachine(request), { status: 'Success', message: 'draining the node', retryAfterSeconds: 1 })
  t.match(await ext.updateMachine(request), { status: 'Success', message: 'draining the node', retryAfterSeconds: 1 }, 'a retried call finds it in progress')
  t.equal(started, 1, 'started once')
  finish()
  await sleep(10)
  const done = await ext.updateMachine(request)
  t.match(done, { status: 'Success', message: 'updated Machine default/m-1 in place', retryAfterSeconds: 0 })
  t.same(await ext.updateMachine(request), done, 'a call after a lost answer: done again, not updated twice')
  t.equal(started, 1)
  await ext.updateMachine({ ...request, desired: { ...request.desired, machine: machine('v1.36.0') } })
  t.equal(started, 2, 'another desired state is another update')
  finish()
})

t.test('a failed update is Cluster API\'s Failure answer, once; the next call tries again', async t => {
  let attempts = 0
  const ext = extension({ update: async () => { attempts++; throw new Error('the node did not come back') } })
  const request = { settings: {}, desired: { machine: machine('v1.35.0') } }
  await ext.updateMachine(request)
  await sleep(10)
  t.match(await ext.updateMachine(request), { status: 'Failure', message: 'the node did not come back' })
  t.match(await ext.updateMachine(request), { status: 'Success', retryAfterSeconds: 1 }, 'started again')
  t.equal(attempts, 2)
})

t.test('an update past its deadline is cancelled through its signal and fails with that reason', async t => {
  let aborted = false
  const ext = extension({
    deadlineSeconds: 0.05,
    update: async (_desired, { signal }) => {
      await new Promise((_resolve, reject) => signal.addEventListener('abort', () => { aborted = true; reject(signal.reason) }))
    }
  })
  const request = { settings: {}, desired: { machine: machine('v1.35.0') } }
  t.match(await ext.updateMachine(request), { retryAfterSeconds: 1 })
  await sleep(100)
  t.ok(aborted, 'the signal aborted')
  t.match(await ext.updateMachine(request), { status: 'Failure', message: 'the update of Machine default/m-1 did not finish within 0.05s' })
})

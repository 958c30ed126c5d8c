// The reference extension end to end over HTTPS, fed with requests Cluster API's Go types marshalled.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { applyMergePatch } from '../../src/topology/merge-patch.js'
import { createCatalog } from '../../src/catalog/default.js'
import { applyPatch, type Operation } from 'rfc6902'
import { referenceHandlers, ANNOTATION, planUpgrade, parseResponses, VERSION_LABEL } from '../../src/reference-extension/index.js'
import { API, call, sleep, start, tlsFixture } from '../helpers/server.js'

const catalog = createCatalog()
const fixtures = new URL('../fixtures/v1alpha1/', import.meta.url)
const fixture = (hook: string) => readFileSync(new URL(`${hook.toLowerCase()}.request.json`, fixtures), 'utf8')
const gvh = (hook: string) => ({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook })

const dir = t.testdir()
const responsesFile = join(dir, 'responses.yaml')
const tls = await tlsFixture(dir)
const { url, server } = await start(t, tls, { handlers: referenceHandlers({ responsesFile, updateMachineDurationMs: 300, updateMachineRetryAfterSeconds: 1 }) })
const ca = tls.ca.cert

const EXPECTED = [
  ['before-cluster-create', 'BeforeClusterCreate'], ['after-control-plane-initialized', 'AfterControlPlaneInitialized'],
  ['before-cluster-upgrade', 'BeforeClusterUpgrade'], ['before-control-plane-upgrade', 'BeforeControlPlaneUpgrade'],
  ['after-control-plane-upgrade', 'AfterControlPlaneUpgrade'], ['before-workers-upgrade', 'BeforeWorkersUpgrade'],
  ['after-workers-upgrade', 'AfterWorkersUpgrade'], ['after-cluster-upgrade', 'AfterClusterUpgrade'], ['before-cluster-delete', 'BeforeClusterDelete'],
  ['generate-patches', 'GeneratePatches'], ['validate-topology', 'ValidateTopology'], ['discover-variables', 'DiscoverVariables'],
  ['can-update-machine', 'CanUpdateMachine'], ['can-update-machineset', 'CanUpdateMachineSet'], ['update-machine', 'UpdateMachine'],
  ['generate-upgrade-plan', 'GenerateUpgradePlan']
] as const

async function hookCall (hook: string, name: string, body: string) {
  const reply = await call(url, `/${API}/${hook.toLowerCase()}/${name}?timeout=10s`, body, { ca })
  t.equal(reply.status, 200, `${hook}: HTTP 200`)
  const valid = catalog.validateResponse(gvh(hook), reply.json)
  t.same(valid, { valid: true }, `${hook}: the response validates`)
  return reply.json
}

t.test('discovery announces every v1alpha1 hook under the names of Cluster API\'s test extension', async (t) => {
  const reply = await call(url, `/${API}/discovery`, fixture('Discovery'), { ca })
  t.same(reply.json.handlers, EXPECTED.map(([name, hook]) => ({ name, requestHook: { apiVersion: API, hook } })))
  const implemented = new Set<string>(EXPECTED.map(([, hook]) => hook))
  t.same(catalog.all().filter(h => h.gvh.group === 'hooks.runtime.cluster.x-k8s.io' && h.gvh.hook !== 'Discovery' && !implemented.has(h.gvh.hook)).map(h => h.gvh.hook), [], 'no v1alpha1 hook left out')
})

t.test('every hook answers the Go-marshalled fixture with a valid response', async (t) => {
  for (const [name, hook] of EXPECTED) {
    const response = await hookCall(hook, name, fixture(hook))
    t.equal(response.status, 'Success', `${hook}: Success`)
    t.equal(response.kind, `${hook}Response`)
  }
})

t.test('lifecycle hooks answer from the responses file, re-read when it changes', async (t) => {
  const body = fixture('BeforeClusterUpgrade')
  t.same(await hookCall('BeforeClusterUpgrade', 'before-cluster-upgrade', body), { kind: 'BeforeClusterUpgradeResponse', apiVersion: API, status: 'Success', retryAfterSeconds: 0 }, 'no file: Success, not blocking')
  writeFileSync(responsesFile, 'BeforeClusterUpgrade:\n  status: Success\n  message: waiting for approval\n  retryAfterSeconds: 10\nBeforeClusterDelete: { Status: Failure, Message: deletion is disabled }\n')
  t.same(await hookCall('BeforeClusterUpgrade', 'before-cluster-upgrade', body), { kind: 'BeforeClusterUpgradeResponse', apiVersion: API, status: 'Success', message: 'waiting for approval', retryAfterSeconds: 10 }, 'blocked')
  t.same(await hookCall('BeforeClusterDelete', 'before-cluster-delete', fixture('BeforeClusterDelete')), { kind: 'BeforeClusterDeleteResponse', apiVersion: API, status: 'Failure', message: 'deletion is disabled', retryAfterSeconds: 0 }, 'keys are case-insensitive')
  t.same(await hookCall('BeforeClusterCreate', 'before-cluster-create', fixture('BeforeClusterCreate')), { kind: 'BeforeClusterCreateResponse', apiVersion: API, status: 'Success', retryAfterSeconds: 0 }, 'hooks not in the file keep the default')
  await sleep(20)
  writeFileSync(responsesFile, '{"BeforeClusterUpgrade": {"status": "Success", "retryAfterSeconds": 0}}')
  t.same(await hookCall('BeforeClusterUpgrade', 'before-cluster-upgrade', body), { kind: 'BeforeClusterUpgradeResponse', apiVersion: API, status: 'Success', retryAfterSeconds: 0 }, 'released (JSON file)')
  await sleep(20)
  writeFileSync(responsesFile, 'BeforeClusterUpgrade: { status: Maybe }')
  t.same(await hookCall('BeforeClusterUpgrade', 'before-cluster-upgrade', body), { kind: 'BeforeClusterUpgradeResponse', apiVersion: API, status: 'Failure', message: `responses file ${responsesFile} is not valid: BeforeClusterUpgrade.status: must be "Success" or "Failure"`, retryAfterSeconds: 0 })
  const aci = await hookCall('AfterControlPlaneInitialized', 'after-control-plane-initialized', fixture('AfterControlPlaneInitialized'))
  t.equal(aci.status, 'Failure', 'the broken file fails every lifecycle hook')
  t.notOk('retryAfterSeconds' in aci, 'non-blocking hook has no retryAfterSeconds')
  await sleep(20)
  writeFileSync(responsesFile, '')
  t.equal((await hookCall('BeforeClusterUpgrade', 'before-cluster-upgrade', body)).status, 'Success', 'empty file: defaults')
})

t.test('GeneratePatches answers the Failure the responses file presets, and its patches again once released', async (t) => {
  const body = fixture('GeneratePatches')
  await sleep(20)
  writeFileSync(responsesFile, 'GeneratePatches: { status: Failure, message: patches are frozen }\n')
  t.same(await hookCall('GeneratePatches', 'generate-patches', body), { kind: 'GeneratePatchesResponse', apiVersion: API, status: 'Failure', message: 'patches are frozen' })
  await sleep(20)
  writeFileSync(responsesFile, 'GeneratePatches: { status: Success }\n')
  const released = await hookCall('GeneratePatches', 'generate-patches', body)
  t.equal(released.status, 'Success')
  t.ok((released.items as unknown[]).length > 0, 'its patches')
  await sleep(20)
  writeFileSync(responsesFile, '')
})

t.test('parseResponses rejects what it cannot answer', async (t) => {
  t.throws(() => parseResponses(['x']), /must map hook names/)
  t.throws(() => parseResponses({ A: 'x' }), /A: must be an object/)
  t.throws(() => parseResponses({ A: { message: 3 } }), /A.message: must be a string/)
  t.throws(() => parseResponses({ A: { retryAfterSeconds: -1 } }), /A.retryAfterSeconds/)
  t.same([...parseResponses({ A: {} })], [['a', { status: 'Success', retryAfterSeconds: 0 }]])
})

/** What Cluster API does with a GeneratePatches answer's item: decode the patch and apply it to the template it sent. */
function applied (object: unknown, item: { patchType: string, patch: string }): any {
  const patch: unknown = JSON.parse(Buffer.from(item.patch, 'base64').toString('utf8'))
  if (item.patchType === 'JSONMergePatch') return applyMergePatch(structuredClone(object), patch)
  const copy = structuredClone(object)
  t.same(applyPatch(copy, patch as Operation[]).filter(r => r !== null), [], 'the JSON Patch applies')
  return copy
}

/** The GeneratePatches fixture with the reference extension's variables set, globally and on the worker template. */
function patchesRequest () {
  const request = JSON.parse(fixture('GeneratePatches'))
  request.variables.push({ name: 'files', value: [{ path: '/etc/reference', content: 'global' }] }, { name: 'preKubeadmCommands', value: ['echo one'] })
  request.items[1].variables.push({ name: 'referenceAnnotation', value: 'team-b' })
  request.items[3].variables.push({ name: 'files', value: [{ path: '/etc/worker' }] })
  delete request.items[2].object.metadata
  return request
}

for (const patchFormat of ['JSONPatch', 'JSONMergePatch']) {
  t.test(`GeneratePatches (${patchFormat}): the annotation on every template, files, commands and version labels on the kubeadm templates`, async (t) => {
    const request = patchesRequest()
    if (patchFormat === 'JSONMergePatch') request.settings = { ...request.settings, patchFormat }
    const response = await hookCall('GeneratePatches', 'generate-patches', JSON.stringify(request))
    t.same(response.items.map((i: { uid: string }) => i.uid), request.items.map((i: { uid: string }) => i.uid), 'one patch per template, same uids')
    const patched = response.items.map((item: { patchType: string, patch: string }, i: number) => {
      t.equal(item.patchType, patchFormat)
      t.match(item.patch, /^[A-Za-z0-9+/]+=*$/, 'standard base64')
      return applied(request.items[i].object, item)
    })
    for (const [i, template] of patched.entries()) t.equal(template.metadata.annotations[ANNOTATION], i === 1 ? 'team-b' : 'reference-extension', `item ${i} annotated`)
    const [, kcp, machine, worker, pool] = patched
    const cp = kcp.spec.template.spec.kubeadmConfigSpec
    t.same(cp.files.at(-1), { path: '/etc/reference', content: 'global', owner: 'root:root', permissions: '0600' }, 'the control plane gets the global files')
    t.same(cp.preKubeadmCommands.at(-1), 'echo one')
    t.same(cp.initConfiguration.nodeRegistration.kubeletExtraArgs.at(-1), { name: 'node-labels', value: 'kubernetesVersion=v1.33.0' }, 'from builtin.controlPlane.version')
    t.same(worker.spec.template.spec.files.at(-1), { path: '/etc/worker', content: '', owner: 'root:root', permissions: '0600' }, 'the worker template\'s own files win')
    t.same(worker.spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.at(-1), { name: 'node-labels', value: 'kubernetesVersion=v1.33.0' }, 'from builtin.machineDeployment.version')
    t.same(machine.spec, request.items[2].object.spec, 'DockerMachineTemplate (not a kind of Cluster API\'s in-memory provider): spec untouched')
    t.same(pool.spec, request.items[4].object.spec, 'DockerMachinePoolTemplate: spec untouched')
  })
}

t.test('GeneratePatches: DevMachineTemplates get the version label for their machines; bad variables and settings are Failures', async (t) => {
  const request = patchesRequest()
  Object.assign(request.items[2].object, { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', spec: { template: { spec: { backend: { inMemory: {} } } } } })
  request.items[2].variables = [{ name: 'builtin', value: { controlPlane: { version: 'v1.34.0+build.1' } } }]
  const response = await hookCall('GeneratePatches', 'generate-patches', JSON.stringify(request))
  t.same(applied(request.items[2].object, response.items[2]).spec.template.metadata, { labels: { [VERSION_LABEL]: 'v1.34.0_build.1' } })
  request.variables.push({ name: 'referenceAnnotation', value: 42 })
  const bad = await hookCall('GeneratePatches', 'generate-patches', JSON.stringify(request))
  t.equal(bad.status, 'Failure')
  t.match(bad.message, /^DockerClusterTemplate \S*capi-interop-q9v4d \(holder Cluster default\/capi-interop, spec.infrastructureRef\): variable "referenceAnnotation" is not a string: it is a number$/)
  const files = patchesRequest()
  files.variables.push({ name: 'files', value: [{ content: 'no path' }] })
  t.match(await hookCall('GeneratePatches', 'generate-patches', JSON.stringify(files)), { status: 'Failure', message: /KubeadmControlPlaneTemplate .*: variable "files" is invalid: \[0\]\.path: Required value$/ })
  const setting = patchesRequest()
  setting.settings = { patchFormat: 'Strategic' }
  t.same((await hookCall('GeneratePatches', 'generate-patches', JSON.stringify(setting))).message, 'setting patchFormat must be one of JSONPatch, JSONMergePatch, not "Strategic"')
})

t.test('ValidateTopology rejects missing required variables and an invalid referenceAnnotation', async (t) => {
  const request = JSON.parse(fixture('ValidateTopology'))
  request.settings.requiredVariables = 'imageRepository, nodeLabels'
  t.equal((await hookCall('ValidateTopology', 'validate-topology', JSON.stringify(request))).status, 'Success', 'present variables pass')
  request.settings.requiredVariables = 'imageRepository,clusterRegion'
  request.items[0].variables = [{ name: 'referenceAnnotation', value: '' }]
  const reply = await hookCall('ValidateTopology', 'validate-topology', JSON.stringify(request))
  t.same(reply, { kind: 'ValidateTopologyResponse', apiVersion: API, status: 'Failure', message: 'required variable clusterRegion is not set; items[0] variable referenceAnnotation must be a non-empty string' })
})

t.test('DiscoverVariables defines referenceAnnotation, files and preKubeadmCommands', async (t) => {
  const reply = await hookCall('DiscoverVariables', 'discover-variables', fixture('DiscoverVariables'))
  t.match(reply.variables, [
    { name: 'referenceAnnotation', required: false, schema: { openAPIV3Schema: { type: 'string', default: 'reference-extension' } } },
    { name: 'files', required: false, schema: { openAPIV3Schema: { type: 'array', items: { type: 'object', required: ['path'] } } } },
    { name: 'preKubeadmCommands', required: false, schema: { openAPIV3Schema: { type: 'array', items: { type: 'string' } } } }
  ])
})

t.test('CanUpdateMachine(Set) offer in place what Cluster API\'s test extension can change (the version here), unless disabled', async (t) => {
  const decode = (patch: { patchType: string, patch: string }) => JSON.parse(Buffer.from(patch.patch, 'base64').toString())
  const machine = await hookCall('CanUpdateMachine', 'can-update-machine', fixture('CanUpdateMachine'))
  t.equal(machine.machinePatch.patchType, 'JSONPatch')
  t.same(decode(machine.machinePatch), [{ op: 'replace', path: '/spec/version', value: 'v1.33.0' }])
  t.same(decode(machine.infrastructureMachinePatch), [], 'nothing else changes')
  const set = await hookCall('CanUpdateMachineSet', 'can-update-machineset', fixture('CanUpdateMachineSet'))
  t.same(decode(set.machineSetPatch), [{ op: 'replace', path: '/spec/template/spec/version', value: 'v1.33.0' }])
  const disabled = JSON.parse(fixture('CanUpdateMachine'))
  disabled.settings.disableInPlaceUpdates = 'true'
  t.same(await hookCall('CanUpdateMachine', 'can-update-machine', JSON.stringify(disabled)), { kind: 'CanUpdateMachineResponse', apiVersion: API, status: 'Success' }, 'no patch: Cluster API rolls out')
  const same = JSON.parse(fixture('CanUpdateMachineSet'))
  same.current = same.desired
  t.same(decode((await hookCall('CanUpdateMachineSet', 'can-update-machineset', JSON.stringify(same))).machineSetPatch), [], 'nothing to change')
})

t.test('UpdateMachine is in progress, then done, idempotently', async (t) => {
  const request = JSON.parse(fixture('UpdateMachine'))
  request.desired.machine.metadata.name = 'machine-under-test'
  const body = JSON.stringify(request)
  const first = await hookCall('UpdateMachine', 'update-machine', body)
  t.same(first, { kind: 'UpdateMachineResponse', apiVersion: API, status: 'Success', message: 'Extension is updating Machine default/machine-under-test', retryAfterSeconds: 1 })
  t.equal((await hookCall('UpdateMachine', 'update-machine', body)).retryAfterSeconds, 1, 'still in progress')
  await sleep(350)
  const done = { kind: 'UpdateMachineResponse', apiVersion: API, status: 'Success', message: 'updated Machine default/machine-under-test in place', retryAfterSeconds: 0 }
  t.same(await hookCall('UpdateMachine', 'update-machine', body), done)
  t.same(await hookCall('UpdateMachine', 'update-machine', body), done, 'idempotent')
  request.settings.disableInPlaceUpdates = 'true'
  t.same(await hookCall('UpdateMachine', 'update-machine', JSON.stringify(request)), { kind: 'UpdateMachineResponse', apiVersion: API, status: 'Failure', message: 'in-place updates are not offered, yet UpdateMachine was called', retryAfterSeconds: 0 })
})

t.test('GenerateUpgradePlan returns one step per minor', async (t) => {
  const reply = await hookCall('GenerateUpgradePlan', 'generate-upgrade-plan', fixture('GenerateUpgradePlan'))
  t.same(reply, { kind: 'GenerateUpgradePlanResponse', apiVersion: API, status: 'Success', controlPlaneUpgrades: [{ version: 'v1.32.0' }, { version: 'v1.33.0' }] })
  t.same(planUpgrade('v1.30.1', 'v1.34.2'), ['v1.31.0', 'v1.32.0', 'v1.33.0', 'v1.34.2'])
  t.same(planUpgrade('v1.30.1', 'v1.30.5'), ['v1.30.5'])
  t.same(planUpgrade('v1.35.0', 'v1.35.0'), [], 'the control plane is there, the workers may not be: nothing to plan, as Cluster API itself answers')
  t.same(planUpgrade('1.35.0', 'v1.35.0'), [])
  t.throws(() => planUpgrade('v1.30.1', 'v1.29.0'), /the target is not newer/)
  t.throws(() => planUpgrade('v1.30.1', 'v2.0.0'), /major version changes/)
  t.throws(() => planUpgrade('latest', 'v1.30.0'), /fromControlPlaneKubernetesVersion "latest" is not a semantic version/)
  const request = JSON.parse(fixture('GenerateUpgradePlan'))
  request.toKubernetesVersion = 'v1.30.0'
  const bad = await hookCall('GenerateUpgradePlan', 'generate-upgrade-plan', JSON.stringify(request))
  t.same(bad, { kind: 'GenerateUpgradePlanResponse', apiVersion: API, status: 'Failure', message: 'cannot plan an upgrade from v1.31.6 to v1.30.0: the target is not newer' })
  t.ok(server.routes.length === 17)
})

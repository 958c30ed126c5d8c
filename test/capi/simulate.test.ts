// `runtime-sdk simulate` proven against Cluster API v1.14.2 itself. Cluster API's own managers take the Cluster of
// examples/simulate/ through its life (created, upgraded v1.34.0 -> v1.35.0, deleted) against the reference extension,
// which logs every request it receives; `simulate` takes the same files through the same life against the same
// extension in process. The test compares the two: the sequence of hook calls, each request after normalising what
// differs per run (uids, generated names, resourceVersions, timestamps), and the templates patched.
import { readFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { stringify } from 'yaml'
import { readDocuments } from '../../src/kube/manifests.js'
import { simulate, type SimulatedTemplate, type SimulationResult } from '../../src/simulate/index.js'
import type { ExtensionHandler } from '../../src/server/types.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { type LoggedRequest, recordingHandlers } from '../helpers/recording-extension.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { apiServerRequest } from '../helpers/apiserver-request.js'
import { CLASS_VARIABLES, VARIABLE_CASES } from '../helpers/variable-cases.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(1_200_000)
const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const RECORDING = fileURLToPath(new URL('../helpers/recording-extension.ts', import.meta.url))
const TO = 'v1.35.0'
const EC = 'reference'
const LONG = { timeoutMs: 240_000, intervalMs: 500 }

const cp = await startControlPlane()
t.teardown(() => cp.stop())
const capi = await startClusterApi(cp, { log: (m) => t.comment(m) })
t.teardown(() => capi.stop())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-simulate-'))
const requestLog = join(dir, 'requests.jsonl')
const responses = join(dir, 'responses.yaml')
const answer = (preset: Record<string, { retryAfterSeconds: number, message?: string }>) => writeFile(responses, stringify(preset))
await answer({})
process.env['RUNTIME_SDK_REQUEST_LOG'] = requestLog
process.env['RUNTIME_SDK_RESPONSES'] = responses
const extension = await serveReferenceExtension(join(dir, 'certs'), { handlers: RECORDING })
t.teardown(() => { extension.child.kill('SIGKILL') })
t.comment(`request log: ${requestLog}`)

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
type Obj = { metadata: { name: string, annotations?: Record<string, string> }, spec: Record<string, any>, status?: Record<string, any> }
const get = async (kind: string, name: string) => JSON.parse(await kubectl(['get', kind, name, '-n', 'default', '-o', 'json'])) as Obj
const list = async (kind: string) => (JSON.parse(await kubectl(['get', kind, '-n', 'default', '-o', 'json'])) as { items: Obj[] }).items
const condition = (o: Obj, type: string) => (o.status?.conditions as Array<{ type: string, status: string }> | undefined)?.find(c => c.type === type)
const logged = () => readFileSync(requestLog, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as { hook: string })
const calls = (hook: string) => logged().filter(l => l.hook === hook).length

await kubectl(['apply', '-f', '-'], JSON.stringify({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: EC },
  spec: { clientConfig: { url: extension.url, caBundle: extension.caBundle }, namespaceSelector: {} }
}))
await waitFor(async () => condition(await get('extensionconfigs.runtime.cluster.x-k8s.io', EC), 'Discovered')?.status === 'True', { ...LONG, message: 'Discovered' })
await kubectl(['apply', '-f', join(EXAMPLE, 'templates.yaml'), '-f', join(EXAMPLE, 'clusterclass.yaml')])
await waitFor(async () => condition(await get('clusterclass', 'loop'), 'VariablesReady')?.status === 'True', { ...LONG, message: 'VariablesReady' })

const generated = async () => {
  const cluster = await get('cluster', 'loop')
  const kcp = await get('kubeadmcontrolplanes', cluster.spec.controlPlaneRef.name)
  const md = (await list('machinedeployments'))[0] as Obj
  return {
    cluster,
    infrastructureCluster: await get('devclusters', cluster.spec.infrastructureRef.name),
    controlPlane: kcp,
    controlPlaneMachineTemplate: await get('devmachinetemplates', kcp.spec.machineTemplate.spec.infrastructureRef.name),
    machineDeployment: md,
    workerMachineTemplate: await get('devmachinetemplates', md.spec.template.spec.infrastructureRef.name),
    workerBootstrapTemplate: await get('kubeadmconfigtemplates', md.spec.template.spec.bootstrap.configRef.name)
  }
}

await t.test('Cluster API takes the example Cluster through its life', async t => {
  await answer({ BeforeClusterCreate: { retryAfterSeconds: 2, message: 'held by the test' } })
  await kubectl(['apply', '-f', join(EXAMPLE, 'cluster.yaml')])
  await waitFor(() => calls('BeforeClusterCreate') >= 2, { ...LONG, message: 'BeforeClusterCreate called twice' })
  await answer({})
  await waitFor(async () => (await list('machines')).filter(m => m.status?.phase === 'Running').length === 2, { ...LONG, message: 'both machines running' })
  await waitFor(() => calls('AfterControlPlaneInitialized') >= 1, { ...LONG, message: 'AfterControlPlaneInitialized' })
  await writeFile(join(dir, 'created.json'), JSON.stringify(await generated(), null, 2))

  await answer({ BeforeClusterUpgrade: { retryAfterSeconds: 2, message: 'held by the test' } })
  await kubectl(['patch', 'cluster', 'loop', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { topology: { version: TO } } })])
  await waitFor(() => calls('BeforeClusterUpgrade') >= 2, { ...LONG, message: 'BeforeClusterUpgrade called twice' })
  await answer({})
  await waitFor(() => calls('AfterClusterUpgrade') >= 1, { ...LONG, message: 'AfterClusterUpgrade' })
  // Settled, as simulate settles a cluster before deleting it: a reconcile after AfterClusterUpgrade patched the
  // templates without the upgrade-step annotation.
  await waitFor(() => {
    const log = logged()
    const done = log.findIndex(l => l.hook === 'AfterClusterUpgrade')
    return done >= 0 && log.slice(done + 1).some(l => l.hook === 'GeneratePatches' && !JSON.stringify(l).includes('upgrade-step'))
  }, { ...LONG, message: 'a reconcile after AfterClusterUpgrade' })
  await writeFile(join(dir, 'upgraded.json'), JSON.stringify(await generated(), null, 2))

  await answer({ BeforeClusterDelete: { retryAfterSeconds: 2, message: 'held by the test' } })
  await kubectl(['delete', 'cluster', 'loop', '-n', 'default', '--wait=false'])
  await waitFor(() => calls('BeforeClusterDelete') >= 2, { ...LONG, message: 'BeforeClusterDelete called twice' })
  await answer({})
  await waitFor(async () => (await list('clusters')).length === 0, { ...LONG, message: 'the Cluster is gone once released' })
  t.pass('done')
})

// What differs per run: uids, resourceVersions, timestamps, the random suffix of generated names. The Cluster's
// spec.controlPlaneEndpoint is set by the infrastructure provider, which simulate does not run (a known limit).
const RANDOM_SUFFIX = /^(.+-)[bcdfghjklmnpqrstvwxz2456789]{5}$/
function normalise (value: unknown, key = ''): unknown {
  if (['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'].includes(key)) return `<${key}>`
  if (Array.isArray(value)) return value.map(v => normalise(v))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'controlPlaneEndpoint').sort(([a], [b]) => a < b ? -1 : 1).map(([k, v]) => [k, normalise(v, k)]))
  }
  return typeof value === 'string' ? value.replace(RANDOM_SUFFIX, '$1<random>') : value
}

/**
 * Our refusal with its errors in the order of the API server's causes: Go walks a schema's properties in map order,
 * so several errors of one variable come in either order. Unchanged when ours holds other errors.
 */
function inTheirOrder (ours: string, status: Record<string, any>): string {
  const causes = (status['details']?.causes ?? []) as Array<{ field: string, message: string }>
  const list = ours.indexOf(': [')
  if (causes.length < 2 || list < 0) return ours
  const texts = causes.map(c => `${c.field}: ${c.message}`)
  const mine = ours.slice(list + 3, -1)
  const sameSet = texts.slice().sort().join(', ') === mine.split(/, (?=spec\.)/).sort().join(', ')
  return sameSet ? `${ours.slice(0, list + 3)}${texts.join(', ')}]` : ours
}

/** The distinct (hook, request) pairs in the order they were first sent. */
function distinct (log: readonly LoggedRequest[]): string[] {
  return [...new Set(log.map(l => `${l.hook} ${JSON.stringify(normalise(l.request))}`))]
}

/** Requests sent before Cluster API's Cluster controller added its finalizer: a race between two of its controllers. */
const beforeFinalizer = (entry: string) => !entry.includes('"finalizers":["cluster.cluster.x-k8s.io"]') && entry.startsWith('BeforeClusterCreate ')

/** The reference extension, blocking the hooks the Cluster API run held (two calls each), logging to `file`. */
function heldLikeTheTest (file: string): ExtensionHandler[] {
  const held = new Map<string, number>([['BeforeClusterCreate', 2], ['BeforeClusterUpgrade', 2], ['BeforeClusterDelete', 2]])
  return recordingHandlers(file).map(h => {
    if (!held.has(h.hook.hook)) return h
    return {
      ...h,
      handler: async (request: unknown, ctx: never) => {
        const left = held.get(h.hook.hook) ?? 0
        const answer = await (h.handler as (r: unknown, c: never) => Promise<Record<string, unknown>>)(request, ctx)
        if (left === 0) return answer
        held.set(h.hook.hook, left - 1)
        return { ...answer, retryAfterSeconds: 2, message: 'held by the test' }
      }
    } as ExtensionHandler
  })
}

const read = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as LoggedRequest)
const simulatedLog = join(dir, 'simulated.jsonl')
let simulated: SimulationResult | undefined

await t.test('simulate makes the calls Cluster API made, with the same requests', async t => {
  // No top-level await between subtests: tap ends the file once it is idle.
  const inputs = [...await readDocuments(join(EXAMPLE, 'cluster.yaml')), ...await readDocuments(join(EXAMPLE, 'clusterclass.yaml')), ...await readDocuments(join(EXAMPLE, 'templates.yaml'))]
  simulated = await simulate({ handlers: heldLikeTheTest(simulatedLog), objects: inputs, toVersion: TO, checkDeterminism: false })
  t.equal(simulated.outcome, 'completed', simulated.error ?? 'completed')
  const capiRequests = distinct(read(requestLog))
  const ours = distinct(read(simulatedLog))
  const raced = capiRequests.filter(beforeFinalizer)
  t.comment(`Cluster API sent ${read(requestLog).length} requests, ${capiRequests.length} distinct; simulate ${read(simulatedLog).length}, ${ours.length} distinct; ${raced.length} sent before Cluster API's finalizer was added`)
  const expected = capiRequests.filter(e => !raced.includes(e))
  t.same(ours.map(e => e.slice(0, e.indexOf(' '))), expected.map(e => e.slice(0, e.indexOf(' '))), 'the same sequence of hooks')
  for (const [i, entry] of expected.entries()) t.same(JSON.parse(ours[i]?.slice(ours[i].indexOf(' ') + 1) ?? 'null'), JSON.parse(entry.slice(entry.indexOf(' ') + 1)), `request ${i}: ${entry.slice(0, entry.indexOf(' '))}`)
})

await t.test('the templates simulate patched are the ones Cluster API generated, in spec, labels and annotations', async t => {
  if (!simulated) return
  for (const [phase, file] of [['create', 'created.json'], ['upgrade', 'upgraded.json']] as const) {
    const generatedObjects = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, Obj & { metadata: { labels?: Record<string, string> } }>
    const templates = (simulated as SimulationResult).phases.find(p => p.phase === phase)?.templates ?? []
    const byRole = (role: string) => templates.find(x => x.role === role) as SimulatedTemplate
    // CAPD's in-memory backend annotates the DevCluster it serves (its listener): not the topology controller's doing.
    const providers = (annotations: unknown) => Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => !k.startsWith('inmemorycluster.infrastructure.cluster.x-k8s.io/')))
    const meta = (o: { labels?: unknown, annotations?: unknown } | undefined) => ({ labels: o?.labels ?? {}, annotations: providers(o?.annotations) })
    // Objects made from a template take its spec.template (KubeadmControlPlane keeps fields Cluster API sets itself).
    for (const [role, key] of [['infrastructureCluster', 'infrastructureCluster'], ['controlPlane', 'controlPlane']] as const) {
      const template = byRole(role).patched as { spec: { template: { spec: Record<string, unknown>, metadata?: Record<string, unknown> } } }
      const object = generatedObjects[key] as Obj & { metadata: Record<string, unknown> }
      for (const [field, value] of Object.entries(template.spec.template.spec)) t.same(object.spec[field], value, `${phase}: ${role} spec.${field}`)
      t.same(meta(object.metadata), meta(template.spec.template.metadata), `${phase}: ${role} labels and annotations`)
    }
    for (const [role, key] of [['controlPlaneMachineInfrastructure', 'controlPlaneMachineTemplate'], ['machineDeployment md-0 bootstrap', 'workerBootstrapTemplate'], ['machineDeployment md-0 infrastructure', 'workerMachineTemplate']] as const) {
      const template = byRole(role).patched as Obj & { metadata: Record<string, unknown> }
      const object = generatedObjects[key] as Obj & { metadata: Record<string, unknown> }
      t.same(object.spec, template.spec, `${phase}: ${role} spec`)
      t.same(meta(object.metadata), meta(template.metadata), `${phase}: ${role} labels and annotations`)
    }
  }
})

await t.test('simulate defaults the Cluster\'s variables as Cluster API does, and refuses what it refuses with its message', async t => {
  // A class of the example's templates without patches, whose variables exercise each check (test/helpers/variable-cases.ts).
  const [exampleClass] = await readDocuments(join(EXAMPLE, 'clusterclass.yaml')) as [Obj]
  const variablesClass = { ...exampleClass, metadata: { name: 'variables', namespace: 'default' }, spec: { ...exampleClass.spec, patches: undefined, upgrade: undefined, variables: CLASS_VARIABLES } }
  await kubectl(['apply', '-f', '-'], JSON.stringify(variablesClass))
  await waitFor(async () => condition(await get('clusterclass', 'variables'), 'VariablesReady')?.status === 'True', { ...LONG, message: 'VariablesReady' })
  const stored = await get('clusterclass', 'variables')
  const templates = await readDocuments(join(EXAMPLE, 'templates.yaml'))
  const [exampleCluster] = await readDocuments(join(EXAMPLE, 'cluster.yaml')) as [Obj]
  let refused = 0
  for (const [i, c] of VARIABLE_CASES.entries()) {
    const cluster = structuredClone(exampleCluster) as Obj & { metadata: Record<string, unknown> }
    cluster.metadata = { name: `variables-${i}`, namespace: 'default' }
    cluster.spec['topology'].classRef = { name: 'variables' }
    cluster.spec['topology'].variables = c.variables
    if (c.overrides) cluster.spec['topology'].workers.machineDeployments[0].variables = { overrides: c.overrides }
    const theirs = await apiServerRequest(cp, 'POST', '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters?dryRun=All', cluster)
    const ours = await simulate({ handlers: recordingHandlers(join(dir, 'variables.jsonl')), objects: [cluster, stored, ...templates], checkDeterminism: false }).then(r => ({ result: r }), (error: Error) => ({ error }))
    if (theirs.status === 201) {
      const created = theirs.body as Obj
      t.equal('error' in ours ? ours.error.message : undefined, undefined, `${c.name}: accepted`)
      if (!('result' in ours)) continue
      t.same(ours.result.variables, created.spec['topology'].variables, `${c.name}: the same variables`)
      t.same(ours.result.cluster.spec?.topology?.workers?.machineDeployments?.[0]?.variables, created.spec['topology'].workers.machineDeployments[0].variables, `${c.name}: the same overrides`)
    } else {
      refused++
      // Our refusals name the Cluster first, as for every input.
      const message = 'error' in ours ? ours.error.message.replace(`Cluster default/variables-${i}: `, '') : 'accepted'
      t.equal(inTheirOrder(message, theirs.body), theirs.body['message'], `${c.name}: refused with Cluster API's message`)
    }
  }
  t.comment(`${VARIABLE_CASES.length} Clusters, ${refused} refused by Cluster API`)
})

// `runtime-sdk simulate` proven against Cluster API v1.14.2 on ClusterClasses written by others (read from Cluster
// API's own test module, switched to CAPD's in-memory backend; test/helpers/capi-classes.ts):
// - the e2e quick-start class: inline patches with Go templates throughout (enabledIf, valueFrom.template with sprig
//   functions), variables with defaults and a CEL rule; the Cluster's variables enable some templated patches and
//   leave others disabled;
// - the e2e runtime SDK quick-start class: external patches served by the reference extension, naming templates for
//   every object Cluster API names;
// - the e2e in-memory class: templates with no spec at all, external patches and upgrade plan;
// - CAPD's published quick-start class: semverCompare in a template, a patch enabled by an object variable.
// Cluster API's own managers take one Cluster of each class through its life (created, upgraded v1.34.0 -> v1.35.0,
// deleted) against the reference extension logging every request; `simulate` takes the same ClusterClass and
// templates, as the API server returns them, and the same Cluster through the same life. Compared per Cluster: the
// sequence of distinct requests (normalised as test/capi/simulate.test.ts does) and every object Cluster API
// generated (spec, labels and annotations) against simulate's desired objects, after creation and after the upgrade.
// What Cluster API did is written to a directory first (its requests, the classes as stored, the objects it
// generated); RUNTIME_SDK_CAPI_RECORDED=<that directory> runs the comparisons alone again, without a cluster.
import { readFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { simulate, type SimulationResult } from '../../src/simulate/index.js'
import { startClusterApi } from '../../tools/harness/cluster-api.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { clusterApiClass, inMemoryEndpointPorts, type Obj } from '../helpers/capi-classes.js'
import { type LoggedRequest, recordingHandlers } from '../helpers/recording-extension.js'
import { serveReferenceExtension } from '../helpers/reference-extension-process.js'
import { waitFor } from '../helpers/wait.js'

t.setTimeout(1_800_000)
const RECORDING = fileURLToPath(new URL('../helpers/recording-extension.ts', import.meta.url))
const FROM = 'v1.34.0'
const TO = 'v1.35.0'
const EC = 'reference'
const LONG = { timeoutMs: 420_000, intervalMs: 1000 }

interface Case {
  /** namespace the class, its templates and its Cluster live in (the Cluster is named after it). */
  namespace: string
  file: string
  className: string
  variables?: Array<{ name: string, value: unknown }>
}
const CASES: Case[] = [
  {
    namespace: 'quick-start',
    file: 'e2e/data/infrastructure-docker/main/clusterclass-quick-start.yaml',
    className: 'quick-start',
    // etcdImageTag and kubeControlPlaneLogLevel enable templated patches, controlPlaneTaint false enables one through
    // `not`; coreDNSImageTag, kubeletLogLevel, externalCloudProvider and ipv6Primary leave theirs disabled.
    variables: [{ name: 'etcdImageTag', value: '3.6.4-0' }, { name: 'kubeControlPlaneLogLevel', value: '4' }, { name: 'controlPlaneTaint', value: false }, { name: 'preLoadImages', value: ['kindest/node:v1.34.0'] }]
  },
  { namespace: 'runtimesdk', file: 'e2e/data/infrastructure-docker/main/clusterclass-quick-start-runtimesdk.yaml', className: 'quick-start-runtimesdk', variables: [{ name: 'referenceAnnotation', value: 'from-the-cluster' }] },
  { namespace: 'in-memory', file: 'e2e/data/infrastructure-docker/main/clusterclass-in-memory.yaml', className: 'in-memory' },
  {
    namespace: 'capd',
    file: 'infrastructure/docker/templates/clusterclass-quick-start.yaml',
    className: 'quick-start',
    variables: [{ name: 'imageRepository', value: '' }, { name: 'etcdImageTag', value: '' }, { name: 'coreDNSImageTag', value: 'v1.12.1' }, { name: 'podSecurityStandard', value: { enforce: 'restricted' } }]
  }
]

const clusterOf = (c: Case): Obj => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: c.namespace, namespace: c.namespace },
  spec: {
    clusterNetwork: { services: { cidrBlocks: ['10.128.0.0/12'] }, pods: { cidrBlocks: ['192.168.0.0/16'] }, serviceDomain: 'cluster.local' },
    topology: {
      classRef: { name: c.className },
      version: FROM,
      controlPlane: { replicas: 1 },
      workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] },
      ...(c.variables ? { variables: c.variables } : {})
    }
  }
})

const recorded = process.env['RUNTIME_SDK_CAPI_RECORDED']
const dir = recorded ?? await mkdtemp(join(tmpdir(), 'runtime-sdk-capi-classes-'))
const requestLog = join(dir, 'requests.jsonl')
const read = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as LoggedRequest)
const readJson = <T>(file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T

/** The Cluster a request is about: its cluster, or the builtin variable of a topology hook; undefined for DiscoverVariables. */
function clusterOfRequest (request: Record<string, any>): string | undefined {
  const cluster = request['cluster']?.metadata ?? (request['variables'] as Array<{ name: string, value: any }> | undefined)?.find(v => v.name === 'builtin')?.value?.cluster
  return cluster ? `${cluster.namespace}/${cluster.name}` : undefined
}

if (!recorded) await recordClusterApi()

/** Cluster API takes a Cluster of each class through its life; its requests, the classes and the objects it made are written to `dir`. */
async function recordClusterApi (): Promise<void> {
  const cp = await startControlPlane()
  t.teardown(() => cp.stop())
  const capi = await startClusterApi(cp, { log: (m) => t.comment(m) })
  t.teardown(() => capi.stop())
  await writeFile(requestLog, '')
  process.env['RUNTIME_SDK_REQUEST_LOG'] = requestLog
  const extension = await serveReferenceExtension(join(dir, 'certs'), { handlers: RECORDING })
  t.teardown(() => { extension.child.kill('SIGKILL') })
  t.comment(`request log: ${requestLog}`)

  const kubectl = async (args: string[], input?: string) => {
    const r = await cp.kubectl(args, input !== undefined ? { input, timeoutMs: 120_000 } : { timeoutMs: 120_000 })
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
    return r.stdout
  }
  const get = async (kind: string, name: string, namespace: string) => JSON.parse(await kubectl(['get', kind, name, '-n', namespace, '-o', 'json'])) as Obj
  const list = async (kind: string, namespace: string) => (JSON.parse(await kubectl(['get', kind, '-n', namespace, '-o', 'json'])) as { items: Obj[] }).items
  const condition = (o: Obj, type: string) => (o['status']?.conditions as Array<{ type: string, status: string }> | undefined)?.find(c => c.type === type)

  await kubectl(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: EC },
    spec: { clientConfig: { url: extension.url, caBundle: extension.caBundle }, namespaceSelector: {} }
  }))
  await waitFor(async () => condition(await get('extensionconfigs.runtime.cluster.x-k8s.io', EC, 'default'), 'Discovered')?.status === 'True', { ...LONG, message: 'Discovered' })

  /** The class and its templates of each case, as the API server returned them once the class was reconciled. */
  const stored = new Map<string, Obj[]>()
  const endpointPorts = await inMemoryEndpointPorts(CASES.length)
  for (const [i, c] of CASES.entries()) {
    const objects = clusterApiClass(c.file, c.namespace, { variables: { EXTENSION_CONFIG_NAME: EC, DOCKER_PRELOAD_IMAGES: '[]' }, endpointPort: endpointPorts[i] })
    await kubectl(['create', 'namespace', c.namespace])
    await kubectl(['apply', '-f', '-'], objects.map(o => JSON.stringify(o)).join('\n'))
    stored.set(c.namespace, objects)
  }
  for (const c of CASES) {
    await waitFor(async () => condition(await get('clusterclass', c.className, c.namespace), 'VariablesReady')?.status === 'True', { ...LONG, message: `${c.namespace}: VariablesReady` })
    const readBack = await Promise.all((stored.get(c.namespace) ?? []).map(async o => await get(`${o.kind.toLowerCase()}.${(o['apiVersion'] as string).split('/')[0]}`, o.metadata.name, c.namespace)))
    await writeFile(join(dir, `stored-${c.namespace}.json`), JSON.stringify(readBack, null, 2))
  }

  /** Every object Cluster API generated for a Cluster, by role. */
  async function generated (c: Case): Promise<Record<string, Obj>> {
    const cluster = await get('cluster', c.namespace, c.namespace)
    const kcp = await get('kubeadmcontrolplanes', cluster['spec'].controlPlaneRef.name, c.namespace)
    const md = (await list('machinedeployments', c.namespace))[0] as Obj
    return {
      cluster,
      infrastructureCluster: await get('devclusters', cluster['spec'].infrastructureRef.name, c.namespace),
      controlPlane: kcp,
      controlPlaneMachineInfrastructure: await get('devmachinetemplates', kcp['spec'].machineTemplate.spec.infrastructureRef.name, c.namespace),
      'machineDeployment md-0': md,
      'machineDeployment md-0 infrastructure': await get('devmachinetemplates', md['spec'].template.spec.infrastructureRef.name, c.namespace),
      'machineDeployment md-0 bootstrap': await get('kubeadmconfigtemplates', md['spec'].template.spec.bootstrap.configRef.name, c.namespace)
    }
  }

  const calledFor = (hook: string, c: Case) => read(requestLog).filter(l => l.hook === hook && clusterOfRequest(l.request) === `${c.namespace}/${c.namespace}`).length

  await t.test('Cluster API takes a Cluster of each class through its life', async t => {
    await kubectl(['apply', '-f', '-'], CASES.map(c => JSON.stringify(clusterOf(c))).join('\n'))
    const created = new Map<string, Record<string, Obj>>()
    await Promise.all(CASES.map(async c => {
      await waitFor(async () => (await list('machines', c.namespace)).filter(m => m['status']?.phase === 'Running').length === 2, { ...LONG, message: `${c.namespace}: both machines running` })
      await waitFor(() => calledFor('AfterControlPlaneInitialized', c) >= 1, { ...LONG, message: `${c.namespace}: AfterControlPlaneInitialized` })
      created.set(c.namespace, await generated(c))
    }))
    for (const c of CASES) await kubectl(['patch', 'cluster', c.namespace, '-n', c.namespace, '--type=merge', '-p', JSON.stringify({ spec: { topology: { version: TO } } })])
    await Promise.all(CASES.map(async c => {
      await waitFor(() => calledFor('AfterClusterUpgrade', c) >= 1, { ...LONG, message: `${c.namespace}: AfterClusterUpgrade` })
      // Settled: the upgrade step is gone from the Cluster and every machine runs the new version.
      await waitFor(async () => {
        const cluster = await get('cluster', c.namespace, c.namespace)
        const machines = await list('machines', c.namespace)
        return !('topology.internal.cluster.x-k8s.io/upgrade-step' in (cluster.metadata['annotations' as never] ?? {})) && machines.length === 2 && machines.every(m => m['spec'].version === TO && m['status']?.phase === 'Running')
      }, { ...LONG, message: `${c.namespace}: upgraded and settled` })
      await writeFile(join(dir, `generated-${c.namespace}.json`), JSON.stringify({ created: created.get(c.namespace), upgraded: await generated(c) }, null, 2))
    }))
    for (const c of CASES) await kubectl(['delete', 'cluster', c.namespace, '-n', c.namespace, '--wait=false'])
    await Promise.all(CASES.map(async c => await waitFor(async () => (await list('clusters', c.namespace)).length === 0, { ...LONG, message: `${c.namespace}: the Cluster is gone` })))
    t.pass('done')
  })
}

// What differs per run: uids, resourceVersions, timestamps, the random suffix of generated names. The Cluster's
// spec.controlPlaneEndpoint is set by the infrastructure provider, which simulate does not run.
const RANDOM_SUFFIX = /^(.+-)[bcdfghjklmnpqrstvwxz2456789]{5}$/
function normalise (value: unknown, key = ''): unknown {
  if (['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'generation', 'managedFields'].includes(key)) return `<${key}>`
  if (Array.isArray(value)) return value.map(v => normalise(v))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'controlPlaneEndpoint').sort(([a], [b]) => a < b ? -1 : 1).map(([k, v]) => [k, normalise(v, k)]))
  }
  return typeof value === 'string' ? value.replace(RANDOM_SUFFIX, '$1<random>') : value
}
/**
 * A BeforeClusterCreate request without the Cluster's finalizers: Cluster API may send it before or after its Cluster
 * controller added its finalizer (a race of two of its controllers).
 */
function withoutRace (l: LoggedRequest): LoggedRequest {
  if (l.hook !== 'BeforeClusterCreate') return l
  const request = structuredClone(l.request) as { cluster?: { metadata?: { finalizers?: unknown } } }
  delete request.cluster?.metadata?.finalizers
  return { ...l, request }
}
/** The distinct (hook, request) pairs in the order they were first sent. */
const distinct = (log: readonly LoggedRequest[]) => [...new Set(log.map(withoutRace).map(l => `${l.hook} ${JSON.stringify(normalise(l.request))}`))]

const results = new Map<string, SimulationResult>()
for (const c of CASES) {
  await t.test(`${c.namespace}: simulate makes the calls Cluster API made for the Cluster, with the same requests`, async t => {
    const simulatedLog = join(dir, `simulated-${c.namespace}.jsonl`)
    const result = await simulate({ handlers: recordingHandlers(simulatedLog), extensionName: EC, objects: [clusterOf(c), ...readJson<Obj[]>(`stored-${c.namespace}.json`)], toVersion: TO, checkDeterminism: false })
    results.set(c.namespace, result)
    t.equal(result.outcome, 'completed', result.error ?? 'completed')
    t.same(result.notes, [], 'nothing left unsimulated')
    const ofCluster = (log: LoggedRequest[]) => log.filter(l => clusterOfRequest(l.request) === `${c.namespace}/${c.namespace}`)
    const capiRequests = distinct(ofCluster(read(requestLog)))
    const ours = distinct(ofCluster(read(simulatedLog)))
    t.same(ours.map(e => e.slice(0, e.indexOf(' '))), capiRequests.map(e => e.slice(0, e.indexOf(' '))), 'the same sequence of hooks')
    for (const [i, entry] of capiRequests.entries()) t.same(JSON.parse(ours[i]?.slice(ours[i].indexOf(' ') + 1) ?? 'null'), JSON.parse(entry.slice(entry.indexOf(' ') + 1)), `request ${i}: ${entry.slice(0, entry.indexOf(' '))}`)
    const discovered = (log: LoggedRequest[]) => new Set(distinct(log.filter(l => l.hook === 'DiscoverVariables')))
    for (const request of discovered(read(simulatedLog))) t.ok(discovered(read(requestLog)).has(request), 'Cluster API sent the same DiscoverVariables request')
  })
}

await t.test('the objects simulate computed are the ones Cluster API generated, in spec, labels and annotations', async t => {
  // Other controllers annotate what the topology controller made: CAPD's in-memory backend the DevCluster it serves
  // (its listener), the MachineDeployment controller its revision.
  const others = ['inmemorycluster.infrastructure.cluster.x-k8s.io/', 'machinedeployment.clusters.x-k8s.io/']
  const providers = (annotations: unknown) => Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => !others.some(p => k.startsWith(p))))
  const meta = (o: Record<string, unknown> | undefined) => normalise({ labels: o?.['labels'] ?? {}, annotations: providers(o?.['annotations']) })
  for (const c of CASES) {
    const result = results.get(c.namespace)
    const snapshot = readJson<{ created: Record<string, Obj>, upgraded: Record<string, Obj> }>(`generated-${c.namespace}.json`)
    if (!result) continue
    for (const phase of ['create', 'upgrade'] as const) {
      const objects = result.phases.find(p => p.phase === phase)?.objects ?? {}
      const live = phase === 'create' ? snapshot.created : snapshot.upgraded
      for (const role of ['infrastructureCluster', 'controlPlane', 'controlPlaneMachineInfrastructure', 'machineDeployment md-0', 'machineDeployment md-0 infrastructure', 'machineDeployment md-0 bootstrap']) {
        const ours = objects[role] as Obj | undefined
        const theirs = live[role] as Obj
        t.ok(ours, `${c.namespace} ${phase}: simulate computed the ${role}`)
        if (!ours) continue
        // Fields the topology controller sets; what else the live object has comes from the API server's defaults
        // and the providers' controllers.
        for (const [field, value] of Object.entries(ours['spec'] ?? {})) {
          // The infrastructure provider sets the endpoint (simulate does not run providers).
          if (field !== 'controlPlaneEndpoint') t.same(normalise(theirs['spec']?.[field]), normalise(value), `${c.namespace} ${phase}: ${role} spec.${field}`)
        }
        t.same(meta(theirs.metadata), meta(ours.metadata), `${c.namespace} ${phase}: ${role} labels and annotations`)
      }
    }
  }
})

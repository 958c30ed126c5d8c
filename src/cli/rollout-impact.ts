// runtime-sdk rollout-impact: what deploying a new version of an extension would do to the Clusters it serves, before
// it ships. For each Cluster of a management cluster (read-only), or for a Cluster of files created with the current
// version, the desired objects with the extension as registered and with the candidate are compared as Cluster API
// compares them: which control planes, MachineDeployments and MachinePools would replace their Machines, and why.
import { writeFile } from 'node:fs/promises'
import { Command, Option } from 'commander'
import { BudgetExceeded, withBudget } from '../budget/index.js'
import { readRecording } from '../impact/recording.js'
import { RecordedRuntimeClient } from '../impact/recorded-client.js'
import { type ClusterImpact, clusterImpact } from '../impact/impact.js'
import { type ClusterImpactFailure, isFailure, rolloutImpact, type RolloutImpactReport, summarise, summaryText } from '../impact/live.js'
import { ReplacedExtensionClient } from '../impact/replaced-extension.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { referenceHandlers } from '../reference-extension/index.js'
import { createInProcessExtension } from '../server/in-process.js'
import { classExtensionName, InProcessRuntimeClient, readLiveCluster, simulate, SimulationInputError } from '../simulate/index.js'
import { clusterBudget, type ClusterBudgetFlags, clusterBudgetOptions } from './cluster-budget.js'
import { type ClusterSelectionFlags, clusterSelectionOptions, selectsLiveClusters } from './cluster-selection.js'
import { action, type CliIO, clientTlsOptions, defaultIO, OperationFailed, UsageError } from './command.js'
import { closeTarget, extensionTarget, type ExtensionTargetFlags, extensionTargetOptions, runtimeClientOf } from './extension-target.js'
import { impactHtml } from './html-report.js'
import { ManagementCluster } from './management-cluster.js'
import { readInputs } from './inputs.js'
import { boundedCountOption } from './options.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { loadHandlers } from './serve.js'
import { columns } from './table.js'

interface RolloutImpactCliOptions extends ExtensionTargetFlags, ClusterSelectionFlags, ClusterBudgetFlags {
  filename?: string[]
  recording?: string[]
  currentHandlers?: string
  failOnRollout?: boolean
  html?: string
  concurrency: number
  output: OutputFormat
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** The first change that decides an object's effect, as `<object> <field>`; a refusal's message; what it waits for. */
function why (o: ClusterImpact['objects'][number]): string {
  if (o.refused !== undefined) return o.refused
  if (o.waitsFor !== undefined) return `waits: Cluster API stops at ${o.waitsFor}, refused`
  const decisive = o.changes.find(c => c.effect === o.effect) ?? o.changes[0]
  if (!decisive) return ''
  const more = o.changes.length > 1 ? ` (+${o.changes.length - 1} more)` : ''
  return `${decisive.object} ${decisive.path}${more}`
}

function tableText (report: RolloutImpactReport): string {
  const rows = [['CLUSTER', 'ROLE', 'OBJECT', 'EFFECT', 'MACHINES', 'WHY']]
  for (const c of report.clusters) {
    if (isFailure(c)) {
      rows.push([c.cluster, '-', '-', 'error', '', c.error])
      continue
    }
    const changed = c.objects.filter(o => o.changes.length > 0)
    if (changed.length === 0) rows.push([c.cluster, '-', '-', 'none', '', 'nothing changes'])
    for (const o of changed) {
      const inPlace = o.inPlace ? ` (${o.inPlace.hook}: ${o.inPlace.accepted ? 'in place' : o.inPlace.reason})` : ''
      rows.push([c.cluster, o.role, o.object, o.effect, o.machines === undefined ? '' : String(o.machines), `${why(o)}${inPlace}`])
    }
  }
  return `${columns(rows)}\n${summaryText(report.summary)}\n`
}

/** The candidate, answering for ExtensionConfig `name`; close it when done. */
async function candidateOf (opts: RolloutImpactCliOptions, name: string): Promise<{ client: RuntimeClient, close: () => Promise<void> }> {
  if (opts.recording) {
    if (opts.handlers || opts.url || opts.extensionConfigs) throw new UsageError('pass the candidate once: --handlers, --url or --recording')
    const calls = []
    for (const file of opts.recording) calls.push(...await readRecording(file))
    return { client: new RecordedRuntimeClient(calls, name), close: async () => {} }
  }
  if (!opts.handlers && !opts.url && !opts.extensionConfigs) throw new UsageError('pass the candidate: --handlers <module>, --url <https-url> or --recording <file>')
  const target = await extensionTarget({ ...opts, name }, name)
  return { client: runtimeClientOf(target), close: async () => await closeTarget(target) }
}

/** `namespace/name` of the Cluster among objects read from files. */
function clusterKey (objects: readonly unknown[]): string {
  const cluster = objects.find(o => (o as { kind?: unknown })?.kind === 'Cluster') as { metadata?: { name?: string, namespace?: string } } | undefined
  return `${cluster?.metadata?.namespace ?? 'default'}/${cluster?.metadata?.name ?? ''}`
}

/** Files: the Cluster created with the current version (simulated), then its impact. */
async function impactOfFiles (opts: RolloutImpactCliOptions): Promise<RolloutImpactReport> {
  if (selectsLiveClusters(opts)) throw new UsageError('pass the Clusters once: files (-f) or a management cluster (--namespace, --all-namespaces, --kubeconfig, ...)')
  const { objects, sources } = await readInputs(opts.filename ?? [])
  const name = opts.name ?? classExtensionName(objects.find(o => (o as { kind?: unknown })?.kind === 'ClusterClass')) ?? 'extension'
  const current = new InProcessRuntimeClient(createInProcessExtension({ handlers: opts.currentHandlers ? await loadHandlers(opts.currentHandlers) : referenceHandlers() }), name)
  const budget = clusterBudget(opts)
  let created
  try {
    created = await withBudget(budget, async () => await simulate({ client: current, objects, sourceOf: o => sources.get(o), delete: false, checkDeterminism: false }))
  } catch (err) {
    if (!(err instanceof BudgetExceeded)) throw err
    const failure = { cluster: clusterKey(objects), error: err.message }
    return { extensionConfig: name, clusters: [failure], summary: summarise([failure]) }
  }
  if (created.outcome === 'failed' || !created.state) throw new Error(`the Cluster cannot be created with the current extension: ${created.error ?? ''}`) // said in one line, exit 1
  const { state } = created
  const candidate = await candidateOf(opts, name)
  let impact: ClusterImpact | ClusterImpactFailure
  try {
    const others = objects.filter(o => (o as { kind?: unknown })?.kind !== 'Cluster')
    impact = await withBudget(budget, async () => await clusterImpact({ objects: [state.cluster, ...others], current: state.current, registered: current, candidate: new ReplacedExtensionClient(current, candidate.client, name) }))
  } catch (err) {
    if (err instanceof SimulationInputError) throw err
    impact = { cluster: `${state.cluster.metadata.namespace}/${state.cluster.metadata.name}`, error: (err as Error).message }
  } finally {
    await candidate.close()
  }
  return { extensionConfig: name, clusters: [impact], summary: summarise([impact]) }
}

/** A management cluster: the Clusters chosen, the extensions as their ExtensionConfigs register them. */
async function impactOfLiveClusters (opts: RolloutImpactCliOptions): Promise<RolloutImpactReport> {
  if (opts.currentHandlers) throw new UsageError('--current-handlers is for files: on a management cluster the current version is the one its ExtensionConfig registers')
  await using cluster = new ManagementCluster(opts)
  const clusters = await cluster.clusters('computed')
  // A Cluster named on the command line that cannot be read as a topology (its class or a template is gone) is an
  // input error, as in simulate; read once more below, as every Cluster is: one Cluster, a few GETs.
  const [named] = clusters
  if (cluster.selection.name && named) await readLiveCluster(cluster.api, named)
  const registered = await cluster.registeredExtensions(clusters)
  const names = registered.extensionConfigs.map(ec => ec.metadata.name)
  const name = opts.name ?? (names.length === 1 ? names[0] as string : undefined)
  if (name === undefined) throw new UsageError(`pass --name, the ExtensionConfig the candidate replaces (${names.length === 0 ? 'the cluster has none' : `one of ${names.join(', ')}`})`)
  if (!names.includes(name)) throw new UsageError(`--name ${name}: the cluster has no ExtensionConfig of that name (it has ${names.join(', ') || 'none'})`)
  const extensionConfig = registered.extensionConfigs.find(ec => ec.metadata.name === name) as (typeof registered.extensionConfigs)[number]
  const candidate = await candidateOf(opts, name)
  try {
    return await rolloutImpact({ api: cluster.api, selection: cluster.selection, name, candidate: candidate.client, registered: registered.client, extensionConfig: { object: extensionConfig, namespaceLabels: registered.namespaceLabels }, concurrency: opts.concurrency, budget: clusterBudget(opts) })
  } finally {
    await candidate.close()
  }
}

export function rolloutImpactCommand (io: CliIO = defaultIO): Command {
  const command = new Command('rollout-impact')
    .description('before deploying a new version of an extension: for each Cluster it serves, which control planes, MachineDeployments and MachinePools would replace their Machines (and why), change in place, or stay as they are; reads the management cluster, never writes')
    .option('-f, --filename <path>', 'instead of a management cluster: a Cluster, its ClusterClass and templates (created first with --current-handlers; repeatable)', collect)
  clusterSelectionOptions(command)
  extensionTargetOptions(command, 'the only ExtensionConfig of the cluster, or the one the ClusterClass\'s handler names end with')
  command
    .option('--recording <file>', 'the candidate as a recording of its answers (runtime-sdk serve --record; repeatable, oldest first)', collect)
    .option('--current-handlers <module>', 'with -f: the version deployed today (default: the reference extension)')
    .option('--fail-on-rollout', 'exit 1 when any Machine would be replaced, or the API server would refuse an object (the Cluster\'s topology would stop reconciling)')
    .option('--html <file>', 'write the report there as one self-contained HTML page')
    .addOption(new Option('--concurrency <n>', 'Clusters computed at once').argParser(boundedCountOption(64)).default(4))
    .addOption(outputOption(['table', 'json', 'yaml']))
  return clientTlsOptions(clusterBudgetOptions(command)).action(action(io, async (opts: RolloutImpactCliOptions) => {
    const report = opts.filename ? await impactOfFiles(opts) : await impactOfLiveClusters(opts)
    io.stdout(render(opts.output, report, () => tableText(report)))
    if (opts.html) await writeFile(opts.html, impactHtml(report))
    const failures = report.clusters.filter(isFailure)
    if (failures.length > 0) {
      io.stderr(`error: the impact on ${failures.length} of ${report.summary.clusters} Clusters could not be computed: ${failures[0]?.cluster ?? ''}: ${failures[0]?.error ?? ''}\n`)
      throw new OperationFailed('impact incomplete')
    }
    const refused = report.clusters.find(c => !isFailure(c) && c.topologyReconciled !== undefined) as ClusterImpact | undefined
    if (opts.failOnRollout && refused) {
      io.stderr(`error: ${report.summary.refused} Clusters would stop reconciling their topology: ${refused.cluster}: ${refused.topologyReconciled?.message ?? ''}\n`)
      throw new OperationFailed('refused')
    }
    if (opts.failOnRollout && report.summary.rollingOut > 0) {
      io.stderr(`error: ${report.summary.rollingOut} Clusters would replace ${report.summary.machines} Machines\n`)
      throw new OperationFailed('rollout')
    }
  }))
}

// runtime-sdk simulate: a Cluster's life as Cluster API v1.14 drives it, against an extension, without a management
// cluster: the hooks in Cluster API's order on a virtual clock, and the templates after the ClusterClass's patches.
// On a management cluster (read-only), each chosen Cluster goes on from where it stands, against the extensions its
// ExtensionConfigs register (or the one given), upgraded with --to-version, never deleted.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Command, InvalidArgumentError, Option } from 'commander'
import { stringify } from 'yaml'
import { BudgetExceeded, withBudget } from '../budget/index.js'
import { classExtensionName, simulate, type SimulationResult } from '../simulate/index.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { type LiveCluster, readLiveCluster } from '../simulate/index.js'
import { clusterBudget, type ClusterBudgetFlags, clusterBudgetOptions } from './cluster-budget.js'
import { type ClusterSelectionFlags, clusterSelectionOptions, selectsLiveClusters } from './cluster-selection.js'
import { action, type CliIO, clientTlsOptions, defaultIO, OperationFailed, UsageError } from './command.js'
import { closeTarget, extensionTarget, type ExtensionTargetFlags, extensionTargetOptions } from './extension-target.js'
import { simulationHtml } from './html-report.js'
import { ManagementCluster } from './management-cluster.js'
import { readInputs } from './inputs.js'
import { durationOption } from './options.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { columns } from './table.js'

interface SimulateCliOptions extends ExtensionTargetFlags, ClusterSelectionFlags, ClusterBudgetFlags {
  filename?: string[]
  featureGates?: { InPlaceUpdates?: boolean }
  toVersion?: string
  maxBlocked: number
  outputDir?: string
  html?: string
  output: OutputFormat
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** `75s` -> `1m15s`. */
function at (seconds: number): string {
  const m = Math.floor(seconds / 60)
  return m > 0 ? `${m}m${seconds % 60}s` : `${seconds}s`
}

/** `--feature-gates InPlaceUpdates=true`: the gates simulate follows (only InPlaceUpdates changes what it does). */
function featureGatesOption (value: string): { InPlaceUpdates?: boolean } {
  const gates: { InPlaceUpdates?: boolean } = {}
  for (const pair of value.split(',').filter(Boolean)) {
    const [gate, on] = pair.split('=')
    if (gate !== 'InPlaceUpdates') throw new InvalidArgumentError(`${gate ?? ''}: the feature gates simulate follows are InPlaceUpdates`)
    if (on !== 'true' && on !== 'false') throw new InvalidArgumentError(`${pair}: write InPlaceUpdates=true or InPlaceUpdates=false`)
    gates.InPlaceUpdates = on === 'true'
  }
  return gates
}

/** Why a simulation failed, in one line: a refused object as the Cluster's TopologyReconciled condition says it. */
function failure (result: SimulationResult): string {
  if (result.topologyReconciled) return `the Cluster's topology stops reconciling (TopologyReconciled ${result.topologyReconciled.status} ${result.topologyReconciled.reason}): ${result.topologyReconciled.message}`
  return result.error ?? 'the simulation failed'
}

function tableText (result: SimulationResult, toVersion: string | undefined): string {
  const rows = [['TIME', 'HOOK', 'HANDLER', 'STATUS', 'RETRY', 'MESSAGE'], ...result.timeline.map(e => [
    at(e.at), e.hook || '-', e.handler || '-', e.status, e.retryAfterSeconds ? `${e.retryAfterSeconds}s` : '', e.status === 'Event' ? e.step ?? '' : [e.step, e.message].filter(Boolean).join(': ')
  ])]
  let out = columns(rows)
  for (const phase of result.phases) {
    out += `\nTemplates after the ClusterClass's patches (${phase.phase === 'create' ? 'created at' : phase.phase === 'current' ? 'as it stands at' : 'upgraded to'} ${phase.version}):\n`
    for (const t of phase.templates) {
      out += `  ${t.role}: ${t.kind} ${t.name} -> ${t.generatedName} (${t.diff.length === 0 ? 'unchanged' : `${t.diff.length} change${t.diff.length === 1 ? '' : 's'}`})\n`
      for (const op of t.diff) out += `    ${op.op} ${op.path}${'value' in op ? ` ${JSON.stringify(op.value)}` : ''}\n`
    }
  }
  if (result.notes.length > 0) out += `\nNot simulated:\n${result.notes.map(n => `  ${n}\n`).join('')}`
  if (result.warnings.length > 0) out += `\nWarnings:\n${result.warnings.map(w => `  ${w}\n`).join('')}`
  if (result.topologyReconciled) out += `\nCluster API stops here, reconcile after reconcile, until the extension answers differently: TopologyReconciled ${result.topologyReconciled.status} ${result.topologyReconciled.reason}: ${result.topologyReconciled.message}\n`
  const held = `${result.calls} handler calls, ${at(result.timeline.at(-1)?.at ?? 0)} held by hooks`
  if (result.outcome === 'completed' && result.phases[0]?.phase === 'current') out += `\nThe cluster went on from where it stands${toVersion ? ` and was upgraded to ${toVersion}` : ''}: ${held}.\n`
  else if (result.outcome === 'completed') out += `\nThe cluster was created${toVersion ? `, upgraded to ${toVersion}` : ''} and deleted: ${held}.\n`
  return out
}

/** `Cluster namespace/name` among objects read from files. */
function describeCluster (objects: readonly unknown[]): string {
  const cluster = objects.find(o => (o as { kind?: unknown })?.kind === 'Cluster') as { metadata?: { name?: string, namespace?: string } } | undefined
  return `Cluster ${cluster?.metadata?.namespace ?? 'default'}/${cluster?.metadata?.name ?? ''}`
}

export function simulateCommand (io: CliIO = defaultIO): Command {
  const command = new Command('simulate')
    .description('take a Cluster through its life as Cluster API v1.14 would (create, upgrade, delete) against an extension, from files without a management cluster (or a live Cluster from where it stands, read-only), and print every hook call and the patched templates')
    .option('-f, --filename <path>', 'file or directory with the Cluster, its ClusterClass and the templates (YAML/JSON, multi-document; repeatable)', collect)
  clusterSelectionOptions(command)
  extensionTargetOptions(command, 'the one the ClusterClass\'s handler names end with; on a management cluster: its ExtensionConfigs')
  command
    .option('--to-version <version>', 'upgrade the Cluster to this Kubernetes version after creating it')
    .addOption(new Option('--max-blocked <duration>', 'fail when a hook holds the cluster longer (virtual time)').argParser(durationOption).default(600_000, '10m'))
    .option('--feature-gates <gates>', 'Cluster API\'s feature gates to simulate, as its managers take them: InPlaceUpdates=true (off by default, as Cluster API ships it)', featureGatesOption)
    .option('--output-dir <dir>', 'write the patched templates there, one YAML file each')
    .option('--html <file>', 'write a picture of the life there: the calls on the virtual clock, what held the Cluster, the patched templates (one self-contained HTML page)')
    .addOption(outputOption(['table', 'json', 'yaml']))
  return clientTlsOptions(clusterBudgetOptions(command)).action(action(io, async (opts: SimulateCliOptions) => {
    if (selectsLiveClusters(opts)) {
      if (opts.filename) throw new UsageError('pass the Cluster once: files (-f) or a management cluster (--namespace, --all-namespaces, --kubeconfig, ...)')
      await simulateLiveClusters(io, opts)
      return
    }
    if (!opts.filename) throw new UsageError('pass the Cluster: -f <files> with it, its ClusterClass and templates, or --namespace/--all-namespaces to read Clusters from a management cluster')
    const { objects, sources } = await readInputs(opts.filename)
    const extension = await extensionTarget(opts, classExtensionName(objects.find(o => (o as { kind?: unknown })?.kind === 'ClusterClass')) ?? 'extension')
    let result: SimulationResult
    try {
      result = await withBudget(clusterBudget(opts), async () => await simulate({
        ...('client' in extension ? { client: extension.client } : { handlers: extension.handlers, extensionName: extension.name }),
        objects,
        sourceOf: o => sources.get(o),
        ...(opts.toVersion ? { toVersion: opts.toVersion } : {}),
        ...(opts.featureGates ? { featureGates: opts.featureGates } : {}),
        maxBlockedSeconds: Math.round(opts.maxBlocked / 1000)
      }))
    } catch (err) {
      if (!(err instanceof BudgetExceeded)) throw err
      io.stderr(`error: ${describeCluster(objects)}: ${err.message}\n`)
      throw new OperationFailed('simulation failed')
    } finally {
      await closeTarget(extension)
    }
    io.stdout(render(opts.output, result, () => tableText(result, opts.toVersion)))
    if (opts.html) await writeFile(opts.html, simulationHtml(result, `${result.cluster.metadata?.namespace ?? ''}/${result.cluster.metadata?.name ?? ''}`))
    if (opts.outputDir) {
      await mkdir(opts.outputDir, { recursive: true })
      for (const t of result.templates) await writeFile(join(opts.outputDir, `${t.role.replace(/\s+/g, '-')}-${t.kind}-${t.name}.yaml`.toLowerCase()), stringify(t.patched))
    }
    if (result.outcome === 'failed') {
      io.stderr(`error: ${failure(result)}\n`)
      throw new OperationFailed('simulation failed')
    }
  }))
}

/** A live Cluster's simulation, or why it could not be computed within its budget. */
type LiveOutcome = { cluster: string, result: SimulationResult } | { cluster: string, error: string }

/** One live Cluster simulated from where it stands, within its budget. */
async function simulateLive (opts: SimulateCliOptions, live: LiveCluster, client: RuntimeClient | undefined): Promise<LiveOutcome> {
  const cluster = `${live.cluster.metadata.namespace}/${live.cluster.metadata.name}`
  const target = client ? undefined : await extensionTarget(opts, classExtensionName(live.objects.find(o => o.kind === 'ClusterClass')) ?? 'extension')
  try {
    const result = await withBudget(clusterBudget(opts), async () => await simulate({
      ...(target ? ('client' in target ? { client: target.client } : { handlers: target.handlers, extensionName: target.name }) : { client: client as RuntimeClient }),
      objects: live.objects,
      current: live.state,
      delete: false,
      ...(opts.toVersion ? { toVersion: opts.toVersion } : {}),
      ...(opts.featureGates ? { featureGates: opts.featureGates } : {}),
      maxBlockedSeconds: Math.round(opts.maxBlocked / 1000)
    }))
    return { cluster, result }
  } catch (err) {
    if (err instanceof BudgetExceeded) return { cluster, error: err.message }
    throw err
  } finally {
    if (target) await closeTarget(target)
  }
}

/** Each chosen Cluster of the management cluster simulated; what was opened to read it is closed when done. */
async function simulateEachLive (opts: SimulateCliOptions): Promise<LiveOutcome[]> {
  await using cluster = new ManagementCluster(opts)
  const clusters = await cluster.clusters('simulated')
  // Checked before any client is made.
  if (clusters.length === 0) throw new Error('no Cluster with a managed topology matches') // said in one line, exit 1
  if (opts.html && clusters.length !== 1) throw new UsageError(`--html draws one Cluster's life and ${clusters.length} were chosen: pick one with --namespace and --cluster`)
  const given = opts.handlers !== undefined || opts.url !== undefined || opts.extensionConfigs !== undefined
  const registered = given ? undefined : await cluster.registeredExtensions(clusters)
  const results: LiveOutcome[] = []
  for (const c of clusters) results.push(await simulateLive(opts, await readLiveCluster(cluster.api, c), registered?.client))
  return results
}

/** Each chosen Cluster of the management cluster, from where it stands, against its registered extensions (or the one given). */
async function simulateLiveClusters (io: CliIO, opts: SimulateCliOptions): Promise<void> {
  const results = await simulateEachLive(opts)
  const text = (r: LiveOutcome): string => `Cluster ${r.cluster}:\n${'error' in r ? `${r.error}\n` : tableText(r.result, opts.toVersion)}`
  io.stdout(render(opts.output, results, () => results.map(text).join('\n')))
  const [only] = results
  if (opts.html && only && 'result' in only) await writeFile(opts.html, simulationHtml(only.result, only.cluster))
  const failed = results.map(r => 'error' in r ? { cluster: r.cluster, error: r.error } : { cluster: r.cluster, error: r.result.outcome === 'failed' ? failure(r.result) : undefined }).filter(f => f.error !== undefined)
  if (failed.length > 0) {
    io.stderr(`error: ${failed.map(f => `${f.cluster}: ${f.error ?? ''}`).join('; ')}\n`)
    throw new OperationFailed('simulation failed')
  }
}

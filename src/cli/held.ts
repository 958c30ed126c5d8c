// runtime-sdk held: why a Cluster does not move. For each chosen Cluster of a management cluster (read-only), the
// hooks that hold it (blocking with retryAfterSeconds), failed on it, or are still owed to it, with the extension's
// message, since when, and the handlers that serve it, from Cluster API's own conditions and annotations.
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'
import { Command } from 'commander'
import type { RuntimeClient } from '../client/runtime-client.js'
import { callNow } from '../diagnose/call-now.js'
import { type HeldReport, heldWithinBudget, whyHeld } from '../diagnose/held.js'
import { type ApiReader, type Stored, readLiveCluster } from '../simulate/index.js'
import { clusterBudget, type ClusterBudgetFlags, clusterBudgetOptions } from './cluster-budget.js'
import { type ClusterSelectionFlags, clusterSelectionOptions } from './cluster-selection.js'
import { action, type CliIO, clientCertificateOptions, type ClientTlsFlags, defaultIO, OperationFailed } from './command.js'
import { ManagementCluster } from './management-cluster.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { columns } from './table.js'

interface HeldCliOptions extends ClusterSelectionFlags, ClusterBudgetFlags, ClientTlsFlags {
  call?: boolean
  output: OutputFormat
}

/** `2026-01-02T03:04:05Z` as how long ago: `4m12s`, `2h5m`, `3d4h`. */
export function age (since: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(since)) / 1000))
  if (!Number.isFinite(seconds)) return ''
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${seconds % 60}s`
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h${Math.floor(seconds % 3600 / 60)}m`
  return `${Math.floor(seconds / 86400)}d${Math.floor(seconds % 86400 / 3600)}h`
}

function tableText (reports: readonly HeldReport[], now: number): string {
  const rows = [['CLUSTER', 'HOOK', 'STATE', 'FOR', 'HANDLERS', 'MESSAGE']]
  for (const r of reports) {
    if (r.error !== undefined) rows.push([r.cluster, '-', 'error', '', '', r.error])
    else if (r.holding.length === 0) rows.push([r.cluster, '-', 'not held', '', '', r.topologyReconciled ? `TopologyReconciled ${r.topologyReconciled.status}${r.topologyReconciled.reason ? ` (${r.topologyReconciled.reason})` : ''}` : 'no TopologyReconciled condition yet'])
    for (const h of r.holding) {
      const undiscovered = h.undiscovered.map(u => ` [${u.extensionConfig} not discovered: ${u.message}]`).join('')
      const answer = h.now ? ` [now: ${[h.now.status, h.now.retryAfterSeconds ? `retry ${h.now.retryAfterSeconds}s` : '', h.now.message].filter(Boolean).join(', ')}]` : ''
      rows.push([r.cluster, h.hook || '-', h.state, h.since ? age(h.since, now) : '', h.handlers.join(',') || '-', `${h.message ?? ''}${undiscovered}${answer}`])
    }
  }
  const held = reports.filter(r => r.holding.some(h => h.state === 'blocking' || h.state === 'failed' || h.state === 'held by annotation')).length
  return `${columns(rows)}\n${held} of ${reports.length} Clusters held by a hook.\n`
}

/** Each blocking hook called now (held --call): its answer, or why it was not called. */
async function answerNow (api: ApiReader, cluster: Stored<Cluster, 'namespaced'>, report: HeldReport, client: RuntimeClient): Promise<void> {
  const blocking = report.holding.filter(h => h.state === 'blocking')
  if (blocking.length === 0) return
  const live = await readLiveCluster(api, cluster)
  for (const h of blocking) {
    try {
      const entry = await callNow(live, h.hook, client)
      h.now = entry ? { status: entry.status, ...(entry.retryAfterSeconds ? { retryAfterSeconds: entry.retryAfterSeconds } : {}), ...(entry.message ? { message: entry.message } : {}) } : { status: 'not called', message: 'Cluster API would not call it from where the Cluster stands' }
    } catch (err) {
      h.now = { status: 'Error', message: (err as Error).message.split('\n')[0] ?? '' }
    }
  }
}

/** Why each chosen Cluster is held, each within its budget; what held opened is closed when done. */
async function heldReports (opts: HeldCliOptions): Promise<HeldReport[]> {
  await using cluster = new ManagementCluster(opts)
  const clusters = await cluster.clusters('held by hooks')
  const registered = await cluster.registeredExtensions(clusters)
  const reports: HeldReport[] = []
  for (const c of clusters) {
    reports.push(await heldWithinBudget(c, clusterBudget(opts), async () => {
      const report = await whyHeld(c, registered.extensionConfigs, registered.client)
      if (opts.call) await answerNow(cluster.api, c, report, registered.client)
      return report
    }))
  }
  return reports
}

export function heldCommand (io: CliIO = defaultIO): Command {
  const command = new Command('held')
    .description('why a Cluster does not move: the hooks that hold it, failed on it or are still owed to it, with the extension\'s message, for how long, and the handlers that serve it; reads the management cluster, never writes')
  clusterSelectionOptions(command)
  return clientCertificateOptions(clusterBudgetOptions(command))
    .option('--call', 'call each blocking hook now, with the request Cluster API would send, and show its answer (the only lifecycle hook called)')
    .addOption(outputOption(['table', 'json', 'yaml']))
    .action(action(io, async (opts: HeldCliOptions) => {
      const reports = await heldReports(opts)
      io.stdout(render(opts.output, reports, () => tableText(reports, Date.now())))
      const failed = reports.filter(r => r.error !== undefined)
      if (failed.length > 0) {
        io.stderr(`error: ${failed.map(r => `${r.cluster}: ${r.error ?? ''}`).join('; ')}\n`)
        throw new OperationFailed('held incomplete')
      }
    }))
}

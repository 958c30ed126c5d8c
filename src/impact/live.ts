// Rollout impact over the Clusters of a running management cluster, read and never written: each selected Cluster
// is read with its ClusterClass and templates (each class and template once), its desired state computed with the
// extensions as their ExtensionConfigs register them and with a candidate in place of one of them, and compared
// (impact.ts). A Cluster that cannot be read or computed is reported with its error; the others go on. Each Cluster
// is computed within a budget of time and memory (src/budget): a class or variables written to stall the tool
// cost their Cluster one line, `could not be computed: ...`, and nothing more.
import { type Budget, DEFAULT_CLUSTER_BUDGET, withBudget } from '../budget/index.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { type ApiReader, type ClusterSelection, listClusters, readLiveCluster, ResourcePaths } from '../simulate/index.js'
import { type ClusterImpact, clusterImpact } from './impact.js'
import { matchesSelector } from '../registry/selector.js'
import { ReplacedExtensionClient } from './replaced-extension.js'

/** A Cluster whose impact could not be computed. */
export interface ClusterImpactFailure {
  /** cluster is `namespace/name`. */
  cluster: string
  /** error says why, in one line. */
  error: string
}

/** The counts of a rollout impact report. */
export interface ImpactSummary {
  /** clusters counts the Clusters chosen. */
  clusters: number
  /** refused counts the Clusters where the API server would refuse an object: their topology stops reconciling. */
  refused: number
  /** rollingOut counts the Clusters where some Machines would be replaced. */
  rollingOut: number
  /** inPlace counts the Clusters with in-place changes only. */
  inPlace: number
  /** unchanged counts the Clusters where no Machine changes. */
  unchanged: number
  /** failed counts the Clusters whose impact could not be computed. */
  failed: number
  /** machines counts the Machines that would be replaced (the replicas of what rolls out). */
  machines: number
}

/** The rollout impact of a candidate over the selected Clusters. */
export interface RolloutImpactReport {
  /** extensionConfig is the ExtensionConfig the candidate replaces. */
  extensionConfig: string
  /** clusters has each Cluster's impact, or why it could not be computed, in namespace and name order. */
  clusters: Array<ClusterImpact | ClusterImpactFailure>
  /** summary counts the Clusters by what would happen to them. */
  summary: ImpactSummary
}

/** What rolloutImpact needs. */
export interface RolloutImpactOptions {
  /** api reads the management cluster (get and list only). */
  api: ApiReader
  /** selection chooses the Clusters. */
  selection: ClusterSelection
  /** name of the ExtensionConfig the candidate replaces. */
  name: string
  /** candidate is the new version, answering for the ExtensionConfig `name`. */
  candidate: RuntimeClient
  /**
   * extensionConfig is the ExtensionConfig the candidate replaces, as stored, with the labels of the namespaces:
   * the candidate then gets its settings and only the namespaces it selects, as Cluster API would call it.
   */
  extensionConfig?: {
    /** object is the ExtensionConfig the candidate replaces (its settings and namespaceSelector). */
    object: ExtensionConfig
    /** namespaceLabels gives a namespace's labels, for its namespaceSelector. */
    namespaceLabels: (namespace: string) => Record<string, string>
  }
  /** registered calls the extensions as registered (see registeredExtensions). */
  registered: RuntimeClient
  /** concurrency is how many Clusters are computed at once (default 4). */
  concurrency?: number
  /** budget is what computing one Cluster may take (default DEFAULT_CLUSTER_BUDGET: 30s, 512Mi). */
  budget?: Budget
}

/** Whether a Cluster's entry is a failure to compute its impact. */
export const isFailure = (c: ClusterImpact | ClusterImpactFailure): c is ClusterImpactFailure => 'error' in c

/** A reader that asks for each ClusterClass, template and API discovery document once. */
function sharedReads (api: ApiReader): ApiReader {
  const cache = new Map<string, Promise<unknown>>()
  const shared = (path: string) => /\/clusterclasses\/|templates\/|^\/apis?\/[^/]+(\/[^/]+)?$/.test(path)
  return {
    get: async <T>(path: string) => {
      if (!shared(path)) return await api.get<T>(path)
      let found = cache.get(path)
      if (!found) {
        found = api.get<T>(path)
        cache.set(path, found)
      }
      return await found as T
    },
    list: async <T>(path: string) => await api.list<T>(path)
  }
}

/** The impact of the candidate on every selected Cluster, in namespace and name order. */
export async function rolloutImpact (options: RolloutImpactOptions): Promise<RolloutImpactReport> {
  const api = sharedReads(options.api)
  const paths = new ResourcePaths(api)
  const clusters = await listClusters(api, options.selection)
  const ec = options.extensionConfig
  const candidate = new ReplacedExtensionClient(options.registered, options.candidate, options.name, ec
    ? { ...(ec.object.spec.settings ? { settings: ec.object.spec.settings } : {}), serves: o => matchesSelector(ec.object.spec.namespaceSelector, ec.namespaceLabels(o.metadata?.namespace ?? '')) }
    : {})
  const results: Array<ClusterImpact | ClusterImpactFailure> = new Array(clusters.length)
  let next = 0
  const worker = async () => {
    while (next < clusters.length) {
      const i = next++
      const cluster = clusters[i] as (typeof clusters)[number]
      const key = `${cluster.metadata.namespace}/${cluster.metadata.name}`
      try {
        const live = await readLiveCluster(api, cluster, paths)
        results[i] = await withBudget(options.budget ?? DEFAULT_CLUSTER_BUDGET, async () => await clusterImpact({ objects: live.objects, current: live.state, registered: options.registered, candidate }))
      } catch (err) {
        results[i] = { cluster: key, error: (err as Error).message.split('\n')[0] ?? '' }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, clusters.length) }, worker))
  return { extensionConfig: options.name, clusters: results, summary: summarise(results) }
}

/** The counts of a report: Clusters by strongest effect (refused first), failures, and the Machines that would be replaced. */
export function summarise (clusters: ReadonlyArray<ClusterImpact | ClusterImpactFailure>): ImpactSummary {
  const summary = { clusters: clusters.length, refused: 0, rollingOut: 0, inPlace: 0, unchanged: 0, failed: 0, machines: 0 }
  for (const c of clusters) {
    if (isFailure(c)) {
      summary.failed++
      continue
    }
    const effects = c.objects.map(o => o.effect)
    if (effects.includes('refused')) summary.refused++
    else if (effects.includes('rollout')) summary.rollingOut++
    else if (effects.includes('in-place')) summary.inPlace++
    else summary.unchanged++
    summary.machines += c.objects.filter(o => o.effect === 'rollout').reduce((n, o) => n + (o.machines ?? 0), 0)
  }
  return summary
}

/** The summary in one sentence, as the table and the HTML page end. */
export function summaryText (summary: ImpactSummary): string {
  const refused = summary.refused > 0 ? `${summary.refused} of ${summary.clusters} Clusters would stop reconciling their topology (the API server refuses an object Cluster API writes), ` : ''
  return `${refused}${summary.rollingOut} of ${summary.clusters} Clusters would replace Machines (${summary.machines} Machines), ${summary.inPlace} change in place only, ${summary.unchanged} unchanged, ${summary.failed} could not be computed.`
}

// The budget of each Cluster that simulate, rollout-impact and held compute, the same two flags in the three: a
// Cluster whose ClusterClass or variables would take longer, or more memory, is one line `could not be computed:
// <reason>`, and the other Clusters go on (src/budget explains how it is kept).
import { type Command, Option } from 'commander'
import { type Budget, DEFAULT_CLUSTER_BUDGET, quantity } from '../budget/index.js'
import { formatGoDuration } from '../go/time.js'
import { durationOption, quantityOption } from './options.js'

export interface ClusterBudgetFlags {
  clusterTimeout: number
  clusterMemory: number
}

/** Adds --cluster-timeout and --cluster-memory. */
export function clusterBudgetOptions (command: Command): Command {
  return command
    .addOption(new Option('--cluster-timeout <duration>', 'how long computing one Cluster may take (the processor time of its own work: waiting for extensions and the API server is not counted); a Cluster that takes longer is reported as could not be computed and the others go on (0: no limit)')
      .argParser(durationOption).default(DEFAULT_CLUSTER_BUDGET.timeoutMs, formatGoDuration(DEFAULT_CLUSTER_BUDGET.timeoutMs)))
    .addOption(new Option('--cluster-memory <quantity>', 'how much memory computing one Cluster may take (heap growth, e.g. 512Mi, 1Gi); a Cluster that takes more is reported as could not be computed (0: no limit)')
      .argParser(quantityOption).default(DEFAULT_CLUSTER_BUDGET.memoryBytes, quantity(DEFAULT_CLUSTER_BUDGET.memoryBytes)))
}

/** The budget the flags give. */
export const clusterBudget = (opts: ClusterBudgetFlags): Budget => ({ timeoutMs: opts.clusterTimeout, memoryBytes: opts.clusterMemory })

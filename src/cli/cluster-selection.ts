// Which Clusters of a management cluster a command reads, chosen as kubectl chooses objects: -n/--namespace or
// -A/--all-namespaces, --cluster for one by name, -l/--selector for labels, --cluster-class for the Clusters of one
// ClusterClass; and the API server it reads them from (--kubeconfig, --context), read-only (management-cluster.ts
// reads them).
import type { Command } from 'commander'
import type { ClusterSelection } from '../simulate/index.js'
import { type KubeconfigFlags, kubeconfigOptions, UsageError } from './command.js'

export interface ClusterSelectionFlags extends KubeconfigFlags {
  namespace?: string
  allNamespaces?: boolean
  cluster?: string
  selector?: string
  clusterClass?: string
}

/** Adds the flags that choose Clusters and the cluster they are read from. */
export function clusterSelectionOptions (command: Command): Command {
  kubeconfigOptions(command, 'read the Clusters from this management cluster (read-only: get and list)')
  return command
    .option('-n, --namespace <namespace>', 'the Clusters of this namespace')
    .option('-A, --all-namespaces', 'the Clusters of every namespace')
    .option('--cluster <name>', 'one Cluster, by name (with --namespace)')
    .option('-l, --selector <selector>', 'the Clusters whose labels match, e.g. env=prod,tier!=edge')
    .option('--cluster-class <name>', 'the Clusters of this ClusterClass (name, or namespace/name)')
}

/** Whether any flag chose Clusters of a management cluster. */
export const selectsLiveClusters = (opts: ClusterSelectionFlags): boolean =>
  [opts.namespace, opts.allNamespaces, opts.cluster, opts.selector, opts.clusterClass, opts.kubeconfig, opts.context].some(v => v !== undefined)

/** The selection the flags make; a Cluster by name needs its namespace. */
export function clusterSelection (opts: ClusterSelectionFlags): ClusterSelection {
  if (opts.namespace && opts.allNamespaces) throw new UsageError('pass --namespace or --all-namespaces, not both')
  if (opts.cluster && !opts.namespace) throw new UsageError('--cluster names a Cluster of a namespace: pass --namespace too')
  if (!opts.namespace && !opts.allNamespaces) throw new UsageError('choose the Clusters: --namespace <ns> (with --cluster <name>, --selector or --cluster-class to narrow), or --all-namespaces')
  return {
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    ...(opts.cluster ? { name: opts.cluster } : {}),
    ...(opts.selector ? { labelSelector: opts.selector } : {}),
    ...(opts.clusterClass ? { clusterClass: opts.clusterClass } : {})
  }
}

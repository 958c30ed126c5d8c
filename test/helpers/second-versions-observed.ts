// What Cluster API did with a second version, per Cluster and object, in the terms `rollout-impact` predicts:
// `refused` (the API server refused what the topology controller wrote: TopologyReconciled says so), `rollout` (a new
// MachineSet, control plane Machines replaced), `in-place` (the same control plane Machines, changed), `none`.
// Written by test/capi/second-versions.test.ts, read by it and by test/impact/second-versions.test.ts.
import type { RolloutEffect } from '../../src/impact/rollout.js'
import type { Reads } from './recorded-reads.js'
import type { SecondVersionChange } from './second-versions.js'

/** A Cluster's Machines and MachineSets, as compared before and after. */
export interface MachinesSnapshot {
  /** machineSets are the names of md-0's MachineSets. */
  machineSets: string[]
  /** controlPlane maps each control plane Machine's name to what KCP updates in place (spec.deletion, labels, annotations). */
  controlPlane: Record<string, unknown>
}

/** What happened to one Cluster. */
export interface Observed {
  /** effects by role: infrastructureCluster, controlPlane, `machineDeployment md-0`. */
  effects: Record<string, RolloutEffect>
  /** condition is the Cluster's TopologyReconciled condition when a reconcile failed (reason ReconcileFailed). */
  condition?: { status: string, reason: string, message: string }
}

/** The corpus as recorded: the changes, what the reader read before, what Cluster API did. */
export interface SecondVersionsRecording {
  /** clusterApi is the version of the managers that did it. */
  clusterApi: string
  changes: SecondVersionChange[]
  /** reads are the management cluster's answers to rollout-impact's reads before the change, by path. */
  reads: Reads
  /** observed by Cluster key (`namespace/name`). */
  observed: Record<string, Observed>
}

/** The object a reconcile error is about, as Cluster API words it (reconcile_state.go), by role. */
export function refusedRole (message: string): string | undefined {
  const error = message.replace(/^error reconciling the Cluster topology: /, '')
  if (/^failed to (reconcile|create|create patch helper for|patch) MachineDeployment\b/.test(error)) return 'machineDeployment md-0'
  if (/^failed to (create patch helper for|patch) (KubeadmControlPlane|DevMachineTemplate)\b|^failed to create (KubeadmControlPlane|DevMachineTemplate)\./.test(error)) return 'controlPlane'
  if (/^failed to (create patch helper for|patch) DevCluster\b|^failed to create DevCluster\./.test(error)) return 'infrastructureCluster'
  return undefined
}

/** What Cluster API did to each object of a Cluster, from its Machines and MachineSets before and after, and its condition. */
export function observedEffects (before: MachinesSnapshot, after: MachinesSnapshot, condition: Observed['condition']): Observed {
  const refused = condition?.reason === 'ReconcileFailed' ? refusedRole(condition.message) : undefined
  const names = (s: MachinesSnapshot) => Object.keys(s.controlPlane).sort()
  const controlPlane: RolloutEffect = JSON.stringify(names(before)) !== JSON.stringify(names(after))
    ? 'rollout'
    : JSON.stringify(before.controlPlane) !== JSON.stringify(after.controlPlane) ? 'in-place' : 'none'
  const effects: Record<string, RolloutEffect> = {
    infrastructureCluster: 'none',
    controlPlane,
    'machineDeployment md-0': after.machineSets.some(m => !before.machineSets.includes(m)) ? 'rollout' : 'none'
  }
  if (refused) effects[refused] = 'refused'
  return { effects, ...(condition ? { condition } : {}) }
}

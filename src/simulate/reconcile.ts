// One reconcile of Cluster API's topology controller (core/reconcilers/topology/cluster/cluster_controller.go
// reconcile and reconcileDelete, reconcile_state.go reconcileState): BeforeClusterCreate while the Cluster has no
// objects yet; the desired state (the upgrade plan, the versions with their hooks, the objects, the patches); the
// After* hooks; then the objects written. A deleted Cluster only gets BeforeClusterDelete.
import { AfterClusterUpgrade } from '../api/hooks/v1alpha1/hooks.js'
import { CLUSTER_TOPOLOGY_UPGRADE_CONCURRENCY_ANNOTATION } from '../api/core/constants.js'
import type { ContractVersion } from './cloning.js'
import { computeDesiredObjects } from './desired-state.js'
import { callAfterClusterUpgrade, callAfterControlPlaneInitialized, callBeforeClusterCreateHook, callBeforeClusterDeleteHook, isPending, markAsPending } from './lifecycle-hooks.js'
import type { RandomSource } from './seeded.js'
import { applyPatches, type PatchEngineContext, type PatchRequest } from './patch-engine.js'
import { type Blueprint, type DesiredState, HookResponseTracker, type Scope, UpgradeTracker } from './scope.js'
import { computeControlPlaneVersion, computeUpgradePlan, computeWorkerVersion, type UpgradeContext } from './upgrade.js'
import type { SimulatedWorld, WorldEvent } from './world.js'

/** What a reconcile needs: the world it reads and writes, the ClusterClass, and how hooks are called. */
export interface ReconcileContext extends UpgradeContext {
  world: SimulatedWorld
  /** blueprint of the ClusterClass; the topology is read from the stored Cluster at every reconcile. */
  blueprint: Omit<Blueprint, 'topology'>
  random: RandomSource
  contract: ContractVersion
  patchEngine: PatchEngineContext
}

/** What one reconcile did. */
interface ReconcileResult {
  /** blocking: the lifecycle hooks that asked to be called again, with their answers. */
  blocking: Array<{ hook: string, retryAfterSeconds: number, message: string }>
  /** desired state, when the reconcile computed it. */
  desired?: DesiredState
  /** request is the GeneratePatches request after every patch (the patched templates). */
  request?: PatchRequest
  /** events: what the topology controller wrote. */
  events: WorldEvent[]
}

/** The scope of a reconcile: the blueprint with the stored Cluster's topology, and what is stored now. */
export function newScope (ctx: ReconcileContext): Scope {
  const current = ctx.world.current()
  const concurrency = Number(current.cluster.metadata.annotations?.[CLUSTER_TOPOLOGY_UPGRADE_CONCURRENCY_ANNOTATION] ?? 1)
  return {
    blueprint: { ...ctx.blueprint, topology: current.cluster.spec?.topology ?? {} },
    current,
    upgradeTracker: new UpgradeTracker(Number.isInteger(concurrency) ? concurrency : 1),
    hookResponses: new HookResponseTracker()
  }
}

/**
 * Generate: the upgrade plan, the versions of this reconcile (with their hooks), the desired objects and the
 * ClusterClass's patches over them.
 */
export async function generateDesiredState (s: Scope, ctx: ReconcileContext): Promise<{ desired: DesiredState, request: PatchRequest }> {
  await computeUpgradePlan(s, ctx)
  for (const [name, md] of s.current.machineDeployments) {
    if (ctx.world.isUpgrading(name)) s.upgradeTracker.machineDeployments.upgrading.add(md.object.metadata?.name ?? '')
  }
  const controlPlaneVersion = await computeControlPlaneVersion(s, ctx)
  const desired = computeDesiredObjects(s, {
    random: ctx.random,
    contract: ctx.contract,
    controlPlaneVersion,
    workerVersion: (kind, name) => computeWorkerVersion(s, kind === 'machineDeployment' ? 'machineDeployments' : 'machinePools', name),
    upgrading: isPending(AfterClusterUpgrade, s.current.cluster)
  })
  return { desired, request: await applyPatches(s.blueprint, desired, ctx.patchEngine) }
}

/** One reconcile of the Cluster. */
export async function reconcile (ctx: ReconcileContext): Promise<ReconcileResult> {
  const s = newScope(ctx)
  if (s.current.cluster.metadata.deletionTimestamp) {
    await callBeforeClusterDeleteHook(s, ctx)
    return { blocking: s.hookResponses.blocking(), events: [] }
  }
  if (!await callBeforeClusterCreateHook(s, ctx)) return { blocking: s.hookResponses.blocking(), events: [] }
  const { desired, request } = await generateDesiredState(s, ctx)
  await callAfterControlPlaneInitialized(s, ctx)
  await callAfterClusterUpgrade(s, ctx)
  const events = ctx.world.reconcileState(s, desired, ctx.contract, hooks => markAsPending(s, ctx, ...hooks))
  return { blocking: s.hookResponses.blocking(), desired, request, events }
}

// Which Kubernetes version each part of the topology takes in this reconcile, as Cluster API decides it
// (exp/topology/desiredstate: ComputeUpgradePlan, computeControlPlaneVersion, getHooksToMarkPending,
// computeMachineDeploymentVersion, computeMachinePoolVersion, isMachineDeploymentDeferred): the upgrade plan, then
// the control plane one step at a time between its lifecycle hooks, then the workers as far as the plan, the
// upgrade concurrency and the hooks allow.
import {
  AfterClusterUpgrade, AfterControlPlaneUpgrade, AfterWorkersUpgrade, BeforeWorkersUpgrade, GenerateUpgradePlan
} from '../api/hooks/v1alpha1/hooks.js'
import { CLUSTER_TOPOLOGY_DEFER_UPGRADE_ANNOTATION, CLUSTER_TOPOLOGY_HOLD_UPGRADE_SEQUENCE_ANNOTATION } from '../api/core/constants.js'
import {
  callAfterControlPlaneUpgradeHook, callAfterWorkersUpgradeHook, callBeforeClusterUpgradeHook, callBeforeControlPlaneUpgradeHook, callBeforeWorkersUpgradeHook,
  cleanupCluster, type HookContext, isPending, markAsPending
} from './lifecycle-hooks.js'
import { getPath } from './objects.js'
import type { Scope, WorkerState } from './scope.js'
import { SimulationFailure } from './timeline.js'
import { classVersionsPlan, compareKubernetesVersions, defaultAndValidatePlans, oneMinorPlan } from './versions.js'

/** GenerateUpgradePlan's answers, remembered for ten minutes (Cluster API's getUpgradePlanCache), by request. */
type UpgradePlanCache = Map<string, { expires: number, controlPlane: string[], workers: string[] }>
const UPGRADE_PLAN_CACHE_SECONDS = 600

/** What choosing versions needs besides the scope. */
export interface UpgradeContext extends HookContext {
  planCache: UpgradePlanCache
}

const specVersion = (object: unknown) => getPath(object, ['spec', 'version']) as string | undefined
const workerVersion = (worker: WorkerState) => getPath(worker.object, ['spec', 'template', 'spec', 'version']) as string | undefined

/** The upgrade plan from the ClusterClass's upgrade extension, its kubernetesVersions, or one minor at a time. */
async function getUpgradePlan (s: Scope, ctx: UpgradeContext, desired: string, controlPlane: string, minWorkers: string): Promise<{ controlPlane: string[], workers: string[] }> {
  const extension = s.blueprint.clusterClass.spec?.upgrade?.external?.generateUpgradePlanExtension
  if (extension) {
    const key = `(${controlPlane},${minWorkers}) => ${desired}`
    const cached = ctx.planCache.get(key)
    if (cached && cached.expires > ctx.now()) return { controlPlane: [...cached.controlPlane], workers: [...cached.workers] }
    const response = await ctx.caller.callExtension(GenerateUpgradePlan, extension, {
      cluster: cleanupCluster(s.current.cluster),
      fromControlPlaneKubernetesVersion: controlPlane,
      ...(minWorkers ? { fromWorkersKubernetesVersion: minWorkers } : {}),
      toKubernetesVersion: desired
    }, `upgrade to ${desired}`)
    const plan = { controlPlane: (response.controlPlaneUpgrades ?? []).map(step => step.version ?? ''), workers: (response.workersUpgrades ?? []).map(step => step.version ?? '') }
    ctx.planCache.set(key, { ...plan, expires: ctx.now() + UPGRADE_PLAN_CACHE_SECONDS })
    return plan
  }
  const classVersions = s.blueprint.clusterClass.spec?.kubernetesVersions ?? []
  return { controlPlane: classVersions.length > 0 ? classVersionsPlan(classVersions, desired, controlPlane) : oneMinorPlan(desired, controlPlane), workers: [] }
}

/** ComputeUpgradePlan: the plans of this reconcile, once the control plane exists and something is behind. */
export async function computeUpgradePlan (s: Scope, ctx: UpgradeContext): Promise<void> {
  const object = s.current.controlPlane.object
  if (!object) return
  const desired = s.blueprint.topology.version ?? ''
  const controlPlane = specVersion(object) ?? ''
  const workers = [...s.current.machineDeployments.values(), ...s.current.machinePools.values()].map(workerVersion).filter((v): v is string => Boolean(v))
  const minWorkers = workers.sort(compareKubernetesVersions)[0] ?? ''
  s.upgradeTracker.minWorkersVersion = minWorkers
  if (compareKubernetesVersions(controlPlane, desired) === 0 && (minWorkers === '' || compareKubernetesVersions(minWorkers, desired) === 0)) return
  const plan = await getUpgradePlan(s, ctx, desired, controlPlane, minWorkers)
  const workersPlan = defaultAndValidatePlans(desired, controlPlane, minWorkers, plan.controlPlane, plan.workers)
  s.upgradeTracker.controlPlane.upgradePlan = plan.controlPlane
  if (s.current.machineDeployments.size > 0) s.upgradeTracker.machineDeployments.upgradePlan = workersPlan
  if (s.current.machinePools.size > 0) s.upgradeTracker.machinePools.upgradePlan = workersPlan
}

/** getHooksToMarkPending: AfterControlPlaneUpgrade, and the workers' hooks when they take this version too. */
export function getHooksToMarkPending (s: Scope, nextVersion: string): string[] {
  const workersToo = [s.upgradeTracker.machineDeployments, s.upgradeTracker.machinePools].some(w => w.upgradePlan[0] === nextVersion)
  return [AfterControlPlaneUpgrade.hook, ...(workersToo ? [BeforeWorkersUpgrade.hook, AfterWorkersUpgrade.hook] : [])]
}

/** Whether the current control plane is provisioning (no status.version yet) or upgrading (status behind spec). */
export function controlPlaneProgress (object: unknown): { provisioning: boolean, upgrading: boolean } {
  const status = getPath(object, ['status', 'version']) as string | undefined
  if (!status) return { provisioning: true, upgrading: false }
  return { provisioning: false, upgrading: compareKubernetesVersions(specVersion(object) ?? '', status) > 0 }
}

/** computeControlPlaneVersion: the control plane's version of this reconcile, calling the upgrade hooks in order. */
export async function computeControlPlaneVersion (s: Scope, ctx: UpgradeContext): Promise<string> {
  const topologyVersion = s.blueprint.topology.version ?? ''
  const object = s.current.controlPlane.object
  if (!object) return topologyVersion
  const current = specVersion(object) ?? ''
  const cp = s.upgradeTracker.controlPlane
  cp.isPendingUpgrade = current !== topologyVersion
  const progress = controlPlaneProgress(object)
  if (progress.provisioning) {
    cp.isProvisioning = true
    return current
  }
  if (progress.upgrading) {
    cp.isUpgrading = true
    // Recovery: the version changed but the hooks to call after it were not recorded.
    if (!isPending(AfterControlPlaneUpgrade, s.current.cluster)) markAsPending(s, ctx, ...getHooksToMarkPending(s, current))
    return current
  }
  if (!await callAfterControlPlaneUpgradeHook(s, ctx, current)) return current
  if (!await callBeforeWorkersUpgradeHook(s, ctx, s.upgradeTracker.minWorkersVersion, current)) return current
  const workers = [s.upgradeTracker.machineDeployments, s.upgradeTracker.machinePools]
  if (workers.some(w => w.upgradePlan.length > 0 && w.upgradePlan[0] === current)) {
    cp.isWaitingForWorkersUpgrade = true
    return current
  }
  if (workers.some(w => w.upgrading.size > 0)) return current
  if (!await callAfterWorkersUpgradeHook(s, ctx, current)) return current
  if (!cp.isPendingUpgrade) return current
  if (!await callBeforeClusterUpgradeHook(s, ctx, current, topologyVersion)) return current
  markAsPending(s, ctx, AfterClusterUpgrade)
  const next = cp.upgradePlan[0]
  if (next === undefined) throw new SimulationFailure('cannot compute the control plane version if the control plane is pending upgrade and the upgrade plan is not set')
  if (!await callBeforeControlPlaneUpgradeHook(s, ctx, current, next)) return current
  s.upgradeTracker.hooksToMarkPending = getHooksToMarkPending(s, next)
  cp.isStartingUpgrade = true
  cp.isPendingUpgrade = false
  return next
}

/** isMachineDeploymentDeferred (and isMachinePoolDeferred): deferred, or at or after a topology holding the sequence. */
export function isWorkerDeferred (topologies: ReadonlyArray<{ name?: string, metadata?: { annotations?: Record<string, string> } }>, name: string): boolean {
  const own = topologies.find(t => t.name === name)?.metadata?.annotations ?? {}
  if (CLUSTER_TOPOLOGY_DEFER_UPGRADE_ANNOTATION in own || CLUSTER_TOPOLOGY_HOLD_UPGRADE_SEQUENCE_ANNOTATION in own) return true
  for (const t of topologies) {
    if (CLUSTER_TOPOLOGY_HOLD_UPGRADE_SEQUENCE_ANNOTATION in (t.metadata?.annotations ?? {})) return true
    if (t.name === name) return false
  }
  return false
}

/**
 * computeMachineDeploymentVersion and computeMachinePoolVersion: a new worker takes the topology's version; an
 * existing one the next step of the workers' plan, unless deferred, held by AfterControlPlaneUpgrade or
 * BeforeWorkersUpgrade, past the upgrade concurrency, or the control plane is not there yet.
 */
export function computeWorkerVersion (s: Scope, kind: 'machineDeployments' | 'machinePools', topologyName: string): string {
  const topologyVersion = s.blueprint.topology.version ?? ''
  const tracker = s.upgradeTracker[kind]
  const current = s.current[kind].get(topologyName)
  const blocked = s.hookResponses.isBlocking(AfterControlPlaneUpgrade.hook) || s.hookResponses.isBlocking(BeforeWorkersUpgrade.hook)
  if (!current) {
    if (!s.upgradeTracker.controlPlaneStable() || blocked) tracker.pendingCreate.add(topologyName)
    return topologyVersion
  }
  const currentVersion = workerVersion(current) ?? ''
  const name = current.object.metadata?.name ?? ''
  if (currentVersion === topologyVersion) return currentVersion
  const topologies = (kind === 'machineDeployments' ? s.blueprint.topology.workers?.machineDeployments : s.blueprint.topology.workers?.machinePools) ?? []
  if (isWorkerDeferred(topologies, topologyName)) {
    tracker.deferred.add(name)
    tracker.pendingUpgrade.add(name)
    return currentVersion
  }
  if (blocked || tracker.concurrencyReached() || !s.upgradeTracker.controlPlaneStableOrWaitingForWorkers()) {
    tracker.pendingUpgrade.add(name)
    return currentVersion
  }
  const next = tracker.upgradePlan[0]
  if (next === undefined) throw new SimulationFailure(`cannot compute the ${kind === 'machineDeployments' ? 'machine deployment' : 'machine pool'} version if the ${kind === 'machineDeployments' ? 'machine deployment' : 'machine pool'} is pending upgrade and the upgrade plan is not set`)
  if (next === currentVersion) {
    tracker.pendingUpgrade.add(name)
    return currentVersion
  }
  tracker.upgrading.add(name)
  return next
}

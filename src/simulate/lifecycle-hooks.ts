// The lifecycle hooks as Cluster API's topology controller calls them (exp/topology/desiredstate/lifecycle_hooks.go,
// core/reconcilers/topology/cluster: callBeforeClusterCreateHook, callAfterHooks, reconcileDelete), with the
// intent to call a hook tracked in the Cluster's pending-hooks annotation (internal/hooks) and blocking answers
// remembered until they expire (the hook cache): a hook that asked to be called again is not called before then.
import { OK_TO_DELETE_ANNOTATION, PENDING_HOOKS_ANNOTATION } from '../api/extension-config/constants.js'
import { BEFORE_CLUSTER_UPGRADE_HOOK_ANNOTATION_PREFIX, CLUSTER_CONTROL_PLANE_INITIALIZED_CONDITION, CONVERSION_DATA_ANNOTATION, LAST_APPLIED_CONFIG_ANNOTATION } from '../api/core/constants.js'
import type { HookDefinition } from '../api/hooks/define.js'
import {
  AfterClusterUpgrade, AfterControlPlaneInitialized, AfterControlPlaneUpgrade, AfterWorkersUpgrade, BeforeClusterCreate, BeforeClusterDelete,
  BeforeClusterUpgrade, BeforeControlPlaneUpgrade, BeforeWorkersUpgrade
} from '../api/hooks/v1alpha1/hooks.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'
import { type Stored, jsonCopy, type StringMap } from './objects.js'
import type { Scope } from './scope.js'
import type { HookCaller } from './timeline.js'

/** What calling hooks needs besides the scope. */
export interface HookContext {
  caller: HookCaller
  /** now is the virtual time, in seconds. */
  now: () => number
  /** hookCache holds the blocking answers until they expire, by hook. */
  hookCache: Map<string, { until: number, message: string }>
  /** patchCluster writes a change of the Cluster's annotations to the stored Cluster (not to s.current.cluster's resourceVersion). */
  patchCluster: (annotations: StringMap | undefined) => void
}

/** cleanupCluster: the Cluster as hook requests carry it (no status, no managedFields, two annotations dropped). */
export function cleanupCluster (cluster: Stored<Cluster, 'namespaced'>): Cluster {
  const c = jsonCopy(cluster)
  delete c.status
  delete c.metadata.managedFields
  if (c.metadata.annotations) {
    const annotations = { ...c.metadata.annotations }
    delete annotations[LAST_APPLIED_CONFIG_ANNOTATION]
    delete annotations[CONVERSION_DATA_ANNOTATION]
    c.metadata.annotations = annotations
  }
  return c
}

function pendingHooks (cluster: Stored<Cluster, 'namespaced'>): string[] {
  return (cluster.metadata.annotations?.[PENDING_HOOKS_ANNOTATION] ?? '').split(',').filter(Boolean)
}

/** hooks.IsPending. */
export function isPending (hook: HookDefinition | string, cluster: Stored<Cluster, 'namespaced'>): boolean {
  return pendingHooks(cluster).includes(typeof hook === 'string' ? hook : hook.hook)
}

function setAnnotations (s: Scope, ctx: HookContext, annotations: StringMap): void {
  const value = Object.keys(annotations).length > 0 ? annotations : undefined
  if (value) s.current.cluster.metadata.annotations = value
  else delete s.current.cluster.metadata.annotations
  ctx.patchCluster(value)
}

/** hooks.MarkAsPending: adds hooks to the pending-hooks annotation (sorted, comma separated). */
export function markAsPending (s: Scope, ctx: HookContext, ...hooks: Array<HookDefinition | string>): void {
  const now = pendingHooks(s.current.cluster)
  const next = [...new Set([...now, ...hooks.map(h => typeof h === 'string' ? h : h.hook)])].sort()
  if (next.join(',') === now.join(',')) return
  setAnnotations(s, ctx, { ...s.current.cluster.metadata.annotations, [PENDING_HOOKS_ANNOTATION]: next.join(',') })
}

/** hooks.MarkAsDone. */
export function markAsDone (s: Scope, ctx: HookContext, hook: HookDefinition): void {
  if (!isPending(hook, s.current.cluster)) return
  const annotations: StringMap = { ...s.current.cluster.metadata.annotations }
  const rest = pendingHooks(s.current.cluster).filter(h => h !== hook.hook)
  if (rest.length > 0) annotations[PENDING_HOOKS_ANNOTATION] = rest.join(',')
  else delete annotations[PENDING_HOOKS_ANNOTATION]
  setAnnotations(s, ctx, annotations)
}

/** toUpgradeStep of the control plane's and the workers' plans, as the requests' optional fields. */
function upgradeSteps (s: Scope): { controlPlaneUpgrades?: Array<{ version: string }>, workersUpgrades?: Array<{ version: string }> } {
  const steps = (plan: string[]) => plan.map(version => ({ version }))
  const workers = s.upgradeTracker.machineDeployments.upgradePlan.length > 0 ? s.upgradeTracker.machineDeployments.upgradePlan : s.upgradeTracker.machinePools.upgradePlan
  return {
    ...(s.upgradeTracker.controlPlane.upgradePlan.length > 0 ? { controlPlaneUpgrades: steps(s.upgradeTracker.controlPlane.upgradePlan) } : {}),
    ...(workers.length > 0 ? { workersUpgrades: steps(workers) } : {})
  }
}

/**
 * A blocking hook's call: answered from the hook cache while an earlier retry has not expired, else every handler
 * called. Resolves true when the Cluster may go on (no handler, or no retry asked); the answer is tracked.
 */
async function callBlocking (s: Scope, ctx: HookContext, hook: HookDefinition, request: Record<string, unknown>, step?: string): Promise<boolean> {
  const cached = ctx.hookCache.get(hook.hook)
  if (cached !== undefined && cached.until > ctx.now()) {
    s.hookResponses.add(hook.hook, { retryAfterSeconds: Math.max(1, Math.round(cached.until - ctx.now())), message: cached.message })
    return false
  }
  const response = await ctx.caller.callAll(hook, request as never, step) as { retryAfterSeconds?: number, message?: string } | undefined
  if (response === undefined) return true
  const retryAfterSeconds = response.retryAfterSeconds ?? 0
  s.hookResponses.add(hook.hook, { retryAfterSeconds, message: response.message ?? '' })
  if (retryAfterSeconds === 0) return true
  ctx.hookCache.set(hook.hook, { until: ctx.now() + retryAfterSeconds, message: response.message ?? '' })
  return false
}

/** callBeforeClusterCreateHook: while the Cluster has no infrastructure cluster and control plane yet. */
export async function callBeforeClusterCreateHook (s: Scope, ctx: HookContext): Promise<boolean> {
  const spec = s.current.cluster.spec
  if (spec?.infrastructureRef?.name || spec?.controlPlaneRef?.name) return true
  return await callBlocking(s, ctx, BeforeClusterCreate, { cluster: cleanupCluster(s.current.cluster) })
}

/** callBeforeClusterUpgradeHook: at the start of an upgrade only (AfterClusterUpgrade not yet pending). */
export async function callBeforeClusterUpgradeHook (s: Scope, ctx: HookContext, currentVersion: string, topologyVersion: string): Promise<boolean> {
  if (isPending(AfterClusterUpgrade, s.current.cluster)) return true
  const held = Object.keys(s.current.cluster.metadata.annotations ?? {}).filter(k => k.startsWith(BEFORE_CLUSTER_UPGRADE_HOOK_ANNOTATION_PREFIX)).sort()
  if (held.length > 0) {
    // Held by annotations: no call; Cluster API waits twice its sync period for the annotation to go.
    const message = held.length === 1 ? `annotation ${held[0] ?? ''} is set` : `annotations ${held.join(', ')} are set`
    s.hookResponses.add(BeforeClusterUpgrade.hook, { retryAfterSeconds: 20 * 60, message })
    return false
  }
  return await callBlocking(s, ctx, BeforeClusterUpgrade, { cluster: cleanupCluster(s.current.cluster), fromKubernetesVersion: currentVersion, toKubernetesVersion: topologyVersion, ...upgradeSteps(s) })
}

/** callBeforeControlPlaneUpgradeHook: before the control plane takes each version of the plan. */
export async function callBeforeControlPlaneUpgradeHook (s: Scope, ctx: HookContext, currentVersion: string, nextVersion: string): Promise<boolean> {
  return await callBlocking(s, ctx, BeforeControlPlaneUpgrade, { cluster: cleanupCluster(s.current.cluster), fromKubernetesVersion: currentVersion, toKubernetesVersion: nextVersion, ...upgradeSteps(s) }, `step to ${nextVersion}`)
}

/** A pending hook's call: done when no handler implements it or none asks to retry. */
async function callPending (s: Scope, ctx: HookContext, hook: HookDefinition, request: Record<string, unknown>): Promise<boolean> {
  if (!isPending(hook, s.current.cluster)) return true
  if (!await callBlocking(s, ctx, hook, request)) return false
  markAsDone(s, ctx, hook)
  return true
}

/** callAfterControlPlaneUpgradeHook. */
export async function callAfterControlPlaneUpgradeHook (s: Scope, ctx: HookContext, currentVersion: string): Promise<boolean> {
  return await callPending(s, ctx, AfterControlPlaneUpgrade, { cluster: cleanupCluster(s.current.cluster), kubernetesVersion: currentVersion, ...upgradeSteps(s) })
}

/** callBeforeWorkersUpgradeHook. */
export async function callBeforeWorkersUpgradeHook (s: Scope, ctx: HookContext, currentVersion: string, nextVersion: string): Promise<boolean> {
  return await callPending(s, ctx, BeforeWorkersUpgrade, { cluster: cleanupCluster(s.current.cluster), fromKubernetesVersion: currentVersion, toKubernetesVersion: nextVersion, ...upgradeSteps(s) })
}

/** callAfterWorkersUpgradeHook. */
export async function callAfterWorkersUpgradeHook (s: Scope, ctx: HookContext, currentVersion: string): Promise<boolean> {
  return await callPending(s, ctx, AfterWorkersUpgrade, { cluster: cleanupCluster(s.current.cluster), kubernetesVersion: currentVersion, ...upgradeSteps(s) })
}

/** isControlPlaneInitialized: the Cluster's ControlPlaneInitialized condition is True. */
export function isControlPlaneInitialized (cluster: Stored<Cluster, 'namespaced'>): boolean {
  return (cluster.status?.conditions ?? []).some(c => c.type === CLUSTER_CONTROL_PLANE_INITIALIZED_CONDITION && c.status === 'True')
}

/** callAfterControlPlaneInitialized: tracked at creation, called once the control plane is initialized (not blocking). */
export async function callAfterControlPlaneInitialized (s: Scope, ctx: HookContext): Promise<void> {
  const spec = s.current.cluster.spec
  if (!spec?.infrastructureRef?.name && !spec?.controlPlaneRef?.name) markAsPending(s, ctx, AfterControlPlaneInitialized)
  if (!isPending(AfterControlPlaneInitialized, s.current.cluster) || !isControlPlaneInitialized(s.current.cluster)) return
  const response = await ctx.caller.callAll(AfterControlPlaneInitialized, { cluster: cleanupCluster(s.current.cluster) })
  if (response !== undefined) s.hookResponses.add(AfterControlPlaneInitialized.hook, { retryAfterSeconds: 0, message: (response as { message?: string }).message ?? '' })
  markAsDone(s, ctx, AfterControlPlaneInitialized)
}

/** callAfterClusterUpgrade: once the control plane and every worker are stable at the topology's version. */
export async function callAfterClusterUpgrade (s: Scope, ctx: HookContext): Promise<void> {
  const cluster = s.current.cluster
  if (!isPending(AfterClusterUpgrade, cluster) || isPending(AfterControlPlaneUpgrade, cluster) || isPending(AfterWorkersUpgrade, cluster)) return
  const t = s.upgradeTracker
  const settled = (w: typeof t.machineDeployments) => w.upgrading.size === 0 && w.pendingCreate.size === 0 && w.pendingUpgrade.size === 0 && w.deferred.size === 0
  if (!t.controlPlaneStable() || !settled(t.machineDeployments) || !settled(t.machinePools)) return
  if (await callBlocking(s, ctx, AfterClusterUpgrade, { cluster: cleanupCluster(cluster), kubernetesVersion: cluster.spec?.topology?.version ?? '' })) markAsDone(s, ctx, AfterClusterUpgrade)
}

/** reconcileDelete: BeforeClusterDelete until it lets the Cluster go, then the ok-to-delete annotation. */
export async function callBeforeClusterDeleteHook (s: Scope, ctx: HookContext): Promise<boolean> {
  const annotations = s.current.cluster.metadata.annotations ?? {}
  if (annotations[OK_TO_DELETE_ANNOTATION] !== undefined) return true
  if (!await callBlocking(s, ctx, BeforeClusterDelete, { cluster: cleanupCluster(s.current.cluster) })) return false
  setAnnotations(s, ctx, { ...annotations, [OK_TO_DELETE_ANNOTATION]: '' })
  return true
}

// Why a Cluster does not move: which hooks hold it or failed, from Cluster API's own state, read and never written.
// The topology controller says it in the Cluster's TopologyReconciled condition: a line of
// HookResponseTracker.AggregateMessage, "Following hooks are blocking <action>: <Hook>: <message>; ...", in the message
// of reason ClusterCreating, ClusterUpgrading or Deleting (v1beta2 has no reason of its own for a blocking hook), or
// ReconcileFailed with the runtime client's error; the hooks it still owes in the pending-hooks annotation, upgrades
// held by a before-upgrade.hook annotation; the ExtensionConfigs say which handlers of each hook serve the Cluster
// and whether they are discovered.
import { BEFORE_CLUSTER_UPGRADE_HOOK_ANNOTATION_PREFIX } from '../api/core/constants.js'
import { type Budget, BudgetExceeded, withBudget } from '../budget/index.js'
import { PENDING_HOOKS_ANNOTATION } from '../api/extension-config/constants.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { createCatalog, HOOKS_GROUP } from '../catalog/index.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import type { Stored } from '../simulate/index.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** TopologyReconciled: whether the topology controller reconciled the Cluster, and if not why. */
const TOPOLOGY_RECONCILED_CONDITION = 'TopologyReconciled'
/** The TopologyReconciled reason of a reconcile that failed (a hook call's error among others). */
const RECONCILE_FAILED_REASON = 'ReconcileFailed'

/** How a hook stands in the way. */
type HoldState = 'blocking' | 'failed' | 'pending' | 'held by annotation'

/** A hook that holds the Cluster, failed on it, or is still owed to it. */
interface HoldingHook {
  hook: string
  /** state: blocking (it answered retryAfterSeconds), failed (its call failed), pending (Cluster API will call it), held by annotation. */
  state: HoldState
  /** since is when TopologyReconciled took its present reason (RFC 3339), for blocking and failed hooks. */
  since?: string
  /** message is the extension's message, the call's error, or the annotation that holds. */
  message?: string
  /** handlers are the registered handlers of the hook that serve the Cluster (`<handler>.<ExtensionConfig>`). */
  handlers: string[]
  /** undiscovered names the ExtensionConfigs of those handlers that are not Discovered, with why. */
  undiscovered: Array<{ extensionConfig: string, message: string }>
  /** now is what the hook answers when called now with the request Cluster API would send (held --call). */
  now?: HookAnswerNow
}

/** A hook's answer now. */
interface HookAnswerNow {
  /** status is Success or Failure, Error for a call that failed, `not called` when it would not be called now. */
  status: string
  /** retryAfterSeconds is the answer's, when it still holds the Cluster. */
  retryAfterSeconds?: number
  /** message is the answer's message or the call's error. */
  message?: string
}

/** What holds one Cluster. */
export interface HeldReport {
  cluster: string
  /** topologyReconciled is the condition as Cluster API wrote it, when it has. */
  topologyReconciled?: { status: string, reason: string, message: string, since: string }
  holding: HoldingHook[]
  /** error says why the Cluster could not be examined within its budget (`could not be computed: ...`). */
  error?: string
}

interface Condition { type?: string, status?: string, reason?: string, message?: string, lastTransitionTime?: string }

/**
 * The hooks and messages of AggregateMessage ("Following hooks are blocking upgrade: A: msg; B"), which ends the
 * condition's message or its line ("Cluster is upgrading to v1.35.0\n  * Following hooks are blocking upgrade: ...\n  * ...").
 */
export function blockingHooks (message: string): Array<{ hook: string, message?: string }> {
  const match = /Following hooks are blocking [^:\n]*: ([^\n]*)/.exec(message)
  if (!match) return []
  return (match[1] as string).split('; ').map(part => {
    const colon = part.indexOf(': ')
    return colon < 0 ? { hook: part.trim() } : { hook: part.slice(0, colon).trim(), message: part.slice(colon + 2) }
  }).filter(h => /^[A-Z]\w+$/.test(h.hook))
}

/** The hook and handlers a runtime client error names (`for hook "X.hooks..."`, `extension handler "h.ec"`). */
export function failedHook (message: string): { hook: string, handlers: string[] } | undefined {
  const hook = /hook "(\w+)\.hooks\.runtime\.cluster\.x-k8s\.io"/.exec(message)?.[1] ?? /\b(\w+): failed to call extension handler/.exec(message)?.[1]
  const handlers = [...message.matchAll(/extension handler "([^"]+)"/g)].map(m => m[1] as string)
  if (!hook && handlers.length === 0) return undefined
  return { hook: hook ?? '', handlers: [...new Set(handlers)] }
}

/**
 * One Cluster's report computed within its budget (held --call evaluates its class to build the request), or the
 * report that says it could not be computed.
 */
export async function heldWithinBudget (cluster: Stored<Cluster, 'namespaced'>, budget: Budget, work: () => Promise<HeldReport>): Promise<HeldReport> {
  try {
    return await withBudget(budget, work)
  } catch (err) {
    if (!(err instanceof BudgetExceeded)) throw err
    return { cluster: `${cluster.metadata.namespace}/${cluster.metadata.name}`, holding: [], error: err.message }
  }
}

/** Why the Cluster is held, from its own state and the ExtensionConfigs (registered in `client`). */
export async function whyHeld (cluster: Stored<Cluster, 'namespaced'>, extensionConfigs: readonly ExtensionConfig[], client: RuntimeClient): Promise<HeldReport> {
  const conditions = ((cluster.status as { conditions?: Condition[] } | undefined)?.conditions ?? [])
  const reconciled = conditions.find(c => c.type === TOPOLOGY_RECONCILED_CONDITION)
  const found: Array<Omit<HoldingHook, 'handlers' | 'undiscovered'> & { handlers?: string[] }> = []
  const since = reconciled?.lastTransitionTime
  if (reconciled?.status === 'False' && reconciled.reason !== RECONCILE_FAILED_REASON) {
    for (const b of blockingHooks(reconciled.message ?? '')) found.push({ hook: b.hook, state: 'blocking', ...(since ? { since } : {}), ...(b.message ? { message: b.message } : {}) })
  }
  if (reconciled?.status === 'False' && reconciled.reason === RECONCILE_FAILED_REASON) {
    const failed = failedHook(reconciled.message ?? '')
    if (failed) found.push({ hook: failed.hook, state: 'failed', ...(since ? { since } : {}), message: reconciled.message ?? '', handlers: failed.handlers })
  }
  const annotations = cluster.metadata.annotations ?? {}
  for (const hook of (annotations[PENDING_HOOKS_ANNOTATION] ?? '').split(',').map(h => h.trim()).filter(Boolean)) {
    if (!found.some(f => f.hook === hook)) found.push({ hook, state: 'pending', message: 'Cluster API will call it (the pending-hooks annotation)' })
  }
  for (const key of Object.keys(annotations).filter(k => k.startsWith(BEFORE_CLUSTER_UPGRADE_HOOK_ANNOTATION_PREFIX))) {
    found.push({ hook: 'BeforeClusterUpgrade', state: 'held by annotation', message: `the annotation ${key} holds upgrades until it is removed` })
  }
  const catalog = createCatalog()
  const hooks = catalog.all().filter(h => h.gvh.group === HOOKS_GROUP)
  const holding: HoldingHook[] = []
  for (const f of found) {
    // An error that names a handler but not its hook: the hook the handler is registered for.
    if (f.hook === '' && f.handlers?.[0]) {
      for (const h of hooks) if ((await client.getAllExtensions(h.definition, cluster)).includes(f.handlers[0])) f.hook = h.gvh.hook
    }
    const definition = hooks.find(h => h.gvh.hook === f.hook)?.definition
    const handlers = f.handlers ?? (definition && f.state !== 'held by annotation' ? await client.getAllExtensions(definition, cluster) : [])
    const undiscovered = extensionConfigs.filter(ec => handlers.some(h => h.endsWith(`.${ec.metadata.name}`)))
      .map(ec => ({ ec, discovered: ec.status?.conditions?.find(c => c.type === 'Discovered') }))
      .filter(({ discovered }) => discovered?.status !== 'True')
      .map(({ ec, discovered }) => ({ extensionConfig: ec.metadata.name, message: discovered?.message || 'not discovered yet' }))
    holding.push({ ...f, handlers, undiscovered })
  }
  return {
    cluster: `${cluster.metadata.namespace}/${cluster.metadata.name}`,
    ...(reconciled ? { topologyReconciled: { status: reconciled.status ?? '', reason: reconciled.reason ?? '', message: reconciled.message ?? '', since: reconciled.lastTransitionTime ?? '' } } : {}),
    holding
  }
}

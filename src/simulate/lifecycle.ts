// A cluster's life as Cluster API's topology controller drives it (core/reconcilers/topology/cluster and
// exp/topology/desiredstate), on a virtual clock: reconciles in Cluster API's order (BeforeClusterCreate, the upgrade
// plan and the upgrade hooks, the desired state and its patches, the After* hooks, then the objects), with the
// Cluster's pending-hooks annotation tracked as Cluster API tracks it. Between reconciles the machines get where the
// last reconcile sent them at once: the clock moves only while a hook holds the cluster (retryAfterSeconds).
import type { Cluster, ClusterVariable, Variable } from '../api/hooks/v1alpha1/types.generated.js'
import {
  AfterClusterUpgrade, AfterControlPlaneInitialized, AfterControlPlaneUpgrade, AfterWorkersUpgrade, BeforeClusterCreate, BeforeClusterDelete,
  BeforeClusterUpgrade, BeforeControlPlaneUpgrade, BeforeWorkersUpgrade, GenerateUpgradePlan
} from '../api/hooks/v1alpha1/hooks.js'
import type { HookDefinition } from '../api/hooks/define.js'
import { clusterBuiltins, type DesiredVersions, DROPPED_ANNOTATIONS, type GeneratedNames, LABELS, requestItems } from './desired.js'
import type { SimulationInputs } from './inputs.js'
import { groupOf, jsonCopy } from './objects.js'
import { type PatchContext, runPatches, type PatchedItems } from './patches.js'
import { type Recorder, SimulationFailure } from './timeline.js'
import { defaultAndValidate, type VariableDefinitions } from './variables.js'
import { classVersionsPlan, compareVersions, defaultAndValidatePlans, oneMinorPlan } from './versions.js'

const PENDING = 'runtime.cluster.x-k8s.io/pending-hooks'
const OK_TO_DELETE = 'runtime.cluster.x-k8s.io/ok-to-delete'
const UPGRADE_STEP = 'topology.internal.cluster.x-k8s.io/upgrade-step'
/** The finalizer Cluster API's Cluster controller adds as soon as it sees a Cluster. */
export const CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io'
const PLAN_CACHE_SECONDS = 600

type ClusterObject = Cluster & { metadata: { name: string, namespace: string } }
interface Machines { version: string, upgrading: boolean }

/** What the simulation produces for one phase of the life: the templates as the last reconcile patched them. */
export interface PhaseResult {
  phase: 'create' | 'upgrade'
  version: string
  patched: PatchedItems['items']
}

/** A blocking answer of this reconcile. */
interface Blocking { hook: string, retryAfterSeconds: number, message: string }

export interface LifecycleOptions {
  inputs: SimulationInputs
  definitions: VariableDefinitions
  names: GeneratedNames
  recorder: Recorder
  clock: { now: number }
  origin: number
  maxBlockedSeconds: number
  seed: string
  note: (text: string) => void
}

/** The life of one Cluster: create (and the control plane coming up), upgrade, delete. */
export class Lifecycle {
  readonly #o: LifecycleOptions
  cluster: ClusterObject
  #created = false
  #cp: Machines & { initialized: boolean } | undefined
  readonly #mds = new Map<string, Machines>()
  readonly #hookCache = new Map<string, { until: number, message: string }>()
  readonly #planCache = new Map<string, { expires: number, cp: string[], workers: string[] }>()
  readonly #blockedSince = new Map<string, number>()
  #resourceVersion = 1
  readonly phases: PhaseResult[] = []
  #lastPatched: PatchedItems['items'] = []

  constructor (options: LifecycleOptions, cluster: ClusterObject) {
    this.#o = options
    this.cluster = cluster
  }

  /** The Cluster as the hooks get it (cleanupCluster): no status, no managedFields, two annotations dropped. */
  requestCluster (): Cluster {
    const c = jsonCopy(this.cluster)
    delete c.status
    delete c.metadata.managedFields
    if (c.metadata.annotations) for (const a of DROPPED_ANNOTATIONS) delete c.metadata.annotations[a]
    return c
  }

  #touch (specChanged = false): void {
    this.cluster.metadata.resourceVersion = String(++this.#resourceVersion)
    if (specChanged) this.cluster.metadata.generation = (this.cluster.metadata.generation ?? 1) + 1
  }

  #pending (): string[] {
    return (this.cluster.metadata.annotations?.[PENDING] ?? '').split(',').filter(Boolean)
  }

  #isPending (hook: HookDefinition): boolean {
    return this.#pending().includes(hook.hook)
  }

  #setPending (hooks: readonly string[]): void {
    const annotations = { ...this.cluster.metadata.annotations }
    if (hooks.length > 0) annotations[PENDING] = [...new Set(hooks)].sort().join(',')
    else delete annotations[PENDING]
    this.#setAnnotations(annotations)
  }

  #setAnnotations (annotations: Record<string, string>): void {
    if (Object.keys(annotations).length > 0) this.cluster.metadata.annotations = annotations
    else delete this.cluster.metadata.annotations
    this.#touch()
  }

  #markPending (...hooks: HookDefinition[]): void {
    const now = this.#pending()
    if (hooks.every(h => now.includes(h.hook))) return
    this.#setPending([...now, ...hooks.map(h => h.hook)])
  }

  #markDone (hook: HookDefinition): void {
    if (this.#isPending(hook)) this.#setPending(this.#pending().filter(h => h !== hook.hook))
  }

  /**
   * Calls a blocking lifecycle hook unless an earlier blocking answer is still waited for (Cluster API's hook
   * cache); the blocking answer, or undefined when the cluster may go on.
   */
  async #blockingHook<H extends HookDefinition> (hook: H, request: Record<string, unknown>, step?: string): Promise<Blocking | undefined> {
    const cached = this.#hookCache.get(hook.hook)
    if (cached !== undefined && cached.until > this.#o.clock.now) return { hook: hook.hook, retryAfterSeconds: Math.max(1, Math.round(cached.until - this.#o.clock.now)), message: cached.message }
    const response = await this.#o.recorder.callAll(hook, request as never, step) as { retryAfterSeconds?: number, message?: string } | undefined
    const retry = response?.retryAfterSeconds ?? 0
    if (retry === 0) {
      this.#hookCache.delete(hook.hook)
      return undefined
    }
    const message = response?.message ?? ''
    this.#hookCache.set(hook.hook, { until: this.#o.clock.now + retry, message })
    return { hook: hook.hook, retryAfterSeconds: retry, message }
  }

  /** The upgrade plan of this reconcile (ComputeUpgradePlan). */
  async #upgradePlan (): Promise<{ cp: string[], workers: string[], minWorkers: string }> {
    const desired = this.cluster.spec?.topology?.version ?? ''
    const cp = this.#cp as Machines
    const versions = [...this.#mds.values()].map(m => m.version)
    const minWorkers = versions.sort(compareVersions)[0] ?? ''
    if (compareVersions(cp.version, desired) === 0 && (minWorkers === '' || compareVersions(minWorkers, desired) === 0)) return { cp: [], workers: [], minWorkers }
    const extension = this.#o.inputs.clusterClass.spec?.upgrade?.external?.generateUpgradePlanExtension
    let plan: { cp: string[], workers: string[] }
    if (extension) {
      const key = `${cp.version},${minWorkers} => ${desired}`
      const cached = this.#planCache.get(key)
      if (cached && cached.expires > this.#o.clock.now) {
        plan = cached
      } else {
        const response = await this.#o.recorder.callExtension(GenerateUpgradePlan, extension, {
          cluster: this.requestCluster(),
          fromControlPlaneKubernetesVersion: cp.version,
          ...(minWorkers ? { fromWorkersKubernetesVersion: minWorkers } : {}),
          toKubernetesVersion: desired
        }, `upgrade to ${desired}`)
        plan = { cp: (response.controlPlaneUpgrades ?? []).map(s => s.version ?? ''), workers: (response.workersUpgrades ?? []).map(s => s.version ?? '') }
        this.#planCache.set(key, { ...plan, expires: this.#o.clock.now + PLAN_CACHE_SECONDS })
      }
    } else {
      const classVersions = this.#o.inputs.clusterClass.spec?.kubernetesVersions ?? []
      plan = { cp: classVersions.length > 0 ? classVersionsPlan(classVersions, desired, cp.version) : oneMinorPlan(desired, cp.version), workers: [] }
    }
    const workers = defaultAndValidatePlans(desired, cp.version, minWorkers, plan.cp, plan.workers)
    return { cp: plan.cp, workers: this.#mds.size > 0 ? workers : [], minWorkers }
  }

  /** One reconcile of the topology controller; the blocking answers it got. */
  async reconcile (): Promise<Blocking[]> {
    if (this.cluster.metadata.deletionTimestamp) return await this.#reconcileDelete()
    const blocking: Blocking[] = []
    if (!this.#created) {
      const held = await this.#blockingHook(BeforeClusterCreate, { cluster: this.requestCluster() })
      if (held) return [held]
    }
    const topologyVersion = this.cluster.spec?.topology?.version ?? ''
    const plan = this.#cp ? await this.#upgradePlan() : { cp: [], workers: [], minWorkers: '' }
    const steps = (versions: string[]) => versions.length > 0 ? versions.map(version => ({ version })) : undefined
    const plans = () => ({ ...(steps(plan.cp) ? { controlPlaneUpgrades: steps(plan.cp) } : {}), ...(steps(plan.workers) ? { workersUpgrades: steps(plan.workers) } : {}) })
    let hooksToMarkPending: HookDefinition[] = []
    let cpStable = true
    let waitingForWorkers = false
    let startingUpgrade = false

    // computeControlPlaneVersion
    const cpVersion = await (async (): Promise<string> => {
      const cp = this.#cp
      if (!cp) return topologyVersion
      const pendingUpgrade = compareVersions(cp.version, topologyVersion) !== 0
      cpStable = !pendingUpgrade && cp.initialized && !cp.upgrading
      if (!cp.initialized || cp.upgrading) return cp.version
      if (this.#isPending(AfterControlPlaneUpgrade)) {
        const held = await this.#blockingHook(AfterControlPlaneUpgrade, { cluster: this.requestCluster(), kubernetesVersion: cp.version, ...plans() })
        if (held) { blocking.push(held); return cp.version }
        this.#markDone(AfterControlPlaneUpgrade)
      }
      if (this.#isPending(BeforeWorkersUpgrade)) {
        const held = await this.#blockingHook(BeforeWorkersUpgrade, { cluster: this.requestCluster(), fromKubernetesVersion: plan.minWorkers, toKubernetesVersion: cp.version, ...plans() })
        if (held) { blocking.push(held); return cp.version }
        this.#markDone(BeforeWorkersUpgrade)
      }
      if (plan.workers[0] !== undefined && plan.workers[0] === cp.version) { waitingForWorkers = true; return cp.version }
      if ([...this.#mds.values()].some(m => m.upgrading)) return cp.version
      if (this.#isPending(AfterWorkersUpgrade)) {
        const held = await this.#blockingHook(AfterWorkersUpgrade, { cluster: this.requestCluster(), kubernetesVersion: cp.version, ...plans() })
        if (held) { blocking.push(held); return cp.version }
        this.#markDone(AfterWorkersUpgrade)
      }
      if (!pendingUpgrade) return cp.version
      if (!this.#isPending(AfterClusterUpgrade)) {
        const held = await this.#blockingHook(BeforeClusterUpgrade, { cluster: this.requestCluster(), fromKubernetesVersion: cp.version, toKubernetesVersion: topologyVersion, ...plans() })
        if (held) { blocking.push(held); return cp.version }
        this.#markPending(AfterClusterUpgrade)
      }
      const next = plan.cp[0]
      if (next === undefined) throw new SimulationFailure(`cannot compute the control plane version: the control plane is pending upgrade to ${topologyVersion} and the upgrade plan is empty`)
      const held = await this.#blockingHook(BeforeControlPlaneUpgrade, { cluster: this.requestCluster(), fromKubernetesVersion: cp.version, toKubernetesVersion: next, ...plans() }, `step to ${next}`)
      if (held) { blocking.push(held); return cp.version }
      hooksToMarkPending = [AfterControlPlaneUpgrade, ...(plan.workers[0] === next ? [BeforeWorkersUpgrade, AfterWorkersUpgrade] : [])]
      startingUpgrade = true
      cpStable = false
      return next
    })()

    // computeMachineDeploymentVersion, for each MachineDeployment topology
    const blocks = (hook: HookDefinition) => blocking.some(b => b.hook === hook.hook)
    const mdVersions = new Map<string, string>()
    let upgrading = [...this.#mds.values()].filter(m => m.upgrading).length
    for (const md of this.cluster.spec?.topology?.workers?.machineDeployments ?? []) {
      const name = md.name ?? ''
      const current = this.#mds.get(name)
      let version = topologyVersion
      if (current) {
        version = current.version
        const deferred = ['topology.cluster.x-k8s.io/defer-upgrade', 'topology.cluster.x-k8s.io/hold-upgrade-sequence'].some(a => md.metadata?.annotations?.[a] !== undefined)
        if (compareVersions(current.version, topologyVersion) !== 0 && !deferred && !blocks(AfterControlPlaneUpgrade) && !blocks(BeforeWorkersUpgrade) &&
          (current.upgrading || upgrading < 1) && (cpStable || waitingForWorkers) && plan.workers[0] !== undefined && plan.workers[0] !== current.version) {
          version = plan.workers[0]
          if (!current.upgrading) upgrading++
        }
      }
      mdVersions.set(name, version)
    }

    // computeCluster: the desired Cluster's labels and annotations, the Cluster's builtin variable.
    const desired = jsonCopy(this.cluster)
    desired.metadata.labels = { ...desired.metadata.labels, [LABELS.clusterName]: desired.metadata.name, [LABELS.owned]: '' }
    const annotations = { ...desired.metadata.annotations }
    if (this.#isPending(AfterClusterUpgrade)) annotations[UPGRADE_STEP] = cpVersion
    else delete annotations[UPGRADE_STEP]
    desired.metadata.annotations = annotations
    const builtin: Variable = { name: 'builtin', value: clusterBuiltins(desired) as Variable['value'] }

    const versions: DesiredVersions = { controlPlane: cpVersion, machineDeployments: mdVersions, machinePools: new Map() }
    const items = requestItems(this.#o.inputs, this.#o.names, versions, this.#o.seed)
    const topology = this.cluster.spec?.topology
    const overrides = (values: readonly ClusterVariable[] | undefined, where: string) => defaultAndValidate(values, this.#o.definitions, where, false, this.#o.note)
    const context: PatchContext = {
      inputs: this.#o.inputs,
      builtin,
      topologyVariables: topology?.variables ?? [],
      overrides: {
        controlPlane: overrides(topology?.controlPlane?.variables?.overrides, 'spec.topology.controlPlane.variables.overrides'),
        machineDeployments: new Map((topology?.workers?.machineDeployments ?? []).map((md, i) => [md.name ?? '', overrides(md.variables?.overrides, `spec.topology.workers.machineDeployments[${i}].variables.overrides`)])),
        machinePools: new Map((topology?.workers?.machinePools ?? []).map((mp, i) => [mp.name ?? '', overrides(mp.variables?.overrides, `spec.topology.workers.machinePools[${i}].variables.overrides`)]))
      },
      definitionsFrom: this.#o.definitions.definitionsFrom,
      caller: this.#o.recorder,
      note: this.#o.note
    }
    const patched = await runPatches(items, context)
    this.#lastPatched = patched.items

    // reconcileState: the After* hooks, then the objects and the Cluster.
    if (!this.#created) this.#markPending(AfterControlPlaneInitialized)
    if (this.#isPending(AfterControlPlaneInitialized) && this.#cp?.initialized) {
      await this.#o.recorder.callAll(AfterControlPlaneInitialized, { cluster: this.requestCluster() })
      this.#markDone(AfterControlPlaneInitialized)
    }
    const workersSettled = [...this.#mds.entries()].every(([name, m]) => !m.upgrading && compareVersions(m.version, topologyVersion) === 0 && mdVersions.get(name) === m.version)
    if (this.#isPending(AfterClusterUpgrade) && !this.#isPending(AfterControlPlaneUpgrade) && !this.#isPending(AfterWorkersUpgrade) && cpStable && !startingUpgrade && workersSettled) {
      const held = await this.#blockingHook(AfterClusterUpgrade, { cluster: this.requestCluster(), kubernetesVersion: topologyVersion })
      if (held) blocking.push(held)
      else this.#markDone(AfterClusterUpgrade)
    }
    if (!this.#created) {
      this.#created = true
      this.#cp = { version: cpVersion, upgrading: false, initialized: false }
      for (const [name, version] of mdVersions) this.#mds.set(name, { version, upgrading: false })
      const cpRef = this.#o.inputs.clusterClass.spec?.controlPlane?.templateRef
      const infraRef = this.#o.inputs.clusterClass.spec?.infrastructure?.templateRef
      this.cluster.metadata.labels = desired.metadata.labels
      this.cluster.spec = {
        ...this.cluster.spec,
        controlPlaneRef: { apiGroup: groupOf(cpRef?.apiVersion ?? ''), kind: (cpRef?.kind ?? '').replace(/Template$/, ''), name: this.#o.names.controlPlane },
        infrastructureRef: { apiGroup: groupOf(infraRef?.apiVersion ?? ''), kind: (infraRef?.kind ?? '').replace(/Template$/, ''), name: this.#o.names.infrastructureCluster }
      }
      this.#touch(true)
    } else {
      const cp = this.#cp as Machines
      if (cp.version !== cpVersion) {
        cp.version = cpVersion
        cp.upgrading = true
        if (hooksToMarkPending.length > 0) this.#markPending(...hooksToMarkPending)
      }
      for (const [name, version] of mdVersions) {
        const md = this.#mds.get(name)
        if (md && md.version !== version) { md.version = version; md.upgrading = true }
      }
    }
    const step = this.cluster.metadata.annotations?.[UPGRADE_STEP]
    if (step !== annotations[UPGRADE_STEP]) {
      const next = { ...this.cluster.metadata.annotations }
      if (annotations[UPGRADE_STEP] !== undefined) next[UPGRADE_STEP] = annotations[UPGRADE_STEP]
      else delete next[UPGRADE_STEP]
      this.#setAnnotations(next)
    }
    return blocking
  }

  async #reconcileDelete (): Promise<Blocking[]> {
    if (this.cluster.metadata.annotations?.[OK_TO_DELETE] !== undefined) return []
    const held = await this.#blockingHook(BeforeClusterDelete, { cluster: this.requestCluster() })
    if (held) return [held]
    this.#setAnnotations({ ...this.cluster.metadata.annotations, [OK_TO_DELETE]: '' })
    return []
  }

  /** What the machines do between reconciles, one step at a time; undefined when nothing is in flight. */
  advance (): string | undefined {
    const cp = this.#cp
    if (cp && !cp.initialized) {
      cp.initialized = true
      // The infrastructure provider sets spec.controlPlaneEndpoint (not simulated): the Cluster's generation moves.
      this.#touch(true)
      return `control plane initialized at ${cp.version}`
    }
    if (cp?.upgrading) {
      cp.upgrading = false
      return `control plane upgraded to ${cp.version}`
    }
    for (const [name, md] of this.#mds) {
      if (md.upgrading) {
        md.upgrading = false
        return `MachineDeployment ${name} upgraded to ${md.version}`
      }
    }
    return undefined
  }

  /** A fingerprint of what reconciles change, to tell when the cluster has settled. */
  state (): string {
    return JSON.stringify([this.cluster.metadata.annotations, this.cluster.spec, this.#created, this.#cp, [...this.#mds]])
  }

  /**
   * Reconciles until the cluster settles: a blocking answer is waited for on the virtual clock (failing past
   * maxBlockedSeconds), the machines move between reconciles. Records the templates of the last reconcile.
   */
  async settle (phase: PhaseResult['phase'] | 'delete'): Promise<void> {
    for (let reconciles = 0; reconciles < 1000; reconciles++) {
      const before = this.state()
      const blocking = await this.reconcile()
      if (blocking.length > 0) {
        const first = blocking.reduce((a, b) => a.retryAfterSeconds <= b.retryAfterSeconds ? a : b)
        for (const b of blocking) if (!this.#blockedSince.has(b.hook)) this.#blockedSince.set(b.hook, this.#o.clock.now)
        const since = this.#blockedSince.get(first.hook) as number
        if (this.#o.clock.now + first.retryAfterSeconds - since > this.#o.maxBlockedSeconds) {
          throw new SimulationFailure(`${first.hook} still blocks after ${formatSeconds(this.#o.maxBlockedSeconds)} (--max-blocked): ${first.message ? `"${first.message}"` : 'no message'}, retryAfterSeconds ${first.retryAfterSeconds}`)
        }
        this.#o.clock.now += first.retryAfterSeconds
        continue
      }
      this.#blockedSince.clear()
      if (this.state() !== before) continue
      const step = this.advance()
      if (step === undefined) break
      this.#o.recorder.event(step, step)
    }
    if (phase !== 'delete') this.phases.push({ phase, version: this.cluster.spec?.topology?.version ?? '', patched: this.#lastPatched })
  }

  /** Starts an upgrade: the topology's version changed, as `kubectl patch` would change it. */
  startUpgrade (version: string): void {
    const topology = this.cluster.spec?.topology
    if (topology) topology.version = version
    this.#touch(true)
  }

  /** Starts the deletion: deletionTimestamp set (the finalizer holds the Cluster). */
  startDelete (): void {
    this.cluster.metadata.deletionTimestamp = new Date(this.#o.origin + this.#o.clock.now * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
    this.cluster.metadata.deletionGracePeriodSeconds = 0
    this.#touch(true)
  }
}

/** 600 -> `10m0s`, as Go prints durations. */
function formatSeconds (seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`
}

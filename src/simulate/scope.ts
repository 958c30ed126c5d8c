// What one reconcile of Cluster API's topology controller works on (exp/topology/scope): the blueprint (the
// ClusterClass, its templates and the Cluster's topology), the current state of the Cluster's objects, the upgrade
// tracker and the answers of the lifecycle hooks called in this reconcile.
import type { ClusterClass, Topology } from '../api/hooks/v1alpha1/types.generated.js'
import type { Stored, Unstructured } from './objects.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** The templates and metadata a worker class (MachineDeployment or MachinePool class) makes its objects from. */
export interface WorkerClassBlueprint {
  /** metadata are the class's labels and annotations. */
  metadata: { labels?: Record<string, string>, annotations?: Record<string, string> }
  /** bootstrap is the bootstrap config template. */
  bootstrap: Unstructured
  /** infrastructure is the infrastructure machine (or machine pool) template. */
  infrastructure: Unstructured
}

/** ClusterBlueprint: the ClusterClass with the templates it references, and the Cluster's topology. */
export interface Blueprint {
  clusterClass: ClusterClass & { metadata: { name: string, namespace: string } }
  topology: Topology
  infrastructureClusterTemplate: Unstructured
  controlPlane: { template: Unstructured, infrastructureMachineTemplate?: Unstructured }
  /** machineDeployments by class name. */
  machineDeployments: Map<string, WorkerClassBlueprint>
  /** machinePools by class name. */
  machinePools: Map<string, WorkerClassBlueprint>
}

/** A worker topology's objects: a MachineDeployment with its two templates, or a MachinePool with its two objects. */
export interface WorkerState {
  /** object is the MachineDeployment or MachinePool. */
  object: Unstructured
  /** bootstrap is its bootstrap template (a MachinePool's bootstrap object). */
  bootstrap: Unstructured
  /** infrastructure is its infrastructure machine template (a MachinePool's infrastructure object). */
  infrastructure: Unstructured
  /** machineHealthCheck is its MachineHealthCheck, when the topology or class defines one. */
  machineHealthCheck?: Unstructured
}

/** ClusterState: the Cluster's objects, as they are (current) or as the topology controller wants them (desired). */
export interface ClusterState {
  cluster: Stored<Cluster, 'namespaced'>
  infrastructureCluster?: Unstructured
  controlPlane: { object?: Unstructured, infrastructureMachineTemplate?: Unstructured, machineHealthCheck?: Unstructured }
  /** machineDeployments by topology name. */
  machineDeployments: Map<string, WorkerState>
  /** machinePools by topology name. */
  machinePools: Map<string, WorkerState>
}

/** The desired state has every object. */
export interface DesiredState extends ClusterState {
  infrastructureCluster: Unstructured
  controlPlane: { object: Unstructured, infrastructureMachineTemplate?: Unstructured, machineHealthCheck?: Unstructured }
}

/** WorkerUpgradeTracker: which worker topologies are pending creation or upgrade, deferred, or upgrading. */
class WorkerUpgradeTracker {
  /** upgradePlan is the workers' upgrade plan of this reconcile. */
  upgradePlan: string[] = []
  readonly pendingCreate = new Set<string>()
  readonly pendingUpgrade = new Set<string>()
  readonly deferred = new Set<string>()
  readonly upgrading = new Set<string>()
  readonly #maxConcurrency: number

  constructor (maxConcurrency: number) {
    this.#maxConcurrency = Math.max(1, maxConcurrency)
  }

  /** UpgradeConcurrencyReached: as many objects upgrading as the Cluster's upgrade-concurrency allows. */
  concurrencyReached (): boolean {
    return this.upgrading.size >= this.#maxConcurrency
  }
}

/** ControlPlaneUpgradeTracker: where the control plane stands in this reconcile. */
interface ControlPlaneUpgradeTracker {
  isPendingUpgrade: boolean
  isWaitingForWorkersUpgrade: boolean
  upgradePlan: string[]
  isProvisioning: boolean
  isUpgrading: boolean
  isStartingUpgrade: boolean
}

/** UpgradeTracker of one reconcile. */
export class UpgradeTracker {
  readonly controlPlane: ControlPlaneUpgradeTracker = { isPendingUpgrade: false, isWaitingForWorkersUpgrade: false, upgradePlan: [], isProvisioning: false, isUpgrading: false, isStartingUpgrade: false }
  readonly machineDeployments: WorkerUpgradeTracker
  readonly machinePools: WorkerUpgradeTracker
  minWorkersVersion = ''
  /** hooksToMarkPending once the control plane object took the new version (AfterControlPlaneUpgrade, ...). */
  hooksToMarkPending: string[] = []

  constructor (maxConcurrency = 1) {
    this.machineDeployments = new WorkerUpgradeTracker(maxConcurrency)
    this.machinePools = new WorkerUpgradeTracker(maxConcurrency)
  }

  /** IsControlPlaneStable. */
  controlPlaneStable (): boolean {
    const cp = this.controlPlane
    return !cp.isProvisioning && !cp.isUpgrading && !cp.isStartingUpgrade && !cp.isPendingUpgrade
  }

  /** IsControlPlaneStableOrWaitingForWorkersUpgrade. */
  controlPlaneStableOrWaitingForWorkers (): boolean {
    const cp = this.controlPlane
    return !cp.isProvisioning && !cp.isUpgrading && !cp.isStartingUpgrade && (!cp.isPendingUpgrade || cp.isWaitingForWorkersUpgrade)
  }
}

/** A lifecycle hook's aggregated answer in this reconcile. */
interface HookResponse {
  retryAfterSeconds: number
  message: string
}

/** HookResponseTracker: the answers of the lifecycle hooks called (or answered from the hook cache) in this reconcile. */
export class HookResponseTracker {
  readonly responses = new Map<string, HookResponse>()

  add (hook: string, response: HookResponse): void {
    this.responses.set(hook, response)
  }

  /** IsBlocking: the hook answered a retry. */
  isBlocking (hook: string): boolean {
    return (this.responses.get(hook)?.retryAfterSeconds ?? 0) > 0
  }

  /** The blocking answers, by hook. */
  blocking (): Array<HookResponse & { hook: string }> {
    return [...this.responses].filter(([, r]) => r.retryAfterSeconds > 0).map(([hook, r]) => ({ hook, ...r }))
  }
}

/** Scope of one reconcile. */
export interface Scope {
  blueprint: Blueprint
  current: ClusterState
  upgradeTracker: UpgradeTracker
  hookResponses: HookResponseTracker
}

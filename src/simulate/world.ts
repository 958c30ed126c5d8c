// The management cluster a simulation runs against: what its API server stores for the Cluster (the objects the
// topology controller writes, as reconcile_state.go writes them: created, patched, templates rotated when their spec
// changes; each pruned, defaulted and validated against its CRD) and what the other controllers do between two
// reconciles (the control plane initialized and upgraded, each MachineDeployment's machines replaced when its
// version or templates change, one step at a time).
import { CLUSTER_CONTROL_PLANE_INITIALIZED_CONDITION } from '../api/core/constants.js'
import { PENDING_HOOKS_ANNOTATION } from '../api/extension-config/constants.js'
import type { ContractVersion } from './cloning.js'
import { simpleName } from './names.js'
import type { RandomSource } from './seeded.js'
import { type Stored, describeObject, getPath, jsonCopy, type JsonObject, type Unstructured, setPath, type StringMap } from './objects.js'
import { jsonEqual } from '../topology/json.js'
import type { ControlPlaneState, LiveState } from './live.js'
import { ApiServerSchemas } from './crds.js'
import { ObjectRefused, type RefusedObject, TopologyReconcileError } from './refusals.js'
import { TopologyWriter, withoutIgnoredEndpoint, withProviderEndpoint, type Written } from './writes.js'
import type { ClusterState, DesiredState, Scope, WorkerState } from './scope.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** Something the topology controller did to an object, as Cluster API's events and logs say it. */
export interface WorldEvent {
  /** kind of change: created, updated (in place), rotated (a template replaced: its machines roll out). */
  change: 'created' | 'updated' | 'rotated'
  /** object is `Kind namespace/name` of the object written. */
  object: string
  /** detail says what changed (version, which template replaced which). */
  detail: string
}

/** klog.KObj: `namespace/name`. */
const objectKey = (o: Unstructured) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`

/** What an error of the writes of one MachineDeployment or MachinePool says before Cluster API's own error. */
const wrapped = (prefix: string, err: unknown): never => {
  if (err instanceof ObjectRefused) throw new ObjectRefused(err.role, err.object, `${prefix}: ${err.message}`)
  throw err
}

/** The objects of one simulated Cluster, as stored, and the state of its machines. */
export class SimulatedWorld {
  cluster: Stored<Cluster, 'namespaced'>
  infrastructureCluster?: Unstructured
  controlPlane?: Unstructured
  controlPlaneMachineTemplate?: Unstructured
  readonly machineDeployments = new Map<string, WorkerState>()
  readonly machinePools = new Map<string, WorkerState>()
  /** machineVersions: the Kubernetes version the machines of each MachineDeployment run (by topology name). */
  readonly machineVersions = new Map<string, string>()
  /** rollingOut: MachineDeployments whose machines are being replaced (a rotated template), by topology name, with their state before. */
  readonly rollingOut = new Map<string, WorkerState>()
  /** controlPlaneMachinesFrom: what the control plane's Machines were made from (none until it is initialized). */
  controlPlaneMachinesFrom?: ControlPlaneState
  readonly #random: RandomSource
  readonly #now: () => string
  readonly #writer: TopologyWriter
  #resourceVersion = 1
  #rotations = 0

  /**
   * A new Cluster, or one where a live Cluster stands (its objects as stored, its Machines' versions); `now` gives
   * the time conditions are stamped with (RFC 3339); `schemas` the kinds the API server serves (Cluster API's).
   */
  constructor (cluster: Stored<Cluster, 'namespaced'>, random: RandomSource, options: { live?: LiveState | undefined, now?: () => string, schemas?: ApiServerSchemas } = {}) {
    this.cluster = cluster
    this.#random = random
    this.#writer = new TopologyWriter(options.schemas ?? new ApiServerSchemas())
    this.#now = options.now ?? (() => new Date(0).toISOString().replace('.000', ''))
    const live = options.live
    this.#resourceVersion = Number(cluster.metadata.resourceVersion ?? 1) || 1
    if (!live) return
    if (live.infrastructureCluster) this.infrastructureCluster = jsonCopy(live.infrastructureCluster)
    if (live.controlPlane.object) this.controlPlane = jsonCopy(live.controlPlane.object)
    if (live.controlPlane.infrastructureMachineTemplate) this.controlPlaneMachineTemplate = jsonCopy(live.controlPlane.infrastructureMachineTemplate)
    if (getPath(this.controlPlane, ['status', 'version']) !== undefined) this.#controlPlaneMachinesMade()
    for (const [name, md] of live.machineDeployments) this.machineDeployments.set(name, jsonCopy(md))
    for (const [name, mp] of live.machinePools) this.machinePools.set(name, jsonCopy(mp))
    for (const [name, version] of live.machineVersions) this.machineVersions.set(name, version)
  }

  /** The control plane as it stands now. */
  controlPlaneState (): ControlPlaneState | undefined {
    return this.controlPlane ? { object: jsonCopy(this.controlPlane), ...(this.controlPlaneMachineTemplate ? { infrastructureMachineTemplate: jsonCopy(this.controlPlaneMachineTemplate) } : {}) } : undefined
  }

  /** The control plane's Machines are made from the control plane as it stands now (initialized, rolled out). */
  #controlPlaneMachinesMade (): void {
    const state = this.controlPlaneState()
    if (state) this.controlPlaneMachinesFrom = state
  }

  /** A change of the stored Cluster: a new resourceVersion, and a new generation when its spec changed. */
  touch (specChanged = false): void {
    this.cluster.metadata.resourceVersion = String(++this.#resourceVersion)
    if (specChanged) this.cluster.metadata.generation = (this.cluster.metadata.generation ?? 1) + 1
  }

  /** The stored Cluster's annotations replaced (the hooks' tracking annotations). */
  patchClusterAnnotations (annotations: StringMap | undefined): void {
    if (annotations) this.cluster.metadata.annotations = { ...annotations }
    else delete this.cluster.metadata.annotations
    this.touch()
  }

  /** getCurrentState: copies of what is stored, as the controller reads them at the start of a reconcile. */
  current (): ClusterState {
    const copy = (state: WorkerState): WorkerState => jsonCopy(state)
    return {
      cluster: jsonCopy(this.cluster),
      ...(this.infrastructureCluster ? { infrastructureCluster: jsonCopy(this.infrastructureCluster) } : {}),
      controlPlane: {
        ...(this.controlPlane ? { object: jsonCopy(this.controlPlane) } : {}),
        ...(this.controlPlaneMachineTemplate ? { infrastructureMachineTemplate: jsonCopy(this.controlPlaneMachineTemplate) } : {})
      },
      machineDeployments: new Map([...this.machineDeployments].map(([k, v]) => [k, copy(v)])),
      machinePools: new Map([...this.machinePools].map(([k, v]) => [k, copy(v)]))
    }
  }

  /** Whether a MachineDeployment's machines do not all run its version yet (MachineDeployments.Upgrading). */
  isUpgrading (topologyName: string): boolean {
    const md = this.machineDeployments.get(topologyName)
    const version = md ? getPath(md.object, ['spec', 'template', 'spec', 'version']) as string : undefined
    return md !== undefined && this.machineVersions.get(topologyName) !== version
  }

  /** A new name for a rotated template (names.SimpleNameGenerator). */
  #rotatedName (prefix: string): () => string {
    return () => simpleName(prefix, this.#random(`rotation/${++this.#rotations}`))
  }

  /** An event for what writing an object did. */
  #event (written: Written, events: WorldEvent[], current: Unstructured | undefined, detail?: string): void {
    if (written.change === 'rotated') events.push({ change: 'rotated', object: describeObject(written.object), detail: `replaces ${current?.metadata?.name ?? ''} (template rotation)` })
    else if (written.change === 'updated') events.push({ change: 'updated', object: describeObject(written.object), detail: detail ?? 'metadata changes' })
    else if (written.change === 'created') events.push({ change: 'created', object: describeObject(written.object), detail: '' })
  }

  /**
   * reconcileState's writes (after the After* hooks), in its order: infrastructure cluster, control plane, Cluster,
   * MachineDeployments, MachinePools. The API server's refusal ends the reconcile (TopologyReconcileError, every
   * refused MachineDeployment named: Cluster API takes them in random order, so each is refused in turn) and what
   * comes after it is not written.
   */
  reconcileState (s: Scope, desired: DesiredState, contract: ContractVersion, markPending: (hooks: string[]) => void): WorldEvent[] {
    const events: WorldEvent[] = []
    try {
      this.#reconcileInfrastructureCluster(desired, events)
      if (!s.upgradeTracker.controlPlane.isPendingUpgrade) {
        this.#reconcileControlPlane(desired, contract, events)
        // Only once the control plane took the new version are the hooks of the step tracked.
        if (s.upgradeTracker.hooksToMarkPending.length > 0) markPending(s.upgradeTracker.hooksToMarkPending)
      }
    } catch (err) {
      throw err instanceof ObjectRefused ? new TopologyReconcileError([{ role: err.role, object: err.object, error: err.message }]) : err
    }
    this.#reconcileCluster(desired)
    const refused: RefusedObject[] = []
    for (const [name, state] of [...desired.machineDeployments].sort(([a], [b]) => a < b ? -1 : 1)) {
      try {
        this.#reconcileMachineDeployment(s, name, state, events)
      } catch (err) {
        if (!(err instanceof ObjectRefused)) throw err
        refused.push({ role: err.role, object: err.object, error: err.message })
      }
    }
    if (refused.length > 0) throw new TopologyReconcileError(refused)
    try {
      for (const [name, state] of desired.machinePools) this.#reconcileMachinePool(s, name, state, events)
    } catch (err) {
      throw err instanceof ObjectRefused ? new TopologyReconcileError([{ role: err.role, object: err.object, error: err.message }]) : err
    }
    return events
  }

  #reconcileInfrastructureCluster (desired: DesiredState, events: WorldEvent[]): void {
    const role = 'infrastructureCluster'
    const current = this.infrastructureCluster
    const intent = withProviderEndpoint(withoutIgnoredEndpoint(desired.infrastructureCluster), current)
    const written = current ? this.#writer.update(role, current, intent, [['controlPlaneEndpoint']]) : { object: this.#writer.create(role, intent), change: 'created' as const, specChanged: true }
    this.#event(written, events, current, '')
    this.infrastructureCluster = written.object
  }

  #reconcileMachineDeployment (s: Scope, name: string, state: WorkerState, events: WorldEvent[]): void {
    const role = `machineDeployment ${name}`
    const current = this.machineDeployments.get(name)
    if (!current) {
      if (s.upgradeTracker.machineDeployments.pendingCreate.has(name)) return
      const templates = (() => {
        try {
          return { infrastructure: this.#writer.create(`${role} infrastructure`, state.infrastructure), bootstrap: this.#writer.create(`${role} bootstrap`, state.bootstrap) }
        } catch (err) { return wrapped('failed to create MachineDeployment', err) }
      })()
      this.machineDeployments.set(name, { ...jsonCopy(state), object: this.#writer.create(role, state.object), ...templates })
      this.machineVersions.set(name, getPath(state.object, ['spec', 'template', 'spec', 'version']) as string)
      events.push({ change: 'created', object: describeObject(state.object), detail: '' })
      return
    }
    if (s.upgradeTracker.machineDeployments.pendingUpgrade.has(current.object.metadata?.name ?? '')) return
    const prefix = `${this.cluster.metadata.name}-${name}-`
    let infrastructure: Written
    let bootstrap: Written
    try {
      infrastructure = this.#writer.template(`${role} infrastructure`, current.infrastructure, state.infrastructure, this.#rotatedName(prefix))
      bootstrap = this.#writer.template(`${role} bootstrap`, current.bootstrap, state.bootstrap, this.#rotatedName(prefix))
    } catch (err) { return wrapped(`failed to reconcile MachineDeployment ${objectKey(current.object)}`, err) }
    this.#event(infrastructure, events, current.infrastructure)
    this.#event(bootstrap, events, current.bootstrap)
    const named = jsonCopy(state.object)
    setPath(named as JsonObject, ['spec', 'template', 'spec', 'infrastructureRef', 'name'], infrastructure.object.metadata?.name)
    setPath(named as JsonObject, ['spec', 'template', 'spec', 'bootstrap', 'configRef', 'name'], bootstrap.object.metadata?.name)
    const object = this.#writer.update(role, current.object, named)
    this.#event(object, events, current.object, this.#versionChange(current.object, object.object, ['spec', 'template', 'spec', 'version']))
    if ((infrastructure.change === 'rotated' || bootstrap.change === 'rotated') && !this.rollingOut.has(name)) this.rollingOut.set(name, current)
    this.machineDeployments.set(name, { object: object.object, bootstrap: bootstrap.object, infrastructure: infrastructure.object, ...(state.machineHealthCheck ? { machineHealthCheck: state.machineHealthCheck } : {}) })
  }

  #reconcileMachinePool (s: Scope, name: string, state: WorkerState, events: WorldEvent[]): void {
    const role = `machinePool ${name}`
    const current = this.machinePools.get(name)
    if (!current && s.upgradeTracker.machinePools.pendingCreate.has(name)) return
    if (current && s.upgradeTracker.machinePools.pendingUpgrade.has(current.object.metadata?.name ?? '')) return
    if (!current) {
      const objects = (() => {
        try {
          return { infrastructure: this.#writer.create(`${role} infrastructure`, state.infrastructure), bootstrap: this.#writer.create(`${role} bootstrap`, state.bootstrap) }
        } catch (err) { return wrapped('failed to create MachinePool', err) }
      })()
      this.machinePools.set(name, { ...jsonCopy(state), object: this.#writer.create(role, state.object), ...objects })
      events.push({ change: 'created', object: describeObject(state.object), detail: '' })
      return
    }
    let infrastructure: Written
    let bootstrap: Written
    try {
      infrastructure = this.#writer.update(`${role} infrastructure`, current.infrastructure, state.infrastructure)
      bootstrap = this.#writer.update(`${role} bootstrap`, current.bootstrap, state.bootstrap)
    } catch (err) { return wrapped(`failed to reconcile MachinePool ${objectKey(current.object)}`, err) }
    const object = this.#writer.update(role, current.object, state.object)
    if ([infrastructure, bootstrap, object].some(w => w.change !== 'none')) events.push({ change: 'updated', object: describeObject(state.object), detail: this.#versionChange(current.object, state.object, ['spec', 'template', 'spec', 'version']) })
    this.machinePools.set(name, { ...jsonCopy(state), object: object.object, bootstrap: bootstrap.object, infrastructure: infrastructure.object })
  }

  #versionChange (current: Unstructured, desired: Unstructured, path: readonly string[]): string {
    const from = getPath(current, path) as string | undefined
    const to = getPath(desired, path) as string | undefined
    return from && to && from !== to ? `version ${from} -> ${to}` : ''
  }

  #reconcileControlPlane (desired: DesiredState, contract: ContractVersion, events: WorldEvent[]): void {
    const named = jsonCopy(desired.controlPlane.object) as JsonObject
    const machineTemplate = desired.controlPlane.infrastructureMachineTemplate
    if (machineTemplate) {
      const written = this.#writer.template('controlPlaneMachineInfrastructure', this.controlPlaneMachineTemplate, machineTemplate, this.#rotatedName(`${this.cluster.metadata.name}-`))
      this.#event(written, events, this.controlPlaneMachineTemplate)
      this.controlPlaneMachineTemplate = written.object
      setPath(named, contract === 'v1beta1' ? ['spec', 'machineTemplate', 'infrastructureRef', 'name'] : ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'name'], written.object.metadata?.name)
    }
    const current = this.controlPlane
    const intent = withoutIgnoredEndpoint(named)
    const written = current ? this.#writer.update('controlPlane', current, intent) : { object: this.#writer.create('controlPlane', intent), change: 'created' as const, specChanged: true }
    this.#event(written, events, current, current ? this.#versionChange(current, written.object, ['spec', 'version']) : '')
    this.controlPlane = written.object
  }

  /** reconcileCluster: labels, annotations and the references to the infrastructure cluster and the control plane. */
  #reconcileCluster (desired: DesiredState): void {
    const cluster = this.cluster
    const refs = (c: Stored<Cluster, 'namespaced'>) => [c.spec?.infrastructureRef, c.spec?.controlPlaneRef]
    const annotations: StringMap = { ...desired.cluster.metadata.annotations }
    delete annotations[PENDING_HOOKS_ANNOTATION]
    Object.assign(annotations, pendingOf(cluster))
    const same = jsonEqual(cluster.metadata.labels ?? {}, desired.cluster.metadata.labels ?? {}) && jsonEqual(cluster.metadata.annotations ?? {}, annotations) && jsonEqual(refs(cluster), refs(desired.cluster))
    if (same) return
    const specChanged = !jsonEqual(refs(cluster), refs(desired.cluster))
    cluster.metadata.labels = desired.cluster.metadata.labels
    if (Object.keys(annotations).length > 0) cluster.metadata.annotations = annotations
    else delete cluster.metadata.annotations
    cluster.spec = { ...cluster.spec, infrastructureRef: desired.cluster.spec?.infrastructureRef, controlPlaneRef: desired.cluster.spec?.controlPlaneRef } as Stored<Cluster, 'namespaced'>['spec']
    this.touch(specChanged)
  }

  /**
   * What the other controllers do before the next reconcile, one step at a time: the control plane initialized
   * (the infrastructure provider sets the Cluster's endpoint: its generation moves), the control plane upgraded,
   * a MachineDeployment's machines replaced. Undefined when nothing is in flight.
   */
  advance (): string | undefined {
    const cp = this.controlPlane
    if (cp) {
      const spec = getPath(cp, ['spec', 'version']) as string
      const status = getPath(cp, ['status', 'version']) as string | undefined
      if (status === undefined) {
        setPath(cp as JsonObject, ['status', 'version'], spec)
        this.cluster.status = { ...this.cluster.status, conditions: [...(this.cluster.status?.conditions ?? []), { type: CLUSTER_CONTROL_PLANE_INITIALIZED_CONDITION, status: 'True', reason: 'Initialized', message: '', lastTransitionTime: this.#now() }] } as Stored<Cluster, 'namespaced'>['status']
        this.touch(true)
        this.#controlPlaneMachinesMade()
        return `control plane initialized at ${spec}`
      }
      if (status !== spec) {
        setPath(cp as JsonObject, ['status', 'version'], spec)
        this.#controlPlaneMachinesMade()
        return `control plane upgraded to ${spec}`
      }
    }
    for (const [name, md] of this.machineDeployments) {
      const version = getPath(md.object, ['spec', 'template', 'spec', 'version']) as string
      if (this.machineVersions.get(name) !== version) {
        this.machineVersions.set(name, version)
        this.rollingOut.delete(name)
        return `MachineDeployment ${name} upgraded to ${version}`
      }
      if (this.rollingOut.delete(name)) return `MachineDeployment ${name} rolled out (its machines replaced)`
    }
    return undefined
  }

  /** A fingerprint of what reconciles change, to tell when the cluster has settled. */
  fingerprint (): string {
    return JSON.stringify([this.cluster.metadata.annotations, this.cluster.spec, this.infrastructureCluster, this.controlPlane, this.controlPlaneMachineTemplate, [...this.machineDeployments], [...this.machinePools]])
  }
}

/**
 * The pending-hooks annotation of the stored Cluster: the hooks marked and done in this reconcile stay as marked
 * (the desired Cluster was copied before they changed; Cluster API's requests show that its merge patch keeps them).
 */
function pendingOf (cluster: Stored<Cluster, 'namespaced'>): StringMap {
  const value = cluster.metadata.annotations?.[PENDING_HOOKS_ANNOTATION]
  return value !== undefined ? { [PENDING_HOOKS_ANNOTATION]: value } : {}
}

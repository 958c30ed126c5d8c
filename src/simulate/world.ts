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
import { errorBody } from '../apiserver/index.js'
import { type ClusterObject, getPath, jsonCopy, type JsonObject, type KubeDocument, setPath, type StringMap } from './objects.js'
import { jsonEqual } from '../topology/json.js'
import type { LiveState } from './live.js'
import { ApiServerSchemas } from './crds.js'
import { SimulationFailure } from './timeline.js'
import type { ClusterState, DesiredState, Scope, WorkerState } from './scope.js'

/** Something the topology controller did to an object, as Cluster API's events and logs say it. */
export interface WorldEvent {
  /** kind of change: created, updated (in place), rotated (a template replaced: its machines roll out). */
  change: 'created' | 'updated' | 'rotated'
  /** object is `Kind namespace/name` of the object written. */
  object: string
  /** detail says what changed (version, which template replaced which). */
  detail: string
}

const metadataOf = (o: KubeDocument | undefined) => ({ labels: o?.metadata?.labels ?? {}, annotations: o?.metadata?.annotations ?? {} })
const describe = (o: KubeDocument) => `${o.kind ?? ''} ${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`

/** HasChanges: labels, annotations or spec differ (the server-side apply dry run's diff without its defaulting). */
function hasChanges (current: KubeDocument, desired: KubeDocument, ignore: ReadonlyArray<readonly string[]> = []): boolean {
  const specOf = (o: KubeDocument) => {
    const spec = jsonCopy(o['spec'] ?? {}) as JsonObject
    for (const path of ignore) setPath(spec, path, null)
    return spec
  }
  return !jsonEqual(metadataOf(current), metadataOf(desired)) || !jsonEqual(specOf(current), specOf(desired))
}

/** The objects of one simulated Cluster, as stored, and the state of its machines. */
export class SimulatedWorld {
  cluster: ClusterObject
  infrastructureCluster?: KubeDocument
  controlPlane?: KubeDocument
  controlPlaneMachineTemplate?: KubeDocument
  readonly machineDeployments = new Map<string, WorkerState>()
  readonly machinePools = new Map<string, WorkerState>()
  /** machineVersions: the Kubernetes version the machines of each MachineDeployment run (by topology name). */
  readonly machineVersions = new Map<string, string>()
  /** rollingOut: MachineDeployments whose machines are being replaced (a rotated template), by topology name. */
  readonly rollingOut = new Set<string>()
  readonly #random: RandomSource
  readonly #now: () => string
  readonly #schemas: ApiServerSchemas
  #resourceVersion = 1
  #rotations = 0

  /**
   * A new Cluster, or one where a live Cluster stands (its objects as stored, its Machines' versions); `now` gives
   * the time conditions are stamped with (RFC 3339); `schemas` the kinds the API server serves (Cluster API's).
   */
  constructor (cluster: ClusterObject, random: RandomSource, options: { live?: LiveState | undefined, now?: () => string, schemas?: ApiServerSchemas } = {}) {
    this.cluster = cluster
    this.#random = random
    this.#schemas = options.schemas ?? new ApiServerSchemas()
    this.#now = options.now ?? (() => new Date(0).toISOString().replace('.000', ''))
    const live = options.live
    this.#resourceVersion = Number(cluster.metadata.resourceVersion ?? 1) || 1
    if (!live) return
    if (live.infrastructureCluster) this.infrastructureCluster = jsonCopy(live.infrastructureCluster)
    if (live.controlPlane.object) this.controlPlane = jsonCopy(live.controlPlane.object)
    if (live.controlPlane.infrastructureMachineTemplate) this.controlPlaneMachineTemplate = jsonCopy(live.controlPlane.infrastructureMachineTemplate)
    for (const [name, md] of live.machineDeployments) this.machineDeployments.set(name, jsonCopy(md))
    for (const [name, mp] of live.machinePools) this.machinePools.set(name, jsonCopy(mp))
    for (const [name, version] of live.machineVersions) this.machineVersions.set(name, version)
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

  /**
   * The object as the API server stores it when the topology controller creates it (no `current`) or applies it over
   * `current` (whose status stays); a refusal fails the reconcile with the API server's causes, as Cluster API
   * reports them.
   */
  #stored (desired: KubeDocument, current?: KubeDocument): KubeDocument {
    const admission = this.#schemas.admit(desired, current)
    if (!admission.ok) {
      const causes = admission.errors.map(e => `${e.type}: ${e.field}: ${errorBody(e)}`).join(' ')
      const groupKind = `${desired.kind ?? ''}.${String(desired.apiVersion).split('/')[0] ?? ''}`
      throw new SimulationFailure(current ? `failed to create patch helper for ${describe(current)}: ${admission.message}` : `failed to create ${groupKind}: ${causes}`)
    }
    const stored = jsonCopy(admission.object)
    if (current?.['status'] !== undefined) stored['status'] = current['status']
    return stored
  }

  /**
   * reconcileReferencedTemplate: a new template is created; one whose spec changes is rotated (a new name, the old
   * one replaced); one whose labels or annotations change is patched in place.
   */
  #reconcileTemplate (current: KubeDocument | undefined, desired: KubeDocument, prefix: string, events: WorldEvent[]): { template: KubeDocument, rotated: boolean } {
    const wanted = this.#stored(desired)
    if (!current) {
      events.push({ change: 'created', object: describe(desired), detail: '' })
      return { template: wanted, rotated: false }
    }
    if (!hasChanges(current, wanted)) return { template: current, rotated: false }
    if (jsonEqual(current['spec'], wanted['spec'])) {
      events.push({ change: 'updated', object: describe(desired), detail: 'metadata changes' })
      return { template: { ...wanted, metadata: { ...wanted.metadata, name: current.metadata?.name ?? '' } }, rotated: false }
    }
    const template = wanted
    template.metadata = { ...template.metadata, name: simpleName(prefix, this.#random(`rotation/${++this.#rotations}`)) }
    events.push({ change: 'rotated', object: describe(template), detail: `replaces ${current.metadata?.name ?? ''} (template rotation)` })
    return { template, rotated: true }
  }

  /** reconcileState's writes (after the After* hooks): infrastructure cluster, control plane, Cluster, workers. */
  reconcileState (s: Scope, desired: DesiredState, contract: ContractVersion, markPending: (hooks: string[]) => void): WorldEvent[] {
    const events: WorldEvent[] = []
    const clusterName = this.cluster.metadata.name
    if (!this.infrastructureCluster) {
      this.infrastructureCluster = this.#stored(desired.infrastructureCluster)
      events.push({ change: 'created', object: describe(desired.infrastructureCluster), detail: '' })
    } else {
      const wanted = this.#stored(desired.infrastructureCluster, this.infrastructureCluster)
      if (hasChanges(this.infrastructureCluster, wanted, [['controlPlaneEndpoint']])) {
        this.infrastructureCluster = wanted
        events.push({ change: 'updated', object: describe(desired.infrastructureCluster), detail: '' })
      }
    }
    if (!s.upgradeTracker.controlPlane.isPendingUpgrade) {
      this.#reconcileControlPlane(desired, contract, events)
      // Only once the control plane took the new version are the hooks of the step tracked.
      if (s.upgradeTracker.hooksToMarkPending.length > 0) markPending(s.upgradeTracker.hooksToMarkPending)
    }
    this.#reconcileCluster(desired)
    for (const [name, state] of desired.machineDeployments) {
      const current = this.machineDeployments.get(name)
      if (!current) {
        if (s.upgradeTracker.machineDeployments.pendingCreate.has(name)) continue
        this.machineDeployments.set(name, { ...jsonCopy(state), object: this.#stored(state.object), bootstrap: this.#stored(state.bootstrap), infrastructure: this.#stored(state.infrastructure) })
        this.machineVersions.set(name, getPath(state.object, ['spec', 'template', 'spec', 'version']) as string)
        events.push({ change: 'created', object: describe(state.object), detail: '' })
        continue
      }
      if (s.upgradeTracker.machineDeployments.pendingUpgrade.has(current.object.metadata?.name ?? '')) continue
      const prefix = `${clusterName}-${name}-`
      const infrastructure = this.#reconcileTemplate(current.infrastructure, state.infrastructure, prefix, events)
      const bootstrap = this.#reconcileTemplate(current.bootstrap, state.bootstrap, prefix, events)
      const named = jsonCopy(state.object)
      setPath(named as JsonObject, ['spec', 'template', 'spec', 'infrastructureRef', 'name'], infrastructure.template.metadata?.name)
      setPath(named as JsonObject, ['spec', 'template', 'spec', 'bootstrap', 'configRef', 'name'], bootstrap.template.metadata?.name)
      const object = this.#stored(named, current.object)
      const versionChange = this.#versionChange(current.object, object, ['spec', 'template', 'spec', 'version'])
      if (hasChanges(current.object, object)) events.push({ change: 'updated', object: describe(object), detail: versionChange })
      if (infrastructure.rotated || bootstrap.rotated) this.rollingOut.add(name)
      this.machineDeployments.set(name, { object, bootstrap: bootstrap.template, infrastructure: infrastructure.template, ...(state.machineHealthCheck ? { machineHealthCheck: state.machineHealthCheck } : {}) })
    }
    for (const [name, state] of desired.machinePools) {
      const current = this.machinePools.get(name)
      if (!current && s.upgradeTracker.machinePools.pendingCreate.has(name)) continue
      if (current && s.upgradeTracker.machinePools.pendingUpgrade.has(current.object.metadata?.name ?? '')) continue
      const wanted = { ...jsonCopy(state), object: this.#stored(state.object, current?.object), bootstrap: this.#stored(state.bootstrap, current?.bootstrap), infrastructure: this.#stored(state.infrastructure, current?.infrastructure) }
      if (!current || hasChanges(current.object, wanted.object) || hasChanges(current.bootstrap, wanted.bootstrap) || hasChanges(current.infrastructure, wanted.infrastructure)) {
        events.push({ change: current ? 'updated' : 'created', object: describe(state.object), detail: current ? this.#versionChange(current.object, state.object, ['spec', 'template', 'spec', 'version']) : '' })
      }
      this.machinePools.set(name, wanted)
    }
    return events
  }

  #versionChange (current: KubeDocument, desired: KubeDocument, path: readonly string[]): string {
    const from = getPath(current, path) as string | undefined
    const to = getPath(desired, path) as string | undefined
    return from && to && from !== to ? `version ${from} -> ${to}` : ''
  }

  #reconcileControlPlane (desired: DesiredState, contract: ContractVersion, events: WorldEvent[]): void {
    const named = jsonCopy(desired.controlPlane.object) as JsonObject
    const machineTemplate = desired.controlPlane.infrastructureMachineTemplate
    if (machineTemplate) {
      const reconciled = this.#reconcileTemplate(this.controlPlaneMachineTemplate, machineTemplate, `${this.cluster.metadata.name}-`, events)
      this.controlPlaneMachineTemplate = reconciled.template
      setPath(named, contract === 'v1beta1' ? ['spec', 'machineTemplate', 'infrastructureRef', 'name'] : ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'name'], reconciled.template.metadata?.name)
    }
    const object = this.#stored(named, this.controlPlane)
    if (!this.controlPlane) {
      events.push({ change: 'created', object: describe(object), detail: '' })
    } else if (hasChanges(this.controlPlane, object)) {
      events.push({ change: 'updated', object: describe(object), detail: this.#versionChange(this.controlPlane, object, ['spec', 'version']) })
    }
    this.controlPlane = object
  }

  /** reconcileCluster: labels, annotations and the references to the infrastructure cluster and the control plane. */
  #reconcileCluster (desired: DesiredState): void {
    const cluster = this.cluster
    const refs = (c: ClusterObject) => [c.spec?.infrastructureRef, c.spec?.controlPlaneRef]
    const annotations: StringMap = { ...desired.cluster.metadata.annotations }
    delete annotations[PENDING_HOOKS_ANNOTATION]
    Object.assign(annotations, pendingOf(cluster))
    const same = jsonEqual(cluster.metadata.labels ?? {}, desired.cluster.metadata.labels ?? {}) && jsonEqual(cluster.metadata.annotations ?? {}, annotations) && jsonEqual(refs(cluster), refs(desired.cluster))
    if (same) return
    const specChanged = !jsonEqual(refs(cluster), refs(desired.cluster))
    cluster.metadata.labels = desired.cluster.metadata.labels
    if (Object.keys(annotations).length > 0) cluster.metadata.annotations = annotations
    else delete cluster.metadata.annotations
    cluster.spec = { ...cluster.spec, infrastructureRef: desired.cluster.spec?.infrastructureRef, controlPlaneRef: desired.cluster.spec?.controlPlaneRef } as ClusterObject['spec']
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
        this.cluster.status = { ...this.cluster.status, conditions: [...(this.cluster.status?.conditions ?? []), { type: CLUSTER_CONTROL_PLANE_INITIALIZED_CONDITION, status: 'True', reason: 'Initialized', message: '', lastTransitionTime: this.#now() }] } as ClusterObject['status']
        this.touch(true)
        return `control plane initialized at ${spec}`
      }
      if (status !== spec) {
        setPath(cp as JsonObject, ['status', 'version'], spec)
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
function pendingOf (cluster: ClusterObject): StringMap {
  const value = cluster.metadata.annotations?.[PENDING_HOOKS_ANNOTATION]
  return value !== undefined ? { [PENDING_HOOKS_ANNOTATION]: value } : {}
}

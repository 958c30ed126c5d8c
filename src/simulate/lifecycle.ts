// A Cluster's life on a virtual clock: reconciles until the Cluster settles, a blocking answer waited for (failing
// past maxBlockedSeconds), the other controllers moving the machines between reconciles at once: the clock moves
// only while a hook holds the Cluster. Created, upgraded (as `kubectl patch` would change the version), deleted.
import { spend } from '../budget/index.js'
import { formatGoDuration } from '../go/time.js'
import type { ClusterState, DesiredState } from './scope.js'
import type { PatchRequest } from './patch-engine.js'
import { reconcile, type ReconcileContext } from './reconcile.js'
import { controlPlaneMachinesChange, updateControlPlaneInPlace, updateMachineDeploymentInPlace } from './in-place.js'
import { getPath, jsonCopy, type JsonObject, type Unstructured, setPath } from './objects.js'
import { type Recorder, SimulationFailure } from './timeline.js'

/** What the simulation produces for one phase of the life: the last reconcile's patched templates and desired objects. */
export interface PhaseResult {
  /** phase: create (from files), current (from where a live Cluster stands), upgrade. */
  phase: 'create' | 'current' | 'upgrade'
  version: string
  request: PatchRequest
  desired: DesiredState
  /** stored: the objects the topology controller wrote, as stored at the end of the phase. */
  stored: ClusterState
  /** machineVersions: the version the Machines of each MachineDeployment run at the end of the phase. */
  machineVersions: Map<string, string>
}

/** What the life needs besides a reconcile's context. */
export interface LifecycleContext extends ReconcileContext {
  recorder: Recorder
  clock: { now: number }
  /** origin is the wall-clock time (ms) virtual time 0 stands for. */
  origin: number
  maxBlockedSeconds: number
  /** inPlaceUpdates: Cluster API's InPlaceUpdates feature gate is on. */
  inPlaceUpdates: boolean
}

/** A MachineDeployment as it was before its version changed. */
function withVersion (md: Unstructured, version: string | undefined): Unstructured {
  const copy = jsonCopy(md)
  setPath(copy as JsonObject, ['spec', 'template', 'spec', 'version'], version)
  return copy
}

/** The most reconciles a phase may take before the simulation calls it a loop. */
const MAX_RECONCILES = 1000

/** The life of one Cluster. */
export class Lifecycle {
  readonly phases: PhaseResult[] = []
  readonly #ctx: LifecycleContext
  readonly #blockedSince = new Map<string, number>()
  #last?: { request: PatchRequest, desired: DesiredState }

  constructor (ctx: LifecycleContext) {
    this.#ctx = ctx
  }

  /** Reconciles until the Cluster settles; records the templates of the last reconcile that computed them. */
  async settle (phase: PhaseResult['phase'] | 'delete'): Promise<void> {
    const { world, clock, recorder } = this.#ctx
    for (let reconciles = 0; ; reconciles++) {
      if (reconciles === MAX_RECONCILES) throw new SimulationFailure(`the Cluster did not settle after ${MAX_RECONCILES} reconciles`)
      spend()
      const before = world.fingerprint()
      const result = await reconcile(this.#ctx)
      if (result.request && result.desired) this.#last = { request: result.request, desired: result.desired }
      for (const event of result.events) if (event.change === 'rotated') recorder.event('template rotated', `${event.object} ${event.detail}: the machines that use it roll out`)
      if (result.blocking.length > 0) {
        const first = result.blocking.reduce((a, b) => a.retryAfterSeconds <= b.retryAfterSeconds ? a : b)
        for (const b of result.blocking) if (!this.#blockedSince.has(b.hook)) this.#blockedSince.set(b.hook, clock.now)
        const since = this.#blockedSince.get(first.hook) as number
        if (clock.now + first.retryAfterSeconds - since > this.#ctx.maxBlockedSeconds) {
          throw new SimulationFailure(`${first.hook} still blocks after ${formatGoDuration(this.#ctx.maxBlockedSeconds * 1000)} (--max-blocked): ${first.message ? `"${first.message}"` : 'no message'}, retryAfterSeconds ${first.retryAfterSeconds}`)
        }
        clock.now += first.retryAfterSeconds
        continue
      }
      this.#blockedSince.clear()
      if (world.fingerprint() !== before) continue
      if (this.#ctx.inPlaceUpdates) await this.#updateInPlace()
      const step = world.advance()
      if (step === undefined) break
      recorder.event(step, step)
    }
    if (phase !== 'delete' && this.#last) this.phases.push({ phase, version: world.cluster.spec?.topology?.version ?? '', ...this.#last, stored: world.current(), machineVersions: new Map(world.machineVersions) })
  }

  /**
   * The control plane, then each MachineDeployment, about to replace its Machines (its version or its templates
   * changed): those whose change the extension takes in place are updated in place instead.
   */
  async #updateInPlace (): Promise<void> {
    const { world } = this.#ctx
    const from = world.controlPlaneMachinesFrom
    const now = world.controlPlaneState()
    if (from && now && controlPlaneMachinesChange(from, now)) {
      await updateControlPlaneInPlace(this.#ctx, from, now)
      world.controlPlaneMachinesFrom = now
    }
    for (const [name, now] of world.machineDeployments) {
      const version = world.machineVersions.get(name)
      const previous = world.rollingOut.get(name) ?? (world.isUpgrading(name) ? { ...now, object: withVersion(now.object, version) } : undefined)
      if (!previous || !await updateMachineDeploymentInPlace(this.#ctx, previous, now)) continue
      world.rollingOut.delete(name)
      world.machineVersions.set(name, getPath(now.object, ['spec', 'template', 'spec', 'version']) as string)
    }
  }

  /** Starts an upgrade: the topology's version changed. */
  startUpgrade (version: string): void {
    const topology = this.#ctx.world.cluster.spec?.topology
    if (topology) topology.version = version
    this.#ctx.world.touch(true)
  }

  /** Starts the deletion: deletionTimestamp set (the finalizer holds the Cluster). */
  startDelete (): void {
    const cluster = this.#ctx.world.cluster
    cluster.metadata.deletionTimestamp = new Date(this.#ctx.origin + this.#ctx.clock.now * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
    cluster.metadata.deletionGracePeriodSeconds = 0
    this.#ctx.world.touch(true)
  }
}

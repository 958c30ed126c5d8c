// What Cluster API's topology controller would want for a Cluster now, from where it stands, without changing
// anything: the desired state of one reconcile (variables discovered and defaulted, the upgrade plan, the versions,
// the objects and the ClusterClass's patches) with the extension's topology hooks called and its lifecycle hooks
// never called (they are taken as holding, so a Cluster in the middle of an upgrade stays where it is), and what the
// API server would refuse of it when the topology controller writes it. The rollout impact of a new extension
// version compares two of these.
import { createCatalog } from '../catalog/default.js'
import type { KubeObject, RuntimeClient } from '../client/runtime-client.js'
import { getBlueprint } from './blueprint.js'
import { admitCluster, resolveInputs } from './inputs.js'
import type { LiveState } from './live.js'
import { jsonCopy, type Unstructured } from './objects.js'
import { TopologyWriter } from './writes.js'
import type { PatchRequest } from './patch-engine.js'
import { type RefusedObject, TopologyReconcileError, type TopologyReconciledCondition } from './refusals.js'
import { generateDesiredState, newScope, type ReconcileContext } from './reconcile.js'
import type { DesiredState } from './scope.js'
import { seededRandom, seededUid } from './seeded.js'
import { type HookCaller, Recorder, type TimelineEntry } from './timeline.js'
import { defaultClusterVariables, discoverVariables } from './variables.js'
import { SimulatedWorld } from './world.js'

/** What the dry run computed. */
export interface DryRunResult {
  desired: DesiredState
  /** request is the GeneratePatches request after every patch. */
  request: PatchRequest
  /** timeline holds the topology hook calls made. */
  timeline: TimelineEntry[]
  calls: number
  /**
   * refused lists the objects the API server refuses when the topology controller writes the desired state over
   * what is stored, in Cluster API's order (empty when it takes everything), and `condition` what the Cluster's
   * TopologyReconciled condition then says.
   */
  refused: RefusedObject[]
  condition?: TopologyReconciledCondition
  /**
   * asApplied gives an object as a server-side apply dry run over the stored one returns it: defaulted as Cluster
   * API sees both sides when it compares them (dryRunSSAPatch); undefined when the API server refuses it.
   */
  asApplied: (desired: Unstructured, stored: Unstructured) => Unstructured | undefined
  /** asCreated gives an object as the API server stores it when it is created (a rotated template); undefined when refused. */
  asCreated: (desired: Unstructured) => Unstructured | undefined
}

/** A live Cluster's desired state now, as an extension (its client) patches it, and (unless `writes` is false) what the API server refuses of it. */
export async function dryRunDesiredState (options: { objects: readonly unknown[], current: LiveState, client: RuntimeClient, writes?: boolean }): Promise<DryRunResult> {
  const inputs = resolveInputs(options.objects)
  const cluster = jsonCopy(inputs.cluster)
  const seed = `${cluster.metadata.namespace}/${cluster.metadata.name}`
  const recorder = new Recorder(options.client, { catalog: createCatalog(), forObject: () => cluster as KubeObject, now: () => 0, checkDeterminism: false })
  // Lifecycle hooks are not called: a dry run must not ask an extension to act (BeforeClusterDelete, ...).
  const caller: HookCaller = {
    callExtension: async (hook, name, request, step, forObject) => await recorder.callExtension(hook, name, request, step, forObject),
    callAll: async () => ({ status: 'Success', retryAfterSeconds: 1, message: 'not called in a dry run' }) as never
  }
  const definitions = await discoverVariables(inputs, caller)
  const admitted = admitCluster(inputs, cluster, c => defaultClusterVariables(c, definitions, inputs.clusterClass.metadata.name))
  const random = seededRandom(seed)
  const world = new SimulatedWorld(admitted, random, { live: options.current, schemas: inputs.schemas })
  const ctx: ReconcileContext = {
    world,
    blueprint: getBlueprint(inputs, seed),
    random,
    contract: 'v1beta2',
    caller,
    now: () => 0,
    hookCache: new Map(),
    planCache: new Map(),
    patchCluster: () => {},
    patchEngine: { caller, contract: 'v1beta2', definitionsFrom: definitions.definitionsFrom, itemUid: role => seededUid(`${seed}/item/${role}`) }
  }
  const scope = newScope(ctx)
  const { desired, request } = await generateDesiredState(scope, ctx)
  const writer = new TopologyWriter(inputs.schemas)
  const asApplied = (object: Unstructured, stored: Unstructured) => writer.dryRun(object, stored)
  const asCreated = (object: Unstructured) => {
    const created = inputs.schemas.apply(object, undefined, false)
    return created.ok ? created.object : undefined
  }
  const result = { desired, request, timeline: recorder.entries, calls: recorder.calls, asApplied, asCreated }
  if (options.writes === false) return { ...result, refused: [] }
  try {
    world.reconcileState(scope, desired, 'v1beta2', () => {})
  } catch (err) {
    if (!(err instanceof TopologyReconcileError)) throw err
    return { ...result, refused: err.refused, condition: err.condition }
  }
  return { ...result, refused: [] }
}

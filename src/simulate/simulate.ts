// simulate(): a Cluster's life as Cluster API v1.14 drives it, against an extension called in process or through any
// RuntimeClient, in milliseconds and without a management cluster. Discovery, DiscoverVariables, the Cluster's
// variables defaulted and checked, ValidateTopology and GeneratePatches with requests built as Cluster API builds
// them, and the lifecycle hooks in Cluster API's order on a virtual clock.
import { CLUSTER_FINALIZER, CORE_API_VERSION } from '../api/core/constants.js'
import type { Cluster, ClusterVariable, HolderReference, ObjectMeta } from '../api/hooks/v1alpha1/types.generated.js'
import { createCatalog } from '../catalog/default.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { createInProcessExtension } from '../server/in-process.js'
import { createJsonPatch, type JsonPatchOperation } from '../topology/json-patch.js'
import type { ExtensionHandler } from '../server/types.js'
import { getBlueprint } from './blueprint.js'
import { SimulationInputError } from './errors.js'
import { InProcessRuntimeClient } from './in-process-client.js'
import { admitCluster, resolveInputs } from './inputs.js'
import { cleanupCluster } from './lifecycle-hooks.js'
import { Lifecycle, type LifecycleContext, type PhaseResult } from './lifecycle.js'
import { NamingTemplateError } from './names.js'
import { seededRandom, seededUid } from './seeded.js'
import { type Stored, jsonCopy, type Unstructured } from './objects.js'
import type { ClusterState } from './scope.js'
import { PatchFailure } from './patch-engine.js'
import { Recorder, SimulationFailure, type TimelineEntry } from './timeline.js'
import { TopologyReconcileError, type TopologyReconciledCondition } from './refusals.js'
import { defaultClusterVariables, discoverVariables } from './variables.js'
import type { LiveState } from './live.js'
import { SimulatedWorld } from './world.js'
import { compareKubernetesVersions, parseVersion } from './versions.js'

/** What simulate() takes: the extension (handlers in process, or a client) and the objects of the Cluster. */
export interface SimulateOptions {
  /** handlers are called in process through the serving core, as the extension server would answer them. */
  handlers?: readonly ExtensionHandler[]
  /** client calls the extensions instead (e.g. an HttpRuntimeClient over ExtensionConfigs, warmed up). */
  client?: RuntimeClient
  /** extensionName registers `handlers` as that ExtensionConfig (default: the one the ClusterClass names, else `extension`). */
  extensionName?: string
  /** objects hold the Cluster (one with a topology), its ClusterClass and the templates it references, in any order. */
  objects?: readonly unknown[]
  /** cluster is the Cluster, when not among `objects`. */
  cluster?: unknown
  /** clusterClass is its ClusterClass, when not among `objects`. */
  clusterClass?: unknown
  /** templates are the templates the ClusterClass references, when not among `objects`. */
  templates?: readonly unknown[]
  /** toVersion upgrades the Cluster to this Kubernetes version after it is created. */
  toVersion?: string
  /** maxBlockedSeconds: a hook that holds the cluster longer fails the simulation (default 600). */
  maxBlockedSeconds?: number
  /** checkDeterminism calls every handler a second time with the same request and requires the same answer (default true). */
  checkDeterminism?: boolean
  /** sourceOf names where an object came from (a file) in input errors. */
  sourceOf?: (object: unknown) => string | undefined
  /** startTime is the wall-clock time virtual time 0 stands for, in timestamps (default 2025-01-01T00:00:00Z). */
  startTime?: Date
  /**
   * current starts the life where a live Cluster stands (see readLiveCluster): the objects the topology controller
   * made and its Machines' versions; the Cluster among `objects` is then taken as stored. Without it the Cluster is
   * created first.
   */
  current?: LiveState
  /** delete ends the life with the Cluster's deletion (default: true, false when starting from `current`). */
  delete?: boolean
  /**
   * featureGates are Cluster API's: with InPlaceUpdates on, a MachineDeployment whose templates rotate asks the
   * extension's CanUpdateMachineSet, and its Machines are updated in place (UpdateMachine) when the extension takes the
   * change (default: off, as Cluster API ships it).
   */
  featureGates?: {
    /** InPlaceUpdates turns Cluster API's InPlaceUpdates feature gate on (off by default, as Cluster API ships it). */
    InPlaceUpdates?: boolean
  }
}

/** A ClusterClass template after the class's patches, for one place of the Cluster. */
export interface SimulatedTemplate {
  /** role is where the template is used: infrastructureCluster, controlPlane, controlPlaneMachineInfrastructure, `machineDeployment <name> bootstrap`, ... */
  role: string
  /** kind of the template, e.g. KubeadmControlPlaneTemplate. */
  kind: string
  /** name is the template's name in the ClusterClass. */
  name: string
  /** generatedName is what Cluster API names the object or template it makes from it. */
  generatedName: string
  /** holder is the object that references the template and the field it does so with, as GeneratePatches sends it. */
  holder: HolderReference
  /** patched is the template as GeneratePatches sent it, with every patch applied (API server fields left out). */
  patched: {
    /** apiVersion of the template. */
    apiVersion?: string
    /** kind of the template. */
    kind?: string
    /** metadata of the template. */
    metadata?: ObjectMeta
    /** Every other field of the template. */
    [field: string]: unknown
  }
  /** diff holds the JSON Patch operations the class's patches made to it. */
  diff: JsonPatchOperation[]
}

/** What a simulation found. */
export interface SimulationResult {
  /** completed: the life went through; failed: a hook failed, blocked past maxBlockedSeconds or a patch did not apply. */
  outcome: 'completed' | 'failed'
  /** error says what failed and where (hook, handler, template), in one line. */
  error?: string
  /**
   * topologyReconciled is the Cluster's TopologyReconciled condition when the API server refuses an object the
   * topology controller writes: Cluster API stops there, reconcile after reconcile, until the extension changes.
   */
  topologyReconciled?: TopologyReconciledCondition
  /** timeline lists every hook call and every step of the cluster, in order. */
  timeline: TimelineEntry[]
  /** templates are the patched templates of the last phase (after the upgrade, with toVersion). */
  templates: SimulatedTemplate[]
  /** phases are the patched templates of each phase the life went through. */
  phases: Array<{
    /** phase is create, or upgrade (with toVersion). */
    phase: PhaseResult['phase']
    /** version is the Kubernetes version of the phase. */
    version: string
    /** templates are the patched templates of the phase. */
    templates: SimulatedTemplate[]
    /**
     * objects are what Cluster API has written at the end of the phase, by role: `cluster`, `infrastructureCluster`,
     * `controlPlane`, `controlPlaneMachineInfrastructure`, `machineDeployment <name>` (and its `bootstrap` and
     * `infrastructure` templates), `machinePool <name>` (and its objects), `<role> healthCheck`.
     */
    objects: Record<string, Unstructured>
  }>
  /** variables are the Cluster's variables as defaulted and validated. */
  variables: ClusterVariable[]
  /** notes name what the simulation did not evaluate. */
  notes: string[]
  /** warnings name answers Cluster API takes but should not get. */
  warnings: string[]
  /** calls counts every handler call, the determinism checks' second calls included. */
  calls: number
  /** cluster is the Cluster as the last hook saw it. */
  cluster: Cluster
  /**
   * state is where the Cluster stood at the end of its last phase, before any deletion: the Cluster as stored and
   * what the topology controller made (to start another simulation or a dry run from, as from a live Cluster).
   */
  state?: SimulationState
}

/** Where a simulated Cluster stands: as stored, with what the topology controller made for it. */
export interface SimulationState {
  /** cluster is the Cluster as stored. */
  cluster: Stored<Cluster, 'namespaced'>
  /** current is what the topology controller made for it, as a live Cluster's (see readLiveCluster). */
  current: LiveState
}

const SERVER_FIELDS = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'ownerReferences', 'managedFields'] as const

function templatesOf (phase: PhaseResult): SimulatedTemplate[] {
  return phase.request.items.map(item => {
    const patched = jsonCopy(item.object)
    for (const field of SERVER_FIELDS) delete (patched.metadata as Record<string, unknown> | undefined)?.[field]
    return {
      role: item.role,
      kind: item.original.kind ?? '',
      name: item.original.metadata?.name ?? '',
      generatedName: item.generatedName,
      holder: item.holderReference,
      patched,
      diff: createJsonPatch(item.unpatched, item.object)
    }
  })
}

/** The Cluster as the API server stores it once Cluster API's Cluster controller has seen it (its finalizer added). */
function newCluster (input: Stored<Cluster, 'namespaced'>, seed: string, origin: number): Stored<Cluster, 'namespaced'> {
  const cluster = jsonCopy(input)
  delete cluster.status
  cluster.kind = 'Cluster'
  cluster.apiVersion = CORE_API_VERSION
  cluster.metadata.uid ??= seededUid(`${seed}/cluster`)
  cluster.metadata.resourceVersion = '1'
  cluster.metadata.generation = 1
  cluster.metadata.creationTimestamp ??= new Date(origin).toISOString().replace(/\.\d+Z$/, 'Z')
  cluster.metadata.finalizers = [...new Set([...cluster.metadata.finalizers ?? [], CLUSTER_FINALIZER])]
  return cluster
}

/** The objects of a Cluster's state by role. */
function objectsByRole (state: ClusterState): Record<string, Unstructured> {
  const out: Record<string, Unstructured> = { cluster: state.cluster as Unstructured }
  const put = (role: string, object: Unstructured | undefined) => { if (object) out[role] = object }
  put('infrastructureCluster', state.infrastructureCluster)
  put('controlPlane', state.controlPlane.object)
  put('controlPlaneMachineInfrastructure', state.controlPlane.infrastructureMachineTemplate)
  put('controlPlane healthCheck', state.controlPlane.machineHealthCheck)
  for (const [kind, workers] of [['machineDeployment', state.machineDeployments], ['machinePool', state.machinePools]] as const) {
    for (const [name, worker] of workers) {
      put(`${kind} ${name}`, worker.object)
      put(`${kind} ${name} bootstrap`, worker.bootstrap)
      put(`${kind} ${name} infrastructure`, worker.infrastructure)
      put(`${kind} ${name} healthCheck`, worker.machineHealthCheck)
    }
  }
  return out
}

/** The ExtensionConfig name the ClusterClass's handler names share, if they share one. */
export function classExtensionName (clusterClass: unknown): string | undefined {
  const spec = (clusterClass as { spec?: { patches?: Array<{ external?: Record<string, unknown> }>, upgrade?: { external?: Record<string, unknown> } } } | undefined)?.spec
  const names = [...(spec?.patches ?? []).flatMap(p => Object.entries(p.external ?? {}).filter(([k]) => k.endsWith('Extension')).map(([, v]) => v)), spec?.upgrade?.external?.['generateUpgradePlanExtension']]
  const suffixes = new Set(names.filter((n): n is string => typeof n === 'string' && n.includes('.')).map(n => n.slice(n.indexOf('.') + 1)))
  return suffixes.size === 1 ? [...suffixes][0] : undefined
}

/** The options simulate cannot use: a toVersion that is no version or not newer than the Cluster's, no extension or two. */
function checkOptions (options: SimulateOptions, clusterVersion: string): void {
  if (options.toVersion !== undefined) {
    if (!parseVersion(options.toVersion)) throw new SimulationInputError(`toVersion ${JSON.stringify(options.toVersion)} is not a Kubernetes version such as v1.35.0`)
    if (compareKubernetesVersions(options.toVersion, clusterVersion) <= 0) throw new SimulationInputError(`toVersion ${options.toVersion} must be newer than the Cluster's spec.topology.version ${clusterVersion}`)
  }
  if ((options.handlers === undefined) === (options.client === undefined)) throw new SimulationInputError('pass the extension as handlers or as a client, one of the two')
}

/** The life: reconciles until settled from where the Cluster is (created, or as it stands), then the upgrade and the deletion asked for. */
async function live (lifecycle: Lifecycle, options: SimulateOptions): Promise<void> {
  await lifecycle.settle(options.current ? 'current' : 'create')
  if (options.toVersion !== undefined) {
    lifecycle.startUpgrade(options.toVersion)
    await lifecycle.settle('upgrade')
  }
  if (options.delete ?? !options.current) {
    lifecycle.startDelete()
    await lifecycle.settle('delete')
  }
}

/**
 * Takes a Cluster through its life as Cluster API v1.14 would: created, upgraded to `toVersion` when given, deleted.
 * Rejects with a SimulationInputError for input it cannot use; resolves with outcome `failed` when the extension
 * fails the cluster (the timeline up to there included).
 */
export async function simulate (options: SimulateOptions): Promise<SimulationResult> {
  const objects = [...options.objects ?? [], ...[options.cluster, options.clusterClass].filter(o => o !== undefined), ...options.templates ?? []]
  const inputs = resolveInputs(objects, options.sourceOf)
  checkOptions(options, inputs.cluster.spec?.topology?.version ?? '')
  const catalog = createCatalog()
  const client = options.client ?? new InProcessRuntimeClient(createInProcessExtension({ handlers: options.handlers as ExtensionHandler[] }), options.extensionName ?? classExtensionName(inputs.clusterClass) ?? 'extension')
  const seed = `${inputs.cluster.metadata.namespace}/${inputs.cluster.metadata.name}`
  const origin = (options.startTime ?? new Date('2025-01-01T00:00:00Z')).getTime()
  const clock = { now: 0 }
  const notes: string[] = []
  const note = (text: string) => { if (!notes.includes(text)) notes.push(text) }

  const cluster = options.current ? jsonCopy(inputs.cluster) : newCluster(inputs.cluster, seed, origin)
  const random = seededRandom(seed)
  const world = new SimulatedWorld(cluster, random, { live: options.current, schemas: inputs.schemas, now: () => new Date(origin + clock.now * 1000).toISOString().replace(/\.\d+Z$/, 'Z') })
  const recorder = new Recorder(client, { catalog, forObject: () => world.cluster, now: () => clock.now, checkDeterminism: options.checkDeterminism ?? true })
  let lifecycle: Lifecycle | undefined
  let variables: ClusterVariable[] = []
  const result = (outcome: SimulationResult['outcome'], error?: string, topologyReconciled?: TopologyReconciledCondition): SimulationResult => {
    const phases = (lifecycle?.phases ?? []).map(p => ({ phase: p.phase, version: p.version, templates: templatesOf(p), objects: objectsByRole(p.stored) }))
    const last = lifecycle?.phases.at(-1)
    return {
      outcome,
      ...(error ? { error } : {}),
      ...(topologyReconciled ? { topologyReconciled } : {}),
      timeline: recorder.entries,
      templates: phases.at(-1)?.templates ?? [],
      phases,
      variables,
      notes,
      warnings: recorder.warnings,
      calls: recorder.calls,
      cluster: cleanupCluster(world.cluster),
      ...(last ? { state: { cluster: last.stored.cluster, current: { ...last.stored, machineVersions: last.machineVersions } } } : {})
    }
  }
  if ((cluster.spec?.topology?.workers?.machinePools ?? []).length > 0) note('MachinePools: their templates are patched as Cluster API patches them; their upgrades are not simulated')
  try {
    const definitions = await discoverVariables(inputs, recorder)
    world.cluster = admitCluster(inputs, world.cluster, c => defaultClusterVariables(c, definitions, inputs.clusterClass.metadata.name))
    variables = world.cluster.spec?.topology?.variables ?? []
    const hookCache = new Map<string, { until: number, message: string }>()
    const ctx: LifecycleContext = {
      world,
      blueprint: getBlueprint(inputs, seed),
      random,
      contract: 'v1beta2',
      caller: recorder,
      now: () => clock.now,
      hookCache,
      planCache: new Map(),
      patchCluster: annotations => world.patchClusterAnnotations(annotations),
      patchEngine: { caller: recorder, contract: 'v1beta2', definitionsFrom: definitions.definitionsFrom, itemUid: role => seededUid(`${seed}/item/${role}`) },
      recorder,
      clock,
      origin,
      maxBlockedSeconds: options.maxBlockedSeconds ?? 600,
      inPlaceUpdates: options.featureGates?.InPlaceUpdates === true
    }
    lifecycle = new Lifecycle(ctx)
    await live(lifecycle, options)
    return result('completed')
  } catch (err) {
    if (err instanceof TopologyReconcileError) {
      recorder.event('topology not reconciled', `TopologyReconciled False ReconcileFailed: ${err.condition.message}`)
      return result('failed', err.message, err.condition)
    }
    if (err instanceof SimulationFailure || err instanceof PatchFailure || err instanceof NamingTemplateError) return result('failed', err.message)
    throw err
  }
}

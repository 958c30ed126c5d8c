// The hooks of hooks.runtime.cluster.x-k8s.io/v1alpha1, as Cluster API v1.14 registers them: request and response
// schemas and types from Cluster API's definitions, the documentation ours.
import type { HookDefinition, HookMeta } from '../define.js'
import { hookSchemas } from './schemas.js'
import type { HookTypes } from './types.js'

/** The definition of a v1alpha1 hook, typed by its request and response. */
export type Hook<N extends keyof HookTypes> = HookDefinition<HookTypes[N]['request'], HookTypes[N]['response']>

function hook<N extends keyof HookTypes> (name: N, meta: HookMeta): Hook<N> {
  return { hook: name, ...hookSchemas(name), meta }
}

const LIFECYCLE = ['Lifecycle Hooks']
const TOPOLOGY = ['Topology Mutation Hook']
const IN_PLACE = ['In-Place Update Hooks']
const BLOCKING = 'A non-zero retryAfterSeconds blocks the operation; the hook is called again after about that many seconds.'

export const Discovery = hook('Discovery', {
  tags: ['Discovery'],
  singleton: true,
  summary: 'Lists the handlers an extension serves; called whenever its ExtensionConfig is reconciled',
  description: 'The runtime calls Discovery on every reconcile of an ExtensionConfig and registers the handlers it returns ' +
    'as `<handler name>.<ExtensionConfig name>`. Handler names must be DNS-1123 labels, unique within the extension; ' +
    'timeoutSeconds (0 to 30) defaults to 10 and failurePolicy defaults to Fail.\n\n' +
    'Extension servers built with runtime-sdk answer this hook themselves from their registered handlers.'
})

export const BeforeClusterCreate = hook('BeforeClusterCreate', {
  tags: LIFECYCLE,
  summary: 'Called before the objects of a new Cluster\'s topology are created',
  description: 'Called once the user created a Cluster with a managed topology, before its control plane and infrastructure objects exist. ' + BLOCKING
})

export const AfterControlPlaneInitialized = hook('AfterControlPlaneInitialized', {
  tags: LIFECYCLE,
  summary: 'Called when the control plane of a Cluster becomes reachable for the first time',
  description: 'Called once the Cluster\'s ControlPlaneInitialized condition is true. The hook cannot block.'
})

export const BeforeClusterUpgrade = hook('BeforeClusterUpgrade', {
  tags: LIFECYCLE,
  summary: 'Called at the start of an upgrade, before the new version reaches the control plane',
  description: 'Called once per upgrade, after the user changed spec.topology.version and before any object is changed. ' + BLOCKING
})

export const BeforeControlPlaneUpgrade = hook('BeforeControlPlaneUpgrade', {
  tags: LIFECYCLE,
  summary: 'Called before each version step is applied to the control plane',
  description: 'Called for every control plane version of an upgrade plan, after BeforeClusterUpgrade for the first one. ' + BLOCKING
})

export const AfterControlPlaneUpgrade = hook('AfterControlPlaneUpgrade', {
  tags: LIFECYCLE,
  summary: 'Called after the control plane reached a version step',
  description: 'Called when every control plane machine runs the version of the current step, before workers are upgraded. ' + BLOCKING
})

export const BeforeWorkersUpgrade = hook('BeforeWorkersUpgrade', {
  tags: LIFECYCLE,
  summary: 'Called before a version step is applied to the workers',
  description: 'Called when MachineDeployments and MachinePools are about to move to the version of a step. ' + BLOCKING
})

export const AfterWorkersUpgrade = hook('AfterWorkersUpgrade', {
  tags: LIFECYCLE,
  summary: 'Called after the workers reached a version step',
  description: 'Called when all worker machines run the version of the current step. ' + BLOCKING
})

export const AfterClusterUpgrade = hook('AfterClusterUpgrade', {
  tags: LIFECYCLE,
  summary: 'Called after the whole Cluster was upgraded to its target version',
  description: 'Called once the control plane and all workers run spec.topology.version. A blocking answer keeps the next upgrade from starting.'
})

export const BeforeClusterDelete = hook('BeforeClusterDelete', {
  tags: LIFECYCLE,
  summary: 'Called before the objects of a deleted Cluster are removed',
  description: 'Called once the user deleted the Cluster, before any of its objects is deleted. ' + BLOCKING
})

export const GeneratePatches = hook('GeneratePatches', {
  tags: TOPOLOGY,
  summary: 'Generates patches for the templates of a Cluster topology',
  description: 'Called while a topology is computed, once for each external patch of the ClusterClass, in order. ' +
    'Each response item patches the request template with the same uid; only spec, labels and annotations of a template are taken.'
})

export const ValidateTopology = hook('ValidateTopology', {
  tags: TOPOLOGY,
  summary: 'Validates a Cluster topology after all patches were applied',
  description: 'Called after GeneratePatches with the fully patched templates. A Failure stops the topology from being applied.'
})

export const DiscoverVariables = hook('DiscoverVariables', {
  tags: TOPOLOGY,
  summary: 'Returns the definitions of the variables an extension\'s patches use',
  description: 'Called when a ClusterClass is reconciled, for each external patch; the variables become part of the ClusterClass status. ' +
    'Answers are cached, so they should depend only on the settings.'
})

export const CanUpdateMachine = hook('CanUpdateMachine', {
  tags: IN_PLACE,
  summary: 'Tells which changes to a Machine an extension can make in place',
  description: 'The patches are applied to the current objects; when the result equals the desired objects the Machine is updated in place, ' +
    'otherwise it is replaced. At most one extension may implement this hook for a Machine.'
})

export const CanUpdateMachineSet = hook('CanUpdateMachineSet', {
  tags: IN_PLACE,
  summary: 'Tells which changes to a MachineSet an extension can make in place',
  description: 'Only spec.template.spec changes need to be covered. At most one extension may implement this hook for a MachineSet.'
})

export const UpdateMachine = hook('UpdateMachine', {
  tags: IN_PLACE,
  summary: 'Performs an in-place update of a Machine',
  description: 'Called repeatedly until the update is done or failed, so it must be idempotent. Exactly one extension must implement it for a Machine.'
})

export const GenerateUpgradePlan = hook('GenerateUpgradePlan', {
  tags: ['Chained Upgrade Hook'],
  summary: 'Plans the intermediate versions of an upgrade across several minor versions',
  description: 'The control plane plan needs at least one version per minor between the current (excluded) and target (included) version, ' +
    'increasing, ending with the target. A workers plan is optional; when given, each version must be the current control plane version or one of the control plane plan.'
})

/** Every hook, in the order of Cluster API's documentation. */
export const hooks = [
  Discovery,
  BeforeClusterCreate, AfterControlPlaneInitialized, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, AfterControlPlaneUpgrade,
  BeforeWorkersUpgrade, AfterWorkersUpgrade, AfterClusterUpgrade, BeforeClusterDelete,
  GeneratePatches, ValidateTopology, DiscoverVariables,
  CanUpdateMachine, CanUpdateMachineSet, UpdateMachine,
  GenerateUpgradePlan
] as const

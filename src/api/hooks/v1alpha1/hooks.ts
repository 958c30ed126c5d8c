// The hooks of hooks.runtime.cluster.x-k8s.io/v1alpha1, as Cluster API v1.14 registers them: request and response
// schemas and types from Cluster API's definitions, the documentation ours; both are data in the top-level hooks/
// folder (definitions.json, hooks.json).
import type { HookDefinition, HookMeta } from '../define.js'
import list from '../../../../hooks/v1alpha1/hooks.json' with { type: 'json' }
import { hookSchemas } from './schemas.js'
import type { HookTypes } from './types.generated.js'

/** The definition of a v1alpha1 hook, typed by its request and response. */
export type Hook<N extends keyof HookTypes> = HookDefinition<HookTypes[N]['request'], HookTypes[N]['response']>

const documented: ReadonlyArray<HookMeta & { hook: string }> = list.hooks

function hook<N extends keyof HookTypes> (name: N): Hook<N> {
  const entry = documented.find(h => h.hook === name)
  if (!entry) throw new Error(`hooks/v1alpha1/hooks.json does not document ${name}`)
  const { hook: _name, ...meta } = entry
  return { hook: name, ...hookSchemas(name), meta }
}

/** The Discovery hook: lists the handlers an extension serves; called whenever its ExtensionConfig is reconciled. */
export const Discovery = hook('Discovery')
/** The BeforeClusterCreate hook: called before the objects of a new Cluster's topology are created. */
export const BeforeClusterCreate = hook('BeforeClusterCreate')
/** The AfterControlPlaneInitialized hook: called when the control plane of a Cluster becomes reachable for the first time. */
export const AfterControlPlaneInitialized = hook('AfterControlPlaneInitialized')
/** The BeforeClusterUpgrade hook: called at the start of an upgrade, before the new version reaches the control plane. */
export const BeforeClusterUpgrade = hook('BeforeClusterUpgrade')
/** The BeforeControlPlaneUpgrade hook: called before each version step is applied to the control plane. */
export const BeforeControlPlaneUpgrade = hook('BeforeControlPlaneUpgrade')
/** The AfterControlPlaneUpgrade hook: called after the control plane reached a version step. */
export const AfterControlPlaneUpgrade = hook('AfterControlPlaneUpgrade')
/** The BeforeWorkersUpgrade hook: called before a version step is applied to the workers. */
export const BeforeWorkersUpgrade = hook('BeforeWorkersUpgrade')
/** The AfterWorkersUpgrade hook: called after the workers reached a version step. */
export const AfterWorkersUpgrade = hook('AfterWorkersUpgrade')
/** The AfterClusterUpgrade hook: called after the whole Cluster was upgraded to its target version. */
export const AfterClusterUpgrade = hook('AfterClusterUpgrade')
/** The BeforeClusterDelete hook: called before the objects of a deleted Cluster are removed. */
export const BeforeClusterDelete = hook('BeforeClusterDelete')
/** The GeneratePatches hook: generates patches for the templates of a Cluster topology. */
export const GeneratePatches = hook('GeneratePatches')
/** The ValidateTopology hook: validates a Cluster topology after all patches were applied. */
export const ValidateTopology = hook('ValidateTopology')
/** The DiscoverVariables hook: returns the definitions of the variables an extension's patches use. */
export const DiscoverVariables = hook('DiscoverVariables')
/** The CanUpdateMachine hook: tells which changes to a Machine an extension can make in place. */
export const CanUpdateMachine = hook('CanUpdateMachine')
/** The CanUpdateMachineSet hook: tells which changes to a MachineSet an extension can make in place. */
export const CanUpdateMachineSet = hook('CanUpdateMachineSet')
/** The UpdateMachine hook: performs an in-place update of a Machine. */
export const UpdateMachine = hook('UpdateMachine')
/** The GenerateUpgradePlan hook: plans the intermediate versions of an upgrade across several minor versions. */
export const GenerateUpgradePlan = hook('GenerateUpgradePlan')

/** Every hook, in the order of Cluster API's documentation. */
export const hooks = [
  Discovery,
  BeforeClusterCreate, AfterControlPlaneInitialized, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, AfterControlPlaneUpgrade,
  BeforeWorkersUpgrade, AfterWorkersUpgrade, AfterClusterUpgrade, BeforeClusterDelete,
  GeneratePatches, ValidateTopology, DiscoverVariables,
  CanUpdateMachine, CanUpdateMachineSet, UpdateMachine,
  GenerateUpgradePlan
] as const

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

export const Discovery = hook('Discovery')
export const BeforeClusterCreate = hook('BeforeClusterCreate')
export const AfterControlPlaneInitialized = hook('AfterControlPlaneInitialized')
export const BeforeClusterUpgrade = hook('BeforeClusterUpgrade')
export const BeforeControlPlaneUpgrade = hook('BeforeControlPlaneUpgrade')
export const AfterControlPlaneUpgrade = hook('AfterControlPlaneUpgrade')
export const BeforeWorkersUpgrade = hook('BeforeWorkersUpgrade')
export const AfterWorkersUpgrade = hook('AfterWorkersUpgrade')
export const AfterClusterUpgrade = hook('AfterClusterUpgrade')
export const BeforeClusterDelete = hook('BeforeClusterDelete')
export const GeneratePatches = hook('GeneratePatches')
export const ValidateTopology = hook('ValidateTopology')
export const DiscoverVariables = hook('DiscoverVariables')
export const CanUpdateMachine = hook('CanUpdateMachine')
export const CanUpdateMachineSet = hook('CanUpdateMachineSet')
export const UpdateMachine = hook('UpdateMachine')
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

// hooks.runtime.cluster.x-k8s.io/v1alpha1: every hook Cluster API v1.14 defines.
import type { HookGroupVersion } from '../define.js'
import { GROUP, VERSION } from './common.js'
import { Discovery } from './discovery.js'
import { AfterClusterUpgrade, AfterControlPlaneInitialized, AfterControlPlaneUpgrade, AfterWorkersUpgrade, BeforeClusterCreate, BeforeClusterDelete, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, BeforeWorkersUpgrade } from './lifecycle.js'
import { DiscoverVariables, GeneratePatches, ValidateTopology } from './topology-mutation.js'
import { CanUpdateMachine, CanUpdateMachineSet, UpdateMachine } from './in-place-update.js'
import { GenerateUpgradePlan } from './upgrade-plan.js'

export * from './common.js'
export * from './discovery.js'
export * from './lifecycle.js'
export * from './topology-mutation.js'
export * from './builtins.js'
export * from './in-place-update.js'
export * from './upgrade-plan.js'

export const hooks = [
  Discovery,
  BeforeClusterCreate, AfterControlPlaneInitialized, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, AfterControlPlaneUpgrade,
  BeforeWorkersUpgrade, AfterWorkersUpgrade, AfterClusterUpgrade, BeforeClusterDelete,
  GeneratePatches, ValidateTopology, DiscoverVariables,
  CanUpdateMachine, CanUpdateMachineSet, UpdateMachine,
  GenerateUpgradePlan
] as const

export const groupVersion: HookGroupVersion = { group: GROUP, version: VERSION, hooks }
export * from './samples.js'

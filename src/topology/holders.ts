// Which template a GeneratePatches or ValidateTopology item is, told by its holder reference as Cluster API's own
// inline patches tell it (matchesSelector in core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go).
// Cluster API exports no such helpers; extensions re-implement them.
import type { HolderReference } from '../api/hooks/v1alpha1/types.generated.js'
import { getVariable, type Variables } from './variables.js'

/** The field path of the control plane's machine infrastructure template in the v1beta2 contract. */
const CONTROL_PLANE_MACHINE_INFRASTRUCTURE = 'spec.machineTemplate.spec.infrastructureRef'
/** The same in the v1beta1 contract (control planes not yet on v1beta2). */
const CONTROL_PLANE_MACHINE_INFRASTRUCTURE_V1BETA1 = 'spec.machineTemplate.infrastructureRef'
const BOOTSTRAP = 'spec.template.spec.bootstrap.configRef'
const INFRASTRUCTURE = 'spec.template.spec.infrastructureRef'

/** The infrastructure cluster template (held by the Cluster's spec.infrastructureRef). */
export function isInfrastructureClusterTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.kind === 'Cluster' && holder.fieldPath === 'spec.infrastructureRef'
}

/** The control plane template (held by the Cluster's spec.controlPlaneRef). */
export function isControlPlaneTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.kind === 'Cluster' && holder.fieldPath === 'spec.controlPlaneRef'
}

/** The control plane's machine infrastructure template, in either contract version's field path. */
export function isControlPlaneMachineInfrastructureTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.fieldPath === CONTROL_PLANE_MACHINE_INFRASTRUCTURE || holder.fieldPath === CONTROL_PLANE_MACHINE_INFRASTRUCTURE_V1BETA1
}

/** A MachineDeployment's bootstrap config template. */
export function isMachineDeploymentBootstrapTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.kind === 'MachineDeployment' && holder.fieldPath === BOOTSTRAP
}

/** A MachineDeployment's infrastructure machine template. */
export function isMachineDeploymentInfrastructureTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.kind === 'MachineDeployment' && holder.fieldPath === INFRASTRUCTURE
}

/** A MachinePool's bootstrap config template. */
export function isMachinePoolBootstrapTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.kind === 'MachinePool' && holder.fieldPath === BOOTSTRAP
}

/** A MachinePool's infrastructure machine pool template. */
export function isMachinePoolInfrastructureTemplate (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): boolean {
  return holder.kind === 'MachinePool' && holder.fieldPath === INFRASTRUCTURE
}

/** The role of a template in a Cluster's topology. */
export type TemplateRole = 'InfrastructureCluster' | 'ControlPlane' | 'ControlPlaneMachineInfrastructure' |
  'MachineDeploymentBootstrap' | 'MachineDeploymentInfrastructure' | 'MachinePoolBootstrap' | 'MachinePoolInfrastructure'

const ROLES: ReadonlyArray<[TemplateRole, (holder: Pick<HolderReference, 'kind' | 'fieldPath'>) => boolean]> = [
  ['InfrastructureCluster', isInfrastructureClusterTemplate],
  ['ControlPlane', isControlPlaneTemplate],
  ['ControlPlaneMachineInfrastructure', isControlPlaneMachineInfrastructureTemplate],
  ['MachineDeploymentBootstrap', isMachineDeploymentBootstrapTemplate],
  ['MachineDeploymentInfrastructure', isMachineDeploymentInfrastructureTemplate],
  ['MachinePoolBootstrap', isMachinePoolBootstrapTemplate],
  ['MachinePoolInfrastructure', isMachinePoolInfrastructureTemplate]
]

/** The role of the template a holder reference points at; undefined for a holder Cluster API does not send. */
export function templateRole (holder: Pick<HolderReference, 'kind' | 'fieldPath'>): TemplateRole | undefined {
  return ROLES.find(([, is]) => is(holder))?.[0]
}

/**
 * Whether a MachineDeployment's or MachinePool's template belongs to one of the classes named, as Cluster API's
 * inline patches match `matchResources.machineDeploymentClass.names`: a name, `*` (any), `prefix*` or `*suffix`,
 * against `builtin.machineDeployment.class` (or `builtin.machinePool.class`). False for other templates.
 */
export function matchesClass (holder: Pick<HolderReference, 'kind' | 'fieldPath'>, variables: Variables, names: readonly string[]): boolean {
  const builtin = holder.kind === 'MachineDeployment' ? 'machineDeployment' : holder.kind === 'MachinePool' ? 'machinePool' : undefined
  if (builtin === undefined || (holder.fieldPath !== BOOTSTRAP && holder.fieldPath !== INFRASTRUCTURE)) return false
  let value: unknown
  try {
    value = getVariable(variables, `builtin.${builtin}.class`)
  } catch {
    return false
  }
  if (value === undefined) return false
  // Cluster API compares with the JSON text: a class that is not a string only matches `*`.
  const name = typeof value === 'string' ? value : undefined
  return names.some(pattern => pattern === '*' || (name !== undefined && (
    pattern === name ||
    (pattern.startsWith('*') && name.endsWith(pattern.slice(1))) ||
    (pattern.endsWith('*') && name.startsWith(pattern.slice(0, -1))))))
}

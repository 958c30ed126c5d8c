// A ClusterClass's inline patch, answered as Cluster API's own generator answers it
// (core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go): per template, the definitions whose
// selector matches it; `enabledIf` rendered over the template's merged variables; one JSON Patch per matching
// definition, each operation's value from `value`, a variable or a Go template. Errors of every template are
// collected and reported together, as Cluster API aggregates them.
import { isBudgetExceeded } from '../budget/index.js'
import type { ClusterClassPatch, GeneratePatchesResponse, JSONPatch, PatchSelector } from '../api/hooks/v1alpha1/types.generated.js'
import { VariableError } from '../topology/errors.js'
import { isControlPlaneMachineInfrastructureTemplate, isControlPlaneTemplate, isInfrastructureClusterTemplate, matchesClass } from '../topology/holders.js'
import { getVariable, mergeVariables, toVariables } from '../topology/variables.js'
import { patchIsEnabled, renderValueTemplate } from './inline-template.js'
import type { Unstructured } from './objects.js'
import type { PatchRequest, PatchRequestItem } from './patch-request.js'

/** An error of Cluster API's inline patch generator; its message is Cluster API's. */
export class InlinePatchError extends Error {}

/** matchesSelector: the template's apiVersion and kind, then its place (infrastructure cluster, control plane, worker classes). */
export function matchesSelector (item: PatchRequestItem, selector: PatchSelector | undefined): boolean {
  const object = item.object as Unstructured
  if (!selector || object.apiVersion !== selector.apiVersion || object.kind !== selector.kind) return false
  const holder = item.holderReference
  const match = selector.matchResources ?? {}
  if (match.infrastructureCluster === true && isInfrastructureClusterTemplate(holder)) return true
  if (match.controlPlane === true && (isControlPlaneTemplate(holder) || isControlPlaneMachineInfrastructureTemplate(holder))) return true
  // The class globs read the template's own builtin variable.
  const variables = toVariables(item.variables)
  if (match.machineDeploymentClass && holder.kind === 'MachineDeployment' && matchesClass(holder, variables, match.machineDeploymentClass.names ?? [])) return true
  if (match.machinePoolClass && holder.kind === 'MachinePool' && matchesClass(holder, variables, match.machinePoolClass.names ?? [])) return true
  return false
}

/** calculateValue of an add or replace operation; a remove has no value. */
function operationValue (patch: JSONPatch, variables: Record<string, unknown>): unknown {
  if (patch.value === undefined && patch.valueFrom === undefined) throw new InlinePatchError('failed to calculate value: neither .value nor .valueFrom are set')
  if (patch.value !== undefined && patch.valueFrom !== undefined) throw new InlinePatchError('failed to calculate value: both .value and .valueFrom are set')
  if (patch.value !== undefined) return patch.value
  const from = patch.valueFrom ?? {}
  if (!from.variable && !from.template) throw new InlinePatchError('failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set')
  if (from.variable && from.template) throw new InlinePatchError('failed to calculate value: .valueFrom is set, but both .valueFrom.variable and .valueFrom.template are set')
  if (from.template) return renderValueTemplate(from.template, variables)
  let value: unknown
  try {
    value = getVariable(variables, from.variable as string)
  } catch (err) {
    if (err instanceof VariableError) throw new InlinePatchError(`failed to calculate value: ${err.message}`)
    throw err
  }
  if (value === undefined) throw new InlinePatchError(`failed to calculate value: ${notFound(variables, from.variable as string)}`)
  return value
}

/** GetVariableValue's not-found message: the variable, or the first segment of its path that does not exist. */
function notFound (variables: Record<string, unknown>, path: string): string {
  const [first = '', ...rest] = path.split('.')
  const name = first.replace(/\[.*$/, '')
  if (!Object.hasOwn(variables, name)) return `variable ${JSON.stringify(first)} does not exist`
  const segment = rest.find((_, i) => getVariable(variables, [first, ...rest.slice(0, i + 1)].join('.')) === undefined) ?? ''
  return `variable ${JSON.stringify(path)} does not exist: failed to lookup segment ${JSON.stringify(segment.replace(/\[.*$/, ''))}`
}

/** generateJSONPatches: the operations of one definition, as the JSON text Cluster API sends. */
function generateJSONPatches (patches: readonly JSONPatch[], variables: Record<string, unknown>): string {
  return JSON.stringify(patches.map(p => {
    const op = { op: p.op ?? '', path: p.path ?? '' }
    return p.op === 'add' || p.op === 'replace' ? { ...op, value: operationValue(p, variables) ?? null } : op
  }))
}

/** What an error of this generator says, with the prefixes Cluster API's Generate adds. */
/** An error's message, for Cluster API's aggregate; a spent budget is no message, it ends the Cluster's computation. */
function messageOf (err: unknown): string {
  if (isBudgetExceeded(err)) throw err
  return err instanceof Error ? err.message : String(err)
}

/** Generate: the inline patch's answer to a request, or an InlinePatchError with Cluster API's aggregated message. */
export function generateInlinePatches (patch: ClusterClassPatch, request: PatchRequest): GeneratePatchesResponse {
  const global = toVariables(request.variables)
  const items: NonNullable<GeneratePatchesResponse['items']> = []
  const errors: string[] = []
  for (const item of request.items) {
    const kind = (item.object as Unstructured).kind ?? ''
    const definitions = (patch.definitions ?? []).filter(d => matchesSelector(item, d.selector))
    if (definitions.length === 0) continue
    let variables: Record<string, unknown>
    try {
      variables = mergeVariables(global, toVariables(item.variables))
    } catch (err) {
      errors.push(`failed to merge global and template-specific variables for ${JSON.stringify(kind)}: ${messageOf(err)}`)
      continue
    }
    let enabled: boolean
    try {
      enabled = patchIsEnabled(patch.enabledIf, variables)
    } catch (err) {
      errors.push(`failed to calculate if patch is enabled for ${JSON.stringify(kind)}: ${messageOf(err)}`)
      continue
    }
    if (!enabled) continue
    for (const definition of definitions) {
      try {
        items.push({ uid: item.uid, patchType: 'JSONPatch', patch: Buffer.from(generateJSONPatches(definition.jsonPatches ?? [], variables)).toString('base64') })
      } catch (err) {
        errors.push(`failed to generate JSON patches for ${JSON.stringify(kind)}: ${messageOf(err)}`)
      }
    }
  }
  // kerrors.NewAggregate: one error as itself, several in brackets.
  if (errors.length === 1) throw new InlinePatchError(errors[0] as string)
  if (errors.length > 1) throw new InlinePatchError(`[${errors.join(', ')}]`)
  return { status: 'Success', items }
}

// The patch engine of Cluster API's topology controller (core/reconcilers/topology/cluster/patches/engine.go): for
// every patch of the ClusterClass, in order, the variables of the patch are added to the request items, the patches
// are generated (inline JSON patches here, external ones by the GeneratePatches handler the class names) and applied
// to the items, so the next patch sees the templates patched so far; then ValidateTopology for every external patch
// that names one. Only `spec`, `metadata.labels` and `metadata.annotations` of a patched template are kept.
import { applyPatch, type Operation } from 'rfc6902'
import type {
  ClusterClassPatch, ClusterVariable, GeneratePatchesRequest, GeneratePatchesResponse, JSONPatch, PatchSelector, Variable
} from '../api/hooks/v1alpha1/types.generated.js'
import { GeneratePatches, ValidateTopology } from '../api/hooks/v1alpha1/hooks.js'
import { isControlPlaneMachineInfrastructureTemplate, isControlPlaneTemplate, isInfrastructureClusterTemplate, matchesClass } from '../topology/holders.js'
import { applyMergePatch } from '../topology/merge-patch.js'
import type { RequestItem } from './desired.js'
import { getPath, isObject, type JsonObject, jsonCopy, type KubeDocument, setPath } from './objects.js'
import type { SimulationInputs } from './inputs.js'
import type { HookCaller } from './timeline.js'
import { VariableError } from '../topology/errors.js'
import { getVariable, mergeVariables, toVariables } from '../topology/variables.js'

/** A failure of the patch engine: what Cluster API would report in the Cluster's TopologyReconciled condition. */
export class PatchFailure extends Error {}

/** The request items after every patch, and the last GeneratePatches request sent (for ValidateTopology). */
export interface PatchedItems {
  items: Array<RequestItem & { variables?: Variable[] }>
  /** global is the global variables of the last patch. */
  global: Variable[]
}

/** What the engine needs from the simulation. */
export interface PatchContext {
  inputs: SimulationInputs
  /** desiredCluster is the Cluster as Cluster API computed it for this reconcile (its builtins are global). */
  builtin: Variable
  /** topologyVariables are the Cluster's (defaulted) variables; overrides per control plane and worker topology. */
  topologyVariables: readonly ClusterVariable[]
  overrides: { controlPlane: readonly ClusterVariable[], machineDeployments: Map<string, readonly ClusterVariable[]>, machinePools: Map<string, readonly ClusterVariable[]> }
  /** definitionsFrom maps each variable to the patches (or `inline`) that define it (ClusterClass status.variables). */
  definitionsFrom: Map<string, Set<string>>
  caller: HookCaller
  /** note records what the simulation does not evaluate, once each. */
  note: (text: string) => void
}

function variablesFor (values: readonly ClusterVariable[], definitionFrom: string, definitionsFrom: Map<string, Set<string>>): Variable[] {
  return values.filter(v => v.name !== 'builtin' && definitionsFrom.get(v.name ?? '')?.has(definitionFrom)).map(v => ({ name: v.name ?? '', value: v.value }))
}

function topologyNameOf (item: RequestItem): string | undefined {
  const builtin = item.builtin as { machineDeployment?: { topologyName?: string }, machinePool?: { topologyName?: string } } | undefined
  return builtin?.machineDeployment?.topologyName ?? builtin?.machinePool?.topologyName
}

/** addVariablesForPatch: the global variables and each item's (overrides and the builtin of its place). */
function addVariables (items: PatchedItems['items'], ctx: PatchContext, definitionFrom: string): Variable[] {
  const global = [...variablesFor(ctx.topologyVariables, definitionFrom, ctx.definitionsFrom), ctx.builtin]
  for (const item of items) {
    if (!item.builtin) continue
    const topologyName = topologyNameOf(item) ?? ''
    const overrides = 'controlPlane' in item.builtin
      ? ctx.overrides.controlPlane
      : 'machineDeployment' in item.builtin ? ctx.overrides.machineDeployments.get(topologyName) ?? [] : ctx.overrides.machinePools.get(topologyName) ?? []
    item.variables = [...variablesFor(overrides, definitionFrom, ctx.definitionsFrom), { name: 'builtin', value: item.builtin }]
  }
  return global
}

/** The wire form of the items: uid, holder, object and variables (when the item has its own). */
function wireItems (items: PatchedItems['items']): GeneratePatchesRequest['items'] {
  return items.map(i => ({ uid: i.uid, holderReference: i.holderReference, object: i.object, ...(i.variables ? { variables: i.variables } : {}) }))
}

/** Whether an inline patch's selector picks an item (json_patch_generator.go matchesSelector). */
function matchesSelector (item: RequestItem, selector: PatchSelector | undefined): boolean {
  const object = item.object as KubeDocument
  if (!selector || object.apiVersion !== selector.apiVersion || object.kind !== selector.kind) return false
  const holder = item.holderReference
  const match = selector.matchResources ?? {}
  if (match.infrastructureCluster && isInfrastructureClusterTemplate(holder)) return true
  if (match.controlPlane && (isControlPlaneTemplate(holder) || isControlPlaneMachineInfrastructureTemplate(holder))) return true
  // The class globs read the item's builtin variable, as Cluster API's do.
  const variables = { builtin: item.builtin }
  if (match.machineDeploymentClass && holder.kind === 'MachineDeployment' && matchesClass(holder, variables, match.machineDeploymentClass.names ?? [])) return true
  if (match.machinePoolClass && holder.kind === 'MachinePool' && matchesClass(holder, variables, match.machinePoolClass.names ?? [])) return true
  return false
}

/** One inline JSON patch operation with its value computed (calculateValue). */
function inlineOperation (patch: JSONPatch, variables: Record<string, unknown>, where: string, ctx: PatchContext): Operation | undefined {
  if (patch.op !== 'add' && patch.op !== 'replace') return { op: 'remove', path: patch.path ?? '' }
  if (patch.value === undefined && patch.valueFrom === undefined) throw new PatchFailure(`${where}: failed to calculate value: neither .value nor .valueFrom are set`)
  if (patch.value !== undefined && patch.valueFrom !== undefined) throw new PatchFailure(`${where}: failed to calculate value: both .value and .valueFrom are set`)
  if (patch.value !== undefined) return { op: patch.op, path: patch.path ?? '', value: patch.value }
  const from = patch.valueFrom ?? {}
  if (from.template) {
    ctx.note(`${where}: valueFrom.template (a Go template) is not evaluated; the operation on ${patch.path ?? ''} is left out`)
    return undefined
  }
  if (!from.variable) throw new PatchFailure(`${where}: failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set`)
  let value: unknown
  try {
    value = getVariable(variables, from.variable)
  } catch (err) {
    if (err instanceof VariableError) throw new PatchFailure(`${where}: failed to calculate value: ${err.message}`)
    throw err
  }
  if (value === undefined) throw new PatchFailure(`${where}: failed to calculate value: variable ${JSON.stringify(from.variable)} does not exist`)
  return { op: patch.op, path: patch.path ?? '', value }
}

/** The answer of an inline patch (jsonPatchGenerator.Generate): one JSON Patch per matching definition and item. */
function inlinePatches (patch: ClusterClassPatch, index: number, items: PatchedItems['items'], global: Variable[], ctx: PatchContext): GeneratePatchesResponse {
  const where = `spec.patches[${index}] (${patch.name ?? ''})`
  if (patch.enabledIf) ctx.note(`${where}: enabledIf (a Go template) is not evaluated; the patch is applied as if enabled`)
  const out: NonNullable<GeneratePatchesResponse['items']> = []
  for (const item of items) {
    const definitions = (patch.definitions ?? []).map((d, i) => ({ d, i })).filter(({ d }) => matchesSelector(item, d.selector))
    if (definitions.length === 0) continue
    const variables = mergeVariables(toVariables(global), toVariables(item.variables))
    for (const { d, i } of definitions) {
      const operations = (d.jsonPatches ?? []).map((p, j) => inlineOperation(p, variables, `${where}.definitions[${i}].jsonPatches[${j}] on ${describeItem(item)}`, ctx)).filter(o => o !== undefined)
      out.push({ uid: item.uid, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(operations)).toString('base64') })
    }
  }
  return { status: 'Success', items: out }
}

/** `Kind name (role)`, how messages name a template. */
function describeItem (item: RequestItem): string {
  return `${item.original.kind ?? 'template'} ${item.original.metadata?.name ?? ''} (${item.role})`
}

/** Applies one answer item to its request item (applyPatchToRequest); a PatchFailure names the template. */
function applyItem (items: PatchedItems['items'], answer: NonNullable<GeneratePatchesResponse['items']>[number], source: string): void {
  const item = items.find(i => i.uid === answer.uid)
  if (!item) throw new PatchFailure(`${source}: the answer patches uid ${JSON.stringify(answer.uid)}, which is no template of the request: unable to find corresponding request item for patch`)
  const where = `${source}: the patch of ${describeItem(item)}`
  let patch: unknown
  try {
    const text = Buffer.from(answer.patch ?? '', 'base64').toString('utf8')
    patch = text === '' ? undefined : JSON.parse(text)
  } catch {
    throw new PatchFailure(`${where} is not JSON`)
  }
  let patched: unknown
  if (answer.patchType === 'JSONPatch') {
    if (!Array.isArray(patch)) throw new PatchFailure(`${where}: failed to apply patch: error decoding json patch (RFC6902): expected an array of operations`)
    if (patch.length === 0) return
    patched = jsonCopy(item.object)
    const errors = applyPatch(patched, patch as Operation[])
    const failed = errors.findIndex(e => e !== null)
    if (failed >= 0) {
      const op = patch[failed] as { op?: unknown, path?: unknown }
      throw new PatchFailure(`${where} does not apply: operation ${failed} (${String(op.op)} ${String(op.path)}): ${errors[failed]?.name ?? 'error'}: ${errors[failed]?.message ?? ''}`.trim())
    }
  } else {
    if (patch === undefined || (isObject(patch) && Object.keys(patch).length === 0)) return
    patched = applyMergePatch(item.object, patch)
  }
  // patchutil.Patch: spec, labels and annotations are copied back, each only when the patched object has it.
  for (const path of [['spec'], ['metadata', 'labels'], ['metadata', 'annotations']]) {
    const value = getPath(patched, path)
    if (value !== undefined) setPath(item.object as JsonObject, path, value)
  }
}

/**
 * Runs every patch of the ClusterClass over the items (changed in place) and then ValidateTopology; a
 * PatchFailure or the caller's hook failure stops it, as it stops Cluster API's reconcile.
 */
export async function runPatches (items: PatchedItems['items'], ctx: PatchContext): Promise<PatchedItems> {
  const patches = ctx.inputs.clusterClass.spec?.patches ?? []
  let global: Variable[] = [ctx.builtin]
  for (const [index, patch] of patches.entries()) {
    const from = patch.external ? patch.name ?? '' : 'inline'
    global = addVariables(items, ctx, from)
    let response: GeneratePatchesResponse
    let source: string
    if ((patch.definitions ?? []).length > 0) {
      source = `inline patch ${patch.name ?? index}`
      response = inlinePatches(patch, index, items, global, ctx)
    } else if (patch.external?.generatePatchesExtension) {
      const name = patch.external.generatePatchesExtension
      source = `GeneratePatches ${name} (patch ${patch.name ?? index})`
      const request = { ...(patch.external.settings ? { settings: patch.external.settings } : {}), variables: global, items: wireItems(items) }
      response = await ctx.caller.callExtension(GeneratePatches, name, request, `patch ${patch.name ?? index}`)
    } else {
      throw new PatchFailure(`spec.patches[${index}] (${patch.name ?? ''}): failed to create patch generator: a patch needs definitions or external.generatePatchesExtension`)
    }
    for (const answer of response.items ?? []) applyItem(items, answer, source)
  }
  for (const [index, patch] of patches.entries()) {
    const name = patch.external?.validateTopologyExtension
    if (!name) continue
    const request = { ...(patch.external?.settings ? { settings: patch.external.settings } : {}), variables: global, items: items.map(i => ({ holderReference: i.holderReference, object: i.object, ...(i.variables ? { variables: i.variables } : {}) })) }
    await ctx.caller.callExtension(ValidateTopology, name, request, `patch ${patch.name ?? index}`)
  }
  return { items, global }
}

// walkTemplates: Cluster API's topologymutation.WalkTemplates for TypeScript. For each template of a GeneratePatches
// request it merges the global and the template's variables, hands a copy of the template to a mutate function and
// answers the difference between the template as received and as mutated, as a JSON Patch (RFC 6902) or a JSON
// merge patch (RFC 7386). validateTemplates is the same walk for ValidateTopology.
import type {
  GeneratePatchesRequest, GeneratePatchesRequestItem, GeneratePatchesResponse, GeneratePatchesResponseItem, HolderReference,
  ValidateTopologyRequest, ValidateTopologyRequestItem, ValidateTopologyResponse
} from '../api/hooks/v1alpha1/types.generated.js'
import { isThenable } from '../server/call.js'
import { HookError } from '../server/errors.js'
import { TemplateMutationError, VariableError, VariableTypeError } from './errors.js'
import { createJsonPatch } from './json-patch.js'
import { jsonCopy } from './json.js'
import { createMergePatch } from './merge-patch.js'
import { describeKind, isKind, type TemplateBase, type TemplateKinds, type TemplateOf } from './templates.js'
import type { Unstructured } from '../api/kube-object.js'
import { mergeVariables, toVariables, type Variables } from './variables.js'

/** One template of a GeneratePatches or ValidateTopology request, with its variables merged. */
export interface TemplateItem {
  /** uid identifies the item in a GeneratePatches answer (absent in ValidateTopology). */
  uid?: string
  /** template is the object as sent; null or a non-object when Cluster API sent no object. */
  template: unknown
  /** holder is the object that references the template and the field it does so with. */
  holder: HolderReference
  /** variables are the request's global variables merged with the item's (builtin deep-merged). */
  variables: Variables
}

function toItem (item: GeneratePatchesRequestItem | ValidateTopologyRequestItem, global: Variables): TemplateItem {
  const variables = mergeVariables(global, toVariables(item.variables))
  // Two literals rather than a conditional spread, which costs more than the rest of the item's walk.
  return 'uid' in item
    ? { uid: item.uid, template: item.object, holder: item.holderReference, variables }
    : { template: item.object, holder: item.holderReference, variables }
}

/**
 * The items of a GeneratePatches or ValidateTopology request with their variables merged as Cluster API's
 * WalkTemplates merges them. Throws VariableError when the builtin variables cannot be merged.
 */
export function templateItems (request: GeneratePatchesRequest | ValidateTopologyRequest): TemplateItem[] {
  const global = toVariables(request.variables)
  return requestItems(request).map(item => toItem(item, global))
}

/** The items of a request; ValidateTopology's may be null (Go's []*ValidateTopologyRequestItem), which are skipped. */
function requestItems (request: GeneratePatchesRequest | ValidateTopologyRequest): Array<GeneratePatchesRequestItem | ValidateTopologyRequestItem> {
  return (request.items ?? []).filter(item => item !== null)
}

/** What a mutate or validate function gets besides the template. */
export interface TemplateContext {
  /** variables are the global variables merged with the template's; `builtin` says where the template sits. */
  variables: Variables
  /** holder is the object that references the template and the field it does so with. */
  holder: HolderReference
  /** signal aborts at the call's deadline (the one given in the options). */
  signal: AbortSignal
}

/**
 * Changes a template in place. Synchronous or async; an error stops the walk: a HookError's or a variable
 * error's message is answered as the Failure (prefixed with the template), any other error is thrown on as a
 * TemplateMutationError (the extension server logs it and answers a generic Failure).
 */
export type MutateFunction<T> = (template: T, context: TemplateContext) => void | Promise<void>

/** How walkTemplates and validateTemplates pick and hand over templates. */
export interface WalkOptions<K extends TemplateKinds = TemplateKinds> {
  /**
   * kinds are the templates handed to the function, which is typed by them (Cluster API's decoder). Templates of
   * other kinds are skipped, or, with failForUnknownTypes, make the answer a Failure. Default: every template,
   * as an Unstructured & TemplateBase.
   */
  kinds?: K
  /** failForUnknownTypes answers a Failure for a template that is not of `kinds` (Cluster API's FailForUnknownTypes). */
  failForUnknownTypes?: boolean
  /** signal is the call's deadline signal (the handler context's `signal`), handed to the function. */
  signal?: AbortSignal
}

/** The format of the patches walkTemplates answers. */
export type PatchFormat = 'JSONPatch' | 'JSONMergePatch'

/** How walkTemplates answers. */
export interface WalkTemplatesOptions<K extends TemplateKinds = TemplateKinds> extends WalkOptions<K> {
  /** patchFormat: JSONPatch (RFC 6902, the default, as in Cluster API) or JSONMergePatch (RFC 7386). */
  patchFormat?: PatchFormat
}

/** Describes an item in messages: `Kind namespace/name (holder Kind namespace/name, fieldPath)`. */
function describeItem (template: unknown, holder: HolderReference): string {
  const object = isTemplate(template) ? template : undefined
  const name = [object?.metadata?.namespace, object?.metadata?.name].filter(Boolean).join('/')
  return `${object?.kind ?? 'template'}${name ? ` ${name}` : ''} (holder ${holder.kind} ${holder.namespace}/${holder.name}, ${holder.fieldPath})`
}

function isTemplate (value: unknown): value is Unstructured & TemplateBase {
  return typeof value === 'object' && value !== null && !Array.isArray(value) &&
    typeof (value as TemplateBase).kind === 'string' && typeof (value as TemplateBase).apiVersion === 'string'
}

/** schema.ParseGroupVersion's check: at most one "/". */
function holderProblem (holder: HolderReference): string | undefined {
  const { apiVersion } = holder
  if (apiVersion === '' || apiVersion === '/' || apiVersion.split('/').length <= 2) return undefined
  return `error generating patches - HolderReference apiVersion ${JSON.stringify(apiVersion)} is not in valid format: unexpected GroupVersion string: ${apiVersion}`
}

/** The errors whose message is meant for the caller. */
function callerFacing (err: unknown): err is Error {
  return err instanceof HookError || err instanceof VariableError || err instanceof VariableTypeError
}

type Step<T> = { kind: 'skip' } | { kind: 'failure', message: string } | { kind: 'template', template: T, context: TemplateContext }

/** Cluster API's checks of one item before its function runs, in its order. */
function prepare<T extends TemplateBase> (item: TemplateItem, options: WalkOptions, signal: AbortSignal): Step<T> {
  const { template, holder, variables } = item
  const known = isTemplate(template) && (options.kinds === undefined || options.kinds.some(kind => isKind(template, kind)))
  if (!known) {
    if (!options.failForUnknownTypes) return { kind: 'skip' }
    const version = isTemplate(template) ? template.apiVersion : ''
    const kinds = (options.kinds ?? []).map(describeKind).join(', ')
    return { kind: 'failure', message: `${describeItem(template, holder)}: no kind ${JSON.stringify(isTemplate(template) ? template.kind : '')} is registered for version ${JSON.stringify(version)}${kinds ? ` (the kinds handled: ${kinds})` : ''}` }
  }
  const problem = holderProblem(holder)
  if (problem !== undefined) return { kind: 'failure', message: problem }
  return { kind: 'template', template: jsonCopy(template) as unknown as T, context: { variables, holder, signal } }
}

/**
 * Runs the function on one template: a Failure message, or undefined, or the error thrown on. A promise only when
 * the function returned one: a synchronous function walks the templates without a microtask each.
 */
function run<T> (fn: MutateFunction<T>, template: T, context: TemplateContext, original: unknown): string | undefined | Promise<string | undefined> {
  const failed = (err: unknown): string => {
    const where = describeItem(original, context.holder)
    if (callerFacing(err)) return `${where}: ${err.message}`
    throw new TemplateMutationError(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
  let result: void | Promise<void>
  try {
    result = fn(template, context)
  } catch (err) {
    return failed(err)
  }
  return isThenable(result) ? Promise.resolve(result).then(() => undefined, failed) : undefined
}

/**
 * The walk both hooks share, in Cluster API's order per item: merge the variables, pick the template by kind,
 * check the holder's apiVersion, run the function, then `done` with the mutated copy. A Failure message, or
 * undefined once every template was walked.
 */
async function walk<T extends TemplateBase> (
  request: GeneratePatchesRequest | ValidateTopologyRequest, fn: MutateFunction<T>, options: WalkOptions,
  done: (item: TemplateItem, mutated: T) => void
): Promise<string | undefined> {
  const signal = options.signal ?? new AbortController().signal
  const global = toVariables(request.variables)
  for (const requestItem of requestItems(request)) {
    let item: TemplateItem
    try {
      item = toItem(requestItem, global)
    } catch (err) {
      if (err instanceof VariableError) return err.message
      throw err
    }
    signal.throwIfAborted()
    const step = prepare<T>(item, options, signal)
    if (step.kind === 'skip') continue
    if (step.kind === 'failure') return step.message
    const outcome = run(fn, step.template, step.context, item.template)
    const failure = outcome instanceof Promise ? await outcome : outcome
    if (failure !== undefined) return failure
    done(item, step.template)
  }
  return undefined
}

/**
 * Walks the templates of a GeneratePatches request (Cluster API's WalkTemplates) and answers the complete response:
 * one item per template handed to `mutate`, its patch the difference between the template as received and as
 * mutated (an empty patch when nothing changed). The first error stops the walk and makes the answer a Failure.
 *
 * @example
 * ```ts
 * import { defineHandler, v1alpha1 } from 'runtime-sdk'
 * import { ensurePath, getString, templates, walkTemplates } from 'runtime-sdk/topology'
 *
 * export const patches = defineHandler({
 *   hook: v1alpha1.GeneratePatches,
 *   name: 'patches',
 *   handler: (request, ctx) => walkTemplates(request, (template, { variables }) => {
 *     // template is a KubeadmControlPlaneTemplate: the only kind asked for.
 *     ensurePath(template, 'spec', 'template', 'spec', 'kubeadmConfigSpec', 'clusterConfiguration').imageRepository =
 *       getString(variables, 'imageRepository') ?? 'registry.k8s.io'
 *   }, { kinds: [templates.KubeadmControlPlaneTemplate], signal: ctx.signal })
 * })
 * ```
 */
export async function walkTemplates<const K extends TemplateKinds = TemplateKinds> (
  request: GeneratePatchesRequest, mutate: MutateFunction<TemplateOf<K>>, options: WalkTemplatesOptions<K> = {}
): Promise<GeneratePatchesResponse> {
  const patchType = options.patchFormat ?? 'JSONPatch'
  const items: GeneratePatchesResponseItem[] = []
  const failure = await walk(request, mutate, options, (item, mutated) => {
    const patch = JSON.stringify(createTemplatePatch(item.template, mutated, patchType))
    items.push({ uid: item.uid ?? '', patchType, patch: Buffer.from(patch).toString('base64') })
  })
  return failure === undefined ? { status: 'Success', items } : { status: 'Failure', message: failure }
}

/**
 * The patch that turns `original` into `mutated` (`mutated` taken as JSON, as Go marshals it): RFC 6902 operations,
 * or an RFC 7386 merge patch (`{}` when nothing changed). A merge patch cannot set a field to null: null removes it.
 */
export function createTemplatePatch (original: unknown, mutated: unknown, format: PatchFormat): unknown {
  if (format === 'JSONPatch') return createJsonPatch(original, mutated)
  return createMergePatch(original, JSON.parse(JSON.stringify(mutated) ?? 'null')) ?? {}
}

/**
 * Walks the templates of a ValidateTopology request the same way (kinds, failForUnknownTypes, merged variables)
 * and answers Success, or the Failure of the first template whose function throws (a HookError's or a variable
 * error's message, prefixed with the template).
 */
export async function validateTemplates<const K extends TemplateKinds = TemplateKinds> (
  request: ValidateTopologyRequest, validate: MutateFunction<TemplateOf<K>>, options: WalkOptions<K> = {}
): Promise<ValidateTopologyResponse> {
  const failure = await walk(request, validate, options, () => {})
  return failure === undefined ? { status: 'Success' } : { status: 'Failure', message: failure }
}

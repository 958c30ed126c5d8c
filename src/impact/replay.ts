// Recorded hook calls sent again, to another version of an extension, and what it answers differently: the status,
// the message, retryAfterSeconds and every other field of the answer, and for GeneratePatches the templates its
// patches produce (each request template patched by the recorded answer and by the new one, then compared): the
// question before deploying a new version is whether any object would change.
import { createCatalog } from '../catalog/default.js'
import { parseApiVersion } from '../catalog/identity.js'
import { RuntimeCallError } from '../client/errors.js'
import type { KubeObject, RuntimeClient } from '../client/runtime-client.js'
import { REDACTED, type RecordedCall } from '../server/recording.js'
import { createJsonPatch, type JsonPatchOperation } from '../topology/json-patch.js'
import { jsonCopy, jsonEqual } from '../topology/json.js'
import { applyPatchItem, type ChangedField, changedFields, type PatchItem } from '../simulate/index.js'
import { RecordingError } from './recording.js'

/** What to replay against. */
export interface ReplayOptions {
  /** client calls the extension (its handlers registered as the ExtensionConfig `extensionName`). */
  client: RuntimeClient
  /** extensionName is the ExtensionConfig the recorded handlers are called under (`<handler>.<extensionName>`). */
  extensionName: string
  /** settings replace the values a recording redacted (every setting a request names must be given). */
  settings?: Record<string, string>
  /** hooks limits the replay to these hooks (default: every hook but Discovery). */
  hooks?: readonly string[]
}

/** A field of an answer that differs: its path in the answer (`/status`, `/message`, `/variables/0/schema`), the recorded value (before) and the new one (after). */
export type FieldDifference = ChangedField

/** A template a GeneratePatches answer now patches differently. */
export interface TemplateDifference {
  /** template names it: `Kind name`, its holder and field. */
  template: string
  /** operations turn the template as patched before into the template as patched now. */
  operations: JsonPatchOperation[]
}

/** One recorded call replayed. */
export interface ReplayedCall {
  /** line is the call's position in the recording (1 is the first). */
  line: number
  /** time the call was recorded (RFC 3339). */
  time: string
  /** hook is the hook's name, e.g. GeneratePatches. */
  hook: string
  /** handler is the extension's handler name, as recorded. */
  handler: string
  /** same: the new answer means what the recorded one meant. */
  same: boolean
  /** fields are the answer's fields that differ (GeneratePatches' items compared as templates instead). */
  fields: FieldDifference[]
  /** templates are the templates a GeneratePatches answer now patches differently. */
  templates: TemplateDifference[]
}

/** The calls of one hook and handler, and how many answered differently. */
export interface ReplayedHook {
  /** hook is the hook's name. */
  hook: string
  /** handler is the extension's handler name. */
  handler: string
  /** calls counts the calls replayed. */
  calls: number
  /** differing counts those answered differently. */
  differing: number
}

/** The outcome of a replay: every call, and a line per hook and handler. */
export interface ReplayReport {
  /** calls are every call replayed, in recording order. */
  calls: ReplayedCall[]
  /** hooks has a line per hook and handler. */
  hooks: ReplayedHook[]
}

interface RequestItem { uid?: string, object?: Record<string, unknown>, holderReference?: { kind?: string, fieldPath?: string } }

/** The request with its redacted settings given again. */
function withSettings (request: Record<string, unknown>, settings: Record<string, string> | undefined, where: string): Record<string, unknown> {
  const recorded = request['settings'] as Record<string, string> | undefined
  if (!recorded) return request
  const missing = Object.entries(recorded).filter(([key, value]) => value === REDACTED && settings?.[key] === undefined).map(([key]) => key)
  if (missing.length > 0) throw new RecordingError(`${where}: the recording redacts the settings ${missing.join(', ')}: give them again (--setting key=value, or --extension-configs with the ExtensionConfig that sets them)`)
  return { ...request, settings: Object.fromEntries(Object.entries(recorded).map(([key, value]) => [key, value === REDACTED ? settings?.[key] as string : value])) }
}

/** The object a request is about, for the extension's namespaceSelector: its Cluster, or the builtin one. */
function forObjectOf (request: Record<string, unknown>): KubeObject {
  const cluster = request['cluster'] as KubeObject | undefined
  if (cluster?.metadata) return cluster
  const builtin = (request['variables'] as Array<{ name?: string, value?: { cluster?: { namespace?: string, name?: string } } }> | undefined)?.find(v => v.name === 'builtin')
  const namespace = builtin?.value?.cluster?.namespace
  return namespace ? { metadata: { namespace, name: builtin.value?.cluster?.name ?? '' } } : { metadata: {} }
}

/** A template with an answer's patches for it applied (undefined when a patch does not apply). */
function patched (item: RequestItem, answer: unknown): unknown {
  let object: unknown = jsonCopy(item.object ?? {})
  for (const p of ((answer as { items?: Array<PatchItem & { uid?: string }> } | undefined)?.items ?? []).filter(p => p.uid === item.uid)) {
    object = applyPatchItem(object, p, { onFailure: 'undefined' })
    if (object === undefined) return undefined
  }
  return object
}

/** The templates two GeneratePatches answers patch differently. */
function templateDifferences (request: Record<string, unknown>, before: unknown, after: unknown): TemplateDifference[] {
  const out: TemplateDifference[] = []
  for (const item of (request['items'] as RequestItem[] | undefined) ?? []) {
    const a = patched(item, before)
    const b = patched(item, after)
    if (jsonEqual(a, b)) continue
    const meta = item.object?.['metadata'] as { name?: string } | undefined
    const template = `${String(item.object?.['kind'] ?? 'template')} ${meta?.name ?? ''} (${item.holderReference?.kind ?? ''} ${item.holderReference?.fieldPath ?? ''})`
    out.push({ template, operations: a === undefined || b === undefined ? [{ op: 'replace', path: '', value: b === undefined ? 'the new patch does not apply' : b }] : createJsonPatch(a, b) })
  }
  return out
}

/** The fields two answers differ in; GeneratePatches' items are compared as the templates they produce instead. */
function fieldDifferences (hook: string, before: Record<string, unknown>, after: Record<string, unknown>): FieldDifference[] {
  const strip = (answer: Record<string, unknown>) => {
    if (hook !== 'GeneratePatches') return answer
    const { items: _items, ...rest } = answer
    return rest
  }
  return changedFields(jsonCopy(strip(before)), jsonCopy(strip(after)))
}

/** Sends every recorded call (but Discovery's) to the extension and compares the answers. */
export async function replay (calls: readonly RecordedCall[], options: ReplayOptions): Promise<ReplayReport> {
  const catalog = createCatalog()
  const replayed: ReplayedCall[] = []
  for (const [index, call] of calls.entries()) {
    if (call.hook === 'Discovery' || (options.hooks && !options.hooks.includes(call.hook))) continue
    const where = `line ${index + 1} (${call.hook} ${call.handler})`
    const hook = catalog.get({ ...parseApiVersion(call.apiVersion), hook: call.hook })
    const request = withSettings(call.request as Record<string, unknown>, options.settings, where)
    let answer: Record<string, unknown>
    try {
      answer = (await options.client.callExtension(hook.definition, forObjectOf(request), `${call.handler}.${options.extensionName}`, request as never)).response as Record<string, unknown>
    } catch (err) {
      if (!(err instanceof RuntimeCallError)) throw err
      const outcome = err.handlers[0]
      answer = outcome?.response ?? { status: 'Failure', message: outcome?.error ?? err.message }
    }
    const recorded = call.response as Record<string, unknown>
    const fields = fieldDifferences(call.hook, recorded, answer)
    const templates = call.hook === 'GeneratePatches' ? templateDifferences(request, recorded, answer) : []
    replayed.push({ line: index + 1, time: call.time, hook: call.hook, handler: call.handler, same: fields.length === 0 && templates.length === 0, fields, templates })
  }
  const byHook = new Map<string, ReplayedHook>()
  for (const c of replayed) {
    const key = `${c.hook}/${c.handler}`
    const entry = byHook.get(key) ?? { hook: c.hook, handler: c.handler, calls: 0, differing: 0 }
    entry.calls++
    if (!c.same) entry.differing++
    byHook.set(key, entry)
  }
  return { calls: replayed, hooks: [...byHook.values()] }
}

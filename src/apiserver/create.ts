// What the API server does to a custom resource on create and update, in its order: decoding prunes unknown fields,
// drops nulls the schema does not allow (not for a server-side apply, whose nulls stay) and normalises embedded
// metadata, then defaults apply; the strategy then
// validates kind and apiVersion, the metadata, the OpenAPI schema, embedded resources and list types, and, unless
// one of those errors makes the object unusable for them, the CEL rules (NewInvalid collects all of it).
//
// Left out: what the API server sets itself (uid, resourceVersion, creationTimestamp, generation, managedFields),
// scale subresource checks, OpenAPI ratcheting on update (on update all OpenAPI errors are reported; CEL ratcheting
// is done), and field validation Strict (the pruned paths are returned instead, as fieldValidation=Warn warns).
import { validateRulesAt } from './cel/rules.js'
import { defaultInPlace, pruneNullsInPlace } from './defaults.js'
import { type FieldError, forbidden, invalid, invalidObjectMessage, required } from './field-error.js'
import { validateListTypes } from './listtype.js'
import { isDNS1123Subdomain, nameIsDNSLabel, nameIsDNSSubdomain } from './names.js'
import { coerceEmbedded, roundTripObjectMeta, validateEmbedded } from './objectmeta.js'
import { compare as compareBytes } from '../go/strings.js'
import { pruneInPlace } from './prune.js'
import type { Structural } from './schema.js'
import { validateValue } from './validate.js'

/** Who the object is: its kind, API group and version, and whether it lives in a namespace. */
export interface ResourceOptions {
  /** kind is the resource's kind (`Widget`); when given, `kind` must equal it. */
  kind?: string
  /** group is the API group (`example.com`); with version, apiVersion must be `group/version`. */
  group?: string
  /** version is the served version (`v1`). */
  version?: string
  /** namespaced makes metadata.namespace required (default: checked only when set). */
  namespaced?: boolean
  /** statusSubresource drops status on create and keeps the old one on update, as with `subresources: {status: {}}`. */
  statusSubresource?: boolean
  /**
   * serverSideApply says the object comes from a server-side apply (typedPatchError found nothing): the API server then
   * keeps its nulls (a null the schema's default does not replace is refused) where decoding a create or update drops
   * them.
   */
  serverSideApply?: boolean
  /**
   * mutate is mutating admission (a defaulting webhook): it changes the decoded object in place before validation;
   * what it throws refuses the object.
   */
  mutate?: (object: Record<string, unknown>) => void
}

/** The outcome of a create or update. */
export interface ResourceResult {
  /** object is the object as the API server would store it (pruned, defaulted), also when it is refused. */
  object: Record<string, unknown>
  /** errors are the field errors that refuse the object (empty when it is accepted). */
  errors: FieldError[]
  /** pruned are the paths of the unknown fields that were dropped, sorted. */
  pruned: string[]
  /** message is the API server's message when the object is refused (`Widget.example.com "w" is invalid: …`). */
  message?: string
}

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid'])

/** The message of the error the API server adds when it skips CEL rules. */
export const RULES_NOT_CHECKED = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The decoding step: prune, drop nulls (not for an apply), normalise embedded metadata, then default; returns the pruned paths. */
function decode (schema: Structural, obj: Record<string, unknown>, keepNulls: boolean): { pruned: string[], error?: FieldError } {
  const unknown: string[] = []
  if (isRecord(obj.metadata)) {
    const meta = roundTripObjectMeta(obj.metadata)
    if ('meta' in meta) {
      obj.metadata = meta.meta
      unknown.push(...meta.unknown.map(u => `metadata.${u}`))
    }
  }
  unknown.push(...pruneInPlace(obj, schema, true))
  if (!keepNulls) pruneNullsInPlace(obj, schema)
  const error = coerceEmbedded(undefined, obj, schema, false, unknown)
  defaultInPlace(obj, schema)
  return { pruned: unknown.sort(compareBytes), ...(error ? { error } : {}) }
}

function validateTypeMeta (obj: Record<string, unknown>, o: ResourceOptions): FieldError[] {
  const errs: FieldError[] = []
  if (o.kind !== undefined && obj.kind !== o.kind) errs.push(invalid('kind', obj.kind ?? '', `must be ${o.kind}`))
  if (o.group !== undefined && o.version !== undefined) {
    const want = o.group === '' ? o.version : `${o.group}/${o.version}`
    if (obj.apiVersion !== want) errs.push(invalid('apiVersion', obj.apiVersion ?? '', `must be ${want}`))
  }
  return errs
}

function validateRootMeta (obj: Record<string, unknown>, o: ResourceOptions): FieldError[] {
  const meta = isRecord(obj.metadata) ? obj.metadata : {}
  const str = (k: string) => typeof meta[k] === 'string' ? meta[k] as string : ''
  const errs: FieldError[] = []
  if (str('generateName') !== '') for (const m of nameIsDNSSubdomain(str('generateName'), true)) errs.push(invalid('metadata.generateName', str('generateName'), m))
  if (str('name') === '') errs.push(required('metadata.name', 'name or generateName is required'))
  else for (const m of isDNS1123Subdomain(str('name'))) errs.push(invalid('metadata.name', str('name'), m))
  if (o.namespaced === true && str('namespace') === '') errs.push(required('metadata.namespace', ''))
  else if (o.namespaced === false && str('namespace') !== '') errs.push(forbidden('metadata.namespace', 'not allowed on this type'))
  else if (str('namespace') !== '') for (const m of nameIsDNSLabel(str('namespace'), false)) errs.push(invalid('metadata.namespace', str('namespace'), m))
  return errs
}

/** The strategy's Validate / ValidateUpdate over a decoded object. */
function validateObject (props: Parameters<typeof validateValue>[0], schema: Structural, obj: Record<string, unknown>, old: Record<string, unknown> | undefined, o: ResourceOptions): FieldError[] {
  const typeMeta = validateTypeMeta(obj, o)
  const errs: FieldError[] = typeMeta.length > 0 ? typeMeta : [...validateRootMeta(obj, o), ...validateValue(props, obj)]
  errs.push(...validateEmbedded(undefined, obj, schema))
  if (old === undefined || validateListTypes(undefined, schema, old).length === 0) errs.push(...validateListTypes(undefined, schema, obj))
  if (schema.validations.length > 0 || hasRules(schema)) {
    if (errs.some(e => BLOCKING.has(e.type))) errs.push(invalid(undefined, null, RULES_NOT_CHECKED))
    else errs.push(...validateRulesAt(schema, obj, old, undefined, true))
  }
  return errs
}

function hasRules (s: Structural | undefined): boolean {
  if (s === undefined) return false
  if (s.validations.length > 0 || s.allOf.some(a => a.validations.length > 0)) return true
  if (hasRules(s.items) || hasRules(s.additionalProperties?.schema)) return true
  return [...(s.properties?.values() ?? [])].some(hasRules)
}

/** Creates (or, with old, updates) a custom resource: decode, then validate. */
export function admit (props: Parameters<typeof validateValue>[0], schema: Structural, input: Record<string, unknown>, old: Record<string, unknown> | undefined, o: ResourceOptions): ResourceResult {
  const obj = structuredClone(input)
  const { pruned, error } = decode(schema, obj, o.serverSideApply === true)
  // PrepareForCreate / PrepareForUpdate run after decoding: status is dropped (or kept from old) then.
  if (o.statusSubresource) {
    if (old !== undefined && old.status !== undefined) obj.status = structuredClone(old.status)
    else delete obj.status
  }
  if (!error) o.mutate?.(obj)
  const errors = error ? [error] : validateObject(props, schema, obj, old, o)
  const result: ResourceResult = { object: obj, errors, pruned }
  if (errors.length > 0) {
    const meta = isRecord(obj.metadata) ? obj.metadata : {}
    const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : ''
    const group = o.group ?? (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '')
    result.message = invalidObjectMessage(o.kind ?? String(obj.kind ?? ''), group, typeof meta.name === 'string' ? meta.name : '', errors)
  }
  return result
}

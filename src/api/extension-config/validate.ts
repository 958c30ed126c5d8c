// validateExtensionConfig: what the API server does with an ExtensionConfig it is asked to create, for objects
// that never reach one (the controller's file source, the CLI). Defaults are applied first, then the schema is
// checked, then the CEL rules' TypeScript twins run, and v1alpha1 objects are converted to v1beta2. Messages
// are formatted like the API server's field errors (Kubernetes 1.36), so both sources read the same.
// The status is observed state: it only has to be an object.
// Ajv is loaded on the first validation: the controller watching the Kubernetes API (which validates for it) never
// loads it.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import { createAjv } from '../../shims/ajv.js'
import { SCHEMA_KEYWORDS, type TSchema } from '../schema/builders.js'
import {
  EXTENSION_CONFIG_API_VERSIONS, EXTENSION_CONFIG_KIND, V1ALPHA1_API_VERSION, V1ALPHA1_DEPRECATION_WARNING,
  V1BETA2_API_VERSION, type ExtensionConfigApiVersion
} from './constants.js'
import { convertExtensionConfig, isExtensionConfigApiVersion } from './conversion.js'
import type { ExtensionConfig } from './types.js'
import { evaluateRules, RULES_KEYWORD, type RuleFailure } from '../schema/cel-rules.js'
import * as v1alpha1 from './v1alpha1.js'
import * as v1beta2 from './v1beta2.js'

/** What validateExtensionConfig found: the valid, defaulted v1beta2 object, or every error. */
export type ExtensionConfigValidationResult =
  | {
    /** ok is true: the object is a valid ExtensionConfig. */
    ok: true
    /** value is a defaulted copy of the object, converted to v1beta2. */
    value: ExtensionConfig
    /** warnings are what the API server would warn about, e.g. the deprecation of v1alpha1. */
    warnings: string[]
  }
  | {
    /** ok is false: the API server would reject the object. */
    ok: false
    /** errors are the field errors, worded as the API server reports them. */
    errors: string[]
  }

/** The API server's note when schema errors kept the CEL rules from running. */
export const RULES_NOT_CHECKED = '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'

let ajv: Ajv | undefined

/** Every error at once, as the API server reports them; our schema keywords and the CEL rules are annotations here. */
function extensionConfigAjv (): Ajv {
  const instance = createAjv({ allErrors: true, strict: true, strictTypes: false, coerceTypes: false, useDefaults: false, removeAdditional: false })
  for (const keyword of [...SCHEMA_KEYWORDS, RULES_KEYWORD]) instance.addKeyword({ keyword, schemaType: ['string', 'array', 'boolean', 'object'] })
  return instance
}

const SCHEMAS: Record<ExtensionConfigApiVersion, TSchema> = {
  [V1BETA2_API_VERSION]: v1beta2.ExtensionConfig,
  [V1ALPHA1_API_VERSION]: v1alpha1.ExtensionConfig
}

const validators = new Map<TSchema, ValidateFunction>()

/** The version schema with a status that only has to be an object. */
function validatorFor (schema: TSchema): ValidateFunction {
  let fn = validators.get(schema)
  if (!fn) {
    const root = schema as unknown as { properties: Record<string, unknown> }
    ajv ??= extensionConfigAjv()
    fn = ajv.compile({ ...root, properties: { ...root.properties, status: { type: 'object' } } })
    validators.set(schema, fn)
  }
  return fn
}

type Node = Record<string, unknown>
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Structural defaulting: a missing property whose schema has a default gets a copy of it, at any depth. */
export function applyDefaults (schema: TSchema, value: unknown): void {
  const node = schema as unknown as Node
  if (Array.isArray(value)) {
    if (node['items']) for (const item of value) applyDefaults(node['items'] as TSchema, item)
    return
  }
  if (!isObject(value)) return
  const properties = (node['properties'] ?? {}) as Record<string, Node>
  for (const [key, property] of Object.entries(properties)) {
    if (value[key] === undefined && property['default'] !== undefined) value[key] = structuredClone(property['default'])
    applyDefaults(property as unknown as TSchema, value[key])
  }
  const additional = node['additionalProperties']
  if (isObject(additional)) {
    for (const [key, item] of Object.entries(value)) if (!(key in properties)) applyDefaults(additional as unknown as TSchema, item)
  }
}

/** Field path of a JSON pointer as the API server's schema errors write it: `spec.settings.k`, `values[0]`. */
function schemaErrorPath (root: unknown, pointer: string): string {
  let path = ''
  let value = root
  for (const raw of pointer ? pointer.slice(1).split('/') : []) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    path = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key
    value = isObject(value) || Array.isArray(value) ? (value as Node)[key] : undefined
  }
  return path
}

function valueAt (root: unknown, pointer: string): unknown {
  let value = root
  for (const raw of pointer ? pointer.slice(1).split('/') : []) {
    if (!isObject(value) && !Array.isArray(value)) return undefined
    value = (value as Node)[raw.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return value
}

/** Go's %v of a scalar in an error: strings quoted, numbers plain. */
const show = (value: unknown) => JSON.stringify(value) ?? String(value)

function jsonType (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

interface FieldError { message: string, blocking: boolean }

/** One ajv error in the API server's words. Blocking errors (types, required, enums, bounds) stop the CEL rules. */
function schemaError (error: ErrorObject, root: unknown): FieldError {
  const p = schemaErrorPath(root, error.instancePath)
  const value = valueAt(root, error.instancePath)
  const params = error.params as Record<string, unknown>
  const at = (message: string, blocking = false) => ({ message: `${p}: ${message}`, blocking })
  switch (error.keyword) {
    case 'required': {
      const missing = String(params['missingProperty'])
      return { message: `${p ? `${p}.` : ''}${missing}: Required value`, blocking: true }
    }
    case 'additionalProperties': {
      const field = String(params['additionalProperty'])
      return { message: `unknown field "${p ? `${p}.` : ''}${field}"`, blocking: false }
    }
    case 'type':
      return at(`Invalid value: "${jsonType(value)}": ${p} in body must be of type ${String(params['type'])}: "${jsonType(value)}"`, true)
    case 'format': {
      const format = String(params['format'])
      if (format === 'int32' || format === 'int64') return { message: `<nil>: Invalid value: "": Checked value must be of type integer with format ${format} in ${p}`, blocking: false }
      return at(`Invalid value: ${show(value)}: ${p} in body must be of type ${format}: ${show(value)}`, true)
    }
    case 'enum':
      return at(`Unsupported value: ${show(value)}: supported values: ${(params['allowedValues'] as unknown[]).map(show).join(', ')}`, true)
    case 'maxLength':
      return at(`Too long: may not be more than ${String(params['limit'])} bytes`, true)
    case 'minLength':
      return at(`Invalid value: ${show(value)}: ${p} in body should be at least ${String(params['limit'])} chars long`)
    case 'maxItems':
      return at(`Too many: ${(value as unknown[]).length}: must have at most ${String(params['limit'])} items`, true)
    case 'maxProperties':
      return at(`Too many: ${Object.keys(value as Node).length}: must have at most ${String(params['limit'])} items`, true)
    case 'minProperties':
      return at(`Invalid value: ${Object.keys(value as Node).length}: ${p} in body should have at least ${String(params['limit'])} properties`)
    case 'minimum':
      return at(`Invalid value: ${show(value)}: ${p} in body should be greater than or equal to ${String(params['limit'])}`)
    case 'maximum':
      return at(`Invalid value: ${show(value)}: ${p} in body should be less than or equal to ${String(params['limit'])}`)
    case 'pattern':
      return at(`Invalid value: ${show(value)}: ${p} in body should match '${String(params['pattern'])}'`)
    default:
      return at(`Invalid value: ${show(value)}: ${error.message ?? 'is invalid'}`)
  }
}

/** A rule failure as the API server reports it: scalars show their value, objects and lists do not. */
function ruleError (failure: RuleFailure, root: unknown): string {
  const path = failure.path || '<nil>'
  if (failure.type === 'object' || failure.type === 'array') return `${path}: Invalid value: ${failure.message}`
  return `${path}: Invalid value: ${show(valueAtFieldPath(root, failure.path))}: ${failure.message}`
}

/** The value at an API server field path (`spec.a[0].b`, map keys in brackets). */
function valueAtFieldPath (root: unknown, path: string): unknown {
  let value = root
  for (const [, key, index] of path.matchAll(/\.?([^.[\]]+)|\[([^\]]*)\]/g)) {
    value = isObject(value) || Array.isArray(value) ? (value as Node)[(key ?? index) as string] : undefined
  }
  return value
}

/**
 * Validates an ExtensionConfig (v1beta2, or v1alpha1 which is converted to v1beta2 with a deprecation warning).
 * The input is not modified; the value returned is a defaulted copy.
 */
export function validateExtensionConfig (input: unknown): ExtensionConfigValidationResult {
  if (!isObject(input)) return { ok: false, errors: [`<nil>: Invalid value: "${jsonType(input)}": an ExtensionConfig must be an object`] }
  const { apiVersion, kind } = input
  const errors: string[] = []
  if (apiVersion === undefined) errors.push('apiVersion: Required value')
  else if (!isExtensionConfigApiVersion(apiVersion)) errors.push(`apiVersion: Unsupported value: ${show(apiVersion)}: supported values: ${EXTENSION_CONFIG_API_VERSIONS.map(show).join(', ')}`)
  if (kind === undefined) errors.push('kind: Required value')
  else if (kind !== EXTENSION_CONFIG_KIND) errors.push(`kind: Unsupported value: ${show(kind)}: supported values: "${EXTENSION_CONFIG_KIND}"`)
  if (errors.length > 0 || !isExtensionConfigApiVersion(apiVersion)) return { ok: false, errors }

  const schema = SCHEMAS[apiVersion]
  const value = structuredClone(input)
  applyDefaults(schema, value)
  const validate = validatorFor(schema)
  const schemaErrors = validate(value) ? [] : (validate.errors ?? []).map(e => schemaError(e, value))
  errors.push(...new Set(schemaErrors.map(e => e.message)))
  if (schemaErrors.some(e => e.blocking)) {
    errors.push(RULES_NOT_CHECKED)
  } else {
    // Rules never look at the status; leaving it out spares them observed values of any shape.
    const { status: _status, ...checked } = value
    errors.push(...evaluateRules(schema, checked).map(f => ruleError(f, value)))
  }
  if (errors.length > 0) return { ok: false, errors }

  if (apiVersion === V1ALPHA1_API_VERSION) {
    return { ok: true, value: convertExtensionConfig(value, V1BETA2_API_VERSION) as ExtensionConfig, warnings: [V1ALPHA1_DEPRECATION_WARNING] }
  }
  return { ok: true, value: value as ExtensionConfig, warnings: [] }
}

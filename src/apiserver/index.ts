// What kube-apiserver (1.36, apiextensions-apiserver) does to a custom resource, given its OpenAPI v3 structural
// schema: pruning, defaulting, OpenAPI validation and CEL validation rules, and server-side apply's conversion of an
// applied object to its typed form (typedPatchError), each with Kubernetes' own error messages.
// `runtime-sdk simulate` uses it to see its inputs as an API server sees them, and to check ClusterClass variables
// as Cluster API's webhook does (Cluster API runs the same apiextensions code on variable schemas).
//
// Example:
//
//   const schema = compileSchema(crd.spec.versions[0].schema.openAPIV3Schema)
//   const { object, errors, message } = createCustomResource(schema, widget, { kind: 'Widget', group: 'example.com', version: 'v1' })
//   if (errors.length > 0) console.log(message) // Widget.example.com "w" is invalid: spec.size: Invalid value: 0: …
import { compileAllRules } from './cel/program.js'
import { validateRulesAt } from './cel/rules.js'
import { admit, type ResourceOptions, type ResourceResult } from './create.js'
import { defaultInPlace, pruneDefaults, pruneNullsInPlace } from './defaults.js'
import type { FieldError } from './field-error.js'
import { pruneInPlace } from './prune.js'
import { type CompiledSchema, type JSONSchemaProps, type SchemaInput, toStructural } from './schema.js'
import { validateValue } from './validate.js'

export { ApiServerSchemaError } from './schema.js'
export type { CompiledSchema, JSONSchemaProps, SchemaInput, ValidationRule } from './schema.js'
export {
  type FieldError, type FieldErrorType, type FieldPath, errorBody, errorListMessage, fieldErrorString, invalidObjectMessage,
  invalid, invalidOmitValue, typeInvalid, required, forbidden, duplicate, notFound, notSupported, tooLong, tooMany, internalError,
  childPath, indexPath, keyPath
} from './field-error.js'
export { goJson, GoStruct } from './go-format.js'
export { RULES_NOT_CHECKED, type ResourceOptions, type ResourceResult } from './create.js'
export { type KeyOrder, typedPatchError } from './apply.js'

const compiled = new WeakMap<JSONSchemaProps, Map<boolean, CompiledSchema>>()

/**
 * Compiles a schema: structural form, defaults pruned, CEL rules parsed and checked (cached per schema object).
 * resourceRoot (default true) says the schema is a whole object's, whose apiVersion, kind and metadata are kept and
 * visible to rules. Throws ApiServerSchemaError for a schema the API server would refuse to use.
 */
export function compileSchema (props: JSONSchemaProps, options: { resourceRoot?: boolean } = {}): CompiledSchema {
  const resourceRoot = options.resourceRoot ?? true
  const cached = compiled.get(props)?.get(resourceRoot)
  if (cached) return cached
  const structural = pruneDefaults(toStructural(props), resourceRoot)
  compileAllRules(structural, resourceRoot)
  const result: CompiledSchema = { props, resourceRoot, structural }
  const perProps = compiled.get(props) ?? new Map<boolean, CompiledSchema>()
  perProps.set(resourceRoot, result)
  compiled.set(props, perProps)
  return result
}

function asCompiled (schema: SchemaInput, resourceRoot = true): CompiledSchema {
  if ('structural' in schema && 'props' in schema && typeof (schema as CompiledSchema).resourceRoot === 'boolean') return schema as CompiledSchema
  return compileSchema(schema as JSONSchemaProps, { resourceRoot })
}

/**
 * The value with the schema's defaults applied as the API server applies them when it decodes an object: first
 * nulls that are neither nullable nor defaulted are dropped (pruneNulls: false skips that, as Cluster API's variable
 * defaulting does), then absent fields get their defaults at every depth. Returns a copy.
 */
export function applyDefaults<T> (schema: SchemaInput, value: T, options: { pruneNulls?: boolean } = {}): T {
  const s = asCompiled(schema, false).structural
  const copy = structuredClone(value)
  if (options.pruneNulls !== false) pruneNullsInPlace(copy, s)
  defaultInPlace(copy, s)
  return copy
}

/**
 * The value with the fields the schema does not declare removed, and their paths (sorted, as the API server reports
 * them: `spec.a.b`, `spec.list[0].x`). resourceRoot (default false) keeps a top-level apiVersion, kind and metadata.
 */
export function prune<T> (schema: SchemaInput, value: T, options: { resourceRoot?: boolean } = {}): { value: T, pruned: string[] } {
  const resourceRoot = options.resourceRoot ?? false
  const copy = structuredClone(value)
  const pruned = pruneInPlace(copy, asCompiled(schema, resourceRoot).structural, resourceRoot)
  return { value: copy, pruned }
}

/**
 * OpenAPI validation of value as the API server's ValidateCustomResource does it, with its messages. fieldPath is
 * where value sits (e.g. `spec.topology.variables[region].value`); without it paths start at value's fields and
 * errors that name no field say `<nil>`.
 */
export function validate (schema: SchemaInput, value: unknown, fieldPath?: string): FieldError[] {
  const props = 'structural' in schema && 'props' in schema ? (schema as CompiledSchema).props : schema as JSONSchemaProps
  return validateValue(props, value, fieldPath)
}

/**
 * The schema's CEL rules (x-kubernetes-validations) over value; with oldValue, as on update (transition rules run,
 * unchanged values are ratcheted). fieldPath is where value sits; resourceRoot (default false) says value is a whole
 * Kubernetes object. Throws ApiServerSchemaError when a rule does not compile.
 */
export function validateRules (schema: SchemaInput, value: unknown, oldValue?: unknown, fieldPath?: string, options: { resourceRoot?: boolean } = {}): FieldError[] {
  const resourceRoot = options.resourceRoot ?? false
  return validateRulesAt(asCompiled(schema, resourceRoot).structural, value, oldValue, fieldPath, resourceRoot)
}

/**
 * What the API server does when a custom resource is created: prune, drop disallowed nulls, default, then validate
 * (kind and apiVersion, metadata, OpenAPI, embedded resources, list types, CEL rules). Returns the object as it
 * would be stored, the errors, the pruned paths and, when refused, the API server's message.
 */
export function createCustomResource (schema: SchemaInput, object: Record<string, unknown>, options: ResourceOptions = {}): ResourceResult {
  const s = asCompiled(schema, true)
  return admit(s.props, s.structural, object, undefined, options)
}

/**
 * What the API server does when a custom resource is updated to object from old (as stored): the same as create,
 * with transition rules (oldSelf) evaluated and unchanged values ratcheted for CEL rules.
 */
export function updateCustomResource (schema: SchemaInput, object: Record<string, unknown>, old: Record<string, unknown>, options: ResourceOptions = {}): ResourceResult {
  const s = asCompiled(schema, true)
  return admit(s.props, s.structural, object, old, options)
}

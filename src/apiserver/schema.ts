// The OpenAPI v3 schema of a custom resource (apiextensions.k8s.io/v1 JSONSchemaProps, as written in a CRD or in a
// ClusterClass variable) and its structural form: the tree the API server walks to default, prune and run CEL rules.
// Value validation walks the schema as written (allOf, anyOf, oneOf and not included), as kube-openapi does.
import { codedError } from '../errors/index.js'

/** A schema that cannot be used: unsupported keywords, a CEL rule that does not compile, an unsupported function. */
export class ApiServerSchemaError extends codedError('ERR_RUNTIME_SDK_APISERVER_SCHEMA') {}

/** One entry of x-kubernetes-validations. */
export interface ValidationRule {
  /** rule is the CEL expression; it must evaluate to a bool, true meaning valid. */
  rule: string
  /** message is the error detail when the rule fails (default `failed rule: <rule>`). */
  message?: string
  /** messageExpression is a CEL expression giving the detail; a failing one falls back to message. */
  messageExpression?: string
  /** reason is the field error type: FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate. */
  reason?: string
  /** fieldPath is a JSON path (`.a.b`, `['k']`) relative to the schema node the rule sits on, where the error is reported. */
  fieldPath?: string
  /** optionalOldSelf makes the rule run on create too, with oldSelf an optional (transition rules). */
  optionalOldSelf?: boolean
}

/** apiextensions.k8s.io/v1 JSONSchemaProps, as JSON. */
export interface JSONSchemaProps {
  id?: string
  $schema?: string
  $ref?: string
  description?: string
  type?: string
  format?: string
  title?: string
  default?: unknown
  maximum?: number
  exclusiveMaximum?: boolean
  minimum?: number
  exclusiveMinimum?: boolean
  maxLength?: number
  minLength?: number
  pattern?: string
  maxItems?: number
  minItems?: number
  uniqueItems?: boolean
  multipleOf?: number
  enum?: unknown[]
  maxProperties?: number
  minProperties?: number
  required?: string[]
  items?: JSONSchemaProps | JSONSchemaProps[]
  allOf?: JSONSchemaProps[]
  oneOf?: JSONSchemaProps[]
  anyOf?: JSONSchemaProps[]
  not?: JSONSchemaProps
  properties?: Record<string, JSONSchemaProps>
  additionalProperties?: JSONSchemaProps | boolean
  patternProperties?: Record<string, JSONSchemaProps>
  dependencies?: Record<string, unknown>
  additionalItems?: JSONSchemaProps | boolean
  definitions?: Record<string, JSONSchemaProps>
  externalDocs?: { description?: string, url?: string }
  example?: unknown
  nullable?: boolean
  'x-kubernetes-preserve-unknown-fields'?: boolean
  'x-kubernetes-embedded-resource'?: boolean
  'x-kubernetes-int-or-string'?: boolean
  'x-kubernetes-list-map-keys'?: string[]
  'x-kubernetes-list-type'?: string
  'x-kubernetes-map-type'?: string
  'x-kubernetes-validations'?: ValidationRule[]
}

/** A node of the structural schema (k8s.io/apiextensions-apiserver/pkg/apiserver/schema.Structural). */
export interface Structural {
  /** type is '' when the node has none (int-or-string, preserve-unknown-fields). */
  readonly type: string
  readonly format: string
  readonly nullable: boolean
  /** default holds the node's default value, after pruning (as the API server prunes defaults); undefined when none. */
  readonly default?: { readonly value: unknown }
  /** properties is undefined when the schema declares none. */
  readonly properties?: ReadonlyMap<string, Structural>
  /** additionalProperties: the schema of the values, or only whether any are allowed. */
  readonly additionalProperties?: { readonly schema?: Structural, readonly allows: boolean }
  readonly items?: Structural
  readonly preserveUnknownFields: boolean
  readonly embeddedResource: boolean
  readonly intOrString: boolean
  readonly listType?: string
  readonly listMapKeys?: readonly string[]
  readonly mapType?: string
  readonly maxLength?: number
  readonly maxItems?: number
  readonly maxProperties?: number
  readonly enum?: readonly unknown[]
  readonly required?: readonly string[]
  readonly validations: readonly ValidationRule[]
  /** allOf holds the nodes' allOf branches in structural form, for the CEL rules written inside them. */
  readonly allOf: readonly Structural[]
  /** props is the schema as written, for value validation. */
  readonly props: JSONSchemaProps
}

/** A schema ready for use: its structural form with defaults pruned and every CEL rule compiled. */
export interface CompiledSchema {
  /** props is the schema as written. */
  readonly props: JSONSchemaProps
  /** resourceRoot says the schema is a whole Kubernetes object's (a CRD version's openAPIV3Schema). */
  readonly resourceRoot: boolean
  /** structural is the schema's structural form (defaults pruned). */
  readonly structural: Structural
}

/** A schema as written, or compiled once with compileSchema (faster when used repeatedly). */
export type SchemaInput = JSONSchemaProps | CompiledSchema

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Refuses the keywords apiextensions refuses in a structural schema (NewStructural's validateUnsupportedFields). */
function checkSupported (s: JSONSchemaProps, where: string): void {
  const refuse = (what: string) => { throw new ApiServerSchemaError(`${where}: OpenAPIV3Schema '${what}' is not supported`) }
  if (s.id) refuse('id')
  if (s.$schema) refuse('schema')
  if (s.$ref) refuse('$ref')
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) refuse('patternProperties')
  if (s.dependencies && Object.keys(s.dependencies).length > 0) refuse('dependencies')
  if (s.additionalItems !== undefined) refuse('additionalItems')
  if (s.definitions && Object.keys(s.definitions).length > 0) refuse('definitions')
  if (Array.isArray(s.items)) throw new ApiServerSchemaError(`${where}: OpenAPIV3Schema 'items' must be a schema, but is an array`)
  if (s['x-kubernetes-preserve-unknown-fields'] === false) throw new ApiServerSchemaError(`${where}: 'x-kubernetes-preserve-unknown-fields' must be true or undefined`)
  if (s.type !== undefined && !['', 'object', 'array', 'string', 'integer', 'number', 'boolean'].includes(s.type)) {
    throw new ApiServerSchemaError(`${where}: type ${JSON.stringify(s.type)} is not one of object, array, string, integer, number, boolean`)
  }
  for (const rule of s['x-kubernetes-validations'] ?? []) {
    if (!isRecord(rule) || typeof rule.rule !== 'string') throw new ApiServerSchemaError(`${where}: x-kubernetes-validations entries need a string rule`)
  }
}

/** NewStructural: the structural form of a schema (throws ApiServerSchemaError for one apiextensions refuses). */
export function toStructural (props: JSONSchemaProps, where = 'openAPIV3Schema'): Structural {
  if (typeof props !== 'object' || props === null || Array.isArray(props)) throw new ApiServerSchemaError(`${where}: a schema must be an object`)
  checkSupported(props, where)
  const items = props.items !== undefined && !Array.isArray(props.items) ? toStructural(props.items, `${where}.items`) : undefined
  const ap = props.additionalProperties
  let properties: Map<string, Structural> | undefined
  if (props.properties && Object.keys(props.properties).length > 0) {
    properties = new Map(Object.entries(props.properties).map(([k, v]) => [k, toStructural(v, `${where}.properties[${k}]`)]))
  }
  let additionalProperties: Structural['additionalProperties']
  if (typeof ap === 'object' && ap !== null) {
    additionalProperties = { schema: toStructural(ap, `${where}.additionalProperties`), allows: true }
  } else if (typeof ap === 'boolean') {
    additionalProperties = { allows: ap }
  }
  const node: Structural = {
    type: props.type ?? '',
    format: props.format ?? '',
    nullable: props.nullable === true,
    // A null default is no default (Go's Default.Object is nil).
    ...(props.default !== undefined && props.default !== null ? { default: { value: props.default } } : {}),
    ...(properties ? { properties } : {}),
    ...(additionalProperties ? { additionalProperties } : {}),
    ...(items ? { items } : {}),
    preserveUnknownFields: props['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: props['x-kubernetes-embedded-resource'] === true,
    intOrString: props['x-kubernetes-int-or-string'] === true,
    ...(props['x-kubernetes-list-type'] !== undefined ? { listType: props['x-kubernetes-list-type'] } : {}),
    ...(props['x-kubernetes-list-map-keys'] !== undefined ? { listMapKeys: props['x-kubernetes-list-map-keys'] } : {}),
    ...(props['x-kubernetes-map-type'] !== undefined ? { mapType: props['x-kubernetes-map-type'] } : {}),
    ...(props.maxLength !== undefined ? { maxLength: props.maxLength } : {}),
    ...(props.maxItems !== undefined ? { maxItems: props.maxItems } : {}),
    ...(props.maxProperties !== undefined ? { maxProperties: props.maxProperties } : {}),
    ...(props.enum !== undefined ? { enum: props.enum } : {}),
    ...(props.required !== undefined ? { required: props.required } : {}),
    validations: props['x-kubernetes-validations'] ?? [],
    allOf: (props.allOf ?? []).map((s, i) => toStructural(s, `${where}.allOf[${i}]`)),
    props
  }
  return node
}

/** The node with its default replaced (used when defaults are pruned). */
export function withDefault (s: Structural, value: unknown): Structural {
  return { ...s, default: { value } }
}

/**
 * A typed builder of ClusterClass variable schemas for DiscoverVariables answers; {@link defineVariables} checks the
 * variables as Cluster API checks them when it registers a ClusterClass.
 *
 * @packageDocumentation
 */
// Variable schemas for DiscoverVariables: a typed builder of the OpenAPI v3 subset Cluster API accepts for
// ClusterClass variables (structural schemas: every node typed, properties or additionalProperties, atomic lists,
// x-kubernetes-validations), and the checks Cluster API makes when it registers them
// (internal/topology/variables/clusterclass_variable_validation.go) short of compiling CEL. What the builder cannot
// express does not compile (a required property that does not exist, a default of the wrong type, an unknown
// reason); what only a value shows (a default longer than maxLength) throws VariableSchemaError at definition.
import { isDeepStrictEqual } from 'node:util'
import { BUILTINS_VARIABLE } from '../api/hooks/v1alpha1/constants.js'
import type { ClusterClassVariable, JSONSchemaProps, VariableSchemaMetadata } from '../api/hooks/v1alpha1/types.generated.js'
import { compile, RegexpSyntaxError } from '../go/index.js'
import { VariableSchemaError } from './errors.js'

declare const valueType: unique symbol

/** A variable's OpenAPI schema, carrying the TypeScript type of the values it accepts. */
export type VariableSchema<T = unknown> = JSONSchemaProps & {
  /** Types only, never set: carries T. */
  readonly [valueType]?: (value: T) => void
}

/** Any variable schema, whatever its value type (the phantom is a parameter: `never` accepts them all). */
export type AnyVariableSchema = VariableSchema<never>

/** The TypeScript type of the values a variable schema accepts. */
export type VariableValue<S> = S extends {
  /** Types only, never set: carries T. */
  readonly [valueType]?: (value: infer T) => void
} ? T : unknown

/** An x-kubernetes-validations rule (CEL), as Kubernetes and Cluster API accept it. */
export interface ValidationRule {
  /** rule is the CEL expression; `self` is the value, and it must evaluate to true. */
  rule: string
  /** message is shown when the rule is false, on one line (default: `failed rule: <rule>`). */
  message?: string
  /** messageExpression is a CEL expression giving the message; it is used instead of message when both are set. */
  messageExpression?: string
  /** reason is the reason of the validation failure (default FieldValueInvalid). */
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate'
  /** fieldPath is where the failure is reported: a JSON path relative to the node, to an existing field, e.g. `.testMap.foo`. */
  fieldPath?: string
}

/** What every schema node may carry. */
export interface NodeOptions<T> {
  /** description of the value. */
  description?: string
  /** default is the value used when the variable (or property) is not set; it must be valid for the schema. */
  default?: T
  /** example of a value; it must be valid for the schema. */
  example?: T
  /** validations become `x-kubernetes-validations`; Cluster API compiles their CEL when it registers the variable. */
  validations?: ValidationRule[]
  /** metadata becomes `x-metadata` (labels and annotations for tools). */
  metadata?: VariableSchemaMetadata
}

function node<T> (schema: JSONSchemaProps, common: NodeOptions<T>): VariableSchema<T> {
  const { description, default: dflt, example, validations, metadata } = common
  return {
    ...schema,
    ...(description !== undefined ? { description } : {}),
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...(example !== undefined ? { example } : {}),
    ...(validations !== undefined ? { 'x-kubernetes-validations': validations } : {}),
    ...(metadata !== undefined ? { 'x-metadata': metadata } : {})
  }
}

function defined (options: object): JSONSchemaProps {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined))
}

/** A string; `enum` narrows its type to the values listed. */
export function string<const E extends string = string> (options: NodeOptions<E> & { enum?: readonly E[], minLength?: number, maxLength?: number, pattern?: string, format?: string } = {}): VariableSchema<E> {
  const { enum: values, minLength, maxLength, pattern, format, ...common } = options
  return node({ type: 'string', ...defined({ enum: values && [...values], minLength, maxLength, pattern, format }) }, common)
}

/** The options of a number or integer schema. */
export interface NumberOptions<T> extends NodeOptions<T> {
  /** enum lists the values allowed. */
  enum?: readonly T[]
  /** minimum is the lowest value allowed. */
  minimum?: number
  /** maximum is the highest value allowed. */
  maximum?: number
  /** exclusiveMinimum excludes the minimum itself. */
  exclusiveMinimum?: boolean
  /** exclusiveMaximum excludes the maximum itself. */
  exclusiveMaximum?: boolean
}

/** An integer (`format` int32 or int64 when given). */
export function integer (options: NumberOptions<number> & { format?: 'int32' | 'int64' } = {}): VariableSchema<number> {
  const { enum: values, minimum, maximum, exclusiveMinimum, exclusiveMaximum, format, ...common } = options
  return node({ type: 'integer', ...defined({ enum: values && [...values], minimum, maximum, exclusiveMinimum, exclusiveMaximum, format }) }, common)
}

/** A number. */
export function number (options: NumberOptions<number> = {}): VariableSchema<number> {
  const { enum: values, minimum, maximum, exclusiveMinimum, exclusiveMaximum, ...common } = options
  return node({ type: 'number', ...defined({ enum: values && [...values], minimum, maximum, exclusiveMinimum, exclusiveMaximum }) }, common)
}

/** A boolean. */
export function boolean (options: NodeOptions<boolean> = {}): VariableSchema<boolean> {
  return node({ type: 'boolean' }, options)
}

/** An atomic list (the only list type ClusterClass variables have). */
export function array<T> (items: VariableSchema<T>, options: NodeOptions<T[]> & { minItems?: number, maxItems?: number, uniqueItems?: boolean } = {}): VariableSchema<T[]> {
  const { minItems, maxItems, uniqueItems, ...common } = options
  return node({ type: 'array', items, ...defined({ minItems, maxItems, uniqueItems }) }, common)
}

/** The value type of an object schema: required properties present, the others optional. */
export type ObjectValue<P extends Record<string, JSONSchemaProps>, R extends keyof P> =
  { [K in R]: VariableValue<P[K]> } & { [K in Exclude<keyof P, R>]?: VariableValue<P[K]> } extends infer O ? { [K in keyof O]: O[K] } : never

/**
 * An object with known properties; `required` may only name them. (The properties are constrained as JSONSchemaProps,
 * not as VariableSchemas, so that the constraint does not infer their value types.)
 */
export function object<P extends Record<string, JSONSchemaProps>, const R extends keyof P & string = never> (
  properties: P,
  options: NodeOptions<ObjectValue<P, R>> & { required?: readonly R[], minProperties?: number, maxProperties?: number } = {}
): VariableSchema<ObjectValue<P, R>> {
  const { required, minProperties, maxProperties, ...common } = options
  return node({ type: 'object', properties, ...defined({ required: required && [...required], minProperties, maxProperties }) }, common)
}

/** An object whose keys are free and whose values all have one schema (additionalProperties). */
export function map<T> (values: VariableSchema<T>, options: NodeOptions<Record<string, T>> & { minProperties?: number, maxProperties?: number } = {}): VariableSchema<Record<string, T>> {
  const { minProperties, maxProperties, ...common } = options
  return node({ type: 'object', additionalProperties: values, ...defined({ minProperties, maxProperties }) }, common)
}

/** An object kept as given (x-kubernetes-preserve-unknown-fields). */
export function anyObject (options: NodeOptions<Record<string, unknown>> = {}): VariableSchema<Record<string, unknown>> {
  return node({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, options)
}

/** An integer or a string, like a percentage (x-kubernetes-int-or-string). */
export function intOrString (options: NodeOptions<number | string> = {}): VariableSchema<number | string> {
  return node({ 'x-kubernetes-int-or-string': true }, options)
}

/** A variable definition of a DiscoverVariables answer. */
export interface VariableDefinition {
  /** name of the variable, as ClusterClasses and Clusters refer to it (not `builtin`, no `.`). */
  name: string
  /** required variables must have a value in every Cluster using the ClusterClass. */
  required: boolean
  /** schema is the variable's OpenAPI schema, e.g. built with this module's functions. */
  schema: JSONSchemaProps
}

/**
 * The variables of a DiscoverVariables answer, checked as Cluster API checks them when it registers a ClusterClass's
 * variables (except CEL compilation): names (set, unique, not `builtin`, no `.`), every node typed, properties and
 * additionalProperties exclusive, rules well formed, defaults, examples and enum values valid. Throws
 * VariableSchemaError naming the variable and the schema path; call it once, when the handler is defined.
 */
export function defineVariables (definitions: readonly VariableDefinition[]): ClusterClassVariable[] {
  const seen = new Set<string>()
  return definitions.map(({ name, required, schema }) => {
    const problem = nameProblem(name, seen) ?? schemaProblem(schema, 'schema.openAPIV3Schema')
    if (problem !== undefined) throw new VariableSchemaError(`variable ${JSON.stringify(name)}: ${problem}`)
    seen.add(name)
    return { name, required, schema: { openAPIV3Schema: schema } }
  })
}

function nameProblem (name: string, seen: Set<string>): string | undefined {
  if (name === '') return 'name: Required value: variable name must be defined'
  if (name === BUILTINS_VARIABLE) return `name: Invalid value: "${BUILTINS_VARIABLE}" is a reserved variable name`
  if (name.includes('.')) return 'name: Invalid value: variable name cannot contain "."'
  if (seen.has(name)) return 'name: Invalid value: variable names must be unique'
  return undefined
}

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean'])
const REASONS = new Set(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'])

function schemaProblem (schema: JSONSchemaProps, path: string, inLogic = false): string | undefined {
  const untyped = schema['x-kubernetes-int-or-string'] === true || schema['x-kubernetes-preserve-unknown-fields'] === true
  if (schema.type !== undefined && !TYPES.has(schema.type)) return `${path}.type: Unsupported value: ${JSON.stringify(schema.type)}`
  if (!inLogic && schema.type === undefined && !untyped) return `${path}.type: Required value: must not be empty for specified object fields`
  if (inLogic && (schema.type !== undefined || schema.default !== undefined || schema.description !== undefined || schema.additionalProperties !== undefined)) {
    return `${path}: Forbidden: must only have value validations (no type, default, description or additionalProperties) inside allOf, anyOf, oneOf and not`
  }
  if (schema.additionalProperties !== undefined && schema.properties !== undefined) return `${path}: Forbidden: additionalProperties and properties are mutually exclusive`
  for (const [i, rule] of (schema['x-kubernetes-validations'] ?? []).entries()) {
    const problem = ruleProblem(rule)
    if (problem !== undefined) return `${path}.x-kubernetes-validations[${i}].${problem}`
  }
  const children: Array<[string, JSONSchemaProps | undefined, boolean]> = [
    ...Object.entries(schema.properties ?? {}).map(([k, s]): [string, JSONSchemaProps, boolean] => [`${path}.properties[${k}]`, s, inLogic]),
    [`${path}.additionalProperties`, schema.additionalProperties, inLogic],
    [`${path}.items`, schema.items, inLogic],
    [`${path}.not`, schema.not, true],
    ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap(k => (schema[k] ?? []).map((s, i): [string, JSONSchemaProps, boolean] => [`${path}.${k}[${i}]`, s, true]))
  ]
  for (const [at, child, logic] of children) {
    const problem = child && schemaProblem(child, at, logic)
    if (problem !== undefined) return problem
  }
  for (const [keyword, value] of [['default', schema.default], ['example', schema.example]] as const) {
    const problem = value === undefined ? undefined : checkValue(schema, value)
    if (problem !== undefined) return `${path}.${keyword}: Invalid value: ${problem}`
  }
  for (const [i, value] of (schema.enum ?? []).entries()) {
    const { enum: _, ...rest } = schema
    const problem = value === null ? undefined : checkValue(rest, value)
    if (problem !== undefined) return `${path}.enum[${i}]: Invalid value: ${problem}`
  }
  return undefined
}

/** Kubernetes' checks of one x-kubernetes-validations rule, with its messages. */
function ruleProblem (rule: { rule?: string, message?: string, messageExpression?: string, reason?: string, fieldPath?: string }): string | undefined {
  const text = (rule.rule ?? '').trim()
  const message = (rule.message ?? '').trim()
  if (text === '') return 'rule: Required value: rule is not specified'
  if (rule.message !== undefined && rule.message.length > 0 && message === '') return 'message: Invalid value: message must be non-empty if specified'
  if ((rule.message ?? '').length > 2048) return 'message: Invalid value: message must have a maximum length of 2048 characters'
  if (/[\r\n]/.test(message)) return 'message: Invalid value: message must not contain line breaks'
  if (/[\r\n]/.test(text) && message === '') return 'message: Required value: message must be specified if rule contains line breaks'
  if (rule.messageExpression !== undefined && rule.messageExpression.length > 0 && rule.messageExpression.trim() === '') return 'messageExpression: Required value: messageExpression must be non-empty if specified'
  if (rule.reason !== undefined && !REASONS.has(rule.reason)) return `reason: Unsupported value: ${JSON.stringify(rule.reason)}`
  if (rule.fieldPath !== undefined && rule.fieldPath.length > 0 && rule.fieldPath.trim() === '') return 'fieldPath: Invalid value: fieldPath must be non-empty if specified'
  if (/[\r\n]/.test(rule.fieldPath ?? '')) return 'fieldPath: Invalid value: fieldPath must not contain line breaks'
  return undefined
}

/**
 * Checks a value against a variable schema (the OpenAPI keywords of ClusterClass variables; CEL rules are Cluster
 * API's to evaluate): the first problem, at its path, or undefined when the value is valid. Fields an object
 * schema does not declare are not a problem (Kubernetes prunes them).
 */
export function checkValue (schema: JSONSchemaProps, value: unknown, path = ''): string | undefined {
  const at = path === '' ? '' : `${path}: `
  const typeProblem = checkType(schema, value)
  if (typeProblem !== undefined) return `${at}${typeProblem}`
  if (schema.enum !== undefined && !schema.enum.some(e => isDeepStrictEqual(e, value))) return `${at}must be one of ${schema.enum.map(e => JSON.stringify(e)).join(', ')}`
  const problem = typeof value === 'string'
    ? checkString(schema, value)
    : typeof value === 'number' ? checkNumber(schema, value) : undefined
  if (problem !== undefined) return `${at}${problem}`
  if (Array.isArray(value)) return checkArray(schema, value, path)
  if (typeof value === 'object' && value !== null) return checkObject(schema, value as Record<string, unknown>, path)
  return checkLogic(schema, value, path)
}

function checkType (schema: JSONSchemaProps, value: unknown): string | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) return typeof value === 'string' || Number.isInteger(value) ? undefined : 'must be an integer or a string'
  switch (schema.type) {
    case undefined: return undefined
    case 'integer': return Number.isInteger(value) ? undefined : 'must be an integer'
    case 'array': return Array.isArray(value) ? undefined : 'must be a list'
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be an object'
    case 'string': return typeof value === 'string' ? undefined : 'must be a string'
    case 'number': return typeof value === 'number' ? undefined : 'must be a number'
    case 'boolean': return typeof value === 'boolean' ? undefined : 'must be a boolean'
  }
}

function checkString (schema: JSONSchemaProps, value: string): string | undefined {
  const length = [...value].length
  if (schema.minLength !== undefined && length < schema.minLength) return `must be at least ${schema.minLength} characters long`
  if (schema.maxLength !== undefined && length > schema.maxLength) return `may not be more than ${schema.maxLength} characters long`
  if (schema.pattern !== undefined) return checkPattern(schema.pattern, value)
  return undefined
}

/** The pattern as Kubernetes reads it: Go's regexp (RE2), whose time grows linearly with the value. */
function checkPattern (pattern: string, value: string): string | undefined {
  try {
    return compile(pattern).matchString(value) ? undefined : `must match the pattern ${JSON.stringify(pattern)}`
  } catch (err) {
    if (err instanceof RegexpSyntaxError) return `must match the pattern ${JSON.stringify(pattern)}, which is not a valid regular expression: ${err.message}`
    throw err
  }
}

function checkNumber (schema: JSONSchemaProps, value: number): string | undefined {
  const { minimum, maximum } = schema
  if (minimum !== undefined && (schema.exclusiveMinimum === true ? value <= minimum : value < minimum)) return `must be ${schema.exclusiveMinimum === true ? 'greater than' : 'at least'} ${minimum}`
  if (maximum !== undefined && (schema.exclusiveMaximum === true ? value >= maximum : value > maximum)) return `must be ${schema.exclusiveMaximum === true ? 'less than' : 'at most'} ${maximum}`
  return undefined
}

function checkArray (schema: JSONSchemaProps, value: unknown[], path: string): string | undefined {
  const at = path === '' ? '' : `${path}: `
  if (schema.minItems !== undefined && value.length < schema.minItems) return `${at}must have at least ${schema.minItems} items`
  if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${at}must have at most ${schema.maxItems} items`
  if (schema.uniqueItems === true && value.some((v, i) => value.findIndex(w => isDeepStrictEqual(v, w)) !== i)) return `${at}must not have duplicate items`
  for (const [i, item] of value.entries()) {
    const problem = schema.items && checkValue(schema.items, item, `${path}[${i}]`)
    if (problem !== undefined) return problem
  }
  return checkLogic(schema, value, path)
}

function checkObject (schema: JSONSchemaProps, value: Record<string, unknown>, path: string): string | undefined {
  const at = path === '' ? '' : `${path}: `
  const count = Object.keys(value).length
  if (schema.minProperties !== undefined && count < schema.minProperties) return `${at}must have at least ${schema.minProperties} properties`
  if (schema.maxProperties !== undefined && count > schema.maxProperties) return `${at}must have at most ${schema.maxProperties} properties`
  for (const name of schema.required ?? []) if (!Object.hasOwn(value, name)) return `${path}.${name}: Required value`
  for (const [name, field] of Object.entries(value)) {
    const fieldSchema = Object.hasOwn(schema.properties ?? {}, name) ? schema.properties?.[name] : schema.additionalProperties
    const problem = fieldSchema && checkValue(fieldSchema, field, `${path}.${name}`)
    if (problem !== undefined) return problem
  }
  return checkLogic(schema, value, path)
}

function checkLogic (schema: JSONSchemaProps, value: unknown, path: string): string | undefined {
  const at = path === '' ? '' : `${path}: `
  for (const part of schema.allOf ?? []) {
    const problem = checkValue(part, value, path)
    if (problem !== undefined) return problem
  }
  if (schema.anyOf !== undefined && !schema.anyOf.some(s => checkValue(s, value, path) === undefined)) return `${at}must match at least one schema of anyOf`
  if (schema.oneOf !== undefined && schema.oneOf.filter(s => checkValue(s, value, path) === undefined).length !== 1) return `${at}must match exactly one schema of oneOf`
  if (schema.not !== undefined && checkValue(schema.not, value, path) === undefined) return `${at}must not match the schema of not`
  return undefined
}

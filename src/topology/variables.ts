// The variables of a topology mutation request, read the way Cluster API's topologymutation package reads them
// (exp/runtime/topologymutation/variables.go, core/reconcilers/topology/cluster/patches/variables/value.go):
// dotted paths with array indexes (`builtin.controlPlane.version`, `files[0].path`), global and per-template
// variables merged with `builtin` deep-merged. A missing variable or segment reads as undefined (Cluster API's
// not-found error); a path Cluster API refuses throws VariableError; a value of another type, VariableTypeError.
import { BUILTINS_VARIABLE } from '../api/hooks/v1alpha1/constants.js'
import type { Builtins, Variable } from '../api/hooks/v1alpha1/types.generated.js'
import { VariableError, VariableTypeError } from './errors.js'
import { isJsonObject as isObject, setField } from './json.js'
import { checkValue, type AnyVariableSchema, type VariableSchema, type VariableValue } from './variable-schema.js'

/** The variables of one template by name, `builtin` typed as Cluster API's Builtins (Go's map[string]apiextensionsv1.JSON). */
export interface Variables {
  /** builtin holds what Cluster API tells about the Cluster and the template's place in it (versions, names, classes). */
  readonly builtin?: Builtins
  /** Every other variable, by name, as the ClusterClass's schema shapes it. */
  readonly [name: string]: unknown
}

/** Variables by name from a request's list (Cluster API's ToMap); a later duplicate wins. */
export function toVariables (list: ReadonlyArray<Variable> | null | undefined): Variables {
  return Object.fromEntries((list ?? []).map(v => [v.name, v.value]))
}

/**
 * Merges variable maps (Cluster API's MergeVariableMaps): a variable of a later map replaces an earlier one, except
 * `builtin`, which is merged field by field (objects key by key; lists and values replaced; null removes).
 */
export function mergeVariables (...maps: Variables[]): Variables {
  const merged: Variables = {}
  for (const map of maps) {
    for (const name of Object.keys(map)) {
      const value = map[name]
      setField(merged, name, name === BUILTINS_VARIABLE && Object.hasOwn(merged, name) ? mergeBuiltins(merged[name], value) : value)
    }
  }
  return merged
}

function mergeBuiltins (base: unknown, update: unknown): unknown {
  for (const value of [base, update]) {
    if (!isObject(value)) throw new VariableError(`failed to merge builtin variables: failed to unmarshal builtin variable: ${describeType(value)} is not an object`)
  }
  return deepMerge(base, update)
}

function deepMerge (base: unknown, update: unknown): unknown {
  if (!isObject(base) || !isObject(update)) return update
  const merged = { ...base }
  for (const key of Object.keys(update)) {
    const value = update[key]
    if (value === null) Reflect.deleteProperty(merged, key)
    else setField(merged, key, deepMerge(Object.hasOwn(merged, key) ? merged[key] : undefined, value))
  }
  return merged
}

/** One segment of a variable path: `name` or `name[index]`. */
interface Segment { name: string, index?: number }

function parseSegment (segment: string, path: string): Segment {
  const left = segment.indexOf('[')
  const right = segment.indexOf(']')
  if ((left < 0) !== (right < 0)) throw new VariableError(`variable ${JSON.stringify(path)} has invalid syntax: failed to parse path segment ${JSON.stringify(segment)}`)
  if (left < 0) return { name: segment }
  const text = segment.slice(left + 1, right)
  // strconv.Atoi: an optional sign and decimal digits.
  if (right < left || !/^[+-]?\d+$/.test(text)) throw new VariableError(`variable ${JSON.stringify(path)} has invalid syntax: failed to parse array index in path segment ${JSON.stringify(segment)}`)
  const index = Number(text)
  if (index < 0) throw new VariableError(`variable ${JSON.stringify(path)} has invalid syntax: invalid array index ${index} in path segment ${JSON.stringify(segment)}`)
  return { name: segment.slice(0, left), index }
}

const NOT_FOUND = Symbol('not found')

/** A field of an object, or an element of a list by its decimal key (fastjson's Value.Get). */
function child (value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    const index = /^[+-]?\d+$/.test(key) ? Number(key) : -1
    return index >= 0 && index < value.length ? value[index] : NOT_FOUND
  }
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : NOT_FOUND
}

function element (value: unknown, segment: Segment & { index: number }, path: string): unknown {
  if (!Array.isArray(value)) throw new VariableError(`variable ${JSON.stringify(path)} is invalid: failed to get array ${JSON.stringify(segment.name)}`)
  if (segment.index >= value.length) throw new VariableError(`variable ${JSON.stringify(path)} is invalid: array does not have index ${segment.index}`)
  return value[segment.index]
}

/**
 * The value at a variable path (Cluster API's GetVariable): `name`, `name.field.sub`, `name[0].field`; a list
 * element can also be reached as `name.0`. Undefined when the variable or a segment does not exist; throws
 * VariableError for a path Cluster API refuses and for an index into a value that is not a list or past its end.
 */
export function getVariable (variables: Variables, path: string): unknown {
  const [first = '', ...rest] = path.split('.')
  const head = parseSegment(first, path)
  if (!Object.hasOwn(variables, head.name)) return undefined
  let value = variables[head.name]
  if (head.index !== undefined) value = element(value, { ...head, index: head.index }, path)
  for (const part of rest) {
    const segment = parseSegment(part, path)
    const next = child(value, segment.name)
    if (next === NOT_FOUND) return undefined
    value = segment.index === undefined ? next : element(next, { ...segment, index: segment.index }, path)
  }
  return value
}

function typed<T> (variables: Variables, path: string, expected: string, is: (value: unknown) => value is T): T | undefined {
  const value = getVariable(variables, path)
  if (value === undefined || is(value)) return value as T | undefined
  throw new VariableTypeError(`variable ${JSON.stringify(path)} is not ${expected}: it is ${describeType(value)}`)
}

/** A string variable (Cluster API's GetStringVariable); undefined when not found, VariableTypeError when not a string. */
export function getString (variables: Variables, path: string): string | undefined {
  return typed(variables, path, 'a string', (v): v is string => typeof v === 'string')
}

/**
 * A boolean variable (Cluster API's GetBoolVariable); undefined when not found, VariableTypeError when not a JSON
 * boolean (Go's strconv.ParseBool also reads the JSON numbers 1 and 0 as booleans; a variable's schema never does).
 */
export function getBoolean (variables: Variables, path: string): boolean | undefined {
  return typed(variables, path, 'a boolean', (v): v is boolean => typeof v === 'boolean')
}

/** A number variable (integer or number schema); undefined when not found, VariableTypeError when not a number. */
export function getNumber (variables: Variables, path: string): number | undefined {
  return typed(variables, path, 'a number', (v): v is number => typeof v === 'number')
}

/** Checks a value: a schema made with the variable schema builder, or a type guard (Ajv's, TypeBox's, your own). */
export type ValueCheck<T> = VariableSchema<T> | ((value: unknown) => value is T)

/**
 * An object variable (Cluster API's GetObjectVariableInto); undefined when not found, VariableTypeError when not
 * an object or when it fails `check`: a variable schema (the value is then typed from it) or a type guard.
 */
export function getObject<S extends AnyVariableSchema> (variables: Variables, path: string, check: S): VariableValue<S> | undefined
export function getObject<T extends object = Record<string, unknown>> (variables: Variables, path: string, check?: ValueCheck<T>): T | undefined
export function getObject (variables: Variables, path: string, check?: ValueCheck<unknown>): unknown {
  const value = typed(variables, path, 'an object', isObject)
  if (value !== undefined && check !== undefined) checked(value, path, check)
  return value
}

/**
 * A variable of any type checked by a variable schema (then typed from it) or a type guard (Cluster API's
 * GetObjectVariableInto for lists, numbers, ...); undefined when not found, VariableTypeError when it fails the check.
 */
export function getValue<S extends AnyVariableSchema> (variables: Variables, path: string, check: S): VariableValue<S> | undefined
export function getValue<T> (variables: Variables, path: string, check: ValueCheck<T>): T | undefined
export function getValue (variables: Variables, path: string, check: ValueCheck<unknown>): unknown {
  const value = getVariable(variables, path)
  if (value !== undefined) checked(value, path, check)
  return value
}

function checked (value: unknown, path: string, check: ValueCheck<unknown>): void {
  const problem = typeof check === 'function' ? (check(value) ? undefined : 'it fails the check given') : checkValue(check, value)
  if (problem !== undefined) throw new VariableTypeError(`variable ${JSON.stringify(path)} is invalid: ${problem}`)
}

/** The JSON type of a value, for messages that must not quote the value itself. */
function describeType (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

/**
 * Building blocks for the schemas of your own hook groups. Every schema here is plain JSON Schema (TypeBox values),
 * so the same object validates requests, documents them (OpenAPI) and types them (`Static<typeof X>`).
 *
 * @packageDocumentation
 */
import type { Static, TSchema, TObject, TProperties } from 'typebox'
import { Type } from '../../shims/typebox.js'

export type { Static, TSchema, TObject, TProperties }

/** Keyword naming a schema as a reusable OpenAPI component; the generator turns named subschemas into $refs. */
export const COMPONENT_KEYWORD = 'x-runtime-sdk-component'

/**
 * Keyword standing for a reference to a named component, for a schema that contains itself (JSONSchemaProps): the
 * OpenAPI generator writes a $ref, validators take any value. The schema objects stay acyclic.
 */
export const COMPONENT_REF_KEYWORD = 'x-runtime-sdk-component-ref'

/** Extra keywords our schemas carry besides standard JSON Schema; validators must accept them. */
export const SCHEMA_KEYWORDS = [COMPONENT_KEYWORD, COMPONENT_REF_KEYWORD, 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-preserve-unknown-fields']

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647
// JSON numbers are doubles: int64 values beyond 2^53 cannot round-trip, so the safe range is the honest bound.
const INT64_MIN = Number.MIN_SAFE_INTEGER
const INT64_MAX = Number.MAX_SAFE_INTEGER

/** Names a schema as an OpenAPI component (e.g. `sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster`). */
export function named<T extends TSchema> (component: string, schema: T): T {
  return Object.assign(schema, { [COMPONENT_KEYWORD]: component })
}

/** A string schema, bounded by `maxLength` (every string of an API type has a bound). */
export function Str (maxLength: number, opts: { description?: string, minLength?: number, pattern?: string } = {}) {
  return Type.String({ maxLength, ...opts })
}

/** A string schema accepting exactly `values`; its static type is their union. */
export function StringEnum<const V extends readonly string[]> (values: V, opts: { description?: string } = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...opts })
}

/** An integer schema of format int32, within Go's int32 range unless `minimum` or `maximum` narrow it. */
export function Int32 (opts: { description?: string, minimum?: number, maximum?: number, default?: number } = {}) {
  return Type.Integer({ format: 'int32', minimum: INT32_MIN, maximum: INT32_MAX, ...opts })
}

/** An integer schema of format int64, within the integers a JSON number holds exactly (±2^53 - 1) unless `minimum` or `maximum` narrow it. */
export function Int64 (opts: { description?: string, minimum?: number, maximum?: number } = {}) {
  return Type.Integer({ format: 'int64', minimum: INT64_MIN, maximum: INT64_MAX, ...opts })
}

/** A list with a bound; `mapKeys` makes it a Kubernetes map list keyed by those fields. */
export function List<T extends TSchema> (items: T, maxItems: number, opts: { description?: string, minItems?: number, mapKeys?: string[] } = {}) {
  const { mapKeys, ...rest } = opts
  const listType = mapKeys ? { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': mapKeys } : {}
  return Type.Array(items, { maxItems, ...listType, ...rest })
}

/** Marks a property schema optional: the property may be absent from an object (and from its static type). */
export function Optional<T extends TSchema> (schema: T) {
  return Type.Optional(schema)
}

/** The property names an object schema declares (none for other schemas). */
export function schemaProperties (schema: TSchema): string[] {
  const properties = (schema as { properties?: unknown }).properties
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : []
}

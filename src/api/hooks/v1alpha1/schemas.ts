// The JSON Schemas of hooks.runtime.cluster.x-k8s.io/v1alpha1, built from Cluster API's own definitions
// (definitions.json, dumped from its Go types by tools/capi-schemas). Each definition becomes one schema object,
// named as an OpenAPI component and shared by every schema that refers to it; what validation checks of them is
// decided per direction in src/catalog/validate.ts.
import type { TSchema } from 'typebox'
import { COMPONENT_KEYWORD, COMPONENT_REF_KEYWORD } from '../../schema/builders.js'
import { capiHooks, definitions } from './capi.js'

type Schema = Record<string, unknown>

const built = new Map<string, Schema>()

/** The schema of a definition, e.g. `sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster`. */
export function definitionSchema (name: string): TSchema {
  const existing = built.get(name)
  if (existing) return existing
  const source = definitions[name]
  if (!source) throw new Error(`Cluster API defines no ${name}`)
  // Registered before its members are built: the definitions are acyclic, but a cycle must not recurse forever.
  const schema: Schema = { [COMPONENT_KEYWORD]: name }
  built.set(name, schema)
  Object.assign(schema, build(source))
  if (name === JSON_SCHEMA_PROPS) recurse(schema)
  return schema
}

const JSON_SCHEMA_PROPS = 'sigs.k8s.io.cluster-api.api.core.v1beta2.JSONSchemaProps'

/**
 * JSONSchemaProps' subschemas as Go decodes them: JSONSchemaProps again. Cluster API's CRD leaves them schemaless
 * (x-kubernetes-preserve-unknown-fields, as a CRD cannot recurse), and so do the definitions; the published document
 * states the Go types, as the TypeScript types (tools/capi-types.ts) and the decoders (tools/go-types.ts) do.
 */
function recurse (self: Schema): void {
  const properties = self['properties'] as Record<string, Schema>
  const described = (key: string, schema: Schema): Schema => {
    const description = properties[key]?.['description']
    return typeof description === 'string' ? { ...schema, description } : schema
  }
  const ref = { [COMPONENT_REF_KEYWORD]: JSON_SCHEMA_PROPS }
  properties['properties'] = described('properties', { type: 'object', additionalProperties: ref })
  for (const key of ['additionalProperties', 'items', 'not']) properties[key] = described(key, ref)
  for (const key of ['allOf', 'oneOf', 'anyOf']) properties[key] = described(key, { type: 'array', items: ref })
}

/** Rewrites a definition's schema: references become the shared schema objects, `nullable` an `anyOf` with null. */
function build (source: Schema): Schema {
  const { nullable, description, ...rest } = source
  const ref = rest['$ref']
  let schema: Schema
  if (typeof ref === 'string') {
    schema = definitionSchema(ref.replace('#/definitions/', '')) as Schema
  } else {
    schema = {}
    for (const [key, value] of Object.entries(rest)) {
      if (key === 'properties') schema[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, build(v)]))
      else if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object') schema[key] = build(value as Schema)
      else if (key === 'allOf' || key === 'anyOf') schema[key] = (value as Schema[]).map(build)
      else schema[key] = value
    }
    // allOf with a single member is how a field carries its own keywords next to a reference.
    const allOf = schema['allOf'] as Schema[] | undefined
    if (allOf?.length === 1 && Object.keys(schema).length === 1) schema = allOf[0] as Schema
  }
  const doc = typeof description === 'string' ? { description } : {}
  if (nullable === true) return { ...doc, anyOf: [schema, { type: 'null' }] }
  if (!('description' in doc)) return schema
  // A shared (named) schema cannot take the field's description in place.
  return COMPONENT_KEYWORD in schema ? { allOf: [schema], ...doc } : { ...schema, ...doc }
}

/** The request and response schemas of a hook. */
export function hookSchemas (hook: string): { request: TSchema, response: TSchema } {
  const entry = capiHooks.find(h => h.hook === hook)
  if (!entry) throw new Error(`Cluster API v1alpha1 has no hook ${hook}`)
  return { request: definitionSchema(entry.request), response: definitionSchema(entry.response) }
}

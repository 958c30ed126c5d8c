// fast-check arbitraries generated from the JSON schemas of the catalog: values shaped like what Cluster API may
// send, within the schema's bounds (lengths, patterns, enums, formats, ranges). Deep optional fields thin out with
// depth so that a Cluster stays small; callers keep only what the validator accepts.
import fc, { type Arbitrary } from 'fast-check'

type Schema = Record<string, any>

export interface SchemaArbitraryOptions {
  /** Below this depth only required properties are generated (default 7). */
  maxDepth?: number
  /** Most items in a list and entries in a map (default 3). */
  maxItems?: number
}

const INT32 = { min: -2147483648, max: 2147483647 }
const key = fc.stringMatching(/^[a-zA-Z0-9][-a-zA-Z0-9_.]{0,15}$/)
const anyJson = fc.jsonValue({ maxDepth: 2 })

/** `allOf` folded into one schema (the catalog uses it to attach a description to a shared component). */
function merged (schema: Schema): Schema {
  if (!Array.isArray(schema['allOf'])) return schema
  const { allOf, ...rest } = schema
  return (allOf as Schema[]).reduce<Schema>((all, part) => ({ ...all, ...merged(part) }), rest)
}

function stringArbitrary (schema: Schema): Arbitrary<string> {
  const minLength = schema['minLength'] ?? 0
  const maxLength = Math.min(schema['maxLength'] ?? 40, 40, Math.max(minLength, 40))
  if (schema['format'] === 'date-time') {
    return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
      .map(d => d.toISOString().replace(/\.\d{3}Z$/, 'Z'))
  }
  if (typeof schema['pattern'] === 'string') {
    const limit = schema['maxLength'] ?? Infinity
    return fc.stringMatching(new RegExp(schema['pattern'] as string)).filter(s => s.length >= minLength && s.length <= limit)
  }
  // Version-like strings too: handlers parse versions, and random text rarely looks like one.
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.stringMatching(/^v?[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}(-[a-z0-9.]{1,8})?$/).filter(s => s.length >= minLength && s.length <= (schema['maxLength'] ?? Infinity))
  )
}

function integerArbitrary (schema: Schema): Arbitrary<number> {
  const min = schema['minimum'] ?? (schema['format'] === 'int64' ? Number.MIN_SAFE_INTEGER : INT32.min)
  const max = schema['maximum'] ?? (schema['format'] === 'int64' ? Number.MAX_SAFE_INTEGER : INT32.max)
  return fc.oneof(fc.integer({ min: Math.max(min, -10), max: Math.min(max, 100) }), fc.integer({ min, max }))
}

function objectArbitrary (schema: Schema, depth: number, options: Required<SchemaArbitraryOptions>): Arbitrary<unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>
  const required = new Set<string>(schema['required'] ?? [])
  const names = Object.keys(properties).filter(name => depth < options.maxDepth || required.has(name))
  const record = fc.record(
    Object.fromEntries(names.map(name => [name, schemaArbitrary(properties[name] as Schema, { ...options }, depth + 1)])),
    { requiredKeys: names.filter(name => required.has(name)) }
  )
  const additional = schema['additionalProperties']
  if (additional && typeof additional === 'object') {
    const minKeys = schema['minProperties'] ?? 0
    const values = fc.dictionary(key, schemaArbitrary(additional as Schema, options, depth + 1), { minKeys, maxKeys: Math.max(minKeys, options.maxItems) })
    return Object.keys(properties).length === 0 ? values : fc.tuple(record, values).map(([r, v]) => ({ ...v, ...r }))
  }
  if (Object.keys(properties).length === 0 && schema['x-kubernetes-preserve-unknown-fields']) return fc.dictionary(key, anyJson, { maxKeys: options.maxItems })
  return record
}

/** An arbitrary for values of `schema` (a catalog request or response schema, or part of one). */
export function schemaArbitrary (schema: Schema, options: SchemaArbitraryOptions = {}, depth = 0): Arbitrary<unknown> {
  const all = { maxDepth: options.maxDepth ?? 7, maxItems: options.maxItems ?? 3 }
  const s = merged(schema)
  if (Array.isArray(s['anyOf'])) {
    const { anyOf, ...rest } = s
    return fc.oneof(...(anyOf as Schema[]).map(branch => schemaArbitrary({ ...rest, ...merged(branch) }, all, depth)))
  }
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]))
  if (s['x-kubernetes-int-or-string']) return fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.stringMatching(/^[0-9]{1,2}%$/))
  switch (s['type']) {
    case 'null': return fc.constant(null)
    case 'boolean': return fc.boolean()
    case 'integer': return integerArbitrary(s)
    case 'number': return fc.double({ noNaN: true, noDefaultInfinity: true })
    case 'string': return stringArbitrary(s)
    case 'array': {
      const minLength = s['minItems'] ?? 0
      const maxLength = Math.max(minLength, Math.min(s['maxItems'] ?? all.maxItems, all.maxItems))
      const items = schemaArbitrary(s['items'] ?? {}, all, depth + 1)
      const mapKeys = s['x-kubernetes-list-map-keys'] as string[] | undefined
      if (mapKeys) return fc.uniqueArray(items, { minLength, maxLength, selector: item => JSON.stringify(mapKeys.map(k => (item as Record<string, unknown>)?.[k])) })
      if (s['x-kubernetes-list-type'] === 'set') return fc.uniqueArray(items, { minLength, maxLength, selector: item => JSON.stringify(item) })
      return fc.array(items, { minLength, maxLength })
    }
    case 'object': return objectArbitrary(s, depth, all)
    default: return s['properties'] ? objectArbitrary(s, depth, all) : anyJson
  }
}

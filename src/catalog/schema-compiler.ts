// Compiles hook schemas with Ajv, one view per direction (see validate.ts), at run time: for schemas that have no
// decoder generated ahead of time (a hook of your own; Cluster API's hooks are checked as Go decodes them).
// Ajv is loaded when the first compiler is made: a process answering only Cluster API's hooks never loads it.
import type { Ajv, ValidateFunction } from 'ajv'
import type { TSchema } from 'typebox'
import { createAjv } from '../shims/ajv.js'
import { COMPONENT_KEYWORD } from '../api/schema/builders.js'

export type Direction = 'request' | 'response' | 'decode'
type Schema = Record<string, unknown>

/** Keywords no direction checks: documentation, API-server-side rules (CEL, defaults) and our own markers. */
const ANNOTATIONS = new Set(['description', 'default', 'example', 'nullable', COMPONENT_KEYWORD, 'x-kubebuilder-required', 'x-kubernetes-validations'])
/** Keywords Go's decoder ignores. */
const NOT_DECODED = new Set(['enum', 'const', 'pattern', 'maxLength', 'minLength', 'maxItems', 'minItems', 'uniqueItems',
  'maxProperties', 'minProperties', 'propertyNames', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'required'])
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not'])
const SUBSCHEMAS = new Set(['allOf', 'anyOf', 'oneOf'])
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties'])

export class SchemaCompiler {
  readonly #ajv: Ajv
  /** The ajv key of every named schema, per direction: each is compiled once however many hooks embed it. */
  readonly #registered: Record<Direction, Map<Schema, string>> = { request: new Map(), response: new Map(), decode: new Map() }
  #keys = 0

  constructor () {
    this.#ajv = createAjv({
      allErrors: false,
      coerceTypes: false,
      useDefaults: false,
      removeAdditional: false,
      strict: true,
      strictTypes: false,
      // Bodies can be 20 MiB; compiled code is fast, but avoid regex-heavy unicode length counting.
      unicodeRegExp: false,
      // Strict compilation already rejects a malformed schema (keyword value types, unknown keywords, bad patterns);
      // checking it against the meta-schema too would compile the meta-schema first.
      validateSchema: false
    })
  }

  compile (schema: TSchema, direction: Direction): ValidateFunction {
    return this.#ajv.compile(this.#view(schema as Schema, direction))
  }

  /** The schema as ajv checks it in a direction; a named subschema becomes a reference to its one compiled copy. */
  #view (schema: Schema, direction: Direction): Schema {
    if (typeof schema[COMPONENT_KEYWORD] !== 'string') return this.#body(schema, direction)
    let key = this.#registered[direction].get(schema)
    if (key === undefined) {
      key = `${direction}:${String(schema[COMPONENT_KEYWORD])}:${this.#keys++}`
      this.#registered[direction].set(schema, key)
      this.#ajv.addSchema(this.#body(schema, direction), key)
    }
    return { $ref: key }
  }

  #body (schema: Schema, direction: Direction): Schema {
    const out: Schema = {}
    for (const [key, value] of Object.entries(schema)) {
      if (ANNOTATIONS.has(key) || key.startsWith('x-') || (direction === 'decode' && NOT_DECODED.has(key))) continue
      if (SUBSCHEMA.has(key) && typeof value === 'object' && value !== null) out[key] = this.#view(value as Schema, direction)
      else if (SUBSCHEMAS.has(key)) out[key] = (value as Schema[]).map(s => this.#view(s, direction))
      else if (SUBSCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([k, s]) => [k, this.#view(s, direction)]))
      else out[key] = value
    }
    const properties = out['properties'] as Schema | undefined
    if (direction === 'request' && properties?.['metadata'] && properties['status']) {
      // An embedded object's status is Cluster API's observed state: passed on whatever it holds.
      properties['status'] = {}
    }
    if (direction === 'response' && Array.isArray(schema['x-kubebuilder-required'])) {
      out['required'] = [...new Set([...(out['required'] as string[] | undefined) ?? [], ...schema['x-kubebuilder-required'] as string[]])]
    }
    if (direction === 'decode' && out['type'] !== undefined) {
      // Go decodes null into any field as its zero value.
      out['type'] = [...new Set([...[out['type']].flat(), 'null'])]
    }
    return out
  }
}

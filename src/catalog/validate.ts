// Schema validation with messages that name the offending field. Validation never changes the value:
// no defaults, no coercion, no removal of unknown fields (callers' objects must pass through intact).
//
// One schema is checked as strictly as its direction calls for (Cluster API's own definitions carry the markers):
// - request: what Cluster API sends, as its API server stores it: its validation markers and the fields its Go
//   encoding always sends; unknown fields pass, and so does the status of embedded objects, whatever it holds.
// - response: what a handler answers: the markers and the fields the API requires (x-kubebuilder-required).
// - decode: what Cluster API's client decodes: JSON types, integer widths, base64; no bounds, no enums, null anywhere.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { COMPONENT_KEYWORD } from '../api/schema.js'

export type Direction = 'request' | 'response' | 'decode'
type Schema = Record<string, unknown>

const ajv = new Ajv({
  allErrors: false,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  strict: true,
  strictTypes: false,
  // Bodies can be 20 MiB; compiled code is fast, but avoid regex-heavy unicode length counting.
  unicodeRegExp: false,
  // Strict compilation already rejects a malformed schema (keyword value types, unknown keywords, bad patterns);
  // checking it against the meta-schema too would compile the meta-schema on the first call of every process.
  validateSchema: false
})
addFormats.default(ajv, ['byte', 'int32', 'int64', 'date-time'])

/** Keywords no direction checks: documentation, API-server-side rules (CEL, defaults) and our own markers. */
const ANNOTATIONS = new Set(['description', 'default', 'example', 'nullable', COMPONENT_KEYWORD, 'x-kubebuilder-required', 'x-kubernetes-validations'])
/** Keywords Go's decoder ignores. */
const NOT_DECODED = new Set(['enum', 'const', 'pattern', 'maxLength', 'minLength', 'maxItems', 'minItems', 'uniqueItems',
  'maxProperties', 'minProperties', 'propertyNames', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'required'])
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not'])
const SUBSCHEMAS = new Set(['allOf', 'anyOf', 'oneOf'])
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties'])

const compiled: Record<Direction, WeakMap<TSchema, ValidateFunction>> = { request: new WeakMap(), response: new WeakMap(), decode: new WeakMap() }
/** The ajv key of every named schema, per direction: each is compiled once however many hooks embed it. */
const registered: Record<Direction, Map<Schema, string>> = { request: new Map(), response: new Map(), decode: new Map() }
let keys = 0

/** Validates a value against a schema in a direction; returns undefined when valid, else a message naming the field. */
export function validate (schema: TSchema, value: unknown, direction: Direction = 'request'): string | undefined {
  let fn = compiled[direction].get(schema)
  if (!fn) {
    fn = ajv.compile(view(schema as Schema, direction))
    compiled[direction].set(schema, fn)
  }
  if (fn(value)) return undefined
  return describe(fn.errors ?? [], value)
}

/** The schema as ajv checks it in a direction; a named subschema becomes a reference to its one compiled copy. */
function view (schema: Schema, direction: Direction): Schema {
  if (typeof schema[COMPONENT_KEYWORD] !== 'string') return body(schema, direction)
  let key = registered[direction].get(schema)
  if (key === undefined) {
    key = `${direction}:${String(schema[COMPONENT_KEYWORD])}:${keys++}`
    registered[direction].set(schema, key)
    ajv.addSchema(body(schema, direction), key)
  }
  return { $ref: key }
}

function body (schema: Schema, direction: Direction): Schema {
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-') || (direction === 'decode' && NOT_DECODED.has(key))) continue
    if (SUBSCHEMA.has(key) && typeof value === 'object' && value !== null) out[key] = view(value as Schema, direction)
    else if (SUBSCHEMAS.has(key)) out[key] = (value as Schema[]).map(s => view(s, direction))
    else if (SUBSCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([k, s]) => [k, view(s, direction)]))
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

function describe (errors: ErrorObject[], root: unknown): string {
  // For a nullable field ajv reports both branches; the first non-null branch error is the useful one.
  const error = errors.find(e => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params['type'] === 'null')) ?? errors[0]
  if (!error) return 'invalid value'
  const at = fieldPath(error.instancePath)
  const got = valueAt(root, error.instancePath)
  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params['missingProperty'])
      return `${at ? `${at}.` : ''}${formatKey(missing)}: is required`
    }
    case 'type':
      return `${at || '(root)'}: must be ${[error.params['type']].flat().filter(t => t !== 'null').map(t => article(String(t))).join(' or ')}, got ${kindOf(got)}`
    case 'enum':
      return `${at}: must be one of ${(error.params['allowedValues'] as unknown[]).map(v => JSON.stringify(v)).join(', ')}, got ${preview(got)}`
    case 'maxLength':
      return `${at}: must be at most ${error.params['limit']} characters long`
    case 'minLength':
      return `${at}: must be at least ${error.params['limit']} characters long`
    case 'maxItems':
      return `${at}: must have at most ${error.params['limit']} items`
    case 'maxProperties':
      return `${at}: must have at most ${error.params['limit']} entries`
    case 'minimum':
    case 'maximum':
      return `${at}: must be ${error.params['comparison']} ${error.params['limit']}, got ${preview(got)}`
    case 'format':
      switch (error.params['format']) {
        case 'byte': return `${at}: must be standard base64 with padding`
        case 'int32': return `${at}: must be a 32-bit integer, got ${preview(got)}`
        case 'int64': return `${at}: must be a 64-bit integer, got ${preview(got)}`
        case 'date-time': return `${at}: must be an RFC 3339 date and time, got ${preview(got)}`
        default: return `${at}: must be a valid ${error.params['format']}`
      }
    case 'propertyNames':
      return `${at}: key ${preview(error.params['propertyName'])} is too long`
    default:
      return `${at || '(root)'}: ${error.message ?? 'is invalid'}`
  }
}

/** `/items/0/metadata/labels/app.kubernetes.io~1name` -> `items[0].metadata.labels["app.kubernetes.io/name"]` */
export function fieldPath (pointer: string): string {
  if (!pointer) return ''
  let out = ''
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    out += /^[0-9]+$/.test(key) ? `[${key}]` : out ? `.${formatKey(key)}` : formatKey(key)
  }
  return out.replace(/\.\[/g, '[')
}

function formatKey (key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `[${JSON.stringify(key)}]`
}

function valueAt (root: unknown, pointer: string): unknown {
  let value = root
  for (const raw of pointer ? pointer.slice(1).split('/') : []) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return value
}

function kindOf (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number'
  return article(typeof value)
}

function article (type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function preview (value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 64 ? `${text.slice(0, 61)}...` : text
}

// Schema validation with messages that name the offending field. Validation never changes the value:
// no defaults, no coercion, no removal of unknown fields (callers' objects must pass through intact).
//
// One schema is checked as strictly as its direction calls for (Cluster API's own definitions carry the markers):
// - request: what Cluster API sends, as its API server stores it: its validation markers and the fields its Go
//   encoding always sends; unknown fields pass, and so does the status of embedded objects, whatever it holds.
// - response: what a handler answers: the markers and the fields the API requires (x-kubebuilder-required).
// - decode: what Cluster API's client decodes: JSON types, integer widths, base64; no bounds, no enums, null anywhere.
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { TSchema } from 'typebox'
import { precompiledValidator } from './precompiled.js'
import { type Direction, SchemaCompiler } from './schema-compiler.js'

export type { Direction } from './schema-compiler.js'

const compiled: Record<Direction, WeakMap<TSchema, ValidateFunction>> = { request: new WeakMap(), response: new WeakMap(), decode: new WeakMap() }
let compiler: SchemaCompiler | undefined

/** Validates a value against a schema in a direction; returns undefined when valid, else a message naming the field. */
export function validate (schema: TSchema, value: unknown, direction: Direction = 'request'): string | undefined {
  let fn = compiled[direction].get(schema)
  if (!fn) {
    // Cluster API's hooks have generated validators; a hook of your own is compiled on its first call.
    fn = precompiledValidator(schema, direction) ?? (compiler ??= new SchemaCompiler()).compile(schema, direction)
    compiled[direction].set(schema, fn)
  }
  if (fn(value)) return undefined
  return describe(fn.errors ?? [], value)
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

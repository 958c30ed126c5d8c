// Schema validation with messages that name the offending field. Validation never changes the value:
// no defaults, no coercion, no removal of unknown fields (callers' objects must pass through intact).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { SCHEMA_KEYWORDS } from '../../hooks/schema.js'

const ajv = new Ajv({
  allErrors: false,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  strict: true,
  strictTypes: false,
  // Bodies can be 20 MiB; compiled code is fast, but avoid regex-heavy unicode length counting.
  unicodeRegExp: false
})
addFormats.default(ajv, ['byte', 'int32', 'int64'])
for (const keyword of SCHEMA_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'array', 'boolean', 'object'] })

const compiled = new WeakMap<TSchema, ValidateFunction>()

/** Validates a value against a schema; returns undefined when valid, else a message naming the field. */
export function validate (schema: TSchema, value: unknown): string | undefined {
  let fn = compiled.get(schema)
  if (!fn) {
    fn = ajv.compile(schema)
    compiled.set(schema, fn)
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
      return `${at || '(root)'}: must be ${article(String(error.params['type']))}, got ${kindOf(got)}`
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
      return error.params['format'] === 'byte'
        ? `${at}: must be standard base64 with padding`
        : `${at}: must be a valid ${error.params['format']}`
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

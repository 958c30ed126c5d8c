// Kubernetes' field errors (k8s.io/apimachinery/pkg/util/validation/field) and the messages built from them: one error
// prints as `spec.x: Invalid value: "abc": must be …`, a list as apimachinery's aggregate prints it, and a refused
// object as `apierrors.NewInvalid(...).Error()`. Callers compare these strings with what a real API server answers.
import { GoFloat64, goJson, goNumber, GoStruct } from './go-format.js'
import { formatFloat, quote as goQuote } from '../go/strconv.js'

/** The field error types of apimachinery, by the name Go gives them on the wire (StatusCause.type). */
export type FieldErrorType =
  | 'FieldValueNotFound' | 'FieldValueRequired' | 'FieldValueDuplicate' | 'FieldValueInvalid'
  | 'FieldValueNotSupported' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTooMany'
  | 'FieldValueTooFew' | 'InternalError' | 'FieldValueTypeInvalid' | 'FieldValueTooShort'

/** One field error, as field.Error holds it. */
export interface FieldError {
  /** type says which kind of error this is; it decides how the error prints. */
  readonly type: FieldErrorType
  /** field is the path of the field, as field.Path prints it (`spec.items[0].name`, `<nil>` for none). */
  readonly field: string
  /** value is the offending value (a decoded JSON value; integers stand for int64, other numbers for float64). */
  readonly value?: unknown
  /** omitValue is true when the error prints no value (field.OmitValueType). */
  readonly omitValue?: boolean
  /** detail is the explanation printed after the value. */
  readonly detail: string
}

/** A field path as field.Path prints it; undefined is the nil path (printed `<nil>`). */
export type FieldPath = string | undefined

/** path.Child(name): `parent.name`, or `name` at the root. */
export function childPath (parent: FieldPath, name: string): string {
  return parent === undefined ? name : `${parent}.${name}`
}

/** path.Index(i): `parent[i]`. */
export function indexPath (parent: FieldPath, index: number): string {
  return `${parent ?? ''}[${index}]`
}

/** path.Key(key): `parent[key]` (the key is not quoted). */
export function keyPath (parent: FieldPath, key: string): string {
  return `${parent ?? ''}[${key}]`
}

const pathString = (p: FieldPath): string => p ?? '<nil>'

/** field.Invalid. */
export function invalid (path: FieldPath, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: pathString(path), value, detail }
}

/** field.Invalid with field.OmitValueType{} as the value: prints no value. */
export function invalidOmitValue (path: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: pathString(path), omitValue: true, detail }
}

/** field.TypeInvalid. */
export function typeInvalid (path: FieldPath, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field: pathString(path), value, detail }
}

/** field.Required. */
export function required (path: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueRequired', field: pathString(path), value: '', detail }
}

/** field.Forbidden. */
export function forbidden (path: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field: pathString(path), value: '', detail }
}

/** field.Duplicate (no detail). */
export function duplicate (path: FieldPath, value: unknown, omitValue = false): FieldError {
  return { type: 'FieldValueDuplicate', field: pathString(path), value, ...(omitValue ? { omitValue } : {}), detail: '' }
}

/** field.NotFound (no detail). */
export function notFound (path: FieldPath, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field: pathString(path), value, detail: '' }
}

/** field.NotSupported: the detail lists the supported values, each quoted. */
export function notSupported (path: FieldPath, value: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? 'supported values: ' + validValues.map(goQuote).join(', ') : ''
  return { type: 'FieldValueNotSupported', field: pathString(path), value, detail }
}

/** field.TooLong: the value is never printed; a negative maximum means unknown. */
export function tooLong (path: FieldPath, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long'
  return { type: 'FieldValueTooLong', field: pathString(path), value: '<value omitted>', detail }
}

/** field.TooMany: a negative count omits the value, a negative maximum gives the generic detail. */
export function tooMany (path: FieldPath, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items'
  return { type: 'FieldValueTooMany', field: pathString(path), ...(actual >= 0 ? { value: actual } : { omitValue: true }), detail }
}

/** field.InternalError. */
export function internalError (path: FieldPath, message: string): FieldError {
  return { type: 'InternalError', field: pathString(path), detail: message }
}

const TYPE_NAMES: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueTooShort: 'Too short'
}

/** How field.Error prints its value: numbers and booleans with %v, strings with %q, anything else as JSON. */
function printValue (value: unknown): string {
  if (value instanceof GoFloat64) return formatFloat(value.value, 'g', -1)
  if (value instanceof GoStruct) return value.json
  if (typeof value === 'number') return goNumber(value)
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return goQuote(value)
  return goJson(value)
}

/** field.Error.ErrorBody(): the message without the field. */
export function errorBody (e: FieldError): string {
  let s = TYPE_NAMES[e.type]
  switch (e.type) {
    case 'FieldValueRequired': case 'FieldValueForbidden': case 'FieldValueTooLong': case 'FieldValueTooShort': case 'InternalError':
      break
    default:
      if (!e.omitValue) s += ': ' + printValue(e.value)
  }
  return e.detail.length > 0 ? `${s}: ${e.detail}` : s
}

/** field.Error.Error(): `field: body`. */
export function fieldErrorString (e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`
}

/**
 * ErrorList.ToAggregate().Error(): the messages, duplicates dropped, one alone as it is, several as `[a, b]`;
 * '' for none.
 */
export function errorListMessage (errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(fieldErrorString))]
  if (messages.length === 0) return ''
  return messages.length === 1 ? messages[0] as string : `[${messages.join(', ')}]`
}

/**
 * `apierrors.NewInvalid(schema.GroupKind{group, kind}, name, errors).Error()`: what the API server says when it refuses
 * an object, e.g. `Widget.example.com "w" is invalid: spec.size: Invalid value: 0: must be positive`.
 */
export function invalidObjectMessage (kind: string, group: string, name: string, errors: readonly FieldError[]): string {
  const qualified = group === '' ? kind : `${kind}.${group}`
  const base = `${qualified} ${goQuote(name)} is invalid`
  const list = errorListMessage(errors)
  return list === '' ? base : `${base}: ${list}`
}

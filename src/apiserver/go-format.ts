// How Go prints the values that end up in Kubernetes' error messages: fmt's %v, %#v and %T of decoded JSON values
// (float64 through src/go/strconv.ts, strings quoted as %q), and encoding/json's Marshal (sorted keys, HTML-safe
// escapes). The API server builds its messages with these, so reproducing them byte for byte needs the same rules here.
//
// Numbers: the API server decodes JSON integers into int64 and the rest into float64; a JavaScript number that is an
// integer stands for an int64 here, any other number for a float64.
import { encodeFloat, encodeString, sortedKeys } from '../go/json.js'
import { formatFloat, quote } from '../go/strconv.js'
import { compare } from '../go/strings.js'

/** A number Go holds as a float64 even when it is integral (so %v prints 2.147483648e+09, not 2147483648). */
export class GoFloat64 {
  constructor (readonly value: number) {}
}

/** A Go struct's json.Marshal: its fields in declaration order (given as `order`), empty ones omitted (omitempty). */
export class GoStruct {
  readonly json: string
  constructor (value: Record<string, unknown>, order: readonly string[], nested: Readonly<Record<string, readonly string[]>> = {}) {
    const empty = (v: unknown) => v === undefined || v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0)
    const field = (k: string, v: unknown) => nested[k] && isRecord(v) ? new GoStruct(v, nested[k] as readonly string[], nested).json : goJson(v)
    this.json = '{' + order.filter(k => !empty(value[k])).map(k => encodeString(k) + ':' + field(k, value[k])).join(',') + '}'
  }
}

/** %v of one JSON number: an integer as int64, anything else as float64. */
export function goNumber (x: number): string {
  return isInt64(x) ? BigInt(x).toString() : formatFloat(x, 'g', -1)
}

const isInt64 = (x: number): boolean => Number.isInteger(x) && Math.abs(x) < 2 ** 63

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** fmt's %v of a decoded JSON value: [a b], map[k:v] with sorted keys, <nil>, numbers as above. */
export function goValue (v: unknown): string {
  if (v === null || v === undefined) return '<nil>'
  if (typeof v === 'string') return v
  if (typeof v === 'number') return goNumber(v)
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return '[' + v.map(goValue).join(' ') + ']'
  if (isRecord(v)) return 'map[' + Object.keys(v).sort(compare).map(k => `${k}:${goValue(v[k])}`).join(' ') + ']'
  return String(v)
}

/** fmt's %#v of a decoded JSON value: Go syntax, `map[string]interface {}{"k":1}`, `[]interface {}{"a", interface {}(nil)}`. */
export function goSharpV (v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)'
  if (typeof v === 'string') return quote(v)
  if (Array.isArray(v)) return '[]interface {}{' + v.map(goSharpV).join(', ') + '}'
  if (isRecord(v)) return 'map[string]interface {}{' + Object.keys(v).sort(compare).map(k => `${quote(k)}:${goSharpV(v[k])}`).join(', ') + '}'
  return goValue(v)
}

/** fmt's %T of a decoded JSON value (null has no type: `<nil>`). */
export function goTypeName (v: unknown): string {
  if (v === null || v === undefined) return '<nil>'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return isInt64(v) ? 'int64' : 'float64'
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}'
}

/** encoding/json's Marshal of a decoded JSON value: object keys sorted, <, > and & escaped. */
export function goJson (v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (v instanceof GoFloat64) return Number.isFinite(v.value) ? encodeFloat(v.value) : 'null'
  if (typeof v === 'string') return encodeString(v)
  // An integer is an int64 (see above); a decoded JSON value is never NaN or ±Inf.
  if (typeof v === 'number') return !Number.isFinite(v) ? 'null' : isInt64(v) ? BigInt(v).toString() : encodeFloat(v)
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']'
  if (isRecord(v)) return '{' + sortedKeys(Object.keys(v)).filter(k => v[k] !== undefined).map(k => encodeString(k) + ':' + goJson(v[k])).join(',') + '}'
  return 'null'
}

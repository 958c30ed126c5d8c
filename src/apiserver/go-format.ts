// How Go prints the values that end up in Kubernetes' error messages: strconv.Quote (%q), fmt's %v of float64,
// slices and maps, and encoding/json's Marshal (sorted keys, HTML-safe escapes). The API server builds its messages
// with these, so reproducing them byte for byte needs the same rules here.
//
// Numbers: the API server decodes JSON integers into int64 and the rest into float64; a JavaScript number that is an
// integer stands for an int64 here, any other number for a float64.

/** True when Go's strconv.IsPrint holds for the code point (letters, marks, numbers, punctuation, symbols, ASCII space). */
function isPrint (cp: number): boolean {
  if (cp === 0x20) return true
  if (cp < 0x20 || cp === 0x7f) return false
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(String.fromCodePoint(cp))
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0')

/** strconv.Quote: a double-quoted Go string literal, escaping what is not printable. */
export function goQuote (s: string): string {
  let out = '"'
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number
    if (ch === '"' || ch === '\\') { out += '\\' + ch; continue }
    if (isPrint(cp)) { out += ch; continue }
    switch (ch) {
      case '\x07': out += '\\a'; break
      case '\b': out += '\\b'; break
      case '\f': out += '\\f'; break
      case '\n': out += '\\n'; break
      case '\r': out += '\\r'; break
      case '\t': out += '\\t'; break
      case '\v': out += '\\v'; break
      default:
        if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2)
        // A lone surrogate cannot come from UTF-8 input; Go would have seen U+FFFD.
        else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd'
        else if (cp < 0x10000) out += '\\u' + hex(cp, 4)
        else out += '\\U' + hex(cp, 8)
    }
  }
  return out + '"'
}

/** The shortest decimal digits of a finite number and its decimal exponent (d.ddd × 10^exp). */
function shortestDigits (x: number): { digits: string, exp: number } {
  const [mantissa = '0', exponent = '0'] = Math.abs(x).toExponential().split('e')
  return { digits: mantissa.replace('.', ''), exp: Number(exponent) }
}

/** strconv.FormatFloat(x, 'g', -1, 64), which is what %v prints for a float64 (1e+06, 2.5, 1e-05). */
export function goFormatFloat (x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf'
  if (x === 0) return Object.is(x, -0) ? '-0' : '0'
  const sign = x < 0 ? '-' : ''
  const { digits, exp } = shortestDigits(x)
  // With the shortest representation Go uses %e when the exponent is below -4 or at least 6 (so 1e+06, 1.5e+07).
  if (exp >= -4 && exp < 6) return sign + fixed(digits, exp)
  const e = Math.abs(exp)
  return sign + digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'e' + (exp < 0 ? '-' : '+') + (e < 10 ? '0' : '') + e
}

function fixed (digits: string, exp: number): string {
  if (exp < 0) return '0.' + '0'.repeat(-exp - 1) + digits
  if (digits.length <= exp + 1) return digits + '0'.repeat(exp + 1 - digits.length)
  return digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1)
}

/** The exact decimal value of a finite double: its digits and the position of the decimal point from the right. */
function exactDecimal (x: number): { digits: bigint, scale: number } {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, Math.abs(x))
  const bits = view.getBigUint64(0)
  const exp = Number((bits >> 52n) & 0x7ffn)
  const frac = bits & ((1n << 52n) - 1n)
  const mantissa = exp === 0 ? frac : frac | (1n << 52n)
  const e = (exp === 0 ? 1 : exp) - 1075
  if (e >= 0) return { digits: mantissa << BigInt(e), scale: 0 }
  return { digits: mantissa * 5n ** BigInt(-e), scale: -e }
}

/** digits / 10^scale rounded to prec decimals, ties to even (as Go's strconv rounds an exact value). */
function roundDecimal (digits: bigint, scale: number, prec: number): bigint {
  if (scale <= prec) return digits * 10n ** BigInt(prec - scale)
  const div = 10n ** BigInt(scale - prec)
  const q = digits / div
  const r = digits % div
  const half = div / 2n
  return r > half || (r === half && q % 2n === 1n) ? q + 1n : q
}

/** strconv.FormatFloat(x, 'f', prec, 64): fixed notation with prec decimals. */
export function goFixed (x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf'
  const { digits, scale } = exactDecimal(x)
  const s = roundDecimal(digits, scale, prec).toString().padStart(prec + 1, '0')
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  return sign + (prec > 0 ? s.slice(0, -prec) + '.' + s.slice(-prec) : s)
}

/** The mantissa digits (prec + 1 of them) and decimal exponent of %.{prec}e. */
export function goExponent (x: number, prec: number): { digits: string, exp: number } {
  const { digits, scale } = exactDecimal(x)
  if (digits === 0n) return { digits: '0'.repeat(prec + 1), exp: 0 }
  let exp = digits.toString().length - 1 - scale
  let rounded = roundDecimal(digits, scale, prec - exp)
  if (rounded.toString().length > prec + 1) { exp++; rounded = roundDecimal(digits, scale, prec - exp) }
  return { digits: rounded.toString(), exp }
}

/** strconv.FormatFloat(x, 'f', -1, 64): the shortest decimal that reads back as x, without an exponent. */
export function goFormatFloatF (x: number): string {
  if (!Number.isFinite(x)) return goFormatFloat(x)
  const { digits, exp } = shortestDigits(x)
  const body = digits.length <= exp + 1 ? digits + '0'.repeat(exp + 1 - digits.length) : fixed(digits, exp)
  return (x < 0 || Object.is(x, -0) ? '-' : '') + (x === 0 ? '0' : body)
}

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
    this.json = '{' + order.filter(k => !empty(value[k])).map(k => jsonString(k) + ':' + field(k, value[k])).join(',') + '}'
  }
}

/** %v of one JSON number: an integer as int64, anything else as float64. */
export function goNumber (x: number): string {
  return Number.isInteger(x) && Math.abs(x) < 2 ** 63 ? BigInt(x).toString() : goFormatFloat(x)
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** fmt's %v of a decoded JSON value: [a b], map[k:v] with sorted keys, <nil>, numbers as above. */
export function goValue (v: unknown): string {
  if (v === null || v === undefined) return '<nil>'
  if (typeof v === 'string') return v
  if (typeof v === 'number') return goNumber(v)
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return '[' + v.map(goValue).join(' ') + ']'
  if (isRecord(v)) return 'map[' + Object.keys(v).sort(compareBytes).map(k => `${k}:${goValue(v[k])}`).join(' ') + ']'
  return String(v)
}

/** fmt's %#v of a decoded JSON value: Go syntax, `map[string]interface {}{"k":1}`, `[]interface {}{"a", interface {}(nil)}`. */
export function goSharpV (v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)'
  if (typeof v === 'string') return goQuote(v)
  if (Array.isArray(v)) return '[]interface {}{' + v.map(goSharpV).join(', ') + '}'
  if (isRecord(v)) return 'map[string]interface {}{' + Object.keys(v).sort(compareBytes).map(k => `${goQuote(k)}:${goSharpV(v[k])}`).join(', ') + '}'
  return goValue(v)
}

/** fmt's %T of a decoded JSON value (null has no type: `<nil>`). */
export function goTypeName (v: unknown): string {
  if (v === null || v === undefined) return '<nil>'
  if (typeof v === 'string') return 'string'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64'
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}'
}

/** Go's string ordering: by UTF-8 bytes, which for JavaScript strings is code point order. */
export function compareBytes (a: string, b: string): number {
  if (a === b) return 0
  const ai = a[Symbol.iterator]()
  const bi = b[Symbol.iterator]()
  for (;;) {
    const x = ai.next()
    const y = bi.next()
    if (x.done) return y.done ? 0 : -1
    if (y.done) return 1
    const cx = x.value.codePointAt(0) as number
    const cy = y.value.codePointAt(0) as number
    if (cx !== cy) return cx < cy ? -1 : 1
  }
}

function jsonString (s: string): string {
  let out = '"'
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number
    switch (ch) {
      case '"': out += '\\"'; break
      case '\\': out += '\\\\'; break
      case '\b': out += '\\b'; break
      case '\f': out += '\\f'; break
      case '\n': out += '\\n'; break
      case '\r': out += '\\r'; break
      case '\t': out += '\\t'; break
      default:
        if (cp < 0x20 || ch === '<' || ch === '>' || ch === '&' || cp === 0x2028 || cp === 0x2029) out += '\\u' + hex(cp, 4)
        else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd'
        else out += ch
    }
  }
  return out + '"'
}

/** encoding/json's Marshal of a decoded JSON value: object keys sorted, <, > and & escaped. */
export function goJson (v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (v instanceof GoFloat64) return goJson(v.value)
  if (typeof v === 'string') return jsonString(v)
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null'
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']'
  if (isRecord(v)) return '{' + Object.keys(v).sort(compareBytes).filter(k => v[k] !== undefined).map(k => jsonString(k) + ':' + goJson(v[k])).join(',') + '}'
  return 'null'
}

/** utf8.RuneCountInString: the length in code points. */
export function runeCount (s: string): number {
  return [...s].length
}

/** len() of a Go string: its length in UTF-8 bytes. */
export function byteLength (s: string): number {
  return Buffer.byteLength(s, 'utf8')
}

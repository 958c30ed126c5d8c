// Go's encoding/json for sprig's toJson, toPrettyJson, toRawJson and fromJson: Marshal's walk over the engine's Go
// values (nil slices and maps, integer types, MarshalIndent), with the strings, floats and key order of
// src/go/json.ts (HTML escaping unless raw); decoding into interface{} with Go's syntax error texts.
import { spend } from '../../budget/index.js'
import { encodeFloat, encodeString, JsonError, sortedKeys } from '../../go/json.js'
import { quote } from '../../go/strconv.js'
import { GoInt, GoMap, GoObject, GoSlice, type GoValue, MAP_IFACE, SLICE_IFACE, isUnsignedKind, wellFormed } from '../values.js'

/** json.Marshal (escapeHTML) or an Encoder with SetEscapeHTML(false); indent is MarshalIndent's. */
export function marshal (v: GoValue, escapeHTML: boolean, indent?: string): string {
  const enc = (x: GoValue, depth: number): string => {
    spend()
    if (x === null) return 'null'
    switch (typeof x) {
      case 'string': return encodeString(x, escapeHTML)
      case 'boolean': return x ? 'true' : 'false'
      case 'number': return encodeFloat(x)
    }
    if (x instanceof GoInt) return (isUnsignedKind(x.type) ? BigInt.asUintN(64, x.v) : x.v).toString()
    const nl = indent === undefined ? '' : '\n' + indent.repeat(depth + 1)
    const close = indent === undefined ? '' : '\n' + indent.repeat(depth)
    if (x instanceof GoSlice) {
      if (x.items === null) return 'null'
      if (x.items.length === 0) return '[]'
      return '[' + x.items.map(i => nl + enc(i, depth + 1)).join(',') + close + ']'
    }
    if (x instanceof GoMap) {
      if (x.entries === null) return 'null'
      if (x.entries.size === 0) return '{}'
      const sep = indent === undefined ? ':' : ': '
      const keys = sortedKeys(x.entries.keys())
      return '{' + keys.map(k => nl + encodeString(k, escapeHTML) + sep + enc(x.entries?.get(k) as GoValue, depth + 1)).join(',') + close + '}'
    }
    const own = (x as GoObject).toJSON()
    if (own === undefined) throw new JsonError(`json: unsupported type: ${(x as GoObject).type}`)
    return own
  }
  return enc(v, 0)
}

function quoteChar (s: string, i: number): string {
  const c = s[i] as string
  if (c === '\'') return '\'\\\'\''
  if (c === '"') return '\'"\''
  const code = c.charCodeAt(0)
  // Go names the offending byte; beyond ASCII that is the first byte of the character's UTF-8 encoding.
  const byte = code < 0x80 ? code : new TextEncoder().encode(String.fromCodePoint(s.codePointAt(i) as number))[0] as number
  const q = quote(String.fromCharCode(byte))
  return '\'' + q.slice(1, -1) + '\''
}

class Syntax extends Error {}

/** json.Unmarshal into interface{}: the value, and Go's error text if any (a range error still gives a value). */
export function unmarshal (text: string): { value: GoValue, error?: string } {
  let i = 0
  let rangeError: string | undefined
  const ws = (): void => { while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++ }
  // At the end of the input Go's scanner feeds a space to finish a literal or number, so those name ' '.
  const fail = (what: string, atEnd = 'unexpected end of JSON input'): never => {
    if (i >= text.length) throw new Syntax(atEnd)
    throw new Syntax(`invalid character ${quoteChar(text, i)} ${what}`)
  }
  const failToken = (what: string): never => fail(what, `invalid character ' ' ${what}`)
  const literal = (word: string, v: GoValue): GoValue => {
    for (let k = 1; k < word.length; k++) {
      i++
      if (text[i] !== word[k]) failToken(`in literal ${word} (expecting ${quoteChar(word, k)})`)
    }
    i++
    return v
  }
  const str = (): string => {
    i++
    let out = ''
    for (;;) {
      if (i >= text.length) fail('')
      const c = text[i] as string
      if (c === '"') { i++; return wellFormed(out) }
      if (c.charCodeAt(0) < 0x20) fail('in string literal')
      if (c !== '\\') { out += c; i++; continue }
      i++
      if (i >= text.length) fail('')
      const e = text[i] as string
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
      if (simple[e] !== undefined) { out += simple[e]; i++; continue }
      if (e !== 'u') fail('in string escape code')
      i++
      for (let k = 0; k < 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) { i += k; fail('in \\u hexadecimal character escape') }
      let cp = Number.parseInt(text.slice(i, i + 4), 16)
      i += 4
      if (cp >= 0xd800 && cp < 0xdc00 && text.slice(i, i + 2) === '\\u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        const lo = Number.parseInt(text.slice(i + 2, i + 6), 16)
        if (lo >= 0xdc00 && lo < 0xe000) { cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00); i += 6 }
      }
      out += cp >= 0xd800 && cp < 0xe000 ? '\ufffd' : String.fromCodePoint(cp)
    }
  }
  const num = (): GoValue => {
    const start = i
    if (text[i] === '-') { i++; if (!/[0-9]/.test(text[i] ?? '')) failToken('in numeric literal') }
    if (text[i] === '0') i++
    else while (/[0-9]/.test(text[i] ?? '')) i++
    if (text[i] === '.') {
      i++
      if (!/[0-9]/.test(text[i] ?? '')) failToken('after decimal point in numeric literal')
      while (/[0-9]/.test(text[i] ?? '')) i++
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++
      if (text[i] === '+' || text[i] === '-') i++
      if (!/[0-9]/.test(text[i] ?? '')) failToken('in exponent of numeric literal')
      while (/[0-9]/.test(text[i] ?? '')) i++
    }
    const lit = text.slice(start, i)
    const v = Number(lit)
    if (!Number.isFinite(v)) {
      rangeError ??= `json: cannot unmarshal number ${lit} into Go value of type float64`
      return null
    }
    return v
  }
  const value = (): GoValue => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      const m = new Map<string, GoValue>()
      ws()
      if (text[i] === '}') { i++; return new GoMap(MAP_IFACE, m) }
      for (;;) {
        ws()
        if (text[i] !== '"') fail('looking for beginning of object key string')
        const k = str()
        ws()
        if (text[i] !== ':') fail('after object key')
        i++
        m.set(k, value())
        ws()
        if (text[i] === ',') { i++; continue }
        if (text[i] === '}') { i++; return new GoMap(MAP_IFACE, m) }
        fail('after object key:value pair')
      }
    }
    if (c === '[') {
      i++
      const items: GoValue[] = []
      ws()
      if (text[i] === ']') { i++; return new GoSlice(SLICE_IFACE, items) }
      for (;;) {
        items.push(value())
        ws()
        if (text[i] === ',') { i++; continue }
        if (text[i] === ']') { i++; return new GoSlice(SLICE_IFACE, items) }
        fail('after array element')
      }
    }
    if (c === '"') return str()
    if (c === 't') return literal('true', true)
    if (c === 'f') return literal('false', false)
    if (c === 'n') return literal('null', null)
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num()
    return fail('looking for beginning of value')
  }
  try {
    const v = value()
    ws()
    if (i < text.length) fail('after top-level value')
    return rangeError === undefined ? { value: v } : { value: v, error: rangeError }
  } catch (err) {
    if (err instanceof Syntax) return { value: null, error: err.message }
    throw err
  }
}

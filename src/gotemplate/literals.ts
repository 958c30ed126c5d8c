// The constants of the template language as Go's parser reads them: strconv.Unquote of quoted and raw strings,
// UnquoteChar of character constants, and parse.newNumber's interpretations of a number (int, uint, float, complex
// at once, as Go's exec picks among them by context).
import { T } from './lex.js'
import type { NumberNode } from './nodes.js'
import { parseFloat, parseInt, parseUint, quote } from '../go/strconv.js'
import { Unsupported } from './values.js'

/** strconv.Unquote for string and raw-string tokens (undefined for invalid syntax). */
export function unquote (s: string): string | undefined {
  if (s.length < 2) return undefined
  const q = s[0]
  if (q !== s[s.length - 1]) return undefined
  const body = s.slice(1, -1)
  if (q === '`') {
    if (body.includes('`')) return undefined
    return body.replaceAll('\r', '')
  }
  if (q !== '"') return undefined
  if (body.includes('\n')) return undefined
  let out = ''
  let rest = body
  const bytes: number[] = []
  while (rest.length > 0) {
    const r = unquoteChar(rest, q)
    if (r === undefined) return undefined
    if (r.byte !== undefined) bytes.push(r.byte)
    else {
      if (bytes.length > 0) { out += flushBytes(bytes); bytes.length = 0 }
      out += r.value
    }
    rest = r.tail
  }
  if (bytes.length > 0) out += flushBytes(bytes)
  return out
}

function flushBytes (bytes: number[]): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes))
  } catch {
    throw new Unsupported('a string constant with bytes that are not valid UTF-8')
  }
}

/** strconv.UnquoteChar: the first character of s (an escape or a literal), and the rest. */
function unquoteChar (s: string, q: string): { value: string, byte?: number, tail: string } | undefined {
  const c = s[0] as string
  if (c === q && (q === '\'' || q === '"')) return undefined
  if (c !== '\\') {
    const cp = s.codePointAt(0) as number
    const ch = String.fromCodePoint(cp)
    return { value: ch, tail: s.slice(ch.length) }
  }
  if (s.length <= 1) return undefined
  const e = s[1] as string
  let tail = s.slice(2)
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' }
  if (simple[e] !== undefined) return { value: simple[e], tail }
  if (e === 'x' || e === 'u' || e === 'U') {
    const n = e === 'x' ? 2 : e === 'u' ? 4 : 8
    const digits = tail.slice(0, n)
    if (digits.length < n || !/^[0-9a-fA-F]+$/.test(digits)) return undefined
    tail = tail.slice(n)
    const v = parseInt16(digits)
    if (e === 'x') return v < 0x80 ? { value: String.fromCharCode(v), tail } : { value: '', byte: v, tail }
    if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined
    return { value: String.fromCodePoint(v), tail }
  }
  if (e >= '0' && e <= '7') {
    const digits = s.slice(1, 4)
    if (digits.length < 3 || !/^[0-7]{3}$/.test(digits)) return undefined
    const v = Number.parseInt(digits, 8)
    if (v > 255) return undefined
    tail = s.slice(4)
    return v < 0x80 ? { value: String.fromCharCode(v), tail } : { value: '', byte: v, tail }
  }
  if (e === '\'' || e === '"') {
    if (e !== q) return undefined
    return { value: e, tail }
  }
  return undefined
}

function parseInt16 (s: string): number { return Number.parseInt(s, 16) }

/** Go's parse.newNumber: the interpretations of a number, character or complex constant. */
export function newNumber (pos: number, text: string, typ: T): NumberNode {
  const n: NumberNode = { type: 'number', pos, isInt: false, isUint: false, isFloat: false, isComplex: false, int64: 0n, uint64: 0n, float64: 0, text }
  if (typ === T.CharConstant) {
    const r = unquoteChar(text.slice(1), '\'')
    if (r === undefined) throw new Error('invalid syntax')
    if (r.tail !== '\'') throw new Error(`malformed character constant: ${text}`)
    const v = r.byte ?? r.value.codePointAt(0) as number
    Object.assign(n, { int64: BigInt(v), isInt: true, uint64: BigInt(v), isUint: true, float64: v, isFloat: true })
    return n
  }
  if (typ === T.Complex) {
    const m = /^([+-]?[^+-]*(?:[eEpP][+-][^+-]*)?)([+-].*)i$/.exec(text)
    const re = m ? parseFloat(m[1] as string) : undefined
    const im = m ? parseFloat(m[2] as string) : undefined
    if (!re?.ok || !im?.ok) throw new Error('expected integer')
    return simplifyComplex(n, re.v, im.v)
  }
  if (text.endsWith('i')) {
    const f = parseFloat(text.slice(0, -1))
    if (f.ok) return simplifyComplex(n, 0, f.v)
  }
  const u = parseUint(text)
  if (u.ok) { n.isUint = true; n.uint64 = u.v }
  const i = parseInt(text)
  if (i.ok) {
    n.isInt = true
    n.int64 = i.v
    if (i.v === 0n) { n.isUint = true; n.uint64 = u.ok ? u.v : 0n }
  }
  if (n.isInt) { n.isFloat = true; n.float64 = Number(n.int64) } else if (n.isUint) { n.isFloat = true; n.float64 = Number(n.uint64) } else {
    const f = parseFloat(text)
    if (f.ok) {
      if (!/[.eEpP]/.test(text)) throw new Error(`integer overflow: ${quote(text)}`)
      n.isFloat = true
      n.float64 = f.v
      if (Number.isInteger(f.v) && f.v >= -(2 ** 63) && f.v < 2 ** 63) { n.isInt = true; n.int64 = BigInt(f.v) }
      if (Number.isInteger(f.v) && f.v >= 0 && f.v < 2 ** 64) { n.isUint = true; n.uint64 = BigInt(f.v) }
    }
  }
  if (!n.isInt && !n.isUint && !n.isFloat) throw new Error(`illegal number syntax: ${quote(text)}`)
  return n
}

function simplifyComplex (n: NumberNode, re: number, im: number): NumberNode {
  n.isComplex = true
  n.float64 = re
  n.isFloat = im === 0
  if (n.isFloat) {
    if (Number.isInteger(re) && re >= -(2 ** 63) && re < 2 ** 63) { n.isInt = true; n.int64 = BigInt(re) }
    if (Number.isInteger(re) && re >= 0 && re < 2 ** 64) { n.isUint = true; n.uint64 = BigInt(re) }
  }
  return n
}

// Go's strconv: float formatting (shortest and fixed precision, rounding half to even on the exact binary value, as
// strconv does), IsPrint, Quote and its variants, and ParseInt/ParseUint/ParseFloat with Go's literal syntax (base
// prefixes, underscores). JS's own number formatting differs from Go's in exponent thresholds and in how ties round;
// Go's templates, the API server's messages and CEL's conversions all go through these.

/** Decimal digits of a float's magnitude: value = 0.d × 10^dp; d has no leading or trailing zeros ('' for zero). */
interface Digits { d: string, dp: number }

/** The shortest digits that read back as x (what strconv uses for precision -1). */
function shortestDigits (x: number): Digits {
  if (x === 0) return { d: '', dp: 0 }
  const [mant, exp] = Math.abs(x).toExponential().split('e') as [string, string]
  const d = mant.replace('.', '').replace(/0+$/, '')
  return { d, dp: Number(exp) + 1 }
}

const view = new DataView(new ArrayBuffer(8))

/** Every digit of a float's exact binary value. */
function exactDigits (x: number): Digits {
  if (x === 0) return { d: '', dp: 0 }
  view.setFloat64(0, Math.abs(x))
  const bits = view.getBigUint64(0)
  const biased = Number(bits >> 52n)
  let mant = bits & ((1n << 52n) - 1n)
  let e: number
  if (biased === 0) e = -1074
  else { mant |= 1n << 52n; e = biased - 1075 }
  let digits: string
  let dp: number
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString()
    dp = digits.length
  } else {
    digits = (mant * 5n ** BigInt(-e)).toString()
    dp = digits.length + e
  }
  return { d: digits.replace(/0+$/, ''), dp }
}

/** Rounds to nd digits, half to even on exact ties (strconv's decimal rounding). */
function roundDigits (v: Digits, nd: number): Digits {
  const { d, dp } = v
  if (nd < 0) return { d: '', dp }
  if (d.length <= nd) return v
  const next = d.charCodeAt(nd) - 48
  let up: boolean
  if (next === 5 && nd + 1 === d.length) up = nd > 0 && (d.charCodeAt(nd - 1) - 48) % 2 === 1
  else up = next >= 5
  if (!up) return { d: d.slice(0, nd).replace(/0+$/, ''), dp }
  let i = nd - 1
  while (i >= 0 && d[i] === '9') i--
  if (i < 0) return { d: '1', dp: dp + 1 }
  return { d: d.slice(0, i) + String.fromCharCode(d.charCodeAt(i) + 1), dp }
}

function fmtE (neg: boolean, v: Digits, prec: number, e: 'e' | 'E'): string {
  let s = neg ? '-' : ''
  s += v.d.length > 0 ? v.d[0] : '0'
  if (prec > 0) {
    s += '.'
    const frac = v.d.slice(1, prec + 1)
    s += frac + '0'.repeat(prec - frac.length)
  }
  let exp = v.d.length === 0 ? 0 : v.dp - 1
  const sign = exp < 0 ? '-' : '+'
  exp = Math.abs(exp)
  return s + e + sign + (exp < 10 ? '0' + String(exp) : String(exp))
}

function fmtF (neg: boolean, v: Digits, prec: number): string {
  let s = neg ? '-' : ''
  if (v.dp > 0) {
    const m = Math.min(v.d.length, v.dp)
    s += v.d.slice(0, m) + '0'.repeat(v.dp - m)
  } else s += '0'
  if (prec > 0) {
    s += '.'
    for (let i = 1; i <= prec; i++) {
      const j = v.dp + i - 1
      s += j >= 0 && j < v.d.length ? v.d[j] : '0'
    }
  }
  return s
}

/** strconv.FormatFloat(x, fmt, prec, 64) for fmt e, E, f, g, G. */
export function formatFloat (x: number, fmt: 'e' | 'E' | 'f' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return '+Inf'
  if (x === -Infinity) return '-Inf'
  const neg = x < 0 || Object.is(x, -0)
  const shortest = prec < 0
  let digs: Digits
  if (shortest) {
    digs = shortestDigits(x)
    if (fmt === 'e' || fmt === 'E') prec = Math.max(digs.d.length - 1, 0)
    else if (fmt === 'f') prec = Math.max(digs.d.length - digs.dp, 0)
    else prec = digs.d.length
  } else {
    const exact = exactDigits(x)
    if (fmt === 'e' || fmt === 'E') digs = roundDigits(exact, prec + 1)
    else if (fmt === 'f') digs = roundDigits(exact, exact.dp + prec)
    else {
      if (prec === 0) prec = 1
      digs = roundDigits(exact, prec)
    }
  }
  if (fmt === 'e' || fmt === 'E') return fmtE(neg, digs, prec, fmt)
  if (fmt === 'f') return fmtF(neg, digs, prec)
  let eprec = prec
  if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length
  if (shortest) eprec = 6
  const exp = digs.dp - 1
  if (exp < -4 || exp >= eprec) {
    if (prec > digs.d.length) prec = digs.d.length
    return fmtE(neg, digs, prec - 1, fmt === 'g' ? 'e' : 'E')
  }
  if (prec > digs.dp) prec = digs.d.length
  return fmtF(neg, digs, Math.max(prec - digs.dp, 0))
}

/** strconv.FormatFloat(x, 'x' | 'X' | 'b', -1, 64): hexadecimal mantissa and binary exponent, or 'b''s integers. */
export function formatFloatBinary (x: number, fmt: 'x' | 'X' | 'b'): string | undefined {
  if (!Number.isFinite(x)) return undefined
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const neg = bits >> 63n === 1n ? '-' : ''
  const biased = Number((bits >> 52n) & 0x7ffn)
  let mant = bits & ((1n << 52n) - 1n)
  let exp = biased - 1075
  if (biased === 0) exp = -1074
  else mant |= 1n << 52n
  if (fmt === 'b') return `${neg}${mant}p${exp >= 0 ? '+' : ''}${exp}`
  if (mant === 0n) return `${neg}0${fmt === 'x' ? 'x' : 'X'}0${fmt === 'x' ? 'p' : 'P'}+00`
  while (mant < (1n << 52n)) { mant <<= 1n; exp-- }
  const e = exp + 52
  let frac = (mant & ((1n << 52n) - 1n)).toString(16).padStart(13, '0').replace(/0+$/, '')
  if (fmt === 'X') frac = frac.toUpperCase()
  const abs = Math.abs(e)
  const body = `0${fmt === 'x' ? 'x' : 'X'}1${frac === '' ? '' : '.' + frac}${fmt === 'x' ? 'p' : 'P'}${e < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`
  return neg + body
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u

/** strconv.IsPrint. */
export function isPrint (r: number): boolean {
  if (r < 0x80) return r >= 0x20 && r < 0x7f
  if (r >= 0xd800 && r <= 0xdfff) return false
  return PRINTABLE.test(String.fromCodePoint(r))
}

function hex (n: number, width: number): string { return n.toString(16).padStart(width, '0') }

/** strconv.Quote (quote '"'), QuoteRune-style escaping (quote '\''), and the ASCII-only variants. */
export function quoteWith (s: string, quote: '"' | '\'', asciiOnly: boolean): string {
  let out = quote
  for (const ch of s) {
    const r = ch.codePointAt(0) as number
    out += escapeRune(r, quote, asciiOnly)
  }
  return out + quote
}

function escapeRune (r: number, quote: string, asciiOnly: boolean): string {
  if (r === quote.charCodeAt(0) || r === 0x5c) return '\\' + String.fromCharCode(r)
  if (asciiOnly ? r < 0x80 && isPrint(r) : isPrint(r)) return String.fromCodePoint(r)
  switch (r) {
    case 7: return '\\a'
    case 8: return '\\b'
    case 12: return '\\f'
    case 10: return '\\n'
    case 13: return '\\r'
    case 9: return '\\t'
    case 11: return '\\v'
  }
  if (r < 0x20 || r === 0x7f) return '\\x' + hex(r, 2)
  if (r >= 0xd800 && r <= 0xdfff) return '\\ufffd'
  if (r < 0x10000) return '\\u' + hex(r, 4)
  return '\\U' + hex(r, 8)
}

/** strconv.Quote. */
export function quote (s: string): string { return quoteWith(s, '"', false) }

/** strconv.CanBackquote. */
export function canBackquote (s: string): boolean {
  for (const ch of s) {
    const r = ch.codePointAt(0) as number
    if (r === 0xfeff) return false
    if (r < 0x80) {
      if ((r < 0x20 && r !== 9) || r === 0x60 || r === 0x7f) return false
    }
  }
  return true
}

function underscoreOK (s: string): boolean {
  let saw = '^'
  let i = 0
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1)
  let hexDigits = false
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1] as string)) {
    i = 2
    saw = '0'
    hexDigits = s[1] === 'x' || s[1] === 'X'
  }
  for (; i < s.length; i++) {
    const c = s[i] as string
    if ((c >= '0' && c <= '9') || (hexDigits && /[a-fA-F]/.test(c))) { saw = '0'; continue }
    if (c === '_') {
      if (saw !== '0') return false
      saw = '_'
      continue
    }
    if (saw === '_') return false
    saw = '!'
  }
  return saw !== '_'
}

/** strconv.ParseUint(s, 0, 64) without the sign handling: the magnitude of a base-prefixed literal, or undefined. */
function parseMagnitude (s: string): bigint | undefined {
  if (s === '') return undefined
  let base = 10
  let body = s
  if (s[0] === '0' && s.length > 1) {
    const p = s[1]?.toLowerCase()
    if (p === 'x') { base = 16; body = s.slice(2) } else if (p === 'b') { base = 2; body = s.slice(2) } else if (p === 'o') { base = 8; body = s.slice(2) } else { base = 8; body = s.slice(1) }
  }
  const underscores = body.includes('_')
  if (underscores && !underscoreOK(s)) return undefined
  body = body.replaceAll('_', '')
  if (body === '') return undefined
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : base === 2 ? /^[01]+$/ : /^[0-9]+$/
  if (!valid.test(body)) return undefined
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : ''
  return BigInt(prefix + body)
}

/** Why a ParseInt/ParseUint failed, as strconv says it. */
type ParseIntResult = { ok: true, v: bigint } | { ok: false, err: 'invalid syntax' | 'value out of range' }

/** strconv.ParseInt(s, 0, bits). */
export function parseInt (s: string, bits = 64): ParseIntResult {
  let neg = false
  let body = s
  if (s[0] === '+' || s[0] === '-') { neg = s[0] === '-'; body = s.slice(1) }
  const m = parseMagnitude(body)
  if (m === undefined) return { ok: false, err: 'invalid syntax' }
  const v = neg ? -m : m
  const limit = 1n << BigInt(bits - 1)
  if (v >= limit || v < -limit) return { ok: false, err: 'value out of range' }
  return { ok: true, v }
}

/** strconv.ParseUint(s, 0, 64). */
export function parseUint (s: string): ParseIntResult {
  if (s[0] === '+' || s[0] === '-') return { ok: false, err: 'invalid syntax' }
  const m = parseMagnitude(s)
  if (m === undefined) return { ok: false, err: 'invalid syntax' }
  if (m >= 1n << 64n) return { ok: false, err: 'value out of range' }
  return { ok: true, v: m }
}

/** strconv.ParseFloat(s, 64): the value, or why not ('value out of range' gives ±Inf with the error). */
export function parseFloat (s: string): { ok: true, v: number } | { ok: false, err: 'invalid syntax' | 'value out of range', v: number } {
  let body = s
  let sign = 1
  if (body[0] === '+' || body[0] === '-') { sign = body[0] === '-' ? -1 : 1; body = body.slice(1) }
  const lower = body.toLowerCase()
  if (lower === 'inf' || lower === 'infinity') return { ok: true, v: sign * Infinity }
  // NaN takes no sign (strconv's special: only infinities follow one).
  if (lower === 'nan' && body === s) return { ok: true, v: NaN }
  if (body.includes('_') && !underscoreOK(s)) return { ok: false, err: 'invalid syntax', v: 0 }
  const clean = body.replaceAll('_', '')
  let v: number
  if (/^0[xX]/.test(clean)) {
    const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(clean)
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return { ok: false, err: 'invalid syntax', v: 0 }
    const digits = (m[1] ?? '') + (m[2] ?? '')
    const exp = Number(m[3]) - 4 * (m[2] ?? '').length
    v = hexFloat(BigInt('0x' + (digits === '' ? '0' : digits)), exp)
  } else {
    if (!/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(clean)) return { ok: false, err: 'invalid syntax', v: 0 }
    v = Number(clean)
  }
  v *= sign
  if (!Number.isFinite(v)) return { ok: false, err: 'value out of range', v }
  return { ok: true, v }
}

/** mant × 2^exp rounded to the nearest float64 (ties to even). */
function hexFloat (mant: bigint, exp: number): number {
  if (mant === 0n) return 0
  // Normalise to 54+ bits so one rounding step is exact, then let the JS conversion of a bigint round.
  const bits = mant.toString(2).length
  if (bits + exp > 1025) return Infinity
  if (exp >= 0) return Number(mant << BigInt(exp))
  // Keep enough bits for the subnormal range; Number(bigint) rounds ties to even.
  const shift = -exp
  const scale = Math.min(shift, 1074)
  const q = Number(mant) === Number.POSITIVE_INFINITY ? Infinity : roundShift(mant, shift - scale) * 2 ** -scale
  return q
}

function roundShift (m: bigint, s: number): number {
  if (s <= 0) return Number(m)
  const q = m >> BigInt(s)
  const rem = m - (q << BigInt(s))
  const half = 1n << BigInt(s - 1)
  const up = rem > half || (rem === half && (q & 1n) === 1n)
  return Number(up ? q + 1n : q)
}

// cel-go's strings extension at the version Kubernetes 1.36 uses (ext.Strings(ext.StringsVersion(2))): charAt,
// indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join, strings.quote and format().
// Positions count code points, as Go's []rune does. format() is the version-1 formatter with its en_US printer:
// %f groups thousands (1,234.50), %e prints 1.234500×10⁰³ (and ignores the precision, as cel-go does), %s prints
// lists and maps the CEL way ([1, "a"], {"k":1}, doubles inside them with six decimals).
import { durationString, type FunctionDef, type Impl } from './stdlib.js'
import { formatRFC3339Nano } from '../../go/time.js'
import { CelDuration, CelError, CelList, CelMap, CelTimestamp, CelType, CelUint, noSuchOverload, typeName, type Val } from './values.js'
import { formatFloat, quote as goQuote } from '../../go/strconv.js'

const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const TRIM = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'gu')

const outOfRange = (i: bigint) => new CelError(`index out of range: ${i}`)

function strArgs (fn: string, args: Val[], types: string): Val[] | CelError {
  for (let i = 0; i < types.length; i++) {
    const ok = types[i] === 's' ? typeof args[i] === 'string' : typeof args[i] === 'bigint'
    if (!ok) return noSuchOverload(fn, ...args)
  }
  return args.length === types.length ? args : noSuchOverload(fn, ...args)
}

function indexOfRunes (runes: string[], sub: string[], from: number): number {
  for (let i = from; i < runes.length - (sub.length - 1); i++) {
    if (sub.every((r, j) => runes[i + j] === r)) return i
  }
  return -1
}

function indexOf (args: Val[]): Val {
  const a = strArgs('indexOf', args, args.length === 3 ? 'ssi' : 'ss')
  if (a instanceof CelError) return a
  const [s, sub, offset = 0n] = a as [string, string, bigint?]
  // An empty substring is found at the offset, whatever it is (cel-go checks the offset only after that).
  if (sub === '') return offset
  if (offset < 0n) return outOfRange(offset)
  const runes = [...s]
  if (offset >= BigInt(runes.length)) return -1n
  return BigInt(indexOfRunes(runes, [...sub], Number(offset)))
}

function lastIndexOf (args: Val[]): Val {
  const a = strArgs('lastIndexOf', args, args.length === 3 ? 'ssi' : 'ss')
  if (a instanceof CelError) return a
  const [s, sub] = a as [string, string]
  const runes = [...s]
  let offset: bigint
  if (a.length === 3) {
    offset = a[2] as bigint
  } else {
    if (sub === '') return BigInt(runes.length)
    if (Buffer.byteLength(s) < Buffer.byteLength(sub)) return -1n
    offset = BigInt(runes.length - 1)
  }
  if (sub === '') return offset
  if (offset < 0n) return outOfRange(offset)
  const subRunes = [...sub]
  if (offset >= BigInt(runes.length)) return -1n
  let off = Number(offset)
  if (off > runes.length - subRunes.length) off = runes.length - subRunes.length
  for (let i = off; i >= 0; i--) if (subRunes.every((r, j) => runes[i + j] === r)) return BigInt(i)
  return -1n
}

/** strings.Replace: n < 0 replaces all; an empty old inserts around every code point. */
function goReplace (s: string, old: string, repl: string, n: number): string {
  if (n === 0) return s
  const limit = n < 0 ? Infinity : n
  let out = ''
  let count = 0
  if (old === '') {
    const runes = [...s]
    for (let i = 0; i <= runes.length; i++) {
      if (count < limit) { out += repl; count++ }
      if (i < runes.length) out += runes[i]
    }
    return out
  }
  let from = 0
  for (;;) {
    const at = count < limit ? s.indexOf(old, from) : -1
    if (at < 0) return out + s.slice(from)
    out += s.slice(from, at) + repl
    from = at + old.length
    count++
  }
}

/** strings.SplitN: n == 0 gives none, n < 0 all, else at most n parts; an empty separator splits code points. */
function goSplit (s: string, sep: string, n: number): string[] {
  if (n === 0) return []
  if (sep === '') {
    const runes = [...s]
    if (n < 0 || n >= runes.length) return runes
    return [...runes.slice(0, n - 1), runes.slice(n - 1).join('')]
  }
  const parts = s.split(sep)
  if (n < 0 || parts.length <= n) return parts
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)]
}

const asciiCase = (s: string, upper: boolean) => s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, m => upper ? m.toUpperCase() : m.toLowerCase())

/** strings.quote: CEL's double-quoted literal of a string. */
function quote (s: string): string {
  const map: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' }
  return '"' + [...s].map(c => map[c] ?? c).join('') + '"'
}

const thousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')

const SUPERSCRIPT: Record<string, string> = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '-': '⁻' }

/** x/text's en_US %.Nf: grouped thousands, rounded as Go rounds. */
function localizedFixed (x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞'
  const s = formatFloat(x, 'f', precision).replace('-', '')
  const [int = '0', frac] = s.split('.')
  return (x < 0 || Object.is(x, -0) ? '-' : '') + thousands(int) + (frac !== undefined ? '.' + frac : '')
}

/** x/text's en_US %e: six decimals, ×10 and a superscript exponent of at least two digits. */
function localizedScientific (x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞'
  const [mant, exp] = formatFloat(Math.abs(x), 'e', 6).split('e') as [string, string]
  const e = exp.slice(1)
  return (x < 0 || Object.is(x, -0) ? '-' : '') + mant + '×10' + (exp[0] === '-' ? '⁻' : '') + [...e].map(d => SUPERSCRIPT[d]).join('')
}

class FormatFailure extends Error {}

/** The %s text of a value (FormatString). */
function formatString (v: Val): string {
  if (v instanceof CelList) return formatList(v)
  if (v instanceof CelMap) return formatMap(v)
  if (v === null) return 'null'
  if (typeof v === 'string') return v
  if (typeof v === 'bigint') return v.toString()
  if (v instanceof CelUint) return v.value.toString()
  if (typeof v === 'number') return formatFloat(v, 'g', -1)
  if (typeof v === 'boolean') return String(v)
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8')
  if (v instanceof CelTimestamp) return formatRFC3339Nano(v.ns, v.offset)
  if (v instanceof CelDuration) return durationString(v.ns)
  if (v instanceof CelType) return v.name
  throw new FormatFailure(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`)
}

/** A value inside a list or map, as clauseForType formats it, quoted as a CEL literal. */
function formatMember (v: Val): string {
  if (typeof v === 'string') return goQuote(v)
  if (v instanceof Uint8Array) return 'b' + goQuote(Buffer.from(v).toString('utf8'))
  if (typeof v === 'number') {
    return Number.isFinite(v) ? formatFloat(v, 'f', 6) : goQuote(Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf')
  }
  if (v instanceof CelTimestamp) return `timestamp(${goQuote(formatRFC3339Nano(v.ns, v.offset))})`
  if (v instanceof CelDuration) return `duration(${goQuote(durationString(v.ns))})`
  if (v instanceof CelList || v instanceof CelMap || v === null || typeof v === 'boolean' || typeof v === 'bigint' || v instanceof CelUint || v instanceof CelType) return formatString(v)
  throw new FormatFailure(`no formatting function for ${typeName(v)}`)
}

function formatList (l: CelList): string {
  return '[' + l.items.map(formatMember).join(', ') + ']'
}

function formatMap (m: CelMap): string {
  const pairs = m.iterationKeys().map(([k, v]) => {
    if (typeof k !== 'string' && typeof k !== 'boolean' && typeof k !== 'bigint' && !(k instanceof CelUint)) throw new FormatFailure(`no formatting function for map key of type ${typeName(k)}`)
    return [typeof k === 'string' ? goQuote(k) : formatString(k), formatMember(v)] as const
  })
  pairs.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
  return '{' + pairs.map(([k, v]) => `${k}:${v}`).join(', ') + '}'
}

const hex = (v: Val, upper: boolean): string => {
  let s: string
  if (typeof v === 'string') s = Buffer.from(v, 'utf8').toString('hex')
  else if (v instanceof Uint8Array) s = Buffer.from(v).toString('hex')
  else if (typeof v === 'bigint') s = (v < 0n ? '-' : '') + (v < 0n ? -v : v).toString(16)
  else if (v instanceof CelUint) s = v.value.toString(16)
  else throw new FormatFailure(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`)
  return upper ? s.toUpperCase() : s
}

const radix = (v: Val, base: number, what: string): string => {
  if (typeof v === 'bigint') return (v < 0n ? '-' : '') + (v < 0n ? -v : v).toString(base)
  if (v instanceof CelUint) return v.value.toString(base)
  if (base === 2 && typeof v === 'boolean') return v ? '1' : '0'
  throw new FormatFailure(what + typeName(v))
}

function fixedOrScientific (v: Val, clause: 'f' | 'e', precision: number): string {
  const special = typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v)
  if (typeof v !== 'number' && !special) {
    throw new FormatFailure(`${clause === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${typeName(v)}`)
  }
  const x = typeof v === 'number' ? v : Number(v)
  return clause === 'f' ? localizedFixed(x, precision) : localizedScientific(x)
}

/** The format string of string.format() applied to its arguments. */
function format (template: string, args: readonly Val[]): string | CelError {
  let out = ''
  let argIndex = 0
  const bytes = Buffer.from(template, 'utf8').toString('latin1')
  for (let i = 0; i < bytes.length;) {
    if (bytes[i] !== '%') { out += bytes[i]; i++; continue }
    if (bytes[i + 1] === '%') { out += '%'; i += 2; continue }
    if (argIndex >= args.length) return new CelError(`index ${argIndex} out of range`)
    if (i + 1 >= bytes.length) return new CelError('unexpected end of string')
    let j = i + 1
    let precision: number | undefined
    if (bytes[j] === '.') {
      j++
      let digits = ''
      for (;;) {
        if (j >= bytes.length) return new CelError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier')
        if (!/[0-9]/.test(bytes[j] as string)) break
        digits += bytes[j]
        j++
      }
      precision = digits === '' ? NaN : Number(digits)
      if (Number.isNaN(precision)) return new CelError('could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax')
    }
    const clause = bytes[j] as string
    const arg = args[argIndex] as Val
    let text: string
    try {
      switch (clause) {
        case 's': text = formatString(arg); break
        case 'd':
          if (typeof arg !== 'bigint' && !(arg instanceof CelUint)) throw new FormatFailure(`decimal clause can only be used on integers, was given ${typeName(arg)}`)
          text = formatString(arg)
          break
        case 'f': case 'e': text = fixedOrScientific(arg, clause, precision ?? 6); break
        case 'b': text = radix(arg, 2, 'only integers and bools can be formatted as binary, was given '); break
        case 'o': text = radix(arg, 8, 'octal clause can only be used on integers, was given '); break
        case 'x': case 'X': text = hex(arg, clause === 'X'); break
        default: return new CelError(`could not parse formatting clause: unrecognized formatting clause "${clause}"`)
      }
    } catch (err) {
      if (err instanceof FormatFailure) return new CelError(`error during formatting: ${err.message}`)
      throw err
    }
    out += Buffer.from(text, 'utf8').toString('latin1')
    i = j + 1
    argIndex++
  }
  return Buffer.from(out, 'latin1').toString('utf8')
}

const m = (impl: Impl): FunctionDef => ({ member: impl })

/** The strings extension, by function name. */
export const STRINGS_FUNCTIONS: Record<string, FunctionDef> = {
  charAt: m((args) => {
    const a = strArgs('charAt', args, 'si')
    if (a instanceof CelError) return a
    const runes = [...(a[0] as string)]
    const i = a[1] as bigint
    if (i < 0n || i > BigInt(runes.length)) return outOfRange(i)
    return runes[Number(i)] ?? ''
  }),
  indexOf: m(indexOf),
  lastIndexOf: m(lastIndexOf),
  lowerAscii: m((args) => { const a = strArgs('lowerAscii', args, 's'); return a instanceof CelError ? a : asciiCase(a[0] as string, false) }),
  upperAscii: m((args) => { const a = strArgs('upperAscii', args, 's'); return a instanceof CelError ? a : asciiCase(a[0] as string, true) }),
  replace: m((args) => {
    const a = strArgs('replace', args, args.length === 4 ? 'sssi' : 'sss')
    if (a instanceof CelError) return a
    return goReplace(a[0] as string, a[1] as string, a[2] as string, a.length === 4 ? Number(a[3]) : -1)
  }),
  split: m((args) => {
    const a = strArgs('split', args, args.length === 3 ? 'ssi' : 'ss')
    if (a instanceof CelError) return a
    return new CelList(goSplit(a[0] as string, a[1] as string, a.length === 3 ? Number(a[2]) : -1))
  }),
  substring: m((args) => {
    const a = strArgs('substring', args, args.length === 3 ? 'sii' : 'si')
    if (a instanceof CelError) return a
    const runes = [...(a[0] as string)]
    const start = a[1] as bigint
    const end = a.length === 3 ? a[2] as bigint : BigInt(runes.length)
    if (a.length === 3 && start > end) return new CelError(`invalid substring range. start: ${start}, end: ${end}`)
    if (start < 0n || start > BigInt(runes.length)) return outOfRange(start)
    if (end < 0n || end > BigInt(runes.length)) return outOfRange(end)
    return runes.slice(Number(start), Number(end)).join('')
  }),
  trim: m((args) => { const a = strArgs('trim', args, 's'); return a instanceof CelError ? a : (a[0] as string).replace(TRIM, '') }),
  join: m(([list, sep, ...rest]) => {
    // The overloads take list(string): a list whose first item is not a string matches none (cel-go checks that one).
    const first = list instanceof CelList ? list.items[0] : undefined
    if (!(list instanceof CelList) || (sep !== undefined && typeof sep !== 'string') || rest.length > 0 || (first !== undefined && typeof first !== 'string')) {
      return noSuchOverload('join', ...[list, sep].filter(x => x !== undefined) as Val[])
    }
    for (const x of list.items) if (typeof x !== 'string') return new CelError(`join: invalid input: ${formatString(x)}`)
    return list.items.join(sep ?? '')
  }),
  format: m(([template, list]) => {
    if (typeof template !== 'string' || !(list instanceof CelList)) return noSuchOverload('format', template as Val, list as Val)
    return format(template, list.items)
  }),
  'strings.quote': { global: ([s]) => typeof s === 'string' ? quote(s) : noSuchOverload('strings.quote', s as Val) }
}

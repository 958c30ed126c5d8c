// sprig's string functions (strings.go and the string entries of functions.go), with the byte-indexed behaviour of
// the Go code they call (trunc, substr, abbrev, wrap, initials and nospace count bytes).
import { sprintV } from '../fmt.js'
import { sprintf } from '../printf.js'
import { quote as goQuote } from '../../go/strconv.js'
import {
  byteSlice, fn, GoCallError, type GoFunc, GoInt, GoMap, GoSlice, type GoValue, IFACE, kindOf, Unsupported
} from '../values.js'
import { byteLength } from '../../go/utf8.js'
import { compare as compareStrings } from '../../go/strings.js'
import { toConnectedLower, toPascalCase } from './cases.js'
import { strval } from './cast.js'
import {
  basePath, bytesAsRunes, cleanPath, dirPath, extPath, isLower, isSpace, isTitle, isUpper, lower, replaceAll, sliceString,
  splitN, toLower, toTitle, toUpper, trimCutset, trimSpace, upper
} from './text.js'

const S = 'string'
const INT = 'int'

function n (v: GoInt): number {
  const x = v.v
  if (x > 1_000_000_000n || x < -1_000_000_000n) throw new Unsupported(`an int argument of ${x}`)
  return Number(x)
}

function abbreviateFull (s: string, offset: number, maxWidth: number): string {
  if (s === '') return ''
  const len = byteLength(s)
  if (len <= maxWidth) return s
  if (offset > len) offset = len
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3)
  if (offset <= 4) return byteSlice(s, 0, maxWidth - 3) + '...'
  if (maxWidth < 7) return ''
  if (offset + maxWidth - 3 < len) return '...' + abbreviateFull(byteSlice(s, offset, len), 0, maxWidth - 3)
  return '...' + byteSlice(s, len - (maxWidth - 3), len)
}

function wrapCustom (s: string, width: number, newline: string, wrapLong: boolean): string {
  if (s === '') return ''
  if (newline === '') newline = '\n'
  if (width < 1) width = 1
  const len = byteLength(s)
  const cut = (a: number, b: number): string => byteSlice(s, a, b)
  const bytes = bytesAsRunes(s)
  const lastSpace = (from: number, to: number): number => {
    for (let i = Math.min(to, len) - 1; i >= from; i--) if (bytes[i] === ' ') return i
    return -1
  }
  let out = ''
  let offset = 0
  while (len - offset > width) {
    if (bytes[offset] === ' ') { offset++; continue }
    const at = lastSpace(offset, width + offset + 1)
    if (at >= offset) {
      out += cut(offset, at) + newline
      offset = at + 1
    } else if (wrapLong) {
      out += cut(offset, width + offset) + newline
      offset += width
    } else {
      let next = -1
      for (let i = width + offset; i < len; i++) if (bytes[i] === ' ') { next = i; break }
      if (next < 0) {
        out += cut(offset, len)
        offset = len
      } else {
        out += cut(offset, next) + newline
        offset = next + 1
      }
    }
  }
  return out + cut(offset, len)
}

// strings.Title's word boundaries: ASCII other than letters, digits and _; beyond ASCII, spaces.
function isSeparator (ch: string): boolean {
  const r = ch.codePointAt(0) as number
  if (r <= 0x7f) return !/[0-9a-zA-Z_]/.test(ch)
  if (/^[\p{L}\p{Nd}]$/u.test(ch)) return false
  return isSpace(r)
}

function title (s: string): string {
  let prev = ' '
  let out = ''
  for (const ch of s) {
    out += isSeparator(prev) ? toTitle(ch) : ch
    prev = ch
  }
  return out
}

function swapCase (s: string): string {
  let ws = true
  let out = ''
  for (const ch of s) {
    if (isUpper(ch) || isTitle(ch)) { out += toLower(ch); ws = false } else if (isLower(ch)) {
      out += ws ? toTitle(ch) : toUpper(ch)
      ws = false
    } else {
      out += ch
      ws = isSpace(ch.codePointAt(0) as number)
    }
  }
  return out
}

function uncapitalize (s: string): string {
  let next = true
  let out = ''
  for (const ch of s) {
    if (isSpace(ch.codePointAt(0) as number)) { next = true; out += ch } else if (next) { out += toLower(ch); next = false } else out += ch
  }
  return out
}

function initials (s: string): string {
  let gap = true
  let out = ''
  for (const b of bytesAsRunes(s)) {
    if (isSpace(b.charCodeAt(0))) gap = true
    else if (gap) { out += b; gap = false }
  }
  return out
}

function deleteWhiteSpace (s: string): string {
  const bytes = bytesAsRunes(s)
  const kept = bytes.filter(b => !isSpace(b.charCodeAt(0)))
  return kept.length === bytes.length ? s : kept.join('')
}

/** sprig's strslice: a list's elements (nils dropped) as strings; another value as a one-element list. */
function strslice (v: GoValue): string[] {
  if (v instanceof GoSlice) {
    if (v.type === '[]string') return (v.items ?? []) as string[]
    return (v.items ?? []).filter(x => x !== null).map(strval)
  }
  if (v === null) return []
  return [strval(v)]
}

function splitMap (parts: string[] | null): GoMap {
  return new GoMap('map[string]string', new Map((parts ?? []).map((p, i) => [`_${i}`, p])))
}

function strings (items: string[] | null): GoSlice { return new GoSlice('[]string', items) }

function repeat (count: GoInt, s: string): string {
  if (count.v < 0n) throw new GoCallError('strings: negative Repeat count')
  if (count.v * BigInt(byteLength(s)) > 16_000_000n) throw new Unsupported('a repeat result over 16 MB')
  return s.repeat(Number(count.v))
}

/** The string functions of sprig's hermetic map. */
export const STRINGS: Record<string, GoFunc> = {
  hello: fn([], S, () => 'Hello!'),
  abbrev: fn([INT, S], S, (w: GoInt, s: string) => n(w) < 4 ? s : abbreviateFull(s, 0, n(w))),
  abbrevboth: fn([INT, INT, S], S, (l: GoInt, r: GoInt, s: string) => n(r) < 4 || (n(l) > 0 && n(r) < 7) ? s : abbreviateFull(s, n(l), n(r))),
  trunc: fn([INT, S], S, (c: GoInt, s: string) => {
    const len = byteLength(s)
    const k = Number(c.v < -1_000_000_000_000n ? -1_000_000_000_000n : c.v > 1_000_000_000_000n ? 1_000_000_000_000n : c.v)
    if (k < 0 && len + k > 0) return byteSlice(s, len + k, len)
    if (k >= 0 && len > k) return byteSlice(s, 0, k)
    return s
  }),
  trim: fn([S], S, trimSpace),
  upper: fn([S], S, upper),
  lower: fn([S], S, lower),
  title: fn([S], S, title),
  untitle: fn([S], S, uncapitalize),
  substr: fn([INT, INT, S], S, (start: GoInt, end: GoInt, s: string) => {
    const a = n(start)
    const b = n(end)
    if (a < 0) return sliceString(s, undefined, b)
    if (b < 0 || b > byteLength(s)) return sliceString(s, a, undefined)
    return sliceString(s, a, b)
  }),
  repeat: fn([INT, S], S, repeat),
  trimall: fn([S, S], S, (cut: string, s: string) => trimCutset(s, cut)),
  trimAll: fn([S, S], S, (cut: string, s: string) => trimCutset(s, cut)),
  trimSuffix: fn([S, S], S, (suf: string, s: string) => suf !== '' && s.endsWith(suf) ? s.slice(0, s.length - suf.length) : s),
  trimPrefix: fn([S, S], S, (pre: string, s: string) => s.startsWith(pre) ? s.slice(pre.length) : s),
  nospace: fn([S], S, deleteWhiteSpace),
  initials: fn([S], S, initials),
  swapcase: fn([S], S, swapCase),
  snakecase: fn([S], S, (s: string) => toConnectedLower(s, '_')),
  camelcase: fn([S], S, toPascalCase),
  kebabcase: fn([S], S, (s: string) => toConnectedLower(s, '-')),
  wrap: fn([INT, S], S, (l: GoInt, s: string) => wrapCustom(s, n(l), '', false)),
  wrapWith: fn([INT, S, S], S, (l: GoInt, sep: string, s: string) => wrapCustom(s, n(l), sep, true)),
  contains: fn([S, S], 'bool', (sub: string, s: string) => s.includes(sub)),
  hasPrefix: fn([S, S], 'bool', (pre: string, s: string) => s.startsWith(pre)),
  hasSuffix: fn([S, S], 'bool', (suf: string, s: string) => s.endsWith(suf)),
  quote: fn([IFACE], S, (...xs: GoValue[]) => xs.filter(x => x !== null).map(x => goQuote(strval(x))).join(' '), { variadic: true }),
  squote: fn([IFACE], S, (...xs: GoValue[]) => xs.filter(x => x !== null).map(x => sprintf('\'%v\'', [x])).join(' '), { variadic: true }),
  cat: fn([IFACE], S, (...xs: GoValue[]) => xs.filter(x => x !== null).map(sprintV).join(' '), { variadic: true }),
  indent: fn([INT, S], S, (k: GoInt, s: string) => indent(k, s)),
  nindent: fn([INT, S], S, (k: GoInt, s: string) => '\n' + indent(k, s)),
  replace: fn([S, S, S], S, (old: string, repl: string, s: string) => replaceAll(s, old, repl)),
  plural: fn([S, S, INT], S, (one: string, many: string, count: GoInt) => count.v === 1n ? one : many),
  toString: fn([IFACE], S, strval),
  split: fn([S, S], 'map[string]string', (sep: string, s: string) => splitMap(splitN(s, sep, -1))),
  splitList: fn([S, S], '[]string', (sep: string, s: string) => strings(splitN(s, sep, -1))),
  splitn: fn([S, INT, S], 'map[string]string', (sep: string, k: GoInt, s: string) => splitMap(splitN(s, sep, n(k)))),
  toStrings: fn([IFACE], '[]string', (v: GoValue) => strings(strslice(v))),
  join: fn([S, IFACE], S, (sep: string, v: GoValue) => strslice(v).join(sep)),
  sortAlpha: fn([IFACE], '[]string', (v: GoValue) => {
    if (kindOf(v) !== 'slice') return strings([strval(v)])
    return strings([...strslice(v)].sort(compareStrings))
  }),
  base: fn([S], S, basePath),
  dir: fn([S], S, dirPath),
  clean: fn([S], S, cleanPath),
  ext: fn([S], S, extPath),
  isAbs: fn([S], 'bool', (p: string) => p.startsWith('/')),
  osBase: fn([S], S, basePath),
  osDir: fn([S], S, dirPath),
  osClean: fn([S], S, cleanPath),
  osExt: fn([S], S, extPath),
  osIsAbs: fn([S], 'bool', (p: string) => p.startsWith('/'))
}

function indent (k: GoInt, s: string): string {
  if (k.v < 0n) throw new GoCallError('strings: negative Repeat count')
  const pad = ' '.repeat(n(k))
  return pad + s.split('\n').join('\n' + pad)
}

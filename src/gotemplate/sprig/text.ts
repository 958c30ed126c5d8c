// Go's string primitives that sprig's functions stand on, with Go's semantics rather than JS's: per-rune simple case
// mapping (strings.ToUpper never turns ß into SS), unicode.IsSpace, byte-indexed slicing and its runtime panics,
// strings.Split and Replace on an empty separator (per rune, not per UTF-16 unit), and the path package.
import { GoCallError, byteSlice, isAscii, utf8Bytes } from '../values.js'
import { byteLength } from '../../go/utf8.js'

/** unicode.IsSpace. */
export function isSpace (r: number): boolean {
  switch (r) {
    case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x20: case 0x85: case 0xa0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000:
      return true
  }
  return r >= 0x2000 && r <= 0x200a
}

/** unicode.IsLetter. */
export function isLetter (ch: string): boolean { return /^\p{L}$/u.test(ch) }
/** unicode.IsUpper. */
export function isUpper (ch: string): boolean { return /^\p{Lu}$/u.test(ch) }
/** unicode.IsLower. */
export function isLower (ch: string): boolean { return /^\p{Ll}$/u.test(ch) }
/** unicode.IsTitle. */
export function isTitle (ch: string): boolean { return /^\p{Lt}$/u.test(ch) }
/** unicode.IsPunct. */
export function isPunct (ch: string): boolean { return /^\p{P}$/u.test(ch) }

// unicode.ToLower/ToUpper are one-to-one (simple case mapping); JS's full mapping can expand a character.
const SIMPLE_LOWER: Record<string, string> = { İ: 'i' }
const SIMPLE_UPPER: Record<string, string> = {}
const TITLE: Record<string, string> = {
  Ǆ: '\u01c5',
  ǅ: '\u01c5',
  ǆ: '\u01c5',
  Ǉ: '\u01c8',
  ǈ: '\u01c8',
  ǉ: '\u01c8',
  Ǌ: '\u01cb',
  ǋ: '\u01cb',
  ǌ: '\u01cb',
  Ǳ: '\u01f2',
  ǲ: '\u01f2',
  ǳ: '\u01f2'
}

/** unicode.ToUpper of one character. */
export function toUpper (ch: string): string {
  if (ch.length === 1 && ch < '\x80') return ch.toUpperCase()
  const mapped = SIMPLE_UPPER[ch]
  if (mapped !== undefined) return mapped
  if (TITLE[ch] !== undefined && ch !== '\u01c5' && ch !== '\u01c8' && ch !== '\u01cb' && ch !== '\u01f2') return ch.toUpperCase()
  const u = ch.toUpperCase()
  return [...u].length === 1 ? u : ch
}

/** unicode.ToLower of one character. */
export function toLower (ch: string): string {
  if (ch.length === 1 && ch < '\x80') return ch.toLowerCase()
  const mapped = SIMPLE_LOWER[ch]
  if (mapped !== undefined) return mapped
  const l = ch.toLowerCase()
  return [...l].length === 1 ? l : ch
}

/** unicode.ToTitle of one character. */
export function toTitle (ch: string): string { return TITLE[ch] ?? toUpper(ch) }

/** strings.ToUpper. */
export function upper (s: string): string { return isAscii(s) ? s.toUpperCase() : [...s].map(toUpper).join('') }
/** strings.ToLower. */
export function lower (s: string): string { return isAscii(s) ? s.toLowerCase() : [...s].map(toLower).join('') }

/** strings.TrimSpace. */
export function trimSpace (s: string): string {
  const cps = [...s]
  let i = 0
  let j = cps.length
  while (i < j && isSpace(cps[i]?.codePointAt(0) as number)) i++
  while (j > i && isSpace(cps[j - 1]?.codePointAt(0) as number)) j--
  return cps.slice(i, j).join('')
}

/** strings.Trim(s, cutset). */
export function trimCutset (s: string, cutset: string): string {
  if (s === '' || cutset === '') return s
  const set = new Set(cutset)
  const cps = [...s]
  let i = 0
  let j = cps.length
  while (i < j && set.has(cps[i] as string)) i++
  while (j > i && set.has(cps[j - 1] as string)) j--
  return cps.slice(i, j).join('')
}

/** strings.Split(s, sep) (n < 0) and SplitN. */
export function splitN (s: string, sep: string, n: number): string[] | null {
  if (n === 0) return null
  if (sep === '') {
    const runes = [...s]
    if (n < 0 || n >= runes.length) return runes
    return [...runes.slice(0, n - 1), runes.slice(n - 1).join('')]
  }
  const parts = s.split(sep)
  if (n < 0 || parts.length <= n) return parts
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)]
}

/** strings.Replace(s, old, new, -1). */
export function replaceAll (s: string, old: string, repl: string): string {
  if (old !== '') return s.split(old).join(repl)
  return repl + [...s].join(repl) + (s === '' ? '' : repl)
}

/** s[lo:hi] on a Go string, with the runtime's panic texts for bounds out of range. */
export function sliceString (s: string, lo: number | undefined, hi: number | undefined): string {
  const len = byteLength(s)
  const l = lo ?? 0
  const h = hi ?? len
  if (hi !== undefined && h < 0) throw new GoCallError(`runtime error: slice bounds out of range [:${h}]`)
  if (hi !== undefined && h > len) throw new GoCallError(`runtime error: slice bounds out of range [:${h}] with length ${len}`)
  if (l < 0) throw new GoCallError(`runtime error: slice bounds out of range [${l}:]`)
  if (l > h) throw new GoCallError(`runtime error: slice bounds out of range [${l}:${h}]`)
  return byteSlice(s, l, h)
}

/** The bytes of s as characters (what Go code that walks a string byte by byte as runes writes). */
export function bytesAsRunes (s: string): string[] {
  if (isAscii(s)) return [...s]
  return Array.from(utf8Bytes(s), b => String.fromCharCode(b))
}

/** path.Clean. */
export function cleanPath (p: string): string {
  if (p === '') return '.'
  const rooted = p[0] === '/'
  const out: string[] = []
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop()
      else if (!rooted) out.push('..')
      continue
    }
    out.push(part)
  }
  const joined = out.join('/')
  if (rooted) return '/' + joined
  return joined === '' ? '.' : joined
}

/** path.Base. */
export function basePath (p: string): string {
  if (p === '') return '.'
  p = p.replace(/\/+$/, '')
  if (p === '') return '/'
  const i = p.lastIndexOf('/')
  return i >= 0 ? p.slice(i + 1) : p
}

/** path.Dir. */
export function dirPath (p: string): string {
  const i = p.lastIndexOf('/')
  return cleanPath(p.slice(0, i + 1))
}

/** path.Ext. */
export function extPath (p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i)
  return ''
}

// Go's regexp syntax (RE2, with Perl flags as regexp.Compile uses them) read and rewritten as a JS RegExp that
// matches the same strings at the same places: '.' excludes only \n, \s \d \w are ASCII, ^ and $ are text anchors
// unless (?m), POSIX classes, \Q…\E, (?flags) scoped to their group. Syntax errors carry Go's texts. What JS
// cannot express the same way (case-insensitivity switched on mid-pattern around a class, unknown property names)
// is refused (Unsupported) rather than approximated.
import { Unsupported } from '../values.js'

/** A regexp syntax error, with Go's message (`error parsing regexp: CODE: `EXPR``). */
export class RegexpSyntaxError extends Error {}

function syntax (code: string, expr: string): never {
  throw new RegexpSyntaxError(`error parsing regexp: ${code}: \`${expr}\``)
}

/** A translated regexp: the JS source and flags, and the Go names of the capture groups (index 0 unused). */
export interface Translated { source: string, flags: string, names: Array<string | undefined>, numCap: number }

interface Flags { i: boolean, m: boolean, s: boolean, U: boolean }

const cp = (c: number): string => `\\u{${c.toString(16)}}`

const PERL: Record<string, Array<[number, number]>> = {
  d: [[0x30, 0x39]],
  s: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]],
  w: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]
}

const POSIX: Record<string, Array<[number, number]>> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]
}

function negate (ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let next = 0
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (lo > next) out.push([next, lo - 1])
    next = Math.max(next, hi + 1)
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff])
  return out
}

function rangesSource (ranges: Array<[number, number]>): string {
  return ranges.map(([lo, hi]) => lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`).join('')
}

const GENERAL_CATEGORY = /^(?:C|Cc|Cf|Co|Cs|L|Ll|Lm|Lo|Lt|Lu|M|Mc|Me|Mn|N|Nd|Nl|No|P|Pc|Pd|Pe|Pf|Pi|Po|Ps|S|Sc|Sk|Sm|So|Z|Zl|Zp|Zs)$/

/** \p{name} as JS says it (Go's categories and scripts; "Any"). */
function unicodeProperty (name: string, negated: boolean, seq: string): string {
  let js: string
  if (name === 'Any') js = 'Any'
  else if (GENERAL_CATEGORY.test(name)) js = name
  else if (/^[A-Z][A-Za-z_]*$/.test(name)) js = `Script=${name}`
  else syntax('invalid character class range', seq)
  let known = false
  try {
    known = new RegExp(`\\p{${js}}`, 'u').unicode
  } catch {
    known = false
  }
  if (!known) throw new Unsupported(`the Unicode class ${seq}`)
  return `\\${negated ? 'P' : 'p'}{${js}}`
}

/** Case variants of a character (what a case-insensitive match accepts for it). */
function caseClass (ch: string): string {
  const variants = new Set([ch, ch.toLowerCase(), ch.toUpperCase()].filter(v => [...v].length === 1))
  if (/[kK\u212a]/.test(ch)) ['k', 'K', '\u212a'].forEach(v => variants.add(v))
  if (/[sS\u017f]/.test(ch)) ['s', 'S', '\u017f'].forEach(v => variants.add(v))
  if (variants.size === 1) return cp(ch.codePointAt(0) as number)
  return '[' + [...variants].map(v => cp(v.codePointAt(0) as number)).join('') + ']'
}

const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c)
const unhex = (c: string): number => /^[0-9a-fA-F]$/.test(c) ? Number.parseInt(c, 16) : -1

/** Translates Go regexp syntax to a JS RegExp; throws RegexpSyntaxError (Go's text) or Unsupported. */
export function translate (re: string): Translated {
  // Case-insensitivity for the whole expression maps to JS's i flag; switched on later, literals are expanded.
  const globalI = /^\(\?[imsU]*i[imsU]*\)/.test(re) && !/\(\?[imsU]*-/.test(re)
  let flags: Flags = { i: false, m: false, s: false, U: false }
  const names: Array<string | undefined> = [undefined]
  let numCap = 0
  let out = ''
  // Where the last atom starts in `out`, or -1 when there is none (start, after '(' or '|').
  let atom = -1
  let lastRepeat = ''
  const stack: Array<{ flags: Flags, atomOut: number }> = []
  let t = re

  const literal = (c: string): void => {
    atom = out.length
    out += flags.i && !globalI ? caseClass(c) : cp(c.codePointAt(0) as number)
  }
  const op = (src: string): void => { atom = out.length; out += src }

  const parseEscape = (s: string): [string, string] => {
    let rest = s.slice(1)
    if (rest === '') syntax('trailing backslash at end of expression', '')
    const c = String.fromCodePoint(rest.codePointAt(0) as number)
    rest = rest.slice(c.length)
    const bad = (): never => syntax('invalid escape sequence', s.slice(0, s.length - rest.length))
    if (c < '\x80' && !isAlnum(c)) return [c, rest]
    if (c >= '1' && c <= '7' && (rest === '' || rest[0] as string < '0' || rest[0] as string > '7')) bad()
    if (c >= '0' && c <= '7') {
      let r = c.charCodeAt(0) - 48
      for (let i = 1; i < 3 && rest !== '' && rest[0] as string >= '0' && rest[0] as string <= '7'; i++) {
        r = r * 8 + (rest.charCodeAt(0) - 48)
        rest = rest.slice(1)
      }
      return [String.fromCodePoint(r), rest]
    }
    if (c === 'x') {
      if (rest === '') bad()
      if (rest[0] === '{') {
        rest = rest.slice(1)
        let r = 0
        let n = 0
        for (;;) {
          if (rest === '') bad()
          const h = rest[0] as string
          rest = rest.slice(1)
          if (h === '}') break
          const v = unhex(h)
          if (v < 0) bad()
          r = r * 16 + v
          if (r > 0x10ffff) bad()
          n++
        }
        if (n === 0) bad()
        return [String.fromCodePoint(r), rest]
      }
      const x = unhex(rest[0] as string)
      const y = unhex(rest[1] ?? '')
      rest = rest.slice(Math.min(2, rest.length))
      if (x < 0 || y < 0) bad()
      return [String.fromCodePoint(x * 16 + y), rest]
    }
    const simple: Record<string, string> = { a: '\x07', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' }
    if (simple[c] !== undefined) return [simple[c], rest]
    return bad()
  }

  // A \p / \P class at s: its JS source and the rest, or undefined.
  const unicodeClass = (s: string): [string, string] | undefined => {
    if (s.length < 2 || s[0] !== '\\' || (s[1] !== 'p' && s[1] !== 'P')) return undefined
    let negated = s[1] === 'P'
    let seq: string
    let name: string
    let rest: string
    if (s[2] !== '{') {
      const c = s.length > 2 ? String.fromCodePoint(s.codePointAt(2) as number) : ''
      seq = s.slice(0, 2 + c.length)
      name = c
      rest = s.slice(seq.length)
    } else {
      const end = s.indexOf('}')
      if (end < 0) syntax('invalid character class range', s)
      seq = s.slice(0, end + 1)
      name = s.slice(3, end)
      rest = s.slice(end + 1)
    }
    if (name.startsWith('^')) { negated = !negated; name = name.slice(1) }
    return [unicodeProperty(name, negated, seq), rest]
  }

  const perlClass = (s: string): [Array<[number, number]>, string] | undefined => {
    if (s.length < 2 || s[0] !== '\\') return undefined
    const base = PERL[(s[1] as string).toLowerCase()]
    if (base === undefined || !/[dswDSW]/.test(s[1] as string)) return undefined
    return [s[1] === (s[1] as string).toUpperCase() ? negate(base) : base, s.slice(2)]
  }

  const parseClass = (s: string): string => {
    if (flags.i && !globalI) throw new Unsupported('a character class where case-insensitive matching starts mid-expression')
    let rest = s.slice(1)
    let negated = false
    if (rest[0] === '^') { negated = true; rest = rest.slice(1) }
    let body = ''
    let first = true
    while (rest === '' || rest[0] !== ']' || first) {
      first = false
      if (rest.length > 2 && rest[0] === '[' && rest[1] === ':') {
        const end = rest.indexOf(':]', 2)
        if (end >= 0) {
          let name = rest.slice(2, end)
          const neg = name.startsWith('^')
          if (neg) name = name.slice(1)
          const ranges = POSIX[name]
          if (ranges === undefined) syntax('invalid character class range', rest.slice(0, end + 2))
          body += rangesSource(neg ? negate(ranges) : ranges)
          rest = rest.slice(end + 2)
          continue
        }
      }
      const uni = unicodeClass(rest)
      if (uni !== undefined) { body += uni[0]; rest = uni[1]; continue }
      const perl = perlClass(rest)
      if (perl !== undefined) { body += rangesSource(perl[0]); rest = perl[1]; continue }
      const rng = rest
      const classChar = (x: string): [string, string] => {
        if (x === '') syntax('missing closing ]', s)
        if (x[0] === '\\') return parseEscape(x)
        const c = String.fromCodePoint(x.codePointAt(0) as number)
        return [c, x.slice(c.length)]
      }
      let lo: string
      [lo, rest] = classChar(rest)
      let hi = lo
      if (rest.length >= 2 && rest[0] === '-' && rest[1] !== ']') {
        [hi, rest] = classChar(rest.slice(1))
        if ((hi.codePointAt(0) as number) < (lo.codePointAt(0) as number)) syntax('invalid character class range', rng.slice(0, rng.length - rest.length))
      }
      const a = lo.codePointAt(0) as number
      const b = hi.codePointAt(0) as number
      body += a === b ? cp(a) : `${cp(a)}-${cp(b)}`
    }
    rest = rest.slice(1)
    atom = out.length
    out += body === '' ? (negated ? '[^]' : '[]') : `[${negated ? '^' : ''}${body}]`
    return rest
  }

  const repeat = (quant: string, before: string, after: string): string => {
    let greedy = !flags.U
    if (after[0] === '?') { after = after.slice(1); greedy = !greedy }
    if (lastRepeat !== '') syntax('invalid nested repetition operator', lastRepeat.slice(0, lastRepeat.length - after.length))
    if (atom < 0) syntax('missing argument to repetition operator', before.slice(0, before.length - after.length))
    out = out.slice(0, atom) + '(?:' + out.slice(atom) + ')' + quant + (greedy ? '' : '?')
    return after
  }

  const parsePerlFlags = (s: string): string => {
    const startsWithP = s.length > 4 && s[2] === 'P' && s[3] === '<'
    const startsWithName = s.length > 3 && s[2] === '<'
    if (startsWithP || startsWithName) {
      const begin = startsWithName ? 3 : 4
      const end = s.indexOf('>')
      if (end < 0) syntax('invalid named capture', s)
      const capture = s.slice(0, end + 1)
      const name = s.slice(begin, end)
      if (name === '' || !/^[0-9A-Za-z_]+$/.test(name)) syntax('invalid named capture', capture)
      numCap++
      names[numCap] = name
      stack.push({ flags, atomOut: out.length })
      out += '('
      atom = -1
      return s.slice(end + 1)
    }
    let rest = s.slice(2)
    const next: Flags = { ...flags }
    let sign = 1
    let sawFlag = false
    while (rest !== '') {
      const c = String.fromCodePoint(rest.codePointAt(0) as number)
      rest = rest.slice(c.length)
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        next[c] = sign > 0
        sawFlag = true
        continue
      }
      if (c === '-') {
        if (sign < 0) break
        sign = -1
        sawFlag = false
        continue
      }
      if (c === ':' || c === ')') {
        if (sign < 0 && !sawFlag) break
        if (c === ':') {
          stack.push({ flags, atomOut: out.length })
          out += '(?:'
          atom = -1
        }
        flags = next
        return rest
      }
      break
    }
    return syntax('invalid or unsupported Perl syntax', s.slice(0, s.length - rest.length))
  }

  while (t !== '') {
    let rep = ''
    const c = t[0] as string
    if (c === '(') {
      if (t[1] === '?') t = parsePerlFlags(t)
      else {
        numCap++
        stack.push({ flags, atomOut: out.length })
        out += '('
        atom = -1
        t = t.slice(1)
      }
      if (stack.length > 1000) syntax('expression nests too deeply', re)
    } else if (c === '|') {
      out += '|'
      atom = -1
      t = t.slice(1)
    } else if (c === ')') {
      const frame = stack.pop()
      if (frame === undefined) syntax('unexpected )', re)
      out += ')'
      atom = frame.atomOut
      flags = frame.flags
      t = t.slice(1)
    } else if (c === '^') {
      op(flags.m ? '(?<![^\\n])' : '^')
      t = t.slice(1)
    } else if (c === '$') {
      op(flags.m ? '(?![^\\n])' : '$')
      t = t.slice(1)
    } else if (c === '.') {
      op(flags.s ? '[^]' : '[^\\n]')
      t = t.slice(1)
    } else if (c === '[') {
      t = parseClass(t)
    } else if (c === '*' || c === '+' || c === '?') {
      const before = t
      t = repeat(c, before, t.slice(1))
      rep = before
    } else if (c === '{') {
      const m = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(t)
      if (m === null) {
        literal('{')
        t = t.slice(1)
      } else {
        const big = (x: string): number => x.length > 9 ? -1 : Number(x)
        const min = big(m[1] as string)
        const max = m[2] === undefined ? min : m[3] === undefined ? -1 : big(m[3])
        const invalidMax = m[3] !== undefined && max < 0
        if (min < 0 || invalidMax || min > 1000 || max > 1000 || (max >= 0 && min > max)) syntax('invalid repeat count', m[0])
        const before = t
        t = repeat(`{${min},${max < 0 ? '' : max}}`, before, t.slice(m[0].length))
        rep = before
      }
    } else if (c === '\\') {
      const e = t[1]
      if (e === 'A') { op('^'); t = t.slice(2) } else if (e === 'z') { op('$'); t = t.slice(2) } else if (e === 'b') { op('\\b'); t = t.slice(2) } else if (e === 'B') { op('\\B'); t = t.slice(2) } else if (e === 'C') syntax('invalid escape sequence', '\\C')
      else if (e === 'Q') {
        const end = t.indexOf('\\E', 2)
        const lit = end < 0 ? t.slice(2) : t.slice(2, end)
        t = end < 0 ? '' : t.slice(end + 2)
        for (const ch of lit) literal(ch)
      } else {
        const uni = unicodeClass(t)
        const perl = uni === undefined ? perlClass(t) : undefined
        if (uni !== undefined) {
          if (flags.i && !globalI) throw new Unsupported('a Unicode class where case-insensitive matching starts mid-expression')
          op(uni[0])
          t = uni[1]
        } else if (perl !== undefined) {
          op(`[${rangesSource(perl[0])}]`)
          t = perl[1]
        } else {
          const [ch, rest] = parseEscape(t)
          literal(ch)
          t = rest
        }
      }
    } else {
      const ch = String.fromCodePoint(t.codePointAt(0) as number)
      literal(ch)
      t = t.slice(ch.length)
    }
    lastRepeat = rep
  }
  if (stack.length > 0) syntax('missing closing )', re)
  return { source: out, flags: globalI ? 'iu' : 'u', names, numCap }
}

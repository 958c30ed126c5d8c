// Regular expressions with Go's (RE2) syntax and semantics. Matching (the pattern keyword, CEL matches()) uses
// @bufbuild/re2, an RE2 engine, so what Go accepts and matches is what is accepted and matched here, and a syntax
// error carries Go's message (`error parsing regexp: missing closing ): ...`). CEL's find() and findAll() need the
// matched text, which that engine does not report: the pattern is then translated to an equivalent JavaScript
// RegExp (RE2 and JavaScript agree on leftmost-first matches); the few RE2 constructs without a JavaScript
// equivalent (flags other than a leading (?i)/(?s)/(?m), ungreedy mode) are refused with an error.
import { RE2JS } from '@bufbuild/re2'

const compiled = new Map<string, RE2JS>()

/** Compiles an RE2 pattern (cached); throws an Error with Go's message when it is not valid. */
export function re2Compile (pattern: string): RE2JS {
  let re = compiled.get(pattern)
  if (re === undefined) {
    re = RE2JS.compile(pattern)
    if (compiled.size > 1000) compiled.clear()
    compiled.set(pattern, re)
  }
  return re
}

/** regexp.MatchString: whether the pattern matches anywhere in s. */
export function re2Match (pattern: string, s: string): boolean {
  return re2Compile(pattern).test(s)
}

/** A pattern RE2 accepts but this translation cannot express in JavaScript. */
export class UnsupportedRegexError extends Error {}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f'
}

const GO_SPACE = '\\t\\n\\f\\r '

function unicodeClass (name: string, negated: boolean): string {
  const p = negated ? '\\P' : '\\p'
  // One-letter and two-letter names are general categories; others are scripts.
  return /^[A-Z][a-z]?$/.test(name) ? `${p}{${name}}` : `${p}{Script=${name}}`
}

/** Translates an RE2 pattern (already known to be valid) to a JavaScript RegExp with the same matches. */
export function re2ToRegExp (pattern: string): RegExp {
  re2Compile(pattern)
  let src = pattern
  let flags = 'u'
  const lead = /^\(\?([imsU]+)\)/.exec(src)
  if (lead) {
    const f = lead[1] as string
    if (f.includes('U')) throw new UnsupportedRegexError(`the regex flag U (ungreedy) is not supported: ${pattern}`)
    flags += f
    src = src.slice(lead[0].length)
  }
  const dotAll = flags.includes('s')
  let out = ''
  let inClass = false
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string
    if (c === '\\') {
      const n = src[i + 1] as string
      i++
      switch (n) {
        case 'A': out += '^'; break
        case 'z': out += '$'; break
        case 'a': out += '\\x07'; break
        case 's': out += inClass ? GO_SPACE : `[${GO_SPACE}]`; break
        case 'S': out += inClass ? '\\S' : `[^${GO_SPACE}]`; break
        case 'Q': {
          const end = src.indexOf('\\E', i + 1)
          const lit = end < 0 ? src.slice(i + 1) : src.slice(i + 1, end)
          out += lit.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')
          i = end < 0 ? src.length : end + 1
          break
        }
        case 'p': case 'P': {
          if (src[i + 1] === '{') {
            const end = src.indexOf('}', i)
            const name = src.slice(i + 2, end)
            out += name.startsWith('^') ? unicodeClass(name.slice(1), n === 'p') : unicodeClass(name, n === 'P')
            i = end
          } else {
            out += unicodeClass(src[i + 1] as string, n === 'P')
            i++
          }
          break
        }
        case 'x':
          if (src[i + 1] === '{') {
            const end = src.indexOf('}', i)
            out += `\\u{${src.slice(i + 2, end)}}`
            i = end
          } else {
            out += '\\x' + src.slice(i + 1, i + 3)
            i += 2
          }
          break
        default:
          if (n >= '0' && n <= '7') {
            const oct = /^[0-7]{1,3}/.exec(src.slice(i))?.[0] ?? n
            out += `\\u{${parseInt(oct, 8).toString(16)}}`
            i += oct.length - 1
          } else if (/[A-Za-z0-9]/.test(n) || '^$\\.*+?()[]{}|/'.includes(n) || (inClass && n === '-')) {
            out += '\\' + n
          } else {
            // Go lets any punctuation be escaped; JavaScript's u mode only its syntax characters.
            out += n
          }
      }
      continue
    }
    if (inClass) {
      if (c === '[' && src[i + 1] === ':') {
        const end = src.indexOf(':]', i)
        const name = src.slice(i + 2, end)
        if (name.startsWith('^')) throw new UnsupportedRegexError(`negated POSIX classes are not supported: ${pattern}`)
        out += POSIX[name] ?? ''
        i = end + 1
        continue
      }
      if (c === ']') inClass = false
      out += c === '[' ? '\\[' : c
      continue
    }
    if (c === '[') {
      inClass = true
      out += c
      if (src[i + 1] === '^') { out += '^'; i++ }
      if (src[i + 1] === ']') { out += '\\]'; i++ }
      continue
    }
    if (c === '(' && src[i + 1] === '?') {
      if (src[i + 2] === 'P' && src[i + 3] === '<') { out += '(?<'; i += 3; continue }
      if (src[i + 2] !== ':' && src[i + 2] !== '<') throw new UnsupportedRegexError(`inline regex flags are not supported: ${pattern}`)
    }
    if (c === '.' && !dotAll) { out += '[^\\n]'; continue }
    out += c
  }
  return new RegExp(out, flags + 'g')
}

// sprig's regex functions (regex.go) over Go's regexp semantics: compiled from RE2 syntax (re2.ts), matched
// leftmost-first, with Go's FindAll/Split/ReplaceAll loops (no empty match right after a match; $name and ${name}
// expansion taking the longest name) and Go's errors: must* return the compile error, the others panic with
// MustCompile's text or, for regexMatch, answer false.
import { quote } from '../strconv.js'
import { canBackquote } from '../strconv.js'
import { fn, GoCallError, type GoFunc, GoInt, GoSlice } from '../values.js'
import { RegexpSyntaxError, translate, type Translated } from './re2.js'

interface Compiled { re: RegExp, t: Translated }

const cache = new Map<string, Compiled | RegexpSyntaxError>()

function compile (expr: string): Compiled {
  let c = cache.get(expr)
  if (c === undefined) {
    try {
      const t = translate(expr)
      c = { re: new RegExp(t.source, 'g' + t.flags), t }
    } catch (err) {
      if (!(err instanceof RegexpSyntaxError)) throw err
      c = err
    }
    if (cache.size > 1000) cache.clear()
    cache.set(expr, c)
  }
  if (c instanceof RegexpSyntaxError) throw c
  return c
}

/** regexp.MustCompile: a compile error becomes a panic with Go's text. */
function mustCompile (expr: string): Compiled {
  try {
    return compile(expr)
  } catch (err) {
    if (err instanceof RegexpSyntaxError) {
      const q = canBackquote(expr) ? '`' + expr + '`' : quote(expr)
      throw new GoCallError(`regexp: Compile(${q}): ${err.message}`)
    }
    throw err
  }
}

/** regexp.Compile: a compile error is returned. */
function compileOrError (expr: string): Compiled {
  try {
    return compile(expr)
  } catch (err) {
    if (err instanceof RegexpSyntaxError) throw new GoCallError(err.message)
    throw err
  }
}

function execAt (c: Compiled, s: string, pos: number): RegExpExecArray | null {
  c.re.lastIndex = pos
  return c.re.exec(s)
}

function step (s: string, pos: number): number {
  if (pos >= s.length) return 1
  return (s.codePointAt(pos) as number) > 0xffff ? 2 : 1
}

/** Go's allMatches: up to n (n < 0: all) successive matches. */
function allMatches (c: Compiled, s: string, n: number): RegExpExecArray[] {
  const out: RegExpExecArray[] = []
  if (n < 0) n = s.length + 1
  let pos = 0
  let prevEnd = -1
  while (out.length < n && pos <= s.length) {
    const m = execAt(c, s, pos)
    if (m === null) break
    const end = m.index + m[0].length
    let accept = true
    if (end === pos) {
      if (m.index === prevEnd) accept = false
      pos += step(s, pos)
    } else pos = end
    prevEnd = end
    if (accept) out.push(m)
  }
  return out
}

/** Regexp.Expand for ReplaceAllString's template. */
function expand (template: string, m: RegExpExecArray, c: Compiled): string {
  let out = ''
  let t = template
  for (;;) {
    const i = t.indexOf('$')
    if (i < 0) break
    out += t.slice(0, i)
    t = t.slice(i + 1)
    if (t[0] === '$') { out += '$'; t = t.slice(1); continue }
    const brace = t[0] === '{'
    const body = brace ? t.slice(1) : t
    const name = /^[\p{L}\p{Nd}_]*/u.exec(body)?.[0] ?? ''
    if (name === '' || (brace && body[name.length] !== '}')) { out += '$'; continue }
    t = body.slice(name.length + (brace ? 1 : 0))
    let num = -1
    if (/^[0-9]+$/.test(name) && (name.length === 1 || name[0] !== '0') && name.length < 9) num = Number(name)
    if (num >= 0) out += num <= c.t.numCap ? m[num] ?? '' : ''
    else {
      const k = c.t.names.indexOf(name)
      if (k > 0) out += m[k] ?? ''
    }
  }
  return out + t
}

function replaceAll (c: Compiled, src: string, repl: (m: RegExpExecArray) => string): string {
  let out = ''
  let lastEnd = 0
  let search = 0
  while (search <= src.length) {
    const m = execAt(c, src, search)
    if (m === null) break
    const end = m.index + m[0].length
    out += src.slice(lastEnd, m.index)
    if (end > lastEnd || m.index === 0) out += repl(m)
    lastEnd = end
    const width = search < src.length ? step(src, search) : 0
    if (search + width > end) search += width
    else if (search + 1 > end) search++
    else search = end
  }
  return out + src.slice(lastEnd)
}

function split (c: Compiled, s: string, n: number): string[] | null {
  if (n === 0) return null
  if (c.t.source !== '' && s === '') return ['']
  const matches = allMatches(c, s, n)
  const out: string[] = []
  let beg = 0
  let end = 0
  for (const m of matches) {
    if (n > 0 && out.length === n - 1) break
    end = m.index
    if (m.index + m[0].length !== 0) out.push(s.slice(beg, end))
    beg = m.index + m[0].length
  }
  if (end !== s.length) out.push(s.slice(beg))
  return out
}

function strings (items: string[] | null): GoSlice { return new GoSlice('[]string', items) }

const num = (n: GoInt): number => n.v > 1_000_000_000n ? 1_000_000_000 : n.v < -1n ? -1 : Number(n.v)

/** regexp.QuoteMeta. */
function quoteMeta (s: string): string { return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&') }

const S = 'string'

/** The regex functions of sprig's hermetic map. */
export const REGEX: Record<string, GoFunc> = {
  regexMatch: fn([S, S], 'bool', (re: string, s: string) => {
    let c: Compiled
    try {
      c = compile(re)
    } catch (err) {
      if (err instanceof RegexpSyntaxError) return false
      throw err
    }
    return execAt(c, s, 0) !== null
  }),
  mustRegexMatch: fn([S, S], 'bool', (re: string, s: string) => execAt(compileOrError(re), s, 0) !== null, { returnsError: true }),
  regexFindAll: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => {
    const ms = allMatches(mustCompile(re), s, num(n))
    return strings(ms.length === 0 ? null : ms.map(m => m[0]))
  }),
  mustRegexFindAll: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => {
    const ms = allMatches(compileOrError(re), s, num(n))
    return strings(ms.length === 0 ? null : ms.map(m => m[0]))
  }, { returnsError: true }),
  regexFind: fn([S, S], S, (re: string, s: string) => execAt(mustCompile(re), s, 0)?.[0] ?? ''),
  mustRegexFind: fn([S, S], S, (re: string, s: string) => execAt(compileOrError(re), s, 0)?.[0] ?? '', { returnsError: true }),
  regexReplaceAll: fn([S, S, S], S, (re: string, s: string, repl: string) => {
    const c = mustCompile(re)
    return replaceAll(c, s, m => expand(repl, m, c))
  }),
  mustRegexReplaceAll: fn([S, S, S], S, (re: string, s: string, repl: string) => {
    const c = compileOrError(re)
    return replaceAll(c, s, m => expand(repl, m, c))
  }, { returnsError: true }),
  regexReplaceAllLiteral: fn([S, S, S], S, (re: string, s: string, repl: string) => replaceAll(mustCompile(re), s, () => repl)),
  mustRegexReplaceAllLiteral: fn([S, S, S], S, (re: string, s: string, repl: string) => replaceAll(compileOrError(re), s, () => repl), { returnsError: true }),
  regexSplit: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => strings(split(mustCompile(re), s, num(n)))),
  mustRegexSplit: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => strings(split(compileOrError(re), s, num(n))), { returnsError: true }),
  regexQuoteMeta: fn([S], S, quoteMeta)
}

// Go's regexp package, as the project uses it: patterns in Go's syntax (RE2, compiled as regexp.Compile does, with
// Perl flags), matched leftmost-first by re2js, an RE2 engine: the time a match takes grows linearly with the input
// whatever the pattern, as in Go (a JavaScript RegExp backtracks: `^(a+)+$` on forty a's and a '!' never ends).
// Compile errors carry Go's text (`error parsing regexp: missing closing ): `(a``). FindAll, ReplaceAll and Split
// run Go's own loops over the engine's matches. Offsets here are UTF-16 code units where Go counts UTF-8 bytes; none
// leaves this module, and an empty match advances one code point as Go advances one rune, so the results agree.
// Linear is not short: a large pattern over megabytes takes minutes, so a match spends a budget step per position
// it reads (src/budget), and the budget of the Cluster being computed can cut it.
import { RE2JS, RE2JSSyntaxException, RE2Set } from 're2js'
import { spend } from '../budget/index.js'
import { countingInput, type Engine } from '../shims/re2js.js'

/** A pattern Go's regexp.Compile refuses; message is Go's error text. */
export class RegexpSyntaxError extends Error {}

/** A compiled regular expression with the methods of Go's *regexp.Regexp that callers use. */
export class Regexp {
  readonly #re: Engine
  /** subexpNames[i] is the name of group i ('' when unnamed; index 0 is the whole match). */
  readonly #subexpNames: string[]

  /** renamed maps the names the engine was given to the pattern's own (see uniqueNames). */
  constructor (readonly expr: string, re: Engine, renamed?: ReadonlyMap<string, string>) {
    this.#re = re
    this.#subexpNames = new Array<string>(re.numberOfCapturingGroups() + 1).fill('')
    for (const [name, i] of Object.entries(re.namedGroups)) this.#subexpNames[i] = renamed?.get(name) ?? name
  }

  /** The leftmost-first match at or after pos: [start, end] of the match and of each group (-1 when unset). */
  #exec (s: string, pos: number, groups: number): number[] | null {
    const at = this.#re.executeEngine(countingInput(s, spend), pos, RE2Set.UNANCHORED, 2 * groups) as number[] | null
    if (at === null) return null
    const out = new Array<number>(2 * groups).fill(-1)
    for (let i = 0; i < out.length && i < at.length; i++) out[i] = at[i] as number
    return out
  }

  /** MatchString: whether the pattern matches anywhere in s. */
  matchString (s: string): boolean {
    return this.#re.executeEngine(countingInput(s, spend), 0, RE2Set.UNANCHORED, 0) !== null
  }

  /** FindString: the leftmost match, '' when none. */
  findString (s: string): string {
    const m = this.#exec(s, 0, 1)
    return m === null ? '' : s.slice(m[0], m[1])
  }

  /** allMatches: up to n (n < 0: all) successive non-overlapping matches, no empty match right after a match. */
  #allMatches (s: string, n: number, groups: number): number[][] {
    const out: number[][] = []
    if (n < 0) n = s.length + 1
    for (let pos = 0, prevEnd = -1; out.length < n && pos <= s.length;) {
      const m = this.#exec(s, pos, groups)
      if (m === null) break
      const [start, end] = m as [number, number]
      let accept = true
      if (end === pos) {
        if (start === prevEnd) accept = false
        pos += pos < s.length ? width(s, pos) : 1
      } else pos = end
      prevEnd = end
      if (accept) out.push(m)
    }
    return out
  }

  /** FindAllString: up to n matches (n < 0: all); null when there is none. */
  findAllString (s: string, n: number): string[] | null {
    const all = this.#allMatches(s, n, 1)
    return all.length === 0 ? null : all.map(([a, b]) => s.slice(a, b))
  }

  /** ReplaceAllString: every match replaced by repl, with $1, $name and ${name} expanded (Regexp.Expand). */
  replaceAllString (src: string, repl: string): string {
    return this.#replaceAll(src, this.#subexpNames.length, m => this.#expand(repl, src, m))
  }

  /** ReplaceAllLiteralString: every match replaced by repl as it is. */
  replaceAllLiteralString (src: string, repl: string): string {
    return this.#replaceAll(src, 1, () => repl)
  }

  #replaceAll (src: string, groups: number, repl: (m: number[]) => string): string {
    let out = ''
    let lastEnd = 0
    let search = 0
    while (search <= src.length) {
      const m = this.#exec(src, search, groups)
      if (m === null) break
      const [start, end] = m as [number, number]
      out += src.slice(lastEnd, start)
      // No replacement for an empty match right after the previous match.
      if (end > lastEnd || start === 0) out += repl(m)
      lastEnd = end
      const w = search < src.length ? width(src, search) : 0
      if (search + w > end) search += w
      else if (search + 1 > end) search++
      else search = end
    }
    return out + src.slice(lastEnd)
  }

  /** Regexp.Expand: $$ is '$'; $n, $name and ${name} are groups (the longest name; an unknown one is empty). */
  #expand (template: string, src: string, m: number[]): string {
    let out = ''
    let t = template
    for (let i = t.indexOf('$'); i >= 0; i = t.indexOf('$')) {
      out += t.slice(0, i)
      t = t.slice(i + 1)
      if (t.startsWith('$')) {
        out += '$'
        t = t.slice(1)
        continue
      }
      const ref = extract(t)
      if (ref === undefined) {
        out += '$'
        continue
      }
      t = ref.rest
      // A name is the first group of that name that took part in the match.
      const group = ref.num >= 0 ? ref.num : this.#subexpNames.findIndex((n, i) => i > 0 && n === ref.name && (m[2 * i] ?? -1) >= 0)
      const [a = -1, b = -1] = group >= 0 ? m.slice(2 * group, 2 * group + 2) : []
      if (a >= 0) out += src.slice(a, b)
    }
    return out + t
  }

  /** Split: the text around the matches, at most n pieces (n < 0: all; n == 0: null). */
  split (s: string, n: number): string[] | null {
    if (n === 0) return null
    if (this.expr !== '' && s === '') return ['']
    const out: string[] = []
    let beg = 0
    let end = 0
    for (const [start, stop] of this.#allMatches(s, n, 1) as Array<[number, number]>) {
      if (n > 0 && out.length === n - 1) break
      end = start
      if (stop !== 0) out.push(s.slice(beg, end))
      beg = stop
    }
    if (end !== s.length) out.push(s.slice(beg))
    return out
  }
}

/** The UTF-16 width of the code point at i: Go steps over a rune where JavaScript indexes code units. */
function width (s: string, i: number): number {
  return (s.codePointAt(i) ?? 0) > 0xffff ? 2 : 1
}

/** A $name or ${name} reference at the start of t (after the '$'): letters, digits and '_'; numbers as Go reads them. */
function extract (t: string): { name: string, num: number, rest: string } | undefined {
  const brace = t.startsWith('{')
  const body = brace ? t.slice(1) : t
  const name = /^[\p{L}\p{Nd}_]*/u.exec(body)?.[0] ?? ''
  if (name === '' || (brace && body[name.length] !== '}')) return undefined
  // A number has no leading zero and at most nine digits; anything else is a name.
  const num = /^(0|[1-9][0-9]{0,8})$/.test(name) ? Number(name) : -1
  return { name, num, rest: body.slice(name.length + (brace ? 1 : 0)) }
}

// What Go's parser reads as one piece in which no group starts: \Q...\E, an escape, a character class.
const OPAQUE = /^(?:\\Q[^]*?(?:\\E|$)|\\[^]|\[\^?\]?(?:\[:[^:\]]*:\]|\\[^]|[^\]])*\]?)/
const NAMED_GROUP = /^\(\?P?<([A-Za-z0-9_]+)>/

/** Go lets two groups share a name (re2js refuses it): the pattern with every group name made unique, and the way back. */
function uniqueNames (expr: string): { expr: string, renamed: Map<string, string> } {
  const renamed = new Map<string, string>()
  let out = ''
  let i = 0
  while (i < expr.length) {
    const rest = expr.slice(i)
    const opaque = OPAQUE.exec(rest)?.[0]
    const named = opaque === undefined ? NAMED_GROUP.exec(rest) : null
    let piece = opaque ?? String.fromCodePoint(expr.codePointAt(i) as number)
    if (named !== null) {
      const name = `_${renamed.size + 1}`
      renamed.set(name, named[1] as string)
      piece = named[0]
      out += `(?P<${name}>`
    } else out += piece
    i += piece.length
  }
  return { expr: out, renamed }
}

function build (expr: string): Regexp {
  try {
    return new Regexp(expr, RE2JS.compile(expr).re2())
  } catch (err) {
    if (!(err instanceof RE2JSSyntaxException) || err.error !== 'duplicate capture group name') throw err
  }
  const unique = uniqueNames(expr)
  try {
    return new Regexp(expr, RE2JS.compile(unique.expr).re2(), unique.renamed)
  } catch (err) {
    // An error that quotes the whole pattern quotes it as written.
    if (err instanceof RE2JSSyntaxException && err.input === unique.expr) throw new RE2JSSyntaxException(err.error, expr)
    throw err
  }
}

const cache = new Map<string, Regexp | RegexpSyntaxError>()
const CACHE_SIZE = 1000

/** regexp.Compile (cached): the pattern compiled, or a RegexpSyntaxError with Go's message. */
export function compile (expr: string): Regexp {
  let found = cache.get(expr)
  if (found === undefined) {
    try {
      found = build(expr)
    } catch (err) {
      if (!(err instanceof RE2JSSyntaxException)) throw err
      // Go's syntax.Error always quotes the offending text, even when it is empty; for a pattern too deep or too
      // large, the whole pattern.
      const whole = err.error === 'expression nests too deeply' || err.error === 'expression too large'
      found = new RegexpSyntaxError(`error parsing regexp: ${err.error}: \`${whole ? expr : err.input ?? ''}\``)
    }
    if (cache.size >= CACHE_SIZE) cache.clear()
    cache.set(expr, found)
  }
  if (found instanceof RegexpSyntaxError) throw found
  return found
}

/** regexp.MatchString: whether the pattern matches anywhere in s; throws RegexpSyntaxError when it does not compile. */
export function matchString (expr: string, s: string): boolean {
  return compile(expr).matchString(s)
}

/** regexp.QuoteMeta: the pattern matching s literally. */
export function quoteMeta (s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')
}

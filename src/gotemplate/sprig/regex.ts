// sprig's regex functions (regex.go) over Go's regexp (src/go/regexp.ts, linear time whatever the pattern), with
// sprig's errors: must* return the compile error, the others panic with MustCompile's text or, for regexMatch,
// answer false.
import { compile, quoteMeta, type Regexp, RegexpSyntaxError } from '../../go/index.js'
import { canBackquote, quote } from '../../go/strconv.js'
import { fn, GoCallError, type GoFunc, GoInt, GoSlice } from '../values.js'

/** regexp.MustCompile: a compile error becomes a panic with Go's text. */
function mustCompile (expr: string): Regexp {
  try {
    return compile(expr)
  } catch (err) {
    if (!(err instanceof RegexpSyntaxError)) throw err
    const q = canBackquote(expr) ? '`' + expr + '`' : quote(expr)
    throw new GoCallError(`regexp: Compile(${q}): ${err.message}`)
  }
}

/** regexp.Compile: a compile error is returned. */
function compileOrError (expr: string): Regexp {
  try {
    return compile(expr)
  } catch (err) {
    if (err instanceof RegexpSyntaxError) throw new GoCallError(err.message)
    throw err
  }
}

function strings (items: string[] | null): GoSlice { return new GoSlice('[]string', items) }

const num = (n: GoInt): number => n.v > 1_000_000_000n ? 1_000_000_000 : n.v < -1n ? -1 : Number(n.v)

const S = 'string'

/** The regex functions of sprig's hermetic map. */
export const REGEX: Record<string, GoFunc> = {
  regexMatch: fn([S, S], 'bool', (re: string, s: string) => {
    try {
      return compile(re).matchString(s)
    } catch (err) {
      if (err instanceof RegexpSyntaxError) return false
      throw err
    }
  }),
  mustRegexMatch: fn([S, S], 'bool', (re: string, s: string) => compileOrError(re).matchString(s), { returnsError: true }),
  regexFindAll: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => strings(mustCompile(re).findAllString(s, num(n)))),
  mustRegexFindAll: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => strings(compileOrError(re).findAllString(s, num(n))), { returnsError: true }),
  regexFind: fn([S, S], S, (re: string, s: string) => mustCompile(re).findString(s)),
  mustRegexFind: fn([S, S], S, (re: string, s: string) => compileOrError(re).findString(s), { returnsError: true }),
  regexReplaceAll: fn([S, S, S], S, (re: string, s: string, repl: string) => mustCompile(re).replaceAllString(s, repl)),
  mustRegexReplaceAll: fn([S, S, S], S, (re: string, s: string, repl: string) => compileOrError(re).replaceAllString(s, repl), { returnsError: true }),
  regexReplaceAllLiteral: fn([S, S, S], S, (re: string, s: string, repl: string) => mustCompile(re).replaceAllLiteralString(s, repl)),
  mustRegexReplaceAllLiteral: fn([S, S, S], S, (re: string, s: string, repl: string) => compileOrError(re).replaceAllLiteralString(s, repl), { returnsError: true }),
  regexSplit: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => strings(mustCompile(re).split(s, num(n)))),
  mustRegexSplit: fn([S, S, 'int'], '[]string', (re: string, s: string, n: GoInt) => strings(compileOrError(re).split(s, num(n))), { returnsError: true }),
  regexQuoteMeta: fn([S], S, quoteMeta)
}

// src/go/regexp.ts against Go's regexp (test/fixtures/go/regexp.json, recorded by tools/go-regexp/record.ts): every
// method the project uses answers as Go does on seeded random patterns and strings, on group names used twice and
// Go's limits, and on patterns that make a backtracking engine take exponential time.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { compile, matchString, quoteMeta, RegexpSyntaxError } from '../../src/go/index.js'
import type { RegexpCase } from '../../tools/go-regexp/cases.js'
import type { GoRegexpAnswer } from '../../tools/go-regexp/record.js'

const fixture = JSON.parse(readFileSync(new URL('../fixtures/go/regexp.json', import.meta.url), 'utf8')) as {
  go: string
  cases: Array<RegexpCase & { go: GoRegexpAnswer }>
}

function ours (c: RegexpCase): GoRegexpAnswer {
  let re
  try {
    re = compile(c.pattern)
  } catch (err) {
    if (err instanceof RegexpSyntaxError) return { error: err.message }
    throw err
  }
  return {
    match: re.matchString(c.input),
    find: re.findString(c.input),
    findAll: re.findAllString(c.input, -1),
    findAll2: re.findAllString(c.input, 2),
    replaceAll: re.replaceAllString(c.input, c.replacement),
    replaceLiteral: re.replaceAllLiteralString(c.input, c.replacement),
    split: re.split(c.input, -1),
    split2: re.split(c.input, 2)
  }
}

t.test('every case answers as Go does', async t => {
  t.ok(fixture.cases.length >= 3000, `${fixture.cases.length} cases against ${fixture.go}`)
  let different = 0
  for (const c of fixture.cases) {
    const answer = ours(c)
    if (JSON.stringify(answer) === JSON.stringify(c.go)) continue
    different++
    t.same(answer, c.go, `${JSON.stringify(c.pattern).slice(0, 80)} on ${JSON.stringify(c.input).slice(0, 40)}`)
  }
  t.equal(different, 0)
  t.ok(fixture.cases.filter(c => c.go.error !== undefined).length > 500, 'many patterns Go refuses')
})

t.test('a pattern that backtracks exponentially elsewhere is answered at once', async t => {
  t.equal(matchString('^(a+)+$', 'a'.repeat(40) + '!'), false)
  t.equal(compile('(x+x+)+y').findString('x'.repeat(100_000)), '')
})

t.test('QuoteMeta, and the cache keeps refusals', async t => {
  t.equal(quoteMeta('a.b*c[d]{e}|^$\\'), 'a\\.b\\*c\\[d\\]\\{e\\}\\|\\^\\$\\\\')
  t.equal(compile(quoteMeta('1+1=2?')).findString('is 1+1=2?'), '1+1=2?')
  t.throws(() => compile('a('), { message: 'error parsing regexp: missing closing ): `a(`' })
  t.throws(() => compile('a('), { message: 'error parsing regexp: missing closing ): `a(`' }, 'the second time, from the cache')
})

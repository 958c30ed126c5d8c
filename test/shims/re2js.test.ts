// src/go/regexp.ts drives re2js's engines with an input of the package's own class, caught from the engine and
// extended to count the positions it reads (src/shims/re2js.ts): it must still be the class the engines read
// through, and every engine (DFA, NFA, backtracker, one-pass) must read a long subject through its step().
import { RE2JS, RE2Set } from 're2js'
import t from 'tap'
import { countingInput } from '../../src/shims/re2js.js'

t.test('every engine reads the subject through the counting input', async t => {
  const subject = 'a'.repeat(100_000) + '!'
  // A match without groups (the DFA), with groups (the NFA over a long subject), a one-pass pattern, a short subject (the backtracker).
  for (const [pattern, ncap, text] of [['^(a+)+$', 0, subject], ['(a+)+$', 4, subject], ['^a*!$', 2, subject], ['(a|b)+!', 4, 'a'.repeat(5000) + '!']] as const) {
    let read = 0
    const found = RE2JS.compile(pattern).re2().executeEngine(countingInput(text, n => { read += n }), 0, RE2Set.UNANCHORED, ncap) as number[] | null
    t.equal(found === null, !RE2JS.compile(pattern).test(text), `${pattern}: the same answer`)
    t.ok(read >= Math.floor(text.length / 4096) * 4096 * 0.9, `${pattern}: ${read} of ${text.length} positions counted`)
  }
})

t.test('a callback that throws ends the match, and the pattern still matches afterwards', async t => {
  const engine = RE2JS.compile('(a+)+$').re2()
  t.throws(() => engine.executeEngine(countingInput('a'.repeat(50_000), () => { throw new Error('cut') }), 0, RE2Set.UNANCHORED, 4), /cut/)
  t.same(engine.executeEngine(countingInput('baa', () => {}), 0, RE2Set.UNANCHORED, 4), [1, 3, 1, 3])
})

// The Go template engine (src/gotemplate) and Cluster API's inline template rendering (src/simulate/inline-template.ts)
// against Go itself: tools/capi-interop/cmd/gotemplate runs text/template with sprig's HermeticTxtFuncMap, and Cluster
// API v1.14.2's own inline patch generator, on
// - the whole committed corpus (test/fixtures/gotemplate/corpus.json), rebuilt from Cluster API's sources, the
//   hand-written cases and the seeded random ones: Go's answers today must equal the recorded ones (drift check);
// - thousands of fresh random templates (seeded): ours must equal Go's output, value or error for every case, except
//   where the engine refuses a construct it cannot evaluate exactly as Go does (counted, each named).
import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import { goAvailable, runGoTemplateCases } from '../../tools/harness/capi-interop.js'
import { capiTemplates } from '../../tools/gotemplate-corpus/capi.js'
import { HAND_CASES } from '../../tools/gotemplate-corpus/cases.js'
import { type Mode, ours, verdict } from '../../tools/gotemplate-corpus/compare.js'
import { buildCorpus, type CorpusCase, RANDOM_IN_CORPUS, RANDOM_SEED } from '../../tools/gotemplate-corpus/corpus.js'
import { randomCases } from '../../tools/gotemplate-corpus/random.js'
import { VARIABLE_SETS } from '../../tools/gotemplate-corpus/variables.js'

// A cold build of tools/capi-interop compiles controller-runtime and client-go.
t.setTimeout(900_000)
const skip = goAvailable() ? false : 'go is not installed'

const FRESH_SEED = 4242
const FRESH_CASES = 4000

/** A value in a message: JSON, ASCII only, cut short. */
function show (value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 600)
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/gotemplate/corpus.json', import.meta.url), 'utf8')) as { cases: CorpusCase[] }

t.test('the committed corpus is what Go answers today', { skip }, async t => {
  const cases = buildCorpus(capiTemplates(), HAND_CASES, randomCases(RANDOM_SEED, RANDOM_IN_CORPUS))
  t.same(cases.map(c => [c.id, c.template, c.vars, c.mode]), fixture.cases.map(c => [c.id, c.template, c.vars, c.mode]), 'the same cases (regenerate with npx tsx tools/gotemplate-corpus/main.ts)')
  const answers = await runGoTemplateCases(cases.map(c => ({ template: c.template, variables: VARIABLE_SETS[c.vars] as Record<string, unknown>, mode: c.mode })))
  let drift = 0
  answers.forEach((go, i) => {
    const recorded = fixture.cases[i]
    // A refused case may be one whose Go answer is random (randInt, genCA…): only its kind must stay.
    const same = recorded?.known === 'refused' ? isDeepStrictEqual(Object.keys(go), Object.keys(recorded.go)) : isDeepStrictEqual(JSON.parse(JSON.stringify(go)), recorded?.go)
    if (recorded !== undefined && !same) {
      drift++
      t.fail(`${recorded.id}: Go answers ${show(go)}, the fixture has ${show(recorded.go)}`)
    }
  })
  t.equal(drift, 0, `Go's ${answers.length} answers equal the recorded ones`)
})

t.test('ours equals Go on fresh random templates', { skip }, async t => {
  const cases = randomCases(FRESH_SEED, FRESH_CASES)
  const vars = (name: string): Record<string, unknown> => VARIABLE_SETS[name] as Record<string, unknown>
  const answers = await runGoTemplateCases(cases.map(c => ({ template: c.template, variables: vars(c.vars), mode: c.mode })))
  const tally: Record<string, number> = { equal: 0, refused: 0, 'yaml-detail': 0, different: 0 }
  const refusals = new Map<string, number>()
  cases.forEach((c, i) => {
    const go = answers[i] ?? {}
    const o = ours(c.template, vars(c.vars), c.mode as Mode)
    const v = verdict(o, go)
    tally[v] = (tally[v] ?? 0) + 1
    if (v === 'refused') {
      const why = (o.error ?? '').replace(/^.*runtime-sdk cannot evaluate this exactly as Go does: /s, '')
      refusals.set(why, (refusals.get(why) ?? 0) + 1)
    }
    if (v === 'different') t.fail(`random ${i} ${c.mode} ${show(c.template)}: ours ${show(o)}, Go ${show(go)}`)
  })
  t.comment(`verdicts: ${JSON.stringify(tally)}`)
  for (const [why, n] of refusals) t.comment(`refused ${n}x: ${why}`)
  t.equal(tally.different, 0, `no difference in ${cases.length} random cases`)
})

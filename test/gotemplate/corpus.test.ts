// The engine against Go's recorded answers (test/fixtures/gotemplate/corpus.json, made by
// tools/gotemplate-corpus/main.ts with Go and Cluster API v1.14.2): Cluster API's own enabledIf and
// valueFrom.template texts over realistic variables, the hand-written cases and seeded random ones. Every case must
// give Go's output, value, enabled or error, byte for byte, except the recorded known differences: a construct
// the engine refuses (GoTemplateError.unsupported) and YAML errors whose wording after "yaml: " differs.
import { readFileSync } from 'node:fs'
import t from 'tap'

// 2,204 cases, some of them hostile: a minute or more under coverage with three other files at once.
t.setTimeout(300_000)
import { type Mode, ours, verdict } from '../../tools/gotemplate-corpus/compare.js'
import type { CorpusCase } from '../../tools/gotemplate-corpus/corpus.js'

const fixture = JSON.parse(readFileSync(new URL('../fixtures/gotemplate/corpus.json', import.meta.url), 'utf8')) as {
  go: string
  variables: Record<string, Record<string, unknown>>
  cases: CorpusCase[]
}

function show (value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 600)
}

t.test('every corpus case answers as Go does', async t => {
  t.ok(fixture.cases.length >= 1500, `the corpus has ${fixture.cases.length} cases`)
  const tally: Record<string, number> = {}
  for (const c of fixture.cases) {
    const o = ours(c.template, fixture.variables[c.vars] as Record<string, unknown>, c.mode as Mode)
    const v = verdict(o, c.go)
    tally[v] = (tally[v] ?? 0) + 1
    const allowed = v === 'equal' || v === c.known
    if (!allowed) t.fail(`${c.id} ${show(c.template)}: ${v}; ours ${show(o)}, Go ${show(c.go)}`)
  }
  t.comment(`${JSON.stringify(tally)} against Go ${fixture.go}`)
  t.equal(tally.different ?? 0, 0)
})

t.test('the corpus holds every group it promises', async t => {
  const groups = new Set(fixture.cases.map(c => c.group))
  for (const g of ['capi', 'lex', 'control', 'missing', 'builtins', 'fmt', 'sprig-strings', 'sprig-numbers', 'sprig-lists', 'sprig-dicts',
    'sprig-defaults', 'sprig-encoding', 'sprig-regex', 'sprig-semver', 'refused', 'yaml', 'yaml-templates', 'enabled', 'hostile', 'random']) {
    t.ok(groups.has(g), g)
  }
  t.ok(fixture.cases.filter(c => c.group === 'capi').length >= 100, 'Cluster API\'s templates over every quick-start variable set')
})

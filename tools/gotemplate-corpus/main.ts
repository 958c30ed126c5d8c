// Generates test/fixtures/gotemplate/corpus.json: the Go template corpus (Cluster API's own enabledIf and
// valueFrom.template texts over realistic variables, the hand-written cases, and seeded random ones) with what Go
// and Cluster API v1.14.2 answer for each (tools/capi-interop/cmd/gotemplate), so `npm test` checks the engine
// against Go without Go.
//
//   npx tsx tools/gotemplate-corpus/main.ts           regenerate the fixture (needs go; builds capi-interop)
//
// Prints the tally of verdicts (equal, refused, yaml-detail, different) of the engine against the new answers.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runGoTemplateCases } from '../harness/capi-interop.js'
import { capiTemplates } from './capi.js'
import { HAND_CASES } from './cases.js'
import { type Mode, ours, verdict } from './compare.js'
import { randomCases } from './random.js'
import { VARIABLE_SETS } from './variables.js'
import { buildCorpus, type CorpusCase, RANDOM_IN_CORPUS, RANDOM_SEED } from './corpus.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** Where the fixture lives. */
export const FIXTURE = join(repoRoot, 'test/fixtures/gotemplate/corpus.json')

async function main (): Promise<void> {
  const cases = buildCorpus(capiTemplates(), HAND_CASES, randomCases(RANDOM_SEED, RANDOM_IN_CORPUS))
  const answers = await runGoTemplateCases(cases.map(c => ({ template: c.template, variables: VARIABLE_SETS[c.vars] as Record<string, unknown>, mode: c.mode })))
  const tally: Record<string, number> = {}
  const out: CorpusCase[] = cases.map((c, i) => {
    const go = answers[i] as CorpusCase['go']
    const o = ours(c.template, VARIABLE_SETS[c.vars] as Record<string, unknown>, c.mode as Mode)
    const v = verdict(o, go)
    tally[v] = (tally[v] ?? 0) + 1
    if (v === 'different') console.error(`different: ${c.id} ${JSON.stringify(c.template)}\n  go:   ${JSON.stringify(go)}\n  ours: ${JSON.stringify(o)}`)
    return { ...c, go, ...(v === 'refused' || v === 'yaml-detail' ? { known: v } : {}) }
  })
  const goVersion = execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim()
  const header = {
    about: 'Go text/template + sprig v3.3.0 HermeticTxtFuncMap + Cluster API v1.14.2 inline patch answers; regenerate with npx tsx tools/gotemplate-corpus/main.ts',
    go: goVersion,
    variables: VARIABLE_SETS
  }
  mkdirSync(dirname(FIXTURE), { recursive: true })
  const body = JSON.stringify(header, null, 1).replace(/\n}$/, ',\n "cases": [\n') + out.map(c => '  ' + JSON.stringify(c)).join(',\n') + '\n ]\n}\n'
  writeFileSync(FIXTURE, body)
  console.log(`${out.length} cases written to ${FIXTURE}: ${JSON.stringify(tally)}`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => { console.error(err); process.exitCode = 1 })
}

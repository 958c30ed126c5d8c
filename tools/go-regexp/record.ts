// Records test/fixtures/go/regexp.json: what Go's regexp answers for each case of cases.ts (Compile's error, or
// MatchString, FindString, FindAllString with n -1 and 2, ReplaceAllString, ReplaceAllLiteralString, Split with n
// -1 and 2), so that `npm test` holds src/go/regexp.ts to Go without Go.
//
//   npx tsx tools/go-regexp/record.ts      rerecord (needs go; builds tools/go-regexp)
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildGoModule } from '../harness/go-tools.js'
import { HAND_CASES, RANDOM_CASES, RANDOM_SEED, randomCases, type RegexpCase } from './cases.js'

/** Go's answer to a case. */
export interface GoRegexpAnswer {
  error?: string
  match?: boolean
  find?: string
  findAll?: string[] | null
  findAll2?: string[] | null
  replaceAll?: string
  replaceLiteral?: string
  split?: string[] | null
  split2?: string[] | null
}

/** Go's answers to the cases, in order. */
export async function goAnswers (cases: readonly RegexpCase[]): Promise<GoRegexpAnswer[]> {
  const bin = join(await buildGoModule('go-regexp'), 'go-regexp')
  const run = spawnSync(bin, { input: cases.map(c => JSON.stringify(c)).join('\n') + '\n', maxBuffer: 1 << 28, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`go-regexp exited ${run.status}: ${run.stderr}`)
  return run.stdout.trim().split('\n').map(line => JSON.parse(line) as GoRegexpAnswer)
}

async function main (): Promise<void> {
  const cases = [...HAND_CASES, ...randomCases(RANDOM_SEED, RANDOM_CASES)]
  const answers = await goAnswers(cases)
  const fixture = fileURLToPath(new URL('../../test/fixtures/go/regexp.json', import.meta.url))
  mkdirSync(dirname(fixture), { recursive: true })
  const go = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout.trim()
  const lines = cases.map((c, i) => '  ' + JSON.stringify({ ...c, go: answers[i] }))
  writeFileSync(fixture, `{\n "about": "Go's regexp on each case; regenerate with npx tsx tools/go-regexp/record.ts",\n "go": ${JSON.stringify(go)},\n "cases": [\n${lines.join(',\n')}\n ]\n}\n`)
  console.log(`${cases.length} cases written to ${fixture}`)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => { console.error(err); process.exitCode = 1 })
}

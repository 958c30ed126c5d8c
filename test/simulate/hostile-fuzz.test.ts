// The fuzz of hostile classes (test/helpers/hostile-fuzz.ts), a seeded slice: each mutation alone on
// examples/simulate, then seeded cases across the bases, 60 in all. Each ends without a crash or a stack trace, with
// Go's message where Go has one, and within 5 s of processor time (coverage slows it). The full run, 10,000 cases
// more, is npm run test:slow (hostile-fuzz-full-*.test.ts), which holds each to 2 s.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { fuzzBases, fuzzPlan, MUTATIONS, runFuzz } from '../helpers/hostile-fuzz.js'

t.setTimeout(600_000)
const { bases, skipped } = await fuzzBases()
if (skipped !== undefined) t.comment(`without ${skipped}`)

t.test('a seeded slice of hostile classes: no crash, Go\'s messages, each cut by its budget at worst', async t => {
  const plan = fuzzPlan(bases, 20261201, 60 - MUTATIONS.length)
  const slice = [...plan.slice(0, MUTATIONS.length), ...plan.slice(bases.length * MUTATIONS.length)]
  const report = await runFuzz(slice, { dir: mkdtempSync(join(tmpdir(), 'runtime-sdk-fuzz-')), budget: { timeoutMs: 500, memoryBytes: 256 * 2 ** 20 }, limitMs: 5000 })
  t.same(report.problems, [])
  t.equal(report.crashes, 0)
  t.equal(report.cases, 60)
  t.ok(report.ended.completed > 0 && report.ended.refused > 0 && report.ended.cut > 0, `ended: ${JSON.stringify(report.ended)}`)
  t.comment(`${report.cases} cases, slowest ${report.slowest.ms} ms of processor time (case ${report.slowest.id}, ${report.slowest.base}: ${report.slowest.mutations.join(' + ')})`)
})

// The full fuzz of hostile classes (test/helpers/hostile-fuzz.ts), shard 1 of 2 (npm run test:slow runs both, one per
// core): every mutation alone on every base, then 10,000 seeded cases. Each ends within 2 s of processor time (the
// machine may be shared: its time in all is reported), without a crash or a stack trace, with Go's message where Go
// has one. The figures go to docs/development.md.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { FULL_BUDGET, FULL_RANDOM_CASES, FUZZ_SEED, fuzzBases, fuzzPlan, runFuzz } from '../helpers/hostile-fuzz.js'

t.setTimeout(3 * 3_600_000)
const { bases, skipped } = await fuzzBases()
if (skipped !== undefined) t.comment(`without ${skipped}`)

t.test('shard 1 of the full fuzz: each case within 2 s, no crash, Go\'s messages', async t => {
  const plan = fuzzPlan(bases, FUZZ_SEED, FULL_RANDOM_CASES)
  const report = await runFuzz(plan, { dir: mkdtempSync(join(tmpdir(), 'runtime-sdk-fuzz-')), budget: FULL_BUDGET, limitMs: 2000, shard: 0, shards: 2 })
  t.same(report.problems, [])
  t.equal(report.crashes, 0)
  t.comment(`${report.cases} cases, slowest ${report.slowest.ms} ms of processor time, ${report.slowest.wallMs} ms in all (case ${report.slowest.id}, ${report.slowest.base}: ${report.slowest.mutations.join(' + ')}), crashes ${report.crashes}, ended ${JSON.stringify(report.ended)}`)
})

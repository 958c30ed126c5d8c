import t from 'tap'
import { median, percentile, runFromLatencies, summarize } from '../../bench/lib/stats.js'
import type { Run } from '../../bench/lib/types.js'

t.test('median: the middle value, the mean of the two middle values, NaN for none', async t => {
  t.equal(median([3, 1, 2]), 2)
  t.equal(median([4, 1, 3, 2]), 2.5)
  t.equal(median([7]), 7)
  t.ok(Number.isNaN(median([])))
  const input = [3, 1, 2]
  median(input)
  t.same(input, [3, 1, 2], 'the input is not reordered')
})

t.test('percentile: nearest rank, as latency tools report it', async t => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i) // 100..1, unsorted
  t.equal(percentile(hundred, 50), 50)
  t.equal(percentile(hundred, 99), 99)
  t.equal(percentile(hundred, 100), 100)
  t.equal(percentile(hundred, 0), 1, 'p0 is the smallest value')
  t.equal(percentile([5, 1], 99), 5, 'with few samples p99 is the maximum')
  t.ok(Number.isNaN(percentile([], 50)))
  t.throws(() => percentile([1], 101), RangeError)
})

t.test('runFromLatencies: rate over the measured time, percentiles of the calls', async t => {
  const run = runFromLatencies([10, 20, 30, 40], 2, 1)
  t.same(run, { requests: 4, durationS: 2, rps: 2, p50Ms: 20, p99Ms: 40, maxMs: 40, errors: 1, non2xx: 0 })
  const empty = runFromLatencies([], 0)
  t.equal(empty.rps, 0)
  t.ok(Number.isNaN(empty.maxMs))
})

t.test('summarize: medians of rate and percentiles, sums of counts, highest max', async t => {
  const run = (rps: number, p50Ms: number, p99Ms: number, maxMs: number, errors = 0, non2xx = 0): Run =>
    ({ requests: rps * 3, durationS: 3, rps, p50Ms, p99Ms, maxMs, errors, non2xx })
  const s = summarize([run(1000, 1, 5, 20), run(900, 2, 9, 90, 1), run(1100, 1.5, 4, 30, 0, 2)])
  t.same(s, { repetitions: 3, requests: 9000, rps: 1000, p50Ms: 1.5, p99Ms: 5, maxMs: 90, errors: 1, non2xx: 2 })
  t.equal(summarize([]).repetitions, 0)
})

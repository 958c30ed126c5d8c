import t from 'tap'
import { backoffDelay, KeyedBackoff, RetryBackoff, sleep } from '../../src/backoff/backoff.js'

t.test('delays double up to the cap; jitter adds up to its fraction', async (t) => {
  let now = 0
  const plain = new RetryBackoff({}, () => now, () => 0)
  const delays = Array.from({ length: 10 }, () => { now += 10; return plain.next() })
  t.same(delays, [200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000])
  const jittered = new RetryBackoff({ initialMs: 100, jitter: 0.5 }, () => now, () => 1)
  t.equal(jittered.next(), 150)
  t.equal(jittered.next(), 300)
})

t.test('a failure after a quiet period starts again at the initial delay', async (t) => {
  let now = 0
  const b = new RetryBackoff({ initialMs: 10, factor: 3, maxMs: 1000, resetAfterMs: 5000 }, () => now, () => 0)
  t.equal(b.next(), 10)
  now += 5000
  t.equal(b.next(), 30, 'exactly resetAfterMs later still counts as the same episode')
  now += 5001
  t.equal(b.next(), 10)
})

t.test('sleep resolves after the delay, or early when aborted', async (t) => {
  const began = Date.now()
  await sleep(30)
  t.ok(Date.now() - began >= 25)
  const controller = new AbortController()
  const waiting = sleep(60_000, controller.signal)
  controller.abort()
  await waiting
  await sleep(60_000, controller.signal)
  t.pass('an aborted signal ends the wait at once')
})

t.test('the delay rule: initial, doubled (or times factor) per failure, capped', async t => {
  t.same([1, 2, 3, 4, 5].map(n => backoffDelay(n, { initialMs: 5, maxMs: 40 })), [5, 10, 20, 40, 40])
  t.same([1, 2, 3].map(n => backoffDelay(n, { initialMs: 10, maxMs: 1000, factor: 3 })), [10, 30, 90])
  t.equal(backoffDelay(1, { initialMs: 100, maxMs: 1000, jitter: 0.5 }, () => 1), 150)
})

t.test('keyed backoff: each key backs off on its own until a success', async t => {
  let now = 0
  const b = new KeyedBackoff({ initialMs: 100, maxMs: 250 }, () => now)
  t.same([b.failure('a', 'e1'), b.failure('a', 'e2'), b.failure('a', 'e3')], [100, 200, 250])
  t.same(b.check('a'), { remainingMs: 250, lastError: 'e3' })
  t.equal(b.check('b'), undefined, 'another key is not affected')
  t.equal(b.active(), 1)
  now = 250
  t.equal(b.check('a'), undefined, 'over once the delay passed')
  b.failure('a', 'e4')
  t.equal(b.check('a')?.remainingMs, 250, 'still at the cap: the failures count on')
  b.success('a')
  t.equal(b.failure('a', 'e5'), 100, 'a success starts over')
})

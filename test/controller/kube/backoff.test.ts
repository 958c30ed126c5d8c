import t from 'tap'
import { RetryBackoff, sleep } from '../../../src/controller/kube/backoff.js'

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

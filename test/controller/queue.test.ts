import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { WorkQueue } from '../../src/controller/queue.js'

t.test('a key queued many times while waiting is processed once', async t => {
  const queue = new WorkQueue({ minIntervalMs: 0 })
  const seen: string[] = []
  queue.add('a')
  queue.add('a')
  queue.add('b')
  queue.start(async key => { seen.push(key) })
  await queue.idle()
  t.same(seen.sort(), ['a', 'b'])
  await queue.stop()
})

t.test('one run per key at a time; an add during a run runs it again afterwards', async t => {
  const queue = new WorkQueue({ minIntervalMs: 0, concurrency: 4 })
  let running = 0
  let maxRunning = 0
  let runs = 0
  queue.start(async () => {
    running++
    runs++
    maxRunning = Math.max(maxRunning, running)
    await sleep(20)
    running--
  })
  queue.add('a')
  await sleep(5)
  queue.add('a')
  queue.add('a')
  await sleep(5)
  await queue.idle()
  await sleep(30)
  await queue.idle()
  t.equal(maxRunning, 1, 'never two runs of one key at once')
  t.equal(runs, 2, 'the adds during the run collapse into one more run')
  await queue.stop()
})

t.test('different keys run in parallel up to the concurrency', async t => {
  const queue = new WorkQueue({ minIntervalMs: 0, concurrency: 2 })
  let running = 0
  let maxRunning = 0
  queue.start(async () => {
    running++
    maxRunning = Math.max(maxRunning, running)
    await sleep(15)
    running--
  })
  for (const key of ['a', 'b', 'c', 'd']) queue.add(key)
  await queue.idle()
  t.equal(maxRunning, 2)
  await queue.stop()
})

t.test('errors retry with per-key exponential backoff, success resets it', async t => {
  const queue = new WorkQueue({ minIntervalMs: 0, baseDelayMs: 10, maxDelayMs: 40 })
  const times: number[] = []
  let fail = 4
  queue.start(async () => {
    times.push(performance.now())
    if (fail-- > 0) throw new Error('boom')
  })
  queue.add('a')
  while (times.length < 5) await sleep(5)
  const gaps = times.slice(1).map((time, i) => time - (times[i] as number))
  // delays 10, 20, 40, 40 (capped); timers are never early
  t.ok(gaps[0]! >= 9 && gaps[1]! >= 19 && gaps[2]! >= 39 && gaps[3]! >= 39, `gaps ${gaps.join(', ')}`)
  t.ok(gaps[3]! < gaps[2]! + 30, 'the cap holds')
  t.equal(queue.failures('a'), 0, 'success resets the failure count')
  await queue.stop()
})

t.test('the minimum interval spaces runs of one key', async t => {
  const queue = new WorkQueue({ minIntervalMs: 60 })
  const times: number[] = []
  queue.start(async () => { times.push(performance.now()) })
  queue.add('a')
  await queue.idle()
  queue.add('a')
  await sleep(100)
  t.equal(times.length, 2)
  t.ok(times[1]! - times[0]! >= 59, `second run ${times[1]! - times[0]!} ms after the first`)
  await queue.stop()
})

t.test('requeueAfterMs schedules the next run; an earlier add wins over a later timer', async t => {
  const queue = new WorkQueue({ minIntervalMs: 0 })
  let runs = 0
  queue.start(async () => { runs++; return runs === 1 ? { requeueAfterMs: 10_000 } : undefined })
  queue.add('a')
  await queue.idle()
  t.equal(runs, 1)
  queue.addAfter('a', 10)
  await sleep(40)
  t.equal(runs, 2, 'the earlier request replaced the 10 s timer')
  queue.forget('a')
  await queue.stop()
})

t.test('stop waits for running work and refuses new keys', async t => {
  const queue = new WorkQueue({ minIntervalMs: 0 })
  let finished = false
  queue.start(async () => { await sleep(20); finished = true })
  queue.add('a')
  await sleep(1)
  await queue.stop()
  t.ok(finished)
  queue.add('b')
  t.equal(queue.length, 0)
})

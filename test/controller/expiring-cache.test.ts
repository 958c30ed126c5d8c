// The cache of the secure endpoint's decisions: expiry per value, a bound on size, one load for concurrent lookups,
// failures not kept.
import t from 'tap'
import { ExpiringCache } from '../../src/controller/expiring-cache.js'

t.test('values expire after their own time to live', async t => {
  let now = 0
  const cache = new ExpiringCache<string>({ maxEntries: 10, now: () => now })
  let loads = 0
  const get = (key: string) => cache.get(key, async () => `${key}-${++loads}`, value => value.startsWith('short') ? 10 : 100)
  t.equal(await get('short'), 'short-1')
  t.equal(await get('long'), 'long-2')
  now = 50
  t.equal(await get('short'), 'short-3', 'expired')
  t.equal(await get('long'), 'long-2', 'still fresh')
  t.equal(await cache.get('none', async () => 'x', () => 0), 'x')
  t.equal(cache.size, 2, 'a time to live of 0 keeps nothing')
})

t.test('a flood of keys stays within maxEntries, the oldest going first', async t => {
  const cache = new ExpiringCache<number>({ maxEntries: 3 })
  for (let i = 0; i < 1000; i++) await cache.get(`token-${i}`, async () => i, () => 60_000)
  t.equal(cache.size, 3)
  let loaded = false
  t.equal(await cache.get('token-999', async () => { loaded = true; return -1 }, () => 60_000), 999, 'the newest are kept')
  t.equal(await cache.get('token-0', async () => -1, () => 60_000), -1, 'the oldest were evicted')
  t.notOk(loaded)
})

t.test('concurrent lookups share one load; a failed load is not kept', async t => {
  const cache = new ExpiringCache<string>({ maxEntries: 10 })
  let loads = 0
  let release = () => {}
  const slow = () => new Promise<string>(resolve => { loads++; release = () => resolve('v') })
  const waiting = Promise.all([cache.get('k', slow, () => 1000), cache.get('k', slow, () => 1000)])
  release()
  t.same(await waiting, ['v', 'v'])
  t.equal(loads, 1)
  await t.rejects(cache.get('bad', async () => { throw new Error('apiserver down') }, () => 1000), /apiserver down/)
  t.equal(await cache.get('bad', async () => 'ok', () => 1000), 'ok', 'the next lookup loads again')
})

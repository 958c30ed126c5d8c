// Our metrics use prom-client's classes loaded file by file: they must be the very classes the package exports, so
// a registry passed in by a user (or read from server.metrics) mixes with theirs.
import * as PromClient from 'prom-client'
import t from 'tap'
import { collectDefaultMetrics, Counter, Gauge, Histogram, loadAggregatorRegistry, Registry } from '../../src/shims/prom-client.js'

t.test('the classes are the package\'s own', async t => {
  t.equal(Registry, PromClient.Registry)
  t.equal(Counter, PromClient.Counter)
  t.equal(Gauge, PromClient.Gauge)
  t.equal(Histogram, PromClient.Histogram)
  t.equal(loadAggregatorRegistry(), PromClient.AggregatorRegistry)
})

t.test('a counter in a user\'s registry, and the default process metrics on demand', async t => {
  const registry = new PromClient.Registry()
  new Counter({ name: 'calls_total', help: 'Calls.', registers: [registry] }).inc(2)
  collectDefaultMetrics({ register: registry })
  const text = await registry.metrics()
  t.match(text, /^calls_total 2$/m)
  t.match(text, /^process_cpu_user_seconds_total /m)
})

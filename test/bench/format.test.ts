import t from 'tap'
import { formatMb, formatMs, formatRate } from '../../bench/lib/format.js'

t.test('rates: whole numbers with separators from 100 up, one decimal below', async t => {
  t.equal(formatRate(15321.6), '15,322')
  t.equal(formatRate(100), '100')
  t.equal(formatRate(4.44), '4.4')
  t.equal(formatRate(NaN), '—')
})

t.test('milliseconds: about three significant digits', async t => {
  t.same([0.4123, 4.123, 41.23, 412.3, 1412.3, -0.25].map(formatMs), ['0.412', '4.12', '41.2', '412', '1,412', '-0.250'])
  t.equal(formatMs(Infinity), '—')
})

t.test('megabytes: whole numbers, em dash when unknown', async t => {
  t.equal(formatMb(87.6), '88')
  t.equal(formatMb(undefined), '—')
})

// Go's time package (src/go/time.ts): time.Parse(time.RFC3339, ...), which encoding/json runs for metav1.Time and CEL's
// timestamp() runs, ParseDuration, Duration.String and RFC 3339 formatting. The verdicts and messages are Go 1.26's,
// printed by Go itself for these inputs (test/fixtures/apiserver/go-stdlib.json records ParseDuration's;
// test/interop/decoder-parity.test.ts compares RFC 3339 parsing with Go on every request of its corpus).
import { readFileSync } from 'node:fs'
import t from 'tap'
import { civilFromDays, daysFromCivil, durationString, formatRFC3339Nano, parseDuration, parseRFC3339, rfc3339Error } from '../../src/go/time.js'

const TIMES: Array<[string, string | undefined]> = [
  ['2026-01-02T03:04:05Z', undefined],
  ['2026-01-02T3:04:05Z', undefined],
  ['2026-01-02T03:04:05,123Z', undefined],
  ['2026-01-02T03:04:05.123456789123Z', undefined],
  ['2026-01-02T03:04:05+24:00', undefined],
  ['2026-01-02T03:04:05+23:60', undefined],
  ['2026-01-02T03:04:05+25:00', 'parsing time "2026-01-02T03:04:05+25:00": time zone offset hour out of range'],
  ['2026-01-02T03:04:05+00:61', 'parsing time "2026-01-02T03:04:05+00:61": time zone offset minute out of range'],
  ['2026-01-02t03:04:05Z', 'parsing time "2026-01-02t03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t03:04:05Z" as "T"'],
  ['2026-01-02T03:04:05z', 'parsing time "2026-01-02T03:04:05z" as "2006-01-02T15:04:05Z07:00": cannot parse "z" as "Z07:00"'],
  ['2026-01-02 03:04:05Z', 'parsing time "2026-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T"'],
  ['2026-13-02T03:04:05Z', 'parsing time "2026-13-02T03:04:05Z": month out of range'],
  ['2026-02-30T03:04:05Z', 'parsing time "2026-02-30T03:04:05Z": day out of range'],
  ['2024-02-29T03:04:05Z', undefined],
  ['2026-01-02T24:00:00Z', 'parsing time "2026-01-02T24:00:00Z": hour out of range'],
  ['2026-01-02T03:60:05Z', 'parsing time "2026-01-02T03:60:05Z": minute out of range'],
  ['2026-01-02T03:04:60Z', 'parsing time "2026-01-02T03:04:60Z": second out of range'],
  ['yesterday at noon', 'parsing time "yesterday at noon" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday at noon" as "2006"'],
  ['2026-01-02T03:04:05', 'parsing time "2026-01-02T03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
  ['2026-01-02T03:04:05Zjunk', 'parsing time "2026-01-02T03:04:05Zjunk": extra text: "junk"'],
  ['0000-01-01T00:00:00Z', undefined],
  // The edges of the usual form, which is read character by character before Go's general parser runs.
  ['2026-01-02T03:04:05.5+01:00', undefined],
  ['2026-01-02T03:04:05.123', 'parsing time "2026-01-02T03:04:05.123" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
  ['\u0662\u0660\u0662\u0666-01-02T03:04:05Z', 'parsing time "\\xd9\\xa2\\xd9\\xa0\\xd9\\xa2\\xd9\\xa6-01-02T03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xd9\\xa2\\xd9\\xa0\\xd9\\xa2\\xd9\\xa6-01-02T03:04:05Z" as "2006"'],
  ['2026-1-02T03:04:05Z', 'parsing time "2026-1-02T03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-02T03:04:05Z" as "01"'],
  ['20261-01-02T03:04:05Z', 'parsing time "20261-01-02T03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01-02T03:04:05Z" as "-"'],
  ['2026-01-02T03:04:05.Z', 'parsing time "2026-01-02T03:04:05.Z" as "2006-01-02T15:04:05Z07:00": cannot parse ".Z" as "Z07:00"'],
  ['2026-01-02T03:04:05+0100', 'parsing time "2026-01-02T03:04:05+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00"'],
  ['2026-01-02T03:04:05-01:00', undefined],
  ['', 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'],
  ['2026-01-02T03:04:05+01:0x', 'parsing time "2026-01-02T03:04:05+01:0x" as "2006-01-02T15:04:05Z07:00": cannot parse "+01:0x" as "Z07:00"'],
  ['2026-01-00T03:04:05Z', 'parsing time "2026-01-00T03:04:05Z": day out of range'],
  ['2026-01-02T03:4:05Z', 'parsing time "2026-01-02T03:4:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "4:05Z" as "04"'],
  ['2026-01-02T003:04:05Z', 'parsing time "2026-01-02T003:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "3:04:05Z" as ":"'],
  ['ü2026', 'parsing time "\\xc3\\xbc2026" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xbc2026" as "2006"'],
  ['2026-01-02T03:04:05é', 'parsing time "2026-01-02T03:04:05\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "Z07:00"'],
]

t.test('timestamps: what time.Parse(time.RFC3339, ...) accepts, odd forms too, and its errors word for word', async t => {
  for (const [value, error] of TIMES) t.equal(rfc3339Error(value), error, JSON.stringify(value))
})

t.test('timestamps: the time time.Parse(time.RFC3339, ...) reads, and the same error', async t => {
  for (const [value, error] of TIMES) {
    const parsed = parseRFC3339(value)
    t.equal(typeof parsed === 'string' ? parsed : undefined, error, JSON.stringify(value))
  }
  t.same(parseRFC3339('2026-01-02T3:04:05,123456789999+01:30'), { ns: (BigInt(daysFromCivil(2026, 1, 2)) * 86400n + 3n * 3600n + 4n * 60n + 5n - 5400n) * 1_000_000_000n + 123456789n, offset: 5400 })
  t.same(parseRFC3339('1970-01-01T00:00:00-24:00'), { ns: 86400n * 1_000_000_000n, offset: -86400 })
})

const oracle = JSON.parse(readFileSync(new URL('../fixtures/apiserver/go-stdlib.json', import.meta.url), 'utf8')) as Record<string, Record<string, string | boolean>>

t.test('time.ParseDuration', async t => {
  for (const [input, want] of Object.entries(oracle.duration ?? {})) {
    let got: string
    try { got = parseDuration(input).toString() } catch (err) { got = (err as Error).message }
    t.equal(got, want, JSON.stringify(input))
  }
})

t.test('Duration.String', async t => {
  const cases: Array<[bigint, string]> = [[0n, '0s'], [1n, '1ns'], [1500n, '1.5µs'], [1_500_000n, '1.5ms'], [1_500_000_000n, '1.5s'],
    [3_661_000_000_000n, '1h1m1s'], [-90_000_000_000n, '-1m30s'], [(1n << 63n) - 1n, '2562047h47m16.854775807s'], [-(1n << 63n), '-2562047h47m16.854775808s']]
  for (const [d, want] of cases) t.equal(durationString(d), want, String(d))
})

t.test('Format(time.RFC3339Nano) and the proleptic calendar', async t => {
  t.equal(formatRFC3339Nano(0n), '1970-01-01T00:00:00Z')
  t.equal(formatRFC3339Nano(-1n), '1969-12-31T23:59:59.999999999Z')
  t.equal(formatRFC3339Nano(1_500_000_000n, 7200), '1970-01-01T02:00:01.5+02:00')
  t.equal(formatRFC3339Nano(0n, -5400), '1969-12-31T22:30:00-01:30')
  t.same(civilFromDays(daysFromCivil(1, 1, 1)), { year: 1, month: 1, day: 1 })
  t.same(civilFromDays(daysFromCivil(-1, 3, 1)), { year: -1, month: 3, day: 1 })
  t.equal(formatRFC3339Nano(BigInt(daysFromCivil(-5, 1, 1)) * 86400n * 1_000_000_000n), '-0005-01-01T00:00:00Z')
})

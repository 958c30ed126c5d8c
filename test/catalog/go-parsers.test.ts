// Go's parsers that encoding/json runs on Cluster API's fields: time.Parse(time.RFC3339, ...) for metav1.Time and
// base64.StdEncoding for []byte. The verdicts and messages below are Go 1.26's, printed by Go itself for these inputs
// (test/interop/decoder-parity.test.ts compares both with Go on every request of its corpus).
import t from 'tap'
import { goTimeError } from '../../src/catalog/decoder/go-time.js'

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
  for (const [value, error] of TIMES) t.equal(goTimeError(value), error, JSON.stringify(value))
})

// The dates and date-times kube-openapi's strfmt accepts for the date and date-time formats (and CEL's typing of
// them): time.Parse of "2006-01-02", and strfmt.ParseDateTime's RFC 3339 layouts, with or without a fraction or a
// zone. Go's time package itself (ParseDuration, RFC 3339, formatting) is src/go/time.ts.
import { daysFromCivil, daysIn } from '../go/time.js'

const NS_PER_SECOND = 1_000_000_000n

/** time.Parse("2006-01-02", s): midnight UTC in nanoseconds since the epoch, or undefined. */
export function parseGoDate (s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y)) return undefined
  return BigInt(daysFromCivil(y, mo, d)) * 86400n * NS_PER_SECOND
}

/**
 * strfmt.ParseDateTime: RFC 3339 with an optional fraction, or without zone (UTC), as Go's time.Parse reads the
 * layouts kube-openapi tries. Nanoseconds since the epoch, or undefined.
 */
export function parseGoDateTime (s: string): bigint | undefined {
  return parseGoDateTimeZoned(s)?.ns
}

/** parseGoDateTime, with the zone offset (seconds east of UTC) the time was written with. */
export function parseGoDateTimeZoned (s: string): { ns: bigint, offset: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(s)
  if (!m) return undefined
  const [y, mo, d, h, mi, sec] = [1, 2, 3, 4, 5, 6].map(i => Number(m[i])) as [number, number, number, number, number, number]
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h > 23 || mi > 59 || sec > 59) return undefined
  let offset = 0
  const zone = m[8]
  if (zone !== undefined && zone !== 'Z') {
    const zh = Number(zone.slice(1, 3))
    const zm = Number(zone.slice(4, 6))
    if (zh > 23 || zm > 59) return undefined
    offset = (zh * 60 + zm) * 60 * (zone[0] === '-' ? -1 : 1)
  }
  const seconds = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + sec - offset)
  const nanos = m[7] !== undefined ? BigInt(m[7].slice(0, 9).padEnd(9, '0')) : 0n
  return { ns: seconds * NS_PER_SECOND + nanos, offset }
}

// The few pieces of Go's time package the API server's checks rely on: time.ParseDuration (with its error messages),
// time.Parse of the RFC 3339 layouts kube-openapi accepts for dates and date-times, and RFC 3339 formatting. Times
// are nanoseconds since the Unix epoch (bigint), durations nanoseconds (bigint, int64 range).

const NS_PER_SECOND = 1_000_000_000n
const MAX_INT64 = (1n << 63n) - 1n

const UNITS: Record<string, bigint> = {
  ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: NS_PER_SECOND, m: 60n * NS_PER_SECOND, h: 3600n * NS_PER_SECOND
}

/** time's quote(): ASCII kept (with \" and \\), other bytes as \x escapes. */
function timeQuote (s: string): string {
  let out = '"'
  for (const b of Buffer.from(s, 'utf8')) {
    if (b >= 0x80 || b < 0x20) out += '\\x' + b.toString(16).padStart(2, '0')
    else out += (b === 0x22 || b === 0x5c ? '\\' : '') + String.fromCharCode(b)
  }
  return out + '"'
}

/** A Go parse failure, carrying Go's message. */
class GoParseError extends Error {}

const durationError = (what: string, orig: string) => new GoParseError(`time: ${what} ${timeQuote(orig)}`)

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9'

/** time.ParseDuration: nanoseconds, or a GoParseError with Go's message. */
export function parseGoDuration (orig: string): bigint {
  let s = orig
  let neg = false
  if (s[0] === '-' || s[0] === '+') { neg = s[0] === '-'; s = s.slice(1) }
  if (s === '0') return 0n
  if (s === '') throw durationError('invalid duration', orig)
  let d = 0n
  const limit = 1n << 63n
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw durationError('invalid duration', orig)
    let i = 0
    let v = 0n
    while (isDigit(s[i])) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48)
      if (v > limit) throw durationError('invalid duration', orig)
      i++
    }
    const pre = i > 0
    s = s.slice(i)
    let f = 0n
    let scale = 1
    let post = false
    if (s[0] === '.') {
      s = s.slice(1)
      let j = 0
      let overflow = false
      while (isDigit(s[j])) {
        if (!overflow) {
          const y = f * 10n + BigInt(s.charCodeAt(j) - 48)
          if (f > (limit - 1n) / 10n || y > limit) overflow = true
          else { f = y; scale *= 10 }
        }
        j++
      }
      post = j > 0
      s = s.slice(j)
    }
    if (!pre && !post) throw durationError('invalid duration', orig)
    let u = 0
    while (u < s.length && !(s[u] === '.' || isDigit(s[u]))) u++
    if (u === 0) throw durationError('missing unit in duration', orig)
    const unitName = s.slice(0, u)
    s = s.slice(u)
    const unit = UNITS[unitName]
    if (unit === undefined) throw durationError(`unknown unit ${timeQuote(unitName)} in duration`, orig)
    if (v > limit / unit) throw durationError('invalid duration', orig)
    v *= unit
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)))
      if (v > limit) throw durationError('invalid duration', orig)
    }
    d += v
    if (d > limit) throw durationError('invalid duration', orig)
  }
  if (neg) return -d
  if (d > MAX_INT64) throw durationError('invalid duration', orig)
  return d
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
/** The number of days of a month (1-12) in a year. */
function daysIn (month: number, year: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number
}

/** Days since 1970-01-01 of a proleptic Gregorian date (any year). */
export function daysFromCivil (y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/** The civil date of a day count since 1970-01-01. */
export function civilFromDays (z: number): { year: number, month: number, day: number } {
  const zz = z + 719468
  const era = Math.floor(zz / 146097)
  const doe = zz - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

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

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** t.Format(time.RFC3339Nano) in UTC, or with a fixed offset in seconds (zone Z when 0). */
export function formatRFC3339Nano (ns: bigint, offsetSeconds = 0): string {
  const local = ns + BigInt(offsetSeconds) * NS_PER_SECOND
  let secs = local / NS_PER_SECOND
  let frac = local % NS_PER_SECOND
  if (frac < 0n) { frac += NS_PER_SECOND; secs -= 1n }
  let days = secs / 86400n
  let rem = secs % 86400n
  if (rem < 0n) { rem += 86400n; days -= 1n }
  const { year, month, day } = civilFromDays(Number(days))
  const r = Number(rem)
  let out = `${year < 0 ? '-' + pad(-year, 4) : pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(Math.floor(r / 3600))}:${pad(Math.floor(r / 60) % 60)}:${pad(r % 60)}`
  if (frac > 0n) out += '.' + frac.toString().padStart(9, '0').replace(/0+$/, '')
  if (offsetSeconds === 0) return out + 'Z'
  const o = Math.abs(offsetSeconds)
  return out + (offsetSeconds < 0 ? '-' : '+') + pad(Math.floor(o / 3600)) + ':' + pad(Math.floor(o / 60) % 60)
}

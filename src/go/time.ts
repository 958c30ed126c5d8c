// Go's time package, the parts Cluster API and Kubernetes run on our inputs: ParseDuration (with its error messages)
// and Duration.String; Parse(time.RFC3339, s), which metav1.Time's UnmarshalJSON and CEL's timestamp() run: what it
// accepts (odd-but-valid forms too: a one-digit hour, a comma before fractional seconds, a +24:00 offset) and its
// error otherwise, word for word, from a port of Go 1.26's general parser (time/format.go) for this one layout; and
// Format(time.RFC3339Nano). Times are nanoseconds since the Unix epoch (bigint), durations nanoseconds (int64 range).

const NS_PER_SECOND = 1_000_000_000n
const MAX_INT64 = (1n << 63n) - 1n

/** A failure of ParseDuration, with Go's message (`time: invalid duration "x"`). */
export class DurationError extends Error {}

const UNITS: Record<string, bigint> = {
  ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: NS_PER_SECOND, m: 60n * NS_PER_SECOND, h: 3600n * NS_PER_SECOND
}

const durationError = (what: string, orig: string) => new DurationError(`time: ${what} ${quote(Buffer.from(orig))}`)

const isDigitChar = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9'

/** time.ParseDuration: nanoseconds, or a DurationError with Go's message. */
export function parseDuration (orig: string): bigint {
  let s = orig
  let neg = false
  if (s[0] === '-' || s[0] === '+') { neg = s[0] === '-'; s = s.slice(1) }
  if (s === '0') return 0n
  if (s === '') throw durationError('invalid duration', orig)
  let d = 0n
  while (s !== '') {
    const [v, rest] = durationTerm(s, orig)
    s = rest
    d += v
    if (d > 1n << 63n) throw durationError('invalid duration', orig)
  }
  if (neg) return -d
  if (d > MAX_INT64) throw durationError('invalid duration', orig)
  return d
}

/** One [0-9]*(\.[0-9]*)?unit term of a duration: its nanoseconds and what follows. */
function durationTerm (s: string, orig: string): [bigint, string] {
  const limit = 1n << 63n
  if (!(s[0] === '.' || isDigitChar(s[0]))) throw durationError('invalid duration', orig)
  let i = 0
  let v = 0n
  while (isDigitChar(s[i])) {
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
    while (isDigitChar(s[j])) {
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
  while (u < s.length && !(s[u] === '.' || isDigitChar(s[u]))) u++
  if (u === 0) throw durationError('missing unit in duration', orig)
  const unitName = s.slice(0, u)
  const unit = UNITS[unitName]
  if (unit === undefined) throw durationError(`unknown unit ${quote(Buffer.from(unitName))} in duration`, orig)
  if (v > limit / unit) throw durationError('invalid duration', orig)
  v *= unit
  if (f > 0n) {
    v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)))
    if (v > limit) throw durationError('invalid duration', orig)
  }
  return [v, s.slice(u)]
}

/** Duration.String: `1h2m3.5s`, `1.5ms`, `500µs`, `0s`. */
export function durationString (d: bigint): string {
  if (d === 0n) return '0s'
  const neg = d < 0n
  let u = neg ? -d : d
  if (u < NS_PER_SECOND) {
    if (u < 1000n) return (neg ? '-' : '') + u.toString() + 'ns'
    return (neg ? '-' : '') + (u < 1_000_000n ? fraction(u, 3) + 'µs' : fraction(u, 6) + 'ms')
  }
  let out = fraction(u % 60_000_000_000n, 9) + 's'
  u /= 60_000_000_000n
  if (u > 0n) {
    out = (u % 60n).toString() + 'm' + out
    u /= 60n
    if (u > 0n) out = u.toString() + 'h' + out
  }
  return (neg ? '-' : '') + out
}

function fraction (v: bigint, prec: number): string {
  const scale = 10n ** BigInt(prec)
  const frac = (v % scale).toString().padStart(prec, '0').replace(/0+$/, '')
  return (v / scale).toString() + (frac === '' ? '' : '.' + frac)
}

/** The number of days of a month (1-12) in a year. */
export function daysIn (month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
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

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** The civil time of a time at a fixed offset (seconds east of UTC), and its day count since 1970-01-01. */
export function civilTime (ns: bigint, offsetSeconds = 0): { year: number, month: number, day: number, hour: number, minute: number, second: number, nanos: bigint, days: number } {
  const local = ns + BigInt(offsetSeconds) * NS_PER_SECOND
  let secs = local / NS_PER_SECOND
  let nanos = local % NS_PER_SECOND
  if (nanos < 0n) { nanos += NS_PER_SECOND; secs -= 1n }
  let days = secs / 86400n
  let rem = secs % 86400n
  if (rem < 0n) { rem += 86400n; days -= 1n }
  const r = Number(rem)
  return { ...civilFromDays(Number(days)), hour: Math.floor(r / 3600), minute: Math.floor(r / 60) % 60, second: r % 60, nanos, days: Number(days) }
}

/** t.Format(time.RFC3339Nano) in UTC, or with a fixed offset in seconds (zone Z when 0). */
export function formatRFC3339Nano (ns: bigint, offsetSeconds = 0): string {
  const t = civilTime(ns, offsetSeconds)
  let out = `${t.year < 0 ? '-' + pad(-t.year, 4) : pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`
  if (t.nanos > 0n) out += '.' + t.nanos.toString().padStart(9, '0').replace(/0+$/, '')
  if (offsetSeconds === 0) return out + 'Z'
  const o = Math.abs(offsetSeconds)
  return out + (offsetSeconds < 0 ? '-' : '+') + pad(Math.floor(o / 3600)) + ':' + pad(Math.floor(o / 60) % 60)
}

const LAYOUT = '2006-01-02T15:04:05Z07:00'

/** undefined when time.Parse(time.RFC3339, value) succeeds, else Go's error message. */
export function rfc3339Error (value: string): string | undefined {
  if (isUsualTime(value)) return undefined
  const parsed = parseLayout(Buffer.from(value, 'utf8'))
  return typeof parsed === 'string' ? parsed : undefined
}

/** time.Parse(time.RFC3339, value): nanoseconds since the epoch and the zone offset (seconds east), or Go's error. */
export function parseRFC3339 (value: string): { ns: bigint, offset: number } | string {
  const p = parseLayout(Buffer.from(value, 'utf8'))
  if (typeof p === 'string') return p
  const seconds = BigInt(daysFromCivil(p.year, p.month, p.day)) * 86400n + BigInt(p.hour * 3600 + p.minute * 60 + p.second - p.offset)
  return { ns: seconds * NS_PER_SECOND + p.nanos, offset: p.offset }
}

/**
 * The usual form, YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM) with its numbers in range, which Go's fast path
 * (parseRFC3339) accepts: read character by character, as it is on every timestamp of every request.
 */
function isUsualTime (s: string): boolean {
  const n = s.length
  if (n < 20 || s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH || s.charCodeAt(10) !== T || s.charCodeAt(13) !== COLON || s.charCodeAt(16) !== COLON) return false
  const century = twoDigits(s, 0)
  const yearInCentury = twoDigits(s, 2)
  const month = twoDigits(s, 5)
  const day = twoDigits(s, 8)
  if (century < 0 || yearInCentury < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, century * 100 + yearInCentury)) return false
  if (!inRange(twoDigits(s, 11), 23) || !inRange(twoDigits(s, 14), 59) || !inRange(twoDigits(s, 17), 59)) return false
  let i = 19
  if (s.charCodeAt(i) === DOT) {
    const first = ++i
    while (i < n && isDigitCode(s.charCodeAt(i))) i++
    if (i === first) return false
  }
  if (i === n - 1) return s.charCodeAt(i) === Z
  const sign = s.charCodeAt(i)
  return i === n - 6 && (sign === PLUS || sign === DASH) && s.charCodeAt(i + 3) === COLON && inRange(twoDigits(s, i + 1), 23) && inRange(twoDigits(s, i + 4), 59)
}

const DASH = '-'.charCodeAt(0)
const PLUS = '+'.charCodeAt(0)
const DOT = '.'.charCodeAt(0)
const COLON = ':'.charCodeAt(0)
const T = 'T'.charCodeAt(0)
const Z = 'Z'.charCodeAt(0)

function isDigitCode (code: number): boolean {
  return code >= 48 && code <= 57
}

/** The number of two ASCII digits at i, or -1. */
function twoDigits (s: string, i: number): number {
  const tens = s.charCodeAt(i)
  const ones = s.charCodeAt(i + 1)
  return isDigitCode(tens) && isDigitCode(ones) ? (tens - 48) * 10 + ones - 48 : -1
}

function inRange (value: number, max: number): boolean {
  return value >= 0 && value <= max
}

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'zone'

/** Layout chunks of RFC 3339 as Go's nextStdChunk splits it: a literal prefix, then a value. */
const CHUNKS: ReadonlyArray<{ prefix: string, std: Std, text: string }> = [
  { prefix: '', std: 'year', text: '2006' },
  { prefix: '-', std: 'month', text: '01' },
  { prefix: '-', std: 'day', text: '02' },
  { prefix: 'T', std: 'hour', text: '15' },
  { prefix: ':', std: 'minute', text: '04' },
  { prefix: ':', std: 'second', text: '05' },
  { prefix: '', std: 'zone', text: 'Z07:00' }
]

/** The fields time.Parse read. */
interface Fields { year: number, month: number, day: number, hour: number, minute: number, second: number, nanos: bigint, offset: number }

/** What reading one value of the layout gave: the rest of the input, or the range Go reports, or a failure. */
interface Read { value: Buffer, range?: string, failed?: boolean }

/** Go's time.parse for the RFC 3339 layout, over the UTF-8 bytes of the value: the fields, or Go's error. */
function parseLayout (all: Buffer): Fields | string {
  const whole = quote(all)
  const fields: Fields = { year: 0, month: -1, day: -1, hour: 0, minute: 0, second: 0, nanos: 0n, offset: 0 }
  let value = all
  for (const chunk of CHUNKS) {
    // skip: the literal prefix must match byte for byte.
    for (const c of Buffer.from(chunk.prefix)) {
      if (value.length === 0 || value[0] !== c) return `parsing time ${whole} as ${quote(Buffer.from(LAYOUT))}: cannot parse ${quote(value)} as ${quote(Buffer.from(chunk.prefix))}`
      value = value.subarray(1)
    }
    const read = readValue(chunk.std, value, fields)
    if (read.range !== undefined) return `parsing time ${whole}: ${read.range} out of range`
    if (read.failed === true) return `parsing time ${whole} as ${quote(Buffer.from(LAYOUT))}: cannot parse ${quote(value)} as ${quote(Buffer.from(chunk.text))}`
    value = read.value
  }
  if (value.length !== 0) return `parsing time ${whole}: extra text: ${quote(value)}`
  if (fields.day < 1 || fields.day > daysIn(fields.month, fields.year)) return `parsing time ${whole}: day out of range`
  return fields
}

/** One value of the layout at the start of the input, into fields. */
function readValue (std: Std, value: Buffer, fields: Fields): Read {
  const failed = { value, failed: true }
  switch (std) {
    case 'year':
      if (value.length < 4 || !isDigit(value, 0) || !isDigit(value, 1) || !isDigit(value, 2) || !isDigit(value, 3)) return failed
      fields.year = Number(value.subarray(0, 4).toString('latin1'))
      return { value: value.subarray(4) }
    case 'month': case 'day': case 'hour': case 'minute': {
      const n = getnum(value, std !== 'hour')
      if (n === BAD) return failed
      fields[std] = n[0]
      const max = std === 'month' ? 12 : std === 'hour' ? 23 : std === 'minute' ? 59 : Infinity
      return { value: n[1], ...((std === 'month' && n[0] <= 0) || n[0] > max ? { range: std } : {}) }
    }
    case 'second': return readSecond(value, fields)
    case 'zone': return readZone(value, fields)
  }
}

/** Seconds, and the fractional seconds the layout does not show, which Go takes anyway: '.' or ',' and digits. */
function readSecond (value: Buffer, fields: Fields): Read {
  const n = getnum(value, true)
  if (n === BAD) return { value, failed: true }
  fields.second = n[0]
  if (n[0] >= 60) return { value, range: 'second' }
  let rest = n[1]
  if (rest.length >= 2 && (rest[0] === 0x2e || rest[0] === 0x2c) && isDigit(rest, 1)) {
    let end = 2
    while (end < rest.length && isDigit(rest, end)) end++
    // Go keeps nine digits of the fraction.
    fields.nanos = BigInt(rest.subarray(1, Math.min(end, 10)).toString('latin1').padEnd(9, '0'))
    rest = rest.subarray(end)
  }
  return { value: rest }
}

/** Z, or ±hh:mm; Go's bound is > rather than >=: offsets of 24 hours or 60 minutes are accepted. */
function readZone (value: Buffer, fields: Fields): Read {
  if (value.length >= 1 && value[0] === 0x5a) return { value: value.subarray(1) }
  if (value.length < 6 || value[3] !== 0x3a) return { value, failed: true }
  const hour = getnum(value.subarray(1, 3), true)
  const minute = hour === BAD ? BAD : getnum(value.subarray(4, 6), true)
  let range: string | undefined
  if (hour !== BAD && hour[0] > 24) range = 'time zone offset hour'
  if (minute !== BAD && minute[0] > 60) range = 'time zone offset minute'
  if (range !== undefined) return { value, range }
  if (hour === BAD || minute === BAD || (value[0] !== 0x2b && value[0] !== 0x2d)) return { value, failed: true }
  fields.offset = (hour[0] * 3600 + minute[0] * 60) * (value[0] === 0x2d ? -1 : 1)
  return { value: value.subarray(6) }
}

const BAD = Symbol('bad')

function isDigit (s: Buffer, i: number): boolean {
  const c = s[i]
  return c !== undefined && isDigitCode(c)
}

/** Go's getnum: one or two digits (exactly two when fixed), and what follows. */
function getnum (s: Buffer, fixed: boolean): [number, Buffer] | typeof BAD {
  if (!isDigit(s, 0)) return BAD
  if (!isDigit(s, 1)) return fixed ? BAD : [(s[0] as number) - 0x30, s.subarray(1)]
  return [((s[0] as number) - 0x30) * 10 + (s[1] as number) - 0x30, s.subarray(2)]
}

/** Go's time.quote: double quotes, `"` and `\` escaped, every byte of a non-ASCII or control character as \xNN. */
function quote (bytes: Buffer): string {
  let out = '"'
  for (let i = 0; i < bytes.length;) {
    const c = bytes[i] as number
    if (c >= 0x20 && c < 0x80) {
      out += (c === 0x22 || c === 0x5c ? '\\' : '') + String.fromCharCode(c)
      i++
      continue
    }
    const width = c < 0x80 ? 1 : runeWidth(bytes, i)
    for (let j = 0; j < width; j++) out += `\\x${(bytes[i + j] as number).toString(16).padStart(2, '0')}`
    i += width
  }
  return `${out}"`
}

/** The bytes of the UTF-8 sequence at i (1 for an invalid one, as Go's range over a string reads it). */
function runeWidth (bytes: Buffer, i: number): number {
  if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) return 3
  const c = bytes[i] as number
  const width = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 1
  if (width === 1 || i + width > bytes.length) return 1
  const decoded = bytes.subarray(i, i + width).toString('utf8')
  return decoded.length > 0 && !decoded.includes('\ufffd') ? width : 1
}

/** A non-negative Go duration in milliseconds (what timers count); undefined when the string is not one or is negative. */
export function parseGoDuration (value: string): number | undefined {
  let ns: bigint
  try {
    ns = parseDuration(value)
  } catch (err) {
    if (err instanceof DurationError) return undefined
    throw err
  }
  return ns < 0n ? undefined : Number(ns) / 1e6
}

/** Milliseconds as Go's time.Duration.String prints them: `10m0s`, `1h2m3s`, `1.5s`, `500ms`, `0s`. */
export function formatGoDuration (ms: number): string {
  return durationString(BigInt(Math.round(ms * 1e6)))
}

// Go's time.Parse(time.RFC3339, s), which metav1.Time's UnmarshalJSON runs on every timestamp Cluster API decodes:
// what it accepts (odd-but-valid forms too: a one-digit hour, a comma before fractional seconds, a +24:00 offset) and
// the error it returns otherwise, word for word. A port of Go 1.26's general parser (time/format.go) for this one
// layout; the common form is recognised first, character by character.
const LAYOUT = '2006-01-02T15:04:05Z07:00'
/** undefined when Go parses the timestamp, else Go's error message. */
export function goTimeError (value: string): string | undefined {
  return isUsualTime(value) ? undefined : parseError(Buffer.from(value, 'utf8'))
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

/** Layout chunks of RFC 3339 as Go's nextStdChunk splits it: a literal prefix, then a value. */
const CHUNKS: ReadonlyArray<{ prefix: string, std: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'zone', text: string }> = [
  { prefix: '', std: 'year', text: '2006' },
  { prefix: '-', std: 'month', text: '01' },
  { prefix: '-', std: 'day', text: '02' },
  { prefix: 'T', std: 'hour', text: '15' },
  { prefix: ':', std: 'minute', text: '04' },
  { prefix: ':', std: 'second', text: '05' },
  { prefix: '', std: 'zone', text: 'Z07:00' }
]

const BAD = Symbol('bad')

/** Go's time.parse for the RFC 3339 layout, over the UTF-8 bytes of the value: its error, or undefined. */
function parseError (all: Buffer): string | undefined {
  const whole = quote(all)
  const cannotParse = (elem: Buffer, layoutElem: string) => `parsing time ${whole} as ${quote(Buffer.from(LAYOUT))}: cannot parse ${quote(elem)} as ${quote(Buffer.from(layoutElem))}`
  const outOfRange = (what: string) => `parsing time ${whole}: ${what} out of range`
  let value = all
  let year = 0
  let month = -1
  let day = -1
  for (const chunk of CHUNKS) {
    // skip: the literal prefix must match byte for byte.
    for (const c of Buffer.from(chunk.prefix)) {
      if (value.length === 0 || value[0] !== c) return cannotParse(value, chunk.prefix)
      value = value.subarray(1)
    }
    const hold = value
    let range = ''
    let failed = false
    switch (chunk.std) {
      case 'year':
        if (value.length < 4 || !isDigit(value, 0) || !isDigit(value, 1) || !isDigit(value, 2) || !isDigit(value, 3)) failed = true
        else {
          year = Number(value.subarray(0, 4).toString('latin1'))
          value = value.subarray(4)
        }
        break
      case 'month': {
        const n = getnum(value, true)
        if (n === BAD) failed = true
        else {
          [month, value] = n
          if (month <= 0 || month > 12) range = 'month'
        }
        break
      }
      case 'day': {
        const n = getnum(value, true)
        if (n === BAD) failed = true
        else [day, value] = n
        break
      }
      case 'hour': {
        const n = getnum(value, false)
        if (n === BAD) failed = true
        else {
          value = n[1]
          if (n[0] >= 24) range = 'hour'
        }
        break
      }
      case 'minute': {
        const n = getnum(value, true)
        if (n === BAD) failed = true
        else {
          value = n[1]
          if (n[0] >= 60) range = 'minute'
        }
        break
      }
      case 'second': {
        const n = getnum(value, true)
        if (n === BAD) {
          failed = true
          break
        }
        value = n[1]
        if (n[0] >= 60) {
          range = 'second'
          break
        }
        // Fractional seconds the layout does not show are taken anyway: '.' or ',' and any number of digits.
        if (value.length >= 2 && (value[0] === 0x2e || value[0] === 0x2c) && isDigit(value, 1)) {
          let end = 2
          while (end < value.length && isDigit(value, end)) end++
          value = value.subarray(end)
        }
        break
      }
      case 'zone':
        if (value.length >= 1 && value[0] === 0x5a) {
          value = value.subarray(1)
          break
        }
        if (value.length < 6 || value[3] !== 0x3a) {
          failed = true
          break
        }
        {
          const hour = getnum(value.subarray(1, 3), true)
          const minute = hour === BAD ? BAD : getnum(value.subarray(4, 6), true)
          if (hour === BAD || minute === BAD) failed = true
          // Go's bound is > rather than >=: offsets of 24 hours or 60 minutes are accepted.
          if (hour !== BAD && hour[0] > 24) range = 'time zone offset hour'
          if (minute !== BAD && minute[0] > 60) range = 'time zone offset minute'
          if (value[0] !== 0x2b && value[0] !== 0x2d) failed = true
          value = value.subarray(6)
        }
        break
    }
    if (range) return outOfRange(range)
    if (failed) return cannotParse(hold, chunk.text)
  }
  if (value.length !== 0) return `parsing time ${whole}: extra text: ${quote(value)}`
  if (day < 1 || day > daysIn(month, year)) return `parsing time ${whole}: day out of range`
  return undefined
}

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

function daysIn (month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
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

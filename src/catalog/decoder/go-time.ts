// Go's time.Parse(time.RFC3339, s), which metav1.Time's UnmarshalJSON runs on every timestamp Cluster API decodes:
// what it accepts (odd-but-valid forms too: a one-digit hour, a comma before fractional seconds, a +24:00 offset) and
// the error it returns otherwise, word for word. A port of Go 1.26's general parser (time/format.go) for this one
// layout; the common form is recognised first by a regular expression.
const LAYOUT = '2006-01-02T15:04:05Z07:00'
/** The usual form: Go's fast path (parseRFC3339) accepts it when its numbers are in range. */
const USUAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/

/** undefined when Go parses the timestamp, else Go's error message. */
export function goTimeError (value: string): string | undefined {
  const m = USUAL.exec(value)
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[3]) >= 1 && Number(m[3]) <= daysIn(Number(m[2]), Number(m[1])) &&
    Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59 && (m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59))) return undefined
  return parseError(Buffer.from(value, 'utf8'))
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
  return c !== undefined && c >= 0x30 && c <= 0x39
}

/** Go's getnum: one or two digits (exactly two when fixed), and what follows. */
function getnum (s: Buffer, fixed: boolean): [number, Buffer] | typeof BAD {
  if (!isDigit(s, 0)) return BAD
  if (!isDigit(s, 1)) return fixed ? BAD : [(s[0] as number) - 0x30, s.subarray(1)]
  return [((s[0] as number) - 0x30) * 10 + (s[1] as number) - 0x30, s.subarray(2)]
}

function daysIn (month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
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

// The string formats the API server checks (kube-openapi's strfmt registry, as apiextensions filters it for 1.36):
// a format not in this list is ignored, as Kubernetes ignores it. Names are compared without dashes, as strfmt does
// (date-time and datetime are the same format).
import { isEmail } from './email.js'
import { parseDuration } from '../go/time.js'
import { parseGoDate } from './go-time.js'
import { isCIDRSloppy, isMAC, parseIPSloppy } from './ip.js'
import { parseAddr } from '../go/netip.js'
import { parseRequestURI } from '../go/url.js'

const HOSTNAME = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i
const CREDIT_CARD = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/
const HEXCOLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const RGBCOLOR = /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/
const DATE_TIME_TAIL = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/
const SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
const LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

function isHostname (s: string): boolean {
  return HOSTNAME.test(s) && Buffer.byteLength(s) <= 255 && s.split('.').every(p => Buffer.byteLength(p) <= 63)
}

function isCreditCard (s: string): boolean {
  const digits = s.replace(/[^0-9]+/g, '')
  if (!CREDIT_CARD.test(digits)) return false
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (double) { d *= 2; sum += d >= 10 ? (d % 10) + 1 : d } else sum += d
    double = !double
  }
  return sum % 10 === 0
}

function isISBN (s: string, version: 10 | 13): boolean {
  const clean = s.replace(/[\t\n\f\r -]+/g, '')
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(clean)) return false
    let sum = 0
    for (let i = 0; i < 9; i++) sum += (i + 1) * (clean.charCodeAt(i) - 48)
    sum += clean[9] === 'X' ? 100 : 10 * (clean.charCodeAt(9) - 48)
    return sum % 11 === 0
  }
  if (!/^[0-9]{13}$/.test(clean)) return false
  let sum = 0
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (clean.charCodeAt(i) - 48)
  return clean.charCodeAt(12) - 48 - ((10 - (sum % 10)) % 10) === 0
}

/** strfmt.IsDateTime: a date, a `t`, and a time matched by pattern (the pieces compared as strings). */
function isDateTime (s: string): boolean {
  if (s.length < 4) return false
  const parts = s.toLowerCase().split('t')
  if (parts.length < 2 || parseGoDate(parts[0] as string) === undefined) return false
  const m = DATE_TIME_TAIL.exec(parts[1] as string)
  return m !== null && (m[1] as string) <= '23' && (m[2] as string) <= '59' && (m[3] as string) <= '59'
}

const TIME_UNITS: Array<[string[], bigint]> = [
  [['ns', 'nano'], 1n], [['us', 'µs', 'micro'], 1000n], [['ms', 'milli'], 1_000_000n], [['s', 'sec'], 1_000_000_000n],
  [['m', 'min'], 60_000_000_000n], [['h', 'hr', 'hour'], 3_600_000_000_000n], [['d', 'day'], 86_400_000_000_000n],
  [['w', 'wk', 'week'], 604_800_000_000_000n]
]

/** strfmt.ParseDuration: Go's time.ParseDuration, else a sum of `<n> <unit>` pieces (`3 days`); nanoseconds or undefined. */
export function parseStrfmtDuration (s: string): bigint | undefined {
  try { return parseDuration(s) } catch {}
  let total = 0n
  let ok = false
  // Go's \s is [\t\n\f\r ], narrower than JavaScript's.
  for (const m of s.matchAll(/(\d+)[\t\n\f\r ]*([A-Za-zµ]+)/g)) {
    const digits = m[1] as string
    // strconv.Atoi overflows beyond int64.
    if (BigInt(digits) > (1n << 63n) - 1n) return undefined
    const unit = (m[2] as string).toLowerCase()
    for (const [variants, mult] of TIME_UNITS) {
      variants.forEach((v, i) => {
        if ((i === variants.length - 1 && unit.startsWith(v)) || v.toLowerCase() === unit) {
          ok = true
          total = BigInt.asIntN(64, total + BigInt(digits) * mult)
        }
      })
    }
  }
  return ok ? total : undefined
}

function isUri (s: string): boolean {
  try { parseRequestURI(s); return true } catch { return false }
}

function isIPv6 (s: string): boolean {
  try { return parseAddr(s).zone === '' && s.includes(':') } catch { return false }
}

const VALIDATORS: Record<string, (s: string) => boolean> = {
  bsonobjectid: s => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isUri,
  email: isEmail,
  hostname: isHostname,
  ipv4: s => parseIPSloppy(s) !== undefined && s.includes('.'),
  ipv6: isIPv6,
  cidr: isCIDRSloppy,
  mac: isMAC,
  uuid: s => UUID.test(s),
  uuid3: s => UUID3.test(s),
  uuid4: s => UUID4.test(s),
  uuid5: s => UUID5.test(s),
  isbn: s => isISBN(s, 10) || isISBN(s, 13),
  isbn10: s => isISBN(s, 10),
  isbn13: s => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: s => s.length === 11 && SSN.test(s),
  hexcolor: s => HEXCOLOR.test(s),
  rgbcolor: s => RGBCOLOR.test(s),
  byte: s => BASE64.test(s),
  password: () => true,
  date: s => parseGoDate(s) !== undefined,
  duration: s => parseStrfmtDuration(s) !== undefined,
  datetime: isDateTime,
  k8sshortname: s => s.length <= 63 && SHORT_NAME.test(s),
  k8slongname: s => s.length <= 253 && LONG_NAME.test(s)
}

const normalize = (format: string) => format.replaceAll('-', '')

/**
 * The format the API server keeps for a schema of this type (StripUnsupportedFormatsPostProcessor): for strings
 * (and untyped schemas) one of the known formats, for integers int32/int64, for numbers float/double; '' otherwise.
 */
export function effectiveFormat (type: string, format: string | undefined): string {
  if (!format) return ''
  switch (type) {
    case '': case 'string': return Object.hasOwn(VALIDATORS, normalize(format)) ? format : ''
    case 'integer': return format === 'int32' || format === 'int64' ? format : ''
    case 'number': return format === 'float' || format === 'double' ? format : ''
    default: return ''
  }
}

/** Whether a string format is one the API server checks strings against. */
export function isStringFormat (format: string): boolean {
  return Object.hasOwn(VALIDATORS, normalize(format))
}

/** Whether s is valid for the (known) string format. */
export function checkFormat (format: string, s: string): boolean {
  return VALIDATORS[normalize(format)]?.(s) ?? true
}

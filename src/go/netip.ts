// Go's net/netip: the strict ParseAddr and ParsePrefix, with their error messages (the CEL ip and cidr libraries and
// url.Parse's IPv6 literals use them), Addr.Is4In6 and Addr.String.
import { quote as goQuote } from './strconv.js'

/** An IP address: 4 or 16 bytes, and the IPv6 zone ('' for none). */
export interface Addr {
  readonly bytes: Uint8Array
  readonly zone: string
}

/** A parse failure with Go's message. */
export class IPParseError extends Error {}

const addrError = (input: string, msg: string, at = '') =>
  new IPParseError(`ParseAddr(${goQuote(input)}): ${msg}${at !== '' ? ` (at ${goQuote(at)})` : ''}`)

function parseIPv4Fields (input: string, off: number, end: number, into: Uint8Array, at: number): void {
  const s = input.slice(off, end)
  let val = 0
  let pos = 0
  let digits = 0
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero')
      val = val * 10 + c.charCodeAt(0) - 48
      digits++
      if (val > 255) throw addrError(input, 'IPv4 field has value >255')
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i))
      if (pos === 3) throw addrError(input, 'IPv4 address too long')
      into[at + pos++] = val
      val = 0
      digits = 0
    } else {
      throw addrError(input, 'unexpected character', s.slice(i))
    }
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short')
  into[at + 3] = val
}

function parseIPv6 (input: string): Addr {
  let s = input
  let zone = ''
  const pct = s.indexOf('%')
  if (pct !== -1) {
    zone = s.slice(pct + 1)
    s = s.slice(0, pct)
    if (zone === '') throw addrError(input, 'zone must be a non-empty string')
  }
  const ip = new Uint8Array(16)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (s.length === 0) return { bytes: ip, zone }
  }
  let i = 0
  while (i < 16) {
    let off = 0
    let acc = 0
    for (; off < s.length; off++) {
      const d = parseInt(s[off] as string, 16)
      if (Number.isNaN(d) || !/[0-9a-fA-F]/.test(s[off] as string)) break
      acc = acc * 16 + d
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s)
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s)
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s)
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s)
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s)
      const end = input.length - (zone.length > 0 ? zone.length + 1 : 0)
      parseIPv4Fields(input, end - s.length, end, ip, i)
      s = ''
      i += 4
      break
    }
    ip[i] = acc >> 8
    ip[i + 1] = acc & 0xff
    i += 2
    s = s.slice(off)
    if (s.length === 0) break
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s)
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s)
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s)
      ellipsis = i
      s = s.slice(1)
      if (s.length === 0) break
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s)
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short')
    const n = 16 - i
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] as number
    ip.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros')
  }
  return { bytes: ip, zone }
}

/** netip.ParseAddr; throws IPParseError. */
export function parseAddr (s: string): Addr {
  for (const c of s) {
    if (c === '.') {
      const ip = new Uint8Array(4)
      parseIPv4Fields(s, 0, s.length, ip, 0)
      return { bytes: ip, zone: '' }
    }
    if (c === ':') return parseIPv6(s)
    if (c === '%') throw addrError(s, 'missing IPv6 address')
  }
  throw addrError(s, 'unable to parse IP')
}

/** An IP prefix: the address as written and the prefix length. */
export interface Prefix { readonly addr: Addr, readonly bits: number }

/** netip.ParsePrefix; throws IPParseError. */
export function parsePrefix (s: string): Prefix {
  const fail = (msg: string) => new IPParseError(`netip.ParsePrefix(${goQuote(s)}): ${msg}`)
  const i = s.lastIndexOf('/')
  if (i < 0) throw fail("no '/'")
  let addr: Addr
  try { addr = parseAddr(s.slice(0, i)) } catch (err) { throw fail((err as Error).message) }
  if (addr.bytes.length === 16 && addr.zone !== '') throw fail('IPv6 zones cannot be present in a prefix')
  const bitsStr = s.slice(i + 1)
  if (!/^([0-9]|[1-9][0-9]{1,17})$/.test(bitsStr)) throw fail('bad bits after slash: ' + goQuote(bitsStr))
  const bits = Number(bitsStr)
  if (bits < 0 || bits > addr.bytes.length * 8) throw fail('prefix length out of range')
  return { addr, bits }
}

/** Addr.Is4In6: an IPv6 address of the ::ffff:0:0/96 range. */
export function is4In6 (a: Addr): boolean {
  return a.bytes.length === 16 && a.bytes.subarray(0, 10).every(b => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff
}

/** Addr.String(): dotted IPv4; RFC 5952 IPv6 (::ffff:a.b.c.d for mapped), with the zone. */
export function addrString (a: Addr): string {
  const b = a.bytes
  if (b.length === 4) return [...b].join('.')
  const zone = a.zone !== '' ? '%' + a.zone : ''
  if (is4In6(a)) return '::ffff:' + [...b.subarray(12)].join('.') + zone
  const groups = Array.from({ length: 8 }, (_, i) => ((b[2 * i] as number) << 8) | (b[2 * i + 1] as number))
  let bestStart = -1
  let bestLen = 0
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen && j - i >= 2) { bestStart = i; bestLen = j - i }
    i = j
  }
  const hex = (g: number) => g.toString(16)
  if (bestStart < 0) return groups.map(hex).join(':') + zone
  return groups.slice(0, bestStart).map(hex).join(':') + '::' + groups.slice(bestStart + bestLen).map(hex).join(':') + zone
}

// IP addresses, prefixes and MAC addresses as Go parses them: net/netip's strict ParseAddr and ParsePrefix (with their
// error messages; the CEL ip and cidr libraries use them), k8s.io/utils' "sloppy" ParseIP and ParseCIDR (leading
// zeros allowed; the ipv4 and cidr formats use them) and net.ParseMAC (the mac format).
import { quote as goQuote } from '../go/strconv.js'

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

/** k8s.io/utils ParseIPSloppy (Go's pre-1.17 net.ParseIP): 16 bytes (IPv4 mapped), or undefined. */
export function parseIPSloppy (s: string): Uint8Array | undefined {
  for (const c of s) {
    if (c === '.') return sloppyIPv4(s)
    if (c === ':') return sloppyIPv6(s)
  }
  return undefined
}

function dtoi (s: string): [number, number] | undefined {
  let n = 0
  let i = 0
  for (; i < s.length && (s[i] as string) >= '0' && (s[i] as string) <= '9'; i++) {
    n = n * 10 + s.charCodeAt(i) - 48
    if (n >= 0xffffff) return undefined
  }
  return i === 0 ? undefined : [n, i]
}

function sloppyIPv4 (input: string): Uint8Array | undefined {
  let s = input
  const ip = new Uint8Array(16)
  ip[10] = 0xff
  ip[11] = 0xff
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return undefined
    if (i > 0) {
      if (s[0] !== '.') return undefined
      s = s.slice(1)
    }
    const r = dtoi(s)
    if (!r || r[0] > 0xff) return undefined
    s = s.slice(r[1])
    ip[12 + i] = r[0]
  }
  return s.length === 0 ? ip : undefined
}

function sloppyIPv6 (input: string): Uint8Array | undefined {
  let s = input
  const ip = new Uint8Array(16)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (s.length === 0) return ip
  }
  let i = 0
  while (i < 16) {
    const m = /^[0-9a-fA-F]+/.exec(s)
    if (!m || parseInt(m[0], 16) >= 0xffffff || parseInt(m[0], 16) > 0xffff) return undefined
    const n = parseInt(m[0], 16)
    const c = m[0].length
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined
      if (i + 4 > 16) return undefined
      const ip4 = sloppyIPv4(s)
      if (!ip4) return undefined
      ip.set(ip4.subarray(12), i)
      s = ''
      i += 4
      break
    }
    ip[i] = n >> 8
    ip[i + 1] = n & 0xff
    i += 2
    s = s.slice(c)
    if (s.length === 0) break
    if (s[0] !== ':' || s.length === 1) return undefined
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined
      ellipsis = i
      s = s.slice(1)
      if (s.length === 0) break
    }
  }
  if (s.length !== 0) return undefined
  if (i < 16) {
    if (ellipsis < 0) return undefined
    const n = 16 - i
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] as number
    ip.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) {
    return undefined
  }
  return ip
}

/** k8s.io/utils ParseCIDRSloppy: true when s parses. */
export function isCIDRSloppy (s: string): boolean {
  const i = s.indexOf('/')
  if (i < 0) return false
  const addr = s.slice(0, i)
  const mask = s.slice(i + 1)
  let len = 32
  let ip = sloppyIPv4(addr)
  if (!ip) { len = 128; ip = sloppyIPv6(addr) }
  const n = dtoi(mask)
  return ip !== undefined && n !== undefined && n[1] === mask.length && n[0] <= len
}

/** net.ParseMAC: true for 6, 8 or 20 bytes written xx:xx…, xx-xx… or xxxx.xxxx…. */
export function isMAC (s: string): boolean {
  if (s.length < 14) return false
  const hex2 = /^[0-9a-fA-F]{2}$/
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false
    const n = (s.length + 1) / 3
    if (n !== 6 && n !== 8 && n !== 20) return false
    for (let x = 0, i = 0; i < n; i++, x += 3) {
      if (!hex2.test(s.slice(x, x + 2))) return false
      if (i < n - 1 && s[x + 2] !== s[2]) return false
    }
    return true
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false
    const n = 2 * (s.length + 1) / 5
    if (n !== 6 && n !== 8 && n !== 20) return false
    for (let x = 0, i = 0; i < n; i += 2, x += 5) {
      if (!/^[0-9a-fA-F]{4}$/.test(s.slice(x, x + 4))) return false
      if (i < n - 2 && s[x + 4] !== '.') return false
    }
    return true
  }
  return false
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

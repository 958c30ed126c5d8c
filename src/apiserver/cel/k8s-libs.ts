// Kubernetes' CEL libraries for IP addresses (ip(), isIP(), family(), isLoopback()…), CIDRs (cidr(), containsIP(),
// containsCIDR(), masked()…), URLs (url(), isURL(), getScheme()…), semantic versions (semver(), major()…) and named
// formats (format.dns1123Label(), format.named(), validate()), each with Go's parsing and Kubernetes' messages.
import { checkFormat } from '../formats.js'
import { type Addr, addrString, IPParseError, is4In6, parseAddr, parsePrefix, type Prefix } from '../../go/netip.js'
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../names.js'
import { type GoURL, parseRequestURI, parseURL, urlEscapedPath, urlHostname, urlPort, urlQuery, urlString } from '../../go/url.js'
import { quote as goQuote } from '../../go/strconv.js'
import type { FunctionDef, Impl } from './stdlib.js'
import { CelError, CelList, CelMap, CelOpaque, CelOptional, noSuchOverload, type Val } from './values.js'

/** net.IP. */
class IPValue extends CelOpaque {
  readonly typeName = 'net.IP'
  constructor (readonly addr: Addr) { super() }
  equals (other: CelOpaque): boolean { return other instanceof IPValue && addrString(other.addr) === addrString(this.addr) }
  /** string(ip). */
  string (): string { return addrString(this.addr) }
}

/** net.CIDR. */
class CIDRValue extends CelOpaque {
  readonly typeName = 'net.CIDR'
  constructor (readonly prefix: Prefix) { super() }
  equals (other: CelOpaque): boolean { return other instanceof CIDRValue && other.string() === this.string() }
  /** string(cidr). */
  string (): string { return `${addrString(this.prefix.addr)}/${this.prefix.bits}` }
}

/** kubernetes.URL. */
class URLValue extends CelOpaque {
  readonly typeName = 'kubernetes.URL'
  constructor (readonly url: GoURL) { super() }
  equals (other: CelOpaque): boolean { return other instanceof URLValue && urlString(other.url) === urlString(this.url) }
}

interface Version { major: bigint, minor: bigint, patch: bigint, pre: Array<bigint | string>, build: string[] }

/** kubernetes.Semver. */
class SemverValue extends CelOpaque {
  readonly typeName = 'kubernetes.Semver'
  constructor (readonly version: Version) { super() }
  equals (other: CelOpaque): boolean { return other instanceof SemverValue && compareSemver(other.version, this.version) === 0 }
}

/** kubernetes.NamedFormat. */
class FormatValue extends CelOpaque {
  readonly typeName = 'kubernetes.NamedFormat'
  constructor (readonly name: string, readonly validate: (s: string) => string[]) { super() }
  equals (other: CelOpaque): boolean { return other instanceof FormatValue && other.name === this.name }
}

function parseIP (raw: string): Addr | CelError {
  let addr: Addr
  try { addr = parseAddr(raw) } catch (err) {
    if (err instanceof IPParseError) return new CelError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${err.message}`)
    throw err
  }
  if (addr.zone !== '') return new CelError(`IP address ${goQuote(raw)} with zone value is not allowed`)
  if (is4In6(addr)) return new CelError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`)
  return addr
}

function parseCIDR (raw: string): Prefix | CelError {
  const wrap = (msg: string) => new CelError(`network address parse error during conversion from string: ${msg}`)
  let prefix: Prefix
  try { prefix = parsePrefix(raw) } catch (err) {
    if (err instanceof IPParseError) return wrap(`network address parse error during conversion from string: ${err.message}`)
    throw err
  }
  if (is4In6(prefix.addr)) return wrap(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`)
  return prefix
}

const inRange = (b: Uint8Array, prefix: number[], bits: number) => {
  for (let i = 0; i < bits; i++) {
    const byte = Math.floor(i / 8)
    const mask = 0x80 >> (i % 8)
    if (((b[byte] as number) & mask) !== ((prefix[byte] ?? 0) & mask)) return false
  }
  return true
}

const ADDR_TESTS: Record<string, (a: Addr) => boolean> = {
  isUnspecified: a => a.bytes.every(b => b === 0),
  isLoopback: a => a.bytes.length === 4 ? a.bytes[0] === 127 : inRange(a.bytes, [...new Array(15).fill(0), 1], 128),
  isLinkLocalMulticast: a => a.bytes.length === 4 ? inRange(a.bytes, [224, 0, 0], 24) : inRange(a.bytes, [0xff, 0x02], 16),
  isLinkLocalUnicast: a => a.bytes.length === 4 ? inRange(a.bytes, [169, 254], 16) : inRange(a.bytes, [0xfe, 0x80], 10),
  isGlobalUnicast: (a) => {
    if (a.bytes.length === 4 && a.bytes.every(b => b === 255)) return false
    const multicast = a.bytes.length === 4 ? inRange(a.bytes, [224], 4) : a.bytes[0] === 0xff
    return !(ADDR_TESTS.isUnspecified as (a: Addr) => boolean)(a) && !(ADDR_TESTS.isLoopback as (a: Addr) => boolean)(a) && !multicast &&
      !(ADDR_TESTS.isLinkLocalUnicast as (a: Addr) => boolean)(a)
  }
}

function sameBits (a: Addr, b: Addr, bits: number): boolean {
  return a.bytes.length === b.bytes.length && inRange(a.bytes, [...b.bytes], bits)
}

const member = (fn: string, is: (v: Val) => boolean, impl: Impl): FunctionDef => ({
  member: (args, name) => is(args[0] as Val) ? impl(args, name) : noSuchOverload(fn, ...args)
})

const isIP = (v: Val) => v instanceof IPValue
const isCIDR = (v: Val) => v instanceof CIDRValue
const isURL = (v: Val) => v instanceof URLValue
const isSemver = (v: Val) => v instanceof SemverValue

function cidrArg (v: Val): CIDRValue | CelError {
  if (v instanceof CIDRValue) return v
  if (typeof v === 'string') { const p = parseCIDR(v); return p instanceof CelError ? p : new CIDRValue(p) }
  return new CelError('no such overload')
}

function ipArg (v: Val): IPValue | CelError {
  if (v instanceof IPValue) return v
  if (typeof v === 'string') { const a = parseIP(v); return a instanceof CelError ? a : new IPValue(a) }
  return new CelError('no such overload')
}

const NUMBERS = /^[0-9]*$/
const ALPHANUM = /^[0-9A-Za-z-]*$/

/** blang/semver's Parse; throws an Error with its message. */
function parseSemver (s: string): Version {
  if (s.length === 0) throw new Error('Version string empty')
  const parts = s.split('.')
  if (parts.length < 3) throw new Error('No Major.Minor.Patch elements found')
  const [majorStr, minorStr] = parts as [string, string]
  let patchStr = parts.slice(2).join('.')
  const num = (str: string, what: string): bigint => {
    if (!NUMBERS.test(str)) throw new Error(`Invalid character(s) found in ${what} number ${goQuote(str)}`)
    if (str.length > 1 && str[0] === '0') throw new Error(`${what[0]?.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${goQuote(str)}`)
    if (str === '' || BigInt(str) >= 1n << 64n) throw new Error(`strconv.ParseUint: parsing ${goQuote(str)}: ${str === '' ? 'invalid syntax' : 'value out of range'}`)
    return BigInt(str)
  }
  const major = num(majorStr, 'major')
  const minor = num(minorStr, 'minor')
  let build: string[] = []
  let pre: string[] = []
  const plus = patchStr.indexOf('+')
  if (plus !== -1) { build = patchStr.slice(plus + 1).split('.'); patchStr = patchStr.slice(0, plus) }
  const dash = patchStr.indexOf('-')
  if (dash !== -1) { pre = patchStr.slice(dash + 1).split('.'); patchStr = patchStr.slice(0, dash) }
  const patch = num(patchStr, 'patch')
  const preParsed = pre.map((p) => {
    if (p.length === 0) throw new Error('Prerelease is empty')
    if (NUMBERS.test(p)) {
      if (p.length > 1 && p[0] === '0') throw new Error(`Numeric PreRelease version must not contain leading zeroes ${goQuote(p)}`)
      return BigInt(p)
    }
    if (ALPHANUM.test(p)) return p
    throw new Error(`Invalid character(s) found in prerelease ${goQuote(p)}`)
  })
  for (const b of build) {
    if (b.length === 0) throw new Error('Build meta data is empty')
    if (!ALPHANUM.test(b)) throw new Error(`Invalid character(s) found in build meta data ${goQuote(b)}`)
  }
  return { major, minor, patch, pre: preParsed, build }
}

/** The semver library's normalisation: a leading v dropped, leading zeroes dropped, missing parts 0. */
function normalizeSemver (s: string): Version {
  const parts = s.replace(/^v/, '').split('.')
  const split = [...parts.slice(0, 2), ...(parts.length > 2 ? [parts.slice(2).join('.')] : [])].map((p) => {
    if (p.length <= 1) return p
    const t = p.replace(/^0+/, '')
    return t.length === 0 || !/[0-9]/.test(t[0] as string) ? '0' + t : t
  })
  if (split.length < 3) {
    if (/[+-]/.test(split[split.length - 1] as string)) throw new Error('short version cannot contain PreRelease/Build meta data')
    while (split.length < 3) split.push('0')
  }
  return parseSemver(split.join('.'))
}

function compareSemver (a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] > b[k] ? 1 : -1
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1
  for (let i = 0; i < a.pre.length && i < b.pre.length; i++) {
    const x = a.pre[i] as bigint | string
    const y = b.pre[i] as bigint | string
    if (typeof x !== typeof y) return typeof x === 'bigint' ? -1 : 1
    if (x !== y) return x > y ? 1 : -1
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1
}

function semverFn (fn: string, parse: boolean): Impl {
  return ([s, normalize = false, ...rest]) => {
    if (typeof s !== 'string' || typeof normalize !== 'boolean' || rest.length > 0) return noSuchOverload(fn, ...[s, normalize].filter(x => x !== undefined) as Val[])
    try {
      const v = normalize ? normalizeSemver(s) : parseSemver(s)
      return parse ? new SemverValue(v) : true
    } catch (err) {
      return parse ? new CelError((err as Error).message) : false
    }
  }
}

function semverCompare (fn: string, pick: (c: number) => Val): FunctionDef {
  return member(fn, isSemver, ([a, b]) => b instanceof SemverValue ? pick(compareSemver((a as SemverValue).version, b.version)) : noSuchOverload(fn, a as Val, b as Val))
}

const requestURIError = (s: string): string[] => {
  try { parseRequestURI(s); return [] } catch (err) { return [(err as Error).message] }
}

/** The named formats of the format library. */
const FORMATS: Record<string, [string, (s: string) => string[]]> = {
  dns1123Label: ['DNS1123Label', s => nameIsDNSLabel(s, false)],
  dns1123Subdomain: ['DNS1123Subdomain', s => nameIsDNSSubdomain(s, false)],
  dns1035Label: ['DNS1035Label', s => nameIsDNS1035Label(s, false)],
  qualifiedName: ['QualifiedName', isQualifiedName],
  dns1123LabelPrefix: ['DNS1123LabelPrefix', s => nameIsDNSLabel(s, true)],
  dns1123SubdomainPrefix: ['DNS1123SubdomainPrefix', s => nameIsDNSSubdomain(s, true)],
  dns1035LabelPrefix: ['DNS1035LabelPrefix', s => nameIsDNS1035Label(s, true)],
  labelValue: ['LabelValue', isValidLabelValue],
  uri: ['URI', requestURIError],
  uuid: ['uuid', s => checkFormat('uuid', s) ? [] : ['does not match the UUID format']],
  byte: ['byte', s => checkFormat('byte', s) ? [] : ['invalid base64']],
  date: ['date', s => checkFormat('date', s) ? [] : ['invalid date']],
  datetime: ['datetime', s => checkFormat('datetime', s) ? [] : ['invalid datetime']]
}

const formatValue = (key: string) => { const [name, fn] = FORMATS[key] as [string, (s: string) => string[]]; return new FormatValue(name, fn) }

function urlAccessor (fn: string, get: (u: GoURL) => string): FunctionDef {
  return member(fn, isURL, ([u]) => get((u as URLValue).url))
}

/** The IP, CIDR, URL, semver and format libraries, by function name. */
export const K8S_FUNCTIONS: Record<string, FunctionDef> = {
  ip: {
    global: ([s]) => { if (typeof s !== 'string') return noSuchOverload('ip', s as Val); const a = parseIP(s); return a instanceof CelError ? a : new IPValue(a) },
    member: member('ip', isCIDR, ([c]) => new IPValue((c as CIDRValue).prefix.addr)).member
  },
  isIP: { global: ([s]) => typeof s === 'string' ? !(parseIP(s) instanceof CelError) : noSuchOverload('isIP', s as Val) },
  'ip.isCanonical': {
    global: ([s]) => {
      if (typeof s !== 'string') return noSuchOverload('ip.isCanonical', s as Val)
      const a = parseIP(s)
      return a instanceof CelError ? a : addrString(a) === s
    }
  },
  family: member('family', isIP, ([ip]) => (ip as IPValue).addr.bytes.length === 4 ? 4n : 6n),
  ...Object.fromEntries(Object.entries(ADDR_TESTS).map(([name, test]) => [name, member(name, isIP, ([ip]) => test((ip as IPValue).addr))])),
  cidr: { global: ([s]) => { if (typeof s !== 'string') return noSuchOverload('cidr', s as Val); const p = parseCIDR(s); return p instanceof CelError ? p : new CIDRValue(p) } },
  isCIDR: { global: ([s]) => typeof s === 'string' ? !(parseCIDR(s) instanceof CelError) : noSuchOverload('isCIDR', s as Val) },
  containsIP: member('containsIP', isCIDR, ([c, x]) => {
    const ip = ipArg(x as Val)
    // Kubernetes reports an IP string that does not parse as a missing overload, not as its parse error.
    if (ip instanceof CelError) return new CelError('no such overload')
    const p = (c as CIDRValue).prefix
    return ip.addr.bytes.length === p.addr.bytes.length && sameBits(ip.addr, p.addr, p.bits)
  }),
  containsCIDR: member('containsCIDR', isCIDR, ([c, x]) => {
    const other = cidrArg(x as Val)
    if (other instanceof CelError) return other
    const p = (c as CIDRValue).prefix
    const o = other.prefix
    return sameBits(p.addr, o.addr, Math.min(p.bits, o.bits)) && p.bits <= o.bits
  }),
  prefixLength: member('prefixLength', isCIDR, ([c]) => BigInt((c as CIDRValue).prefix.bits)),
  masked: member('masked', isCIDR, ([c]) => {
    const p = (c as CIDRValue).prefix
    const bytes = p.addr.bytes.map((b, i) => {
      const keep = Math.max(0, Math.min(8, p.bits - i * 8))
      return b & (0xff << (8 - keep)) & 0xff
    })
    return new CIDRValue({ addr: { bytes: new Uint8Array(bytes), zone: '' }, bits: p.bits })
  }),
  url: {
    global: ([s]) => {
      if (typeof s !== 'string') return noSuchOverload('url', s as Val)
      try {
        parseRequestURI(s)
        return new URLValue(parseURL(s))
      } catch (err) {
        return new CelError(`URL parse error during conversion from string: ${(err as Error).message}`)
      }
    }
  },
  isURL: { global: ([s]) => { if (typeof s !== 'string') return noSuchOverload('isURL', s as Val); try { parseRequestURI(s); return true } catch { return false } } },
  getScheme: urlAccessor('getScheme', u => u.scheme),
  getHost: urlAccessor('getHost', u => u.host),
  getHostname: urlAccessor('getHostname', urlHostname),
  getPort: urlAccessor('getPort', urlPort),
  getEscapedPath: urlAccessor('getEscapedPath', urlEscapedPath),
  getQuery: member('getQuery', isURL, ([u]) => new CelMap([...urlQuery((u as URLValue).url)].map(([k, v]) => [k, new CelList(v)]))),
  semver: { global: semverFn('semver', true) },
  isSemver: { global: semverFn('isSemver', false) },
  major: member('major', isSemver, ([v]) => (v as SemverValue).version.major),
  minor: member('minor', isSemver, ([v]) => (v as SemverValue).version.minor),
  patch: member('patch', isSemver, ([v]) => (v as SemverValue).version.patch),
  isGreaterThan: semverCompare('isGreaterThan', c => c === 1),
  isLessThan: semverCompare('isLessThan', c => c === -1),
  compareTo: semverCompare('compareTo', c => BigInt(c)),
  'format.named': { global: ([n]) => typeof n !== 'string' ? noSuchOverload('format.named', n as Val) : Object.hasOwn(FORMATS, n) ? new CelOptional(formatValue(n)) : CelOptional.NONE },
  ...Object.fromEntries(Object.keys(FORMATS).map(k => [`format.${k}`, { global: () => formatValue(k) }])),
  validate: member('validate', v => v instanceof FormatValue, ([f, s]) => {
    if (typeof s !== 'string') return noSuchOverload('validate', f as Val, s as Val)
    const errs = (f as FormatValue).validate(s)
    return errs.length === 0 ? CelOptional.NONE : new CelOptional(new CelList(errs))
  })
}

// Go's url.ParseRequestURI (Go 1.26), which the API server's CEL `isURL()`/`url()` and Cluster API's webhook use.
// WHATWG URL parsing (node's URL) accepts and rejects different strings, so the TypeScript side of a rule
// that says "a valid URL" ports Go's parser to give the same answer as the API server.
import { isIPv6 } from 'node:net'

interface RequestURI {
  /** scheme in lower case, '' for an absolute path. */
  scheme: string
  /** userinfo as written before '@' (undefined when there is none). */
  user?: string
  /** host is host[:port], unescaped, IPv6 in brackets. */
  host: string
  /** hostname is the host without port and brackets (Go's URL.Hostname()). */
  hostname: string
  /** opaque is set for `scheme:rest` without a leading '/' (e.g. `mailto:x`). */
  opaque?: string
  path: string
  rawQuery: string
}

// Bits of Go's encoding table: which characters may appear unescaped in a host and in a zone.
const HOST_SPECIALS = new Set('!$&\'()*+,;=:[]<>"-_.~')
const USERINFO_SPECIALS = new Set('-._:~!$&\'()*+,;=%@')

type Mode = 'path' | 'host' | 'zone' | 'userPassword'

const isAlnum = (c: string) => /^[A-Za-z0-9]$/.test(c)
const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c)

function hostShouldEscape (c: string): boolean {
  return !(isAlnum(c) || HOST_SPECIALS.has(c))
}

/** Go's unescape; returns the decoded text or undefined on a malformed escape or a bad host character. */
function unescape (s: string, mode: Mode): string | undefined {
  const bytes: number[] = []
  for (let i = 0; i < s.length;) {
    const c = s[i] as string
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) return undefined
      const escape = s.slice(i, i + 3)
      const byte = parseInt(s.slice(i + 1, i + 3), 16)
      // Hosts may only %-encode non-ASCII bytes, except %25 (RFC 6874 zones).
      if (mode === 'host' && parseInt(s[i + 1] as string, 16) < 8 && escape !== '%25') return undefined
      if (mode === 'zone' && escape !== '%25' && byte !== 0x20 && hostShouldEscape(String.fromCharCode(byte))) return undefined
      bytes.push(byte)
      i += 3
      continue
    }
    if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && hostShouldEscape(c)) return undefined
    bytes.push(...Buffer.from(c))
    i++
  }
  return Buffer.from(bytes).toString('utf8')
}

function getScheme (raw: string): { scheme: string, rest: string } | undefined {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string
    if (/[A-Za-z]/.test(c)) continue
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw }
      continue
    }
    if (c === ':') {
      if (i === 0) return undefined // missing protocol scheme
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) }
    }
    return { scheme: '', rest: raw }
  }
  return { scheme: '', rest: raw }
}

const validOptionalPort = (port: string) => port === '' || /^:[0-9]*$/.test(port)

function parseHost (scheme: string, host: string): string | undefined {
  const open = host.lastIndexOf('[')
  if (open > 0) return undefined
  if (open === 0) {
    const close = host.lastIndexOf(']')
    if (close < 0) return undefined
    const colonPort = host.slice(close + 1)
    if (!validOptionalPort(colonPort)) return undefined
    const port = unescape(colonPort, 'host')
    if (port === undefined) return undefined
    const literal = host.slice(1, close)
    const zone = literal.indexOf('%25')
    const hostname = zone >= 0
      ? joinDefined(unescape(literal.slice(0, zone), 'host'), unescape(literal.slice(zone), 'zone'))
      : unescape(literal, 'host')
    // Only IPv6 addresses may stand in brackets (Go: netip.ParseAddr and not Is4).
    if (hostname === undefined || !isIPv6(hostname)) return undefined
    return `[${hostname}]${port}`
  }
  const first = host.indexOf(':')
  if (first !== -1) {
    // Go 1.26 rejects a second colon in http(s) hosts (urlstrictcolons); other schemes use the last one.
    const at = scheme === 'http' || scheme === 'https' ? first : host.lastIndexOf(':')
    if (!validOptionalPort(host.slice(at))) return undefined
  }
  return unescape(host, 'host')
}

function joinDefined (a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined || b === undefined ? undefined : a + b
}

function validUserinfo (s: string): boolean {
  for (const c of s) {
    if (!isAlnum(c) && !USERINFO_SPECIALS.has(c)) return false
  }
  return true
}

function hostnameOf (host: string): string {
  let hostname = host
  const colon = hostname.lastIndexOf(':')
  if (colon !== -1 && validOptionalPort(hostname.slice(colon))) hostname = hostname.slice(0, colon)
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1)
  return hostname
}

/** Parses like Go's url.ParseRequestURI: an absolute URI or an absolute path; undefined when Go returns an error. */
export function parseRequestURI (raw: string): RequestURI | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return undefined
  if (raw === '') return undefined
  if (raw === '*') return { scheme: '', host: '', hostname: '', path: '*', rawQuery: '' }
  const split = getScheme(raw)
  if (!split) return undefined
  const scheme = split.scheme.toLowerCase()
  let rest = split.rest
  let rawQuery = ''
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    rest = rest.slice(0, -1)
  } else {
    const q = rest.indexOf('?')
    if (q >= 0) {
      rawQuery = rest.slice(q + 1)
      rest = rest.slice(0, q)
    }
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, host: '', hostname: '', opaque: rest, path: '', rawQuery }
    return undefined // invalid URI for request
  }
  let user: string | undefined
  let host = ''
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2)
    rest = ''
    const slash = authority.indexOf('/')
    if (slash >= 0) {
      rest = authority.slice(slash)
      authority = authority.slice(0, slash)
    }
    const at = authority.lastIndexOf('@')
    const parsedHost = parseHost(scheme, at < 0 ? authority : authority.slice(at + 1))
    if (parsedHost === undefined) return undefined
    host = parsedHost
    if (at >= 0) {
      user = authority.slice(0, at)
      if (!validUserinfo(user)) return undefined
      const colon = user.indexOf(':')
      const parts = colon < 0 ? [user] : [user.slice(0, colon), user.slice(colon + 1)]
      if (parts.some(part => unescape(part, 'userPassword') === undefined)) return undefined
    }
  }
  const path = unescape(rest, 'path')
  if (path === undefined) return undefined
  return { scheme, ...(user !== undefined ? { user } : {}), host, hostname: hostnameOf(host), path, rawQuery }
}

/** CEL's `isURL(s)` in the Kubernetes library: Go's ParseRequestURI succeeds. */
export function isURL (raw: string): boolean {
  return parseRequestURI(raw) !== undefined
}

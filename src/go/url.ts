// Go's net/url parsing (Go 1.26), as far as Kubernetes and Cluster API use it: url.ParseRequestURI (the uri format,
// CEL's isURL() and url(), the ExtensionConfig's URL rules) and url.Parse with the accessors of the CEL url library
// (scheme, host, hostname, port, escaped path, query). Errors carry Go's messages (`parse "x": invalid URI for
// request`). WHATWG URL parsing (Node's URL) accepts and rejects other strings.
import { parseAddr } from './netip.js'
import { quote as goQuote } from './strconv.js'

/** A failure of url.Parse or url.ParseRequestURI, with Go's message. */
export class URLParseError extends Error {}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment'

const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c)

function shouldEscape (c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false
  const ch = String.fromCharCode(c)
  if ((mode === 'host' || mode === 'zone') && '!$&\'()*+,;=:[]<>"'.includes(ch)) return false
  if ('-_.~'.includes(ch)) return false
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path': return ch === '?'
      case 'pathSegment': return '/;,?'.includes(ch)
      case 'userPassword': return '@/?:'.includes(ch)
      case 'queryComponent': return true
      case 'fragment': return false
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false
  return true
}

const escapeError = (s: string) => new URLParseError('invalid URL escape ' + goQuote(s))

/** url's unescape over the UTF-8 bytes of s. */
function unescape (s: string, mode: Mode): string {
  const b = Buffer.from(s, 'utf8')
  const str = b.toString('latin1')
  let n = 0
  for (let i = 0; i < b.length;) {
    const c = b[i] as number
    if (c === 0x25) {
      n++
      if (i + 2 >= b.length || !isHex(str[i + 1]) || !isHex(str[i + 2])) throw escapeError(Buffer.from(b.subarray(i, i + 3)).toString('utf8'))
      const v = parseInt(str.slice(i + 1, i + 3), 16)
      if (mode === 'host' && parseInt(str[i + 1] as string, 16) < 8 && str.slice(i, i + 3) !== '%25') throw escapeError(str.slice(i, i + 3))
      if (mode === 'zone' && str.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) throw escapeError(str.slice(i, i + 3))
      i += 3
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) throw new URLParseError('invalid character ' + goQuote(String.fromCharCode(c)) + ' in host name')
      i++
    }
  }
  if (n === 0 && !(mode === 'queryComponent' && s.includes('+'))) return s
  const out: number[] = []
  for (let i = 0; i < b.length; i++) {
    const c = b[i] as number
    if (c === 0x25) { out.push(parseInt(str.slice(i + 1, i + 3), 16)); i += 2 } else if (c === 0x2b && mode === 'queryComponent') out.push(0x20)
    else out.push(c)
  }
  return Buffer.from(out).toString('utf8')
}

function escape (s: string, mode: Mode): string {
  let out = ''
  for (const c of Buffer.from(s, 'utf8')) {
    if (shouldEscape(c, mode)) out += c === 0x20 && mode === 'queryComponent' ? '+' : '%' + c.toString(16).toUpperCase().padStart(2, '0')
    else out += String.fromCharCode(c)
  }
  return out
}

/** The parts of a parsed URL the CEL url library reads. */
export interface GoURL {
  readonly scheme: string
  readonly opaque: string
  readonly user?: string
  readonly host: string
  readonly path: string
  readonly rawPath: string
  readonly rawQuery: string
  readonly forceQuery: boolean
  readonly fragment: string
  /** rawFragment is the fragment as written, when it is not the plain escaping of fragment. */
  readonly rawFragment?: string
}

function getScheme (raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string
    if (/[a-zA-Z]/.test(c)) continue
    if (/[0-9+\-.]/.test(c)) { if (i === 0) return ['', raw]; continue }
    if (c === ':') {
      if (i === 0) throw new URLParseError('missing protocol scheme')
      return [raw.slice(0, i), raw.slice(i + 1)]
    }
    return ['', raw]
  }
  return ['', raw]
}

const validOptionalPort = (port: string) => port === '' || /^:[0-9]*$/.test(port)

function parseHost (scheme: string, host: string): string {
  const open = host.lastIndexOf('[')
  if (open > 0) throw new URLParseError('invalid IP-literal')
  if (open === 0) {
    const close = host.lastIndexOf(']')
    if (close < 0) throw new URLParseError("missing ']' in host")
    const colonPort = host.slice(close + 1)
    if (!validOptionalPort(colonPort)) throw new URLParseError(`invalid port ${goQuote(colonPort)} after host`)
    const port = unescape(colonPort, 'host')
    const hostname = host.slice(1, close)
    const zone = hostname.indexOf('%25')
    const unescaped = zone >= 0 ? unescape(hostname.slice(0, zone), 'host') + unescape(hostname.slice(zone), 'zone') : unescape(hostname, 'host')
    let addr
    try { addr = parseAddr(unescaped) } catch (err) { throw new URLParseError('invalid host: ' + (err as Error).message) }
    if (addr.bytes.length === 4) throw new URLParseError('invalid IP-literal')
    return '[' + unescaped + ']' + port
  }
  let i = host.indexOf(':')
  if (i !== -1) {
    const last = host.lastIndexOf(':')
    if (last !== i && scheme !== 'http' && scheme !== 'https') i = last
    const colonPort = host.slice(i)
    if (!validOptionalPort(colonPort)) throw new URLParseError(`invalid port ${goQuote(colonPort)} after host`)
  }
  return unescape(host, 'host')
}

function validUserinfo (s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s)
}

function parse (raw: string, viaRequest: boolean): GoURL {
  if ([...raw].some(c => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new URLParseError('net/url: invalid control character in URL')
  if (raw === '' && viaRequest) throw new URLParseError('empty url')
  const base = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', forceQuery: false, fragment: '' }
  if (raw === '*') return { ...base, path: '*' }
  const [schemeRaw, afterScheme] = getScheme(raw)
  const scheme = schemeRaw.toLowerCase()
  let rest = afterScheme
  let rawQuery = ''
  let forceQuery = false
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    forceQuery = true
    rest = rest.slice(0, -1)
  } else {
    const q = rest.indexOf('?')
    if (q >= 0) { rawQuery = rest.slice(q + 1); rest = rest.slice(0, q) }
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ...base, scheme, opaque: rest, rawQuery, forceQuery }
    if (viaRequest) throw new URLParseError('invalid URI for request')
    const segment = rest.split('/')[0] as string
    if (segment.includes(':')) throw new URLParseError('first path segment in URL cannot contain colon')
  }
  let user: string | undefined
  let host = ''
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2)
    rest = ''
    const slash = authority.indexOf('/')
    if (slash >= 0) { rest = authority.slice(slash); authority = authority.slice(0, slash) }
    const at = authority.lastIndexOf('@')
    host = parseHost(scheme, at < 0 ? authority : authority.slice(at + 1))
    if (at >= 0) {
      const userinfo = authority.slice(0, at)
      if (!validUserinfo(userinfo)) throw new URLParseError('net/url: invalid userinfo')
      user = userinfo.split(':').map(p => unescape(p, 'userPassword')).join(':')
    }
  }
  const path = unescape(rest, 'path')
  const rawPath = escape(path, 'path') === rest ? '' : rest
  return { ...base, scheme, ...(user !== undefined ? { user } : {}), host, path, rawPath, rawQuery, forceQuery }
}

const wrap = (raw: string, fn: () => GoURL): GoURL => {
  try { return fn() } catch (err) {
    if (err instanceof URLParseError) throw new URLParseError(`parse ${goQuote(raw)}: ${err.message}`)
    throw err
  }
}

/** url.ParseRequestURI; throws URLParseError. */
export function parseRequestURI (raw: string): GoURL {
  return wrap(raw, () => parse(raw, true))
}

/** url.Parse (a #fragment is split off first); throws URLParseError. */
export function parseURL (raw: string): GoURL {
  const hash = raw.indexOf('#')
  return wrap(raw, () => {
    const u = parse(hash >= 0 ? raw.slice(0, hash) : raw, false)
    if (hash < 0) return u
    const written = raw.slice(hash + 1)
    const fragment = unescape(written, 'fragment')
    return { ...u, fragment, ...(escape(fragment, 'fragment') !== written ? { rawFragment: written } : {}) }
  })
}

function splitHostPort (hostPort: string): [string, string] {
  let host = hostPort
  let port = ''
  const colon = host.lastIndexOf(':')
  if (colon !== -1 && validOptionalPort(host.slice(colon))) { port = host.slice(colon + 1); host = host.slice(0, colon) }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  return [host, port]
}

/** URL.Hostname(). */
export const urlHostname = (u: GoURL): string => splitHostPort(u.host)[0]
/** URL.Port(). */
export const urlPort = (u: GoURL): string => splitHostPort(u.host)[1]

const validEncodedPath = (s: string): boolean =>
  [...Buffer.from(s, 'utf8')].every(c => "!$&'()*+,;=:@[]%".includes(String.fromCharCode(c)) || !shouldEscape(c, 'path'))

/** URL.EscapedPath(). */
export function urlEscapedPath (u: GoURL): string {
  if (u.rawPath !== '' && validEncodedPath(u.rawPath)) {
    try { if (unescape(u.rawPath, 'path') === u.path) return u.rawPath } catch {}
  }
  return u.path === '*' ? '*' : escape(u.path, 'path')
}

/** URL.Query(): url.ParseQuery of the raw query, pairs that do not decode skipped. */
export function urlQuery (u: GoURL): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const part of u.rawQuery.split('&')) {
    if (part === '' || part.includes(';')) continue
    const eq = part.indexOf('=')
    try {
      const key = unescape(eq >= 0 ? part.slice(0, eq) : part, 'queryComponent')
      const value = unescape(eq >= 0 ? part.slice(eq + 1) : '', 'queryComponent')
      out.set(key, [...(out.get(key) ?? []), value])
    } catch {}
  }
  return out
}

/** URL.String(), for equality of URL values. */
export function urlString (u: GoURL): string {
  let s = ''
  if (u.scheme !== '') s += u.scheme + ':'
  if (u.opaque !== '') {
    s += u.opaque
  } else {
    if (u.scheme !== '' || u.host !== '' || u.user !== undefined) {
      if (u.host !== '' || u.path !== '' || u.user !== undefined) s += '//'
      if (u.user !== undefined) s += u.user + '@'
      s += escape(u.host, 'host')
    }
    const p = urlEscapedPath(u)
    if (p !== '' && p[0] !== '/' && u.host !== '') s += '/'
    s += p
  }
  if (u.forceQuery || u.rawQuery !== '') s += '?' + u.rawQuery
  if (u.fragment !== '') s += '#' + (u.rawFragment ?? escape(u.fragment, 'fragment'))
  return s
}

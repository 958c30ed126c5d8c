// sprig's urlParse and urlJoin (url.go) over Go's net/url. urlParse answers for the URLs Go parses without
// percent-escapes, brackets or unusual characters (scheme://user:pass@host:port/path?query#fragment, relative
// and opaque forms) and refuses the rest rather than guess net/url's validation; urlJoin builds url.URL.String()
// with net/url's escaping of each part.
import { fn, GoCallError, type GoFunc, GoMap, type GoValue, kindOf, MAP_IFACE, Unsupported, utf8Bytes } from '../values.js'

const SIMPLE_URL = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/(?:([A-Za-z0-9._~-]+(?::[A-Za-z0-9._~-]*)?)@)?([A-Za-z0-9.-]*(?::[0-9]*)?))?([A-Za-z0-9._~!$&'()*+,;=:@/-]*)(?:\?([A-Za-z0-9._~!$&'()*+,;=:@/?-]*))?(?:#([A-Za-z0-9._~!$&'()*+,;=:@/?-]*))?$/

function urlParse (v: string): GoMap {
  const m = SIMPLE_URL.exec(v)
  if (m === null || v === '*') throw new Unsupported(`urlParse of ${JSON.stringify(v)}: only URLs without escapes, brackets or spaces are parsed`)
  const [, scheme = '', userinfo, host, rest = '', query = '', fragment = ''] = m
  const hasAuthority = host !== undefined
  let path = rest
  let opaque = ''
  if (!hasAuthority && scheme !== '' && !rest.startsWith('/')) {
    opaque = rest
    path = ''
  }
  if (!hasAuthority && scheme === '' && !rest.startsWith('/') && (rest.split('/')[0] as string).includes(':')) {
    throw new GoCallError(`unable to parse url: parse ${JSON.stringify(v.split('#')[0])}: first path segment in URL cannot contain colon`)
  }
  if (hasAuthority && path !== '' && !path.startsWith('/')) throw new Unsupported(`urlParse of ${JSON.stringify(v)}`)
  const h = host ?? ''
  const colon = h.indexOf(':')
  if (colon >= 0 && h.indexOf(':', colon + 1) >= 0) throw new Unsupported(`urlParse of ${JSON.stringify(v)}`)
  const entries: Array<[string, GoValue]> = [
    ['scheme', scheme.toLowerCase()],
    ['host', h],
    ['hostname', colon >= 0 ? h.slice(0, colon) : h],
    ['path', path],
    ['query', query],
    ['opaque', opaque],
    ['fragment', fragment],
    ['userinfo', userinfo ?? '']
  ]
  return new GoMap(MAP_IFACE, new Map(entries))
}

const enum Mode { Path, Host, UserPassword, Fragment }

function shouldEscape (c: number, mode: Mode): boolean {
  const ch = String.fromCharCode(c)
  if (/[A-Za-z0-9]/.test(ch)) return false
  if (mode === Mode.Host && '!$&\'()*+,;=:[]<>"'.includes(ch)) return false
  if ('-_.~'.includes(ch)) return false
  if ('$&+,/:;=?@'.includes(ch)) {
    if (mode === Mode.Path) return ch === '?'
    if (mode === Mode.UserPassword) return '@/?:'.includes(ch)
    if (mode === Mode.Fragment) return false
  }
  if (mode === Mode.Fragment && '!()*'.includes(ch)) return false
  return true
}

function escape (s: string, mode: Mode): string {
  let out = ''
  for (const b of utf8Bytes(s)) {
    if (mode === Mode.Host && b >= 0x80) { out += String.fromCharCode(b); continue }
    out += shouldEscape(b, mode) ? '%' + b.toString(16).toUpperCase().padStart(2, '0') : String.fromCharCode(b)
  }
  // Bytes kept as they are beyond ASCII (host) are re-read as UTF-8.
  return mode === Mode.Host ? new TextDecoder().decode(Uint8Array.from(out, c => c.charCodeAt(0))) : out
}

function dictGetOrEmpty (d: GoMap, key: string): string {
  const entries = d.entries ?? new Map<string, GoValue>()
  if (!entries.has(key)) return ''
  const v = entries.get(key) as GoValue
  if (v === null) throw new GoCallError('runtime error: invalid memory address or nil pointer dereference')
  if (typeof v !== 'string') throw new GoCallError(`unable to parse ${key} key, must be of type string, but ${kindOf(v)} found`)
  return v
}

function urlJoin (d: GoMap): string {
  const scheme = dictGetOrEmpty(d, 'scheme')
  const host = dictGetOrEmpty(d, 'host')
  const path = dictGetOrEmpty(d, 'path')
  const query = dictGetOrEmpty(d, 'query')
  const opaque = dictGetOrEmpty(d, 'opaque')
  const fragment = dictGetOrEmpty(d, 'fragment')
  const userinfo = dictGetOrEmpty(d, 'userinfo')
  let user: string | undefined
  if (userinfo !== '') {
    if (!/^[A-Za-z0-9._~-]+(?::[A-Za-z0-9._~-]*)?$/.test(userinfo)) throw new Unsupported(`urlJoin with userinfo ${JSON.stringify(userinfo)}`)
    const [name = '', ...password] = userinfo.split(':')
    user = escape(name, Mode.UserPassword) + (password.length > 0 ? ':' + escape(password.join(':'), Mode.UserPassword) : '')
  }
  let out = ''
  if (scheme !== '') out += scheme + ':'
  if (opaque !== '') out += opaque
  else {
    if (scheme !== '' || host !== '' || user !== undefined) {
      if (host !== '' || path !== '' || user !== undefined) out += '//'
      if (user !== undefined) out += user + '@'
      if (host !== '') out += escape(host, Mode.Host)
    }
    const escaped = escape(path, Mode.Path)
    if (escaped !== '' && escaped[0] !== '/' && host !== '') out += '/'
    if (out === '' && (escaped.split('/')[0] as string).includes(':')) out += './'
    out += escaped
  }
  if (query !== '') out += '?' + query
  if (fragment !== '') out += '#' + escape(fragment, Mode.Fragment)
  return out
}

/** The URL functions of sprig's hermetic map. */
export const URLS: Record<string, GoFunc> = {
  urlParse: fn(['string'], MAP_IFACE, urlParse),
  urlJoin: fn([MAP_IFACE], 'string', urlJoin)
}

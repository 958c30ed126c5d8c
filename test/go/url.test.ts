// Go's net/url (src/go/url.ts): url.ParseRequestURI (Go 1.26, the version kube-apiserver 1.36 is built with), which the
// API server's CEL isURL()/url() and the ExtensionConfig's URL rules use, and url.Parse with the CEL url library's
// accessors. The expectations were produced by Go itself (test/fixtures/apiserver/go-stdlib.json records the messages).
import { readFileSync } from 'node:fs'
import t from 'tap'
import { type GoURL, parseRequestURI as parse, parseURL, urlEscapedPath, urlHostname, urlPort, urlQuery, urlString } from '../../src/go/url.js'

const oracle = JSON.parse(readFileSync(new URL('../fixtures/apiserver/go-stdlib.json', import.meta.url), 'utf8')) as Record<string, Record<string, string | boolean>>

/** ParseRequestURI's URL, or undefined where it throws. */
function parseRequestURI (s: string): GoURL | undefined {
  try { return parse(s) } catch { return undefined }
}

type Parsed = { scheme: string, host: string, hostname: string, rawQuery: string } | null

const fromGo: Array<[string, Parsed]> = [
  ['https://example.com', { scheme: 'https', host: 'example.com', hostname: 'example.com', rawQuery: '' }],
  ['HTTPS://Example.COM:8443/hooks', { scheme: 'https', host: 'Example.COM:8443', hostname: 'Example.COM', rawQuery: '' }],
  ['https://user:pw@host/p', { scheme: 'https', host: 'host', hostname: 'host', rawQuery: '' }],
  ['https://[::1]:8443/a', { scheme: 'https', host: '[::1]:8443', hostname: '::1', rawQuery: '' }],
  ['https://[1.2.3.4]/', null],
  ['https://[fe80::1%25en0]/', { scheme: 'https', host: '[fe80::1%en0]', hostname: 'fe80::1%en0', rawQuery: '' }],
  ['https://a:1:2/', null],
  ['foo://a:1:2/', { scheme: 'foo', host: 'a:1:2', hostname: 'a:1', rawQuery: '' }],
  ['https://host:abc', null],
  ['https://ho st/', null],
  ['https://h%41/', null],
  ['https://h%c3%a9/', { scheme: 'https', host: 'hé', hostname: 'hé', rawQuery: '' }],
  ['https:///x', { scheme: 'https', host: '', hostname: '', rawQuery: '' }],
  ['https:/x', { scheme: 'https', host: '', hostname: '', rawQuery: '' }],
  ['mailto:x', { scheme: 'mailto', host: '', hostname: '', rawQuery: '' }],
  ['/path/to/hook', { scheme: '', host: '', hostname: '', rawQuery: '' }],
  ['path', null],
  ['', null],
  ['*', { scheme: '', host: '', hostname: '', rawQuery: '' }],
  ['https://x/%zz', null],
  ['https://x/%', null],
  ['https://x/%4', null],
  ['https://x/?', { scheme: 'https', host: 'x', hostname: 'x', rawQuery: '' }],
  ['https://x/?a=b', { scheme: 'https', host: 'x', hostname: 'x', rawQuery: 'a=b' }],
  ['https://x?a', { scheme: 'https', host: 'x', hostname: 'x', rawQuery: 'a' }],
  ['https://x/#frag', { scheme: 'https', host: 'x', hostname: 'x', rawQuery: '' }],
  ['https://a@b@c/', { scheme: 'https', host: 'c', hostname: 'c', rawQuery: '' }],
  ['https://\u00fc@x/', null],
  ['https://x\u00fc/', { scheme: 'https', host: 'xü', hostname: 'xü', rawQuery: '' }],
  ['1http://x', null],
  [':x', null],
  ['https://x/\u0001', null],
  ['https://x:/', { scheme: 'https', host: 'x:', hostname: 'x', rawQuery: '' }],
  ['https://[::1', null],
  ['https://a[b]/', null],
  ['https://%25/', { scheme: 'https', host: '%', hostname: '%', rawQuery: '' }],
  ['https://us%zz@x/', null],
  ['https://u{s@x/', null],
  ['https://x/a b', { scheme: 'https', host: 'x', hostname: 'x', rawQuery: '' }],
  ['https://x\u007f/', null]
]

t.test('valid and invalid like Go, with the same scheme, host and hostname', async t => {
  for (const [input, expected] of fromGo) {
    const parsed = parseRequestURI(input)
    t.same(parsed === undefined ? null : { scheme: parsed.scheme, host: parsed.host, hostname: urlHostname(parsed), rawQuery: parsed.rawQuery }, expected, JSON.stringify(input))
  }
})

t.test('user info and opaque parts are reported', async t => {
  t.equal(parseRequestURI('https://user:pw@host/p')?.user, 'user:pw')
  t.equal(parseRequestURI('https://host/p')?.user, undefined)
  t.equal(parseRequestURI('mailto:someone')?.opaque, 'someone')
  t.equal(parseRequestURI('https://x/a%20b')?.path, '/a b')
})

t.test('url.ParseRequestURI', async t => {
  for (const [input, want] of Object.entries(oracle.uri ?? {})) {
    let got = 'ok'
    try { parse(input) } catch (err) { got = (err as Error).message }
    t.equal(got, want, JSON.stringify(input))
  }
})

t.test('URL accessors', async t => {
  const u = parseURL('https://user@example.com:8080/a%20b/%2F?x=1&x=2&y=%zz&z&;w=1#frag%21')
  t.equal(u.scheme, 'https')
  t.equal(u.host, 'example.com:8080')
  t.equal(urlHostname(u), 'example.com')
  t.equal(urlPort(u), '8080')
  t.equal(urlEscapedPath(u), '/a%20b/%2F')
  t.same([...urlQuery(u)], [['x', ['1', '2']], ['z', ['']]])
  t.equal(u.fragment, 'frag!')
  t.equal(urlString(u), 'https://user@example.com:8080/a%20b/%2F?x=1&x=2&y=%zz&z&;w=1#frag%21')
  t.equal(urlString(parseURL('mailto:a@b.c')), 'mailto:a@b.c')
  t.equal(urlString(parseURL('/p?')), '/p?')
  t.equal(urlHostname(parseURL('http://[::1]:80/')), '::1')
  t.equal(urlEscapedPath(parseURL('*')), '*')
  t.throws(() => parseURL('1http://x'), /first path segment in URL cannot contain colon/)
  t.throws(() => parseURL('http://[::1/'), /missing '\]' in host/)
  t.throws(() => parseURL('http://x[::1]/'), /invalid IP-literal/)
  t.throws(() => parseURL('http://[::1]x/'), /invalid port "x" after host/)
  t.throws(() => parseURL('http://[zz]/'), /invalid host: ParseAddr/)
  t.throws(() => parseURL('http://[::1%25%0]/'), /invalid URL escape/)
  t.throws(() => parseURL('x#%zz'), /invalid URL escape "%zz"/)
})

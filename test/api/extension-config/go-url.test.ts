// parseRequestURI answers like Go's url.ParseRequestURI (Go 1.26, the version kube-apiserver 1.36 is built with),
// which the API server's CEL isURL()/url() use. The expectations were produced by Go itself.
import t from 'tap'
import { isURL, parseRequestURI } from '../../../src/api/extension-config/go-url.js'

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
    t.same(parsed && { scheme: parsed.scheme, host: parsed.host, hostname: parsed.hostname, rawQuery: parsed.rawQuery }, expected, JSON.stringify(input))
    t.equal(isURL(input), expected !== null)
  }
})

t.test('user info and opaque parts are reported', async t => {
  t.equal(parseRequestURI('https://user:pw@host/p')?.user, 'user:pw')
  t.equal(parseRequestURI('https://host/p')?.user, undefined)
  t.equal(parseRequestURI('mailto:someone')?.opaque, 'someone')
  t.equal(parseRequestURI('https://x/a%20b')?.path, '/a b')
})
